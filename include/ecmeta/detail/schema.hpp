// ecmeta — one description of every field, read by the wire forms, validation and the test kit.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "../metadata.hpp"
#include "reflect.hpp"

namespace ecmeta::detail {

template <class C, class M>
struct field {
    using member_type = M;

    std::string_view name;
    M C::*member;
    bool required;
};
template <class C, class M>
field(std::string_view, M C::*, bool) -> field<C, M>;

// Field names, order and required-ness exactly as the Python dataclasses declare them.
template <class T>
struct schema;

template <>
struct schema<ECMooncakeLoadSpec> {
    using T = ECMooncakeLoadSpec;
    static constexpr std::tuple fields{
        field{"mm_hash", &T::mm_hash, true},
        field{"nbytes", &T::nbytes, true},
        field{"shape", &T::shape, true},
        field{"dtype", &T::dtype, true},
        field{"transfer_id", &T::transfer_id, true},
        field{"local", &T::local, false},
    };
};

template <>
struct schema<ECMooncakePushSpec> {
    using T = ECMooncakePushSpec;
    static constexpr std::tuple fields{
        field{"mm_hash", &T::mm_hash, true},
        field{"nbytes", &T::nbytes, true},
        field{"shape", &T::shape, true},
        field{"dtype", &T::dtype, true},
        field{"consumer_zmq", &T::consumer_zmq, true},
        field{"transfer_id", &T::transfer_id, true},
        field{"request_id", &T::request_id, false},
    };
};

template <>
struct schema<ECMooncakeConnectorMetadata> {
    using T = ECMooncakeConnectorMetadata;
    static constexpr std::tuple fields{
        field{"loads", &T::loads, false},
        field{"pushes", &T::pushes, false},
        field{"freed", &T::freed, false},
    };
};

template <>
struct schema<ECMooncakeWorkerMetadata> {
    using T = ECMooncakeWorkerMetadata;
    static constexpr std::tuple fields{
        field{"loaded", &T::loaded, false},
        field{"failed_loads", &T::failed_loads, false},
        field{"reclaimed", &T::reclaimed, false},
        field{"pending_saves", &T::pending_saves, false},
        field{"failed_saves", &T::failed_saves, false},
    };
};

template <class T>
concept described = requires {
    schema<T>::fields;
};

template <class T>
struct is_vector : std::false_type {};
template <class T>
struct is_vector<std::vector<T>> : std::true_type {
    using element = T;
};

// What decode<T> and encode accept: a message, or a list of messages (or of optional ones:
// the per-rank reports, where null is a rank that said nothing).
template <class T>
concept wire_type = described<T> ||
    (is_vector<T>::value && (described<typename is_vector<T>::element> ||
                             (is_optional_v<typename is_vector<T>::element> &&
                              described<typename report_type<typename is_vector<T>::element>::type>)));

template <class T, class F>
constexpr void for_each_field(F&& f) {
    std::apply([&](const auto&... fs) { (f(fs), ...); }, schema<T>::fields);
}

// ---- the run-time table the decoder walks -------------------------------------------------

// What a value slot accepts. The *_item kinds are elements of a list frame.
enum class kind : std::uint8_t {
    skip,
    string,
    u64,
    boolean,
    extents,           // std::vector<std::int64_t>, each >= 0
    ids,               // id_set
    nullable_strings,  // std::optional<std::vector<std::string>>
    objects,           // std::vector<S>
    nullable_objects,  // std::vector<std::optional<S>>
    object,            // S
    extent,
    id,
    string_item,
    object_item,
    nullable_object_item,
};

struct struct_info;

struct field_info {
    std::string_view name;
    kind what;
    void* (*member)(void* object);
    const struct_info* element;  // the element type of kind::objects
};

struct struct_info {
    const field_info* fields;
    std::size_t size;
    std::uint32_t required;  // bit i: fields[i] must be present
    void (*reset)(void* object);
    void* (*append)(void* vector);          // std::vector<S>: a new default element
    void* (*append_engaged)(void* vector);  // std::vector<std::optional<S>>: a new engaged element
    void (*append_null)(void* vector);      // std::vector<std::optional<S>>: a new nullopt
    void (*clear_list)(void* vector);
    void (*clear_nullable_list)(void* vector);
    void (*reserve_list)(void* vector, std::size_t n);
    void (*reserve_nullable_list)(void* vector, std::size_t n);
};

template <class M>
constexpr kind kind_of() {
    if constexpr (std::is_same_v<M, std::string>) {
        return kind::string;
    } else if constexpr (std::is_same_v<M, std::uint64_t>) {
        return kind::u64;
    } else if constexpr (std::is_same_v<M, bool>) {
        return kind::boolean;
    } else if constexpr (std::is_same_v<M, std::vector<std::int64_t>>) {
        return kind::extents;
    } else if constexpr (std::is_same_v<M, id_set>) {
        return kind::ids;
    } else if constexpr (std::is_same_v<M, std::optional<std::vector<std::string>>>) {
        return kind::nullable_strings;
    } else {
        static_assert(described<typename is_vector<M>::element>, "no wire form for this member type");
        return kind::objects;
    }
}

template <class T>
struct table;

template <class M>
constexpr const struct_info* element_info() {
    if constexpr (kind_of<M>() == kind::objects) {
        return &table<typename is_vector<M>::element>::info;
    } else {
        return nullptr;
    }
}

template <class T, std::size_t I>
void* member_at(void* object) {
    return &(static_cast<T*>(object)->*(std::get<I>(schema<T>::fields).member));
}

template <class T>
struct table {
    static_assert(std::tuple_size_v<decltype(schema<T>::fields)> == member_count<T>(),
                  "schema<T> must list every member of T: a missing one would neither encode nor decode");
    template <std::size_t... I>
    static constexpr auto make(std::index_sequence<I...>) {
        return std::array<field_info, sizeof...(I)>{field_info{
            std::get<I>(schema<T>::fields).name,
            kind_of<std::remove_cvref_t<decltype(static_cast<T*>(nullptr)->*std::get<I>(schema<T>::fields).member)>>(),
            &member_at<T, I>,
            element_info<
                std::remove_cvref_t<decltype(static_cast<T*>(nullptr)->*std::get<I>(schema<T>::fields).member)>>(),
        }...};
    }
    template <std::size_t... I>
    static constexpr std::uint32_t required_mask(std::index_sequence<I...>) {
        return ((std::get<I>(schema<T>::fields).required ? std::uint32_t{1} << I : 0U) | ... | 0U);
    }
    using indices = std::make_index_sequence<std::tuple_size_v<decltype(schema<T>::fields)>>;

    static constexpr auto fields = make(indices{});
    static constexpr struct_info info{
        fields.data(),
        fields.size(),
        required_mask(indices{}),
        [](void* object) { *static_cast<T*>(object) = T{}; },
        [](void* vector) -> void* { return &static_cast<std::vector<T>*>(vector)->emplace_back(); },
        [](void* vector) -> void* { return &*static_cast<std::vector<std::optional<T>>*>(vector)->emplace_back(T{}); },
        [](void* vector) { static_cast<std::vector<std::optional<T>>*>(vector)->emplace_back(); },
        [](void* vector) { static_cast<std::vector<T>*>(vector)->clear(); },
        [](void* vector) { static_cast<std::vector<std::optional<T>>*>(vector)->clear(); },
        [](void* vector, std::size_t n) { static_cast<std::vector<T>*>(vector)->reserve(n); },
        [](void* vector, std::size_t n) { static_cast<std::vector<std::optional<T>>*>(vector)->reserve(n); },
    };
};

// RFC 6901: '~' becomes "~0" and '/' becomes "~1".
inline void append_pointer_token(std::string& pointer, std::string_view token) {
    pointer += '/';
    for (const char c : token) {
        if (c == '~') {
            pointer += "~0";
        } else if (c == '/') {
            pointer += "~1";
        } else {
            pointer += c;
        }
    }
}

// Calls f(pointer, string) for every string inside value, in wire order; stops when f returns true.
// The slow path of the encoders' error reports and of validation.
template <class T, class F>
bool find_string(const T& value, std::string& pointer, F&& f) {
    const std::size_t mark = pointer.size();
    bool found = false;
    const auto in = [&](std::string_view token, auto&& body) {
        if (found) {
            return;
        }
        append_pointer_token(pointer, token);
        found = body();
        if (!found) {
            pointer.resize(mark);
        }
    };
    if constexpr (std::is_same_v<T, std::string>) {
        return f(pointer, std::string_view{value});
    } else if constexpr (std::is_same_v<T, id_set>) {
        std::size_t i = 0;
        for (const auto& id : value) {
            in(std::to_string(i++), [&] { return f(pointer, id); });
        }
    } else if constexpr (is_optional_v<T>) {
        return value ? find_string(*value, pointer, f) : false;
    } else if constexpr (is_vector<T>::value) {
        if constexpr (!std::is_arithmetic_v<typename is_vector<T>::element>) {
            std::size_t i = 0;
            for (const auto& item : value) {
                in(std::to_string(i++), [&] { return find_string(item, pointer, f); });
            }
        }
    } else if constexpr (described<T>) {
        for_each_field<T>(
            [&](const auto& fd) { in(fd.name, [&] { return find_string(value.*fd.member, pointer, f); }); });
    }
    return found;
}

}  // namespace ecmeta::detail
