// The event decoder: builds a value straight from parse events, checking it against the schema.
// It was the library's decoder of MessagePack (fed by a MessagePack event reader) until the
// generated decoder (walker.hpp) came to read every source and word every error itself. It stays
// as the parity oracle that the fuzz targets and their corpus replay hold the walker to;
// msgpack_events.hpp feeds it.
//
// What it shares with the library, and so cannot catch a bug in: the schema table (schema<T>,
// form_of, for_each_field, member_count), name matching (same_name), the defaults of fields left
// out (to_defaults), pointer tokens (append_pointer_token), id_set's internals (id_set_access) and
// the input-size check (check_size), UTF-8 validation (is_utf8) and a type trait (is_vector). Everything else (reading
// the bytes, skipping values, lengths and bounds, and the words of its errors) is its own.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <ecmeta/detail/schema.hpp>
#include <ecmeta/detail/walker.hpp>
#include <ecmeta/error.hpp>

namespace ecmeta_oracle {

using ecmeta::decode_error;
using ecmeta::decode_options;
using ecmeta::id_set;
using ecmeta::detail::append_pointer_token;
using ecmeta::detail::for_each_field;
using ecmeta::detail::form;
using ecmeta::detail::form_of;
using ecmeta::detail::id_set_access;
using ecmeta::detail::is_utf8;
using ecmeta::detail::is_vector;
using ecmeta::detail::list_of;
using ecmeta::detail::member_count;
using ecmeta::detail::same_name;
using ecmeta::detail::schema;
using ecmeta::detail::to_defaults;

// ---- the run-time table the event decoder walks ----------------------------------------

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
    // Decoding into a value that already holds one: what was not read goes back to its default,
    // and list elements are overwritten in place, keeping their storage, before any is appended.
    void (*defaults)(void* object, std::uint32_t seen);      // fields not in `seen` to default
    void* (*item)(void* vector, std::size_t i);              // std::vector<S>: element i, reused or new
    void* (*engaged_item)(void* vector, std::size_t i);      // std::vector<std::optional<S>>: likewise, engaged
    void (*null_item)(void* vector, std::size_t i);          // std::vector<std::optional<S>>: element i, nullopt
    void (*truncate)(void* vector, std::size_t n);           // std::vector<S>: keep n elements
    void (*truncate_nullable)(void* vector, std::size_t n);  // std::vector<std::optional<S>>: keep n elements
    void (*reserve_list)(void* vector, std::size_t n);
    void (*reserve_nullable_list)(void* vector, std::size_t n);
};

// The event decoder's slot kind of a member: its form, told apart by element where the decoder
// reads elements differently.
template <class M>
constexpr kind kind_of() {
    constexpr form f = form_of<M>();
    if constexpr (f == form::string) {
        return kind::string;
    } else if constexpr (f == form::u64) {
        return kind::u64;
    } else if constexpr (f == form::boolean) {
        return kind::boolean;
    } else if constexpr (f == form::ids) {
        return kind::ids;
    } else if constexpr (list_of<M>(form::i64)) {
        return kind::extents;
    } else if constexpr (list_of<M>(form::message)) {
        return kind::objects;
    } else {
        static_assert(f == form::nullable && list_of<typename M::value_type>(form::string),
                      "the decoder has no slot for this member type");
        return kind::nullable_strings;
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
        [](void* object, std::uint32_t seen) { to_defaults(*static_cast<T*>(object), seen); },
        [](void* vector, std::size_t i) -> void* {
            auto& v = *static_cast<std::vector<T>*>(vector);
            return i < v.size() ? &v[i] : &v.emplace_back();
        },
        [](void* vector, std::size_t i) -> void* {
            auto& v = *static_cast<std::vector<std::optional<T>>*>(vector);
            if (i < v.size()) {
                return v[i] ? &*v[i] : &v[i].emplace();
            }
            return &v.emplace_back().emplace();
        },
        [](void* vector, std::size_t i) {
            auto& v = *static_cast<std::vector<std::optional<T>>*>(vector);
            i < v.size() ? v[i].reset() : static_cast<void>(v.emplace_back());
        },
        [](void* vector, std::size_t n) { static_cast<std::vector<T>*>(vector)->resize(n); },
        [](void* vector, std::size_t n) { static_cast<std::vector<std::optional<T>>*>(vector)->resize(n); },
        [](void* vector, std::size_t n) { static_cast<std::vector<T>*>(vector)->reserve(n); },
        [](void* vector, std::size_t n) { static_cast<std::vector<std::optional<T>>*>(vector)->reserve(n); },
    };
};

// A decoder's root: a message, a list of messages, or a list of optional ones (wire_type).
template <class T>
constexpr kind root_kind() {
    if constexpr (form_of<T>() == form::message) {
        return kind::object;
    } else if constexpr (list_of<T>(form::message)) {
        return kind::objects;
    } else {
        return kind::nullable_objects;
    }
}

template <class T>
constexpr const struct_info* root_info() {
    if constexpr (form_of<T>() == form::message) {
        return &table<T>::info;
    } else if constexpr (list_of<T>(form::message)) {
        return &table<typename T::value_type>::info;
    } else {
        return &table<typename T::value_type::value_type>::info;
    }
}

// A slot kind's name in messages (the oracle keeps its own words).
[[nodiscard]] constexpr std::string_view describe(kind k) noexcept {
    switch (k) {
        case kind::string:
        case kind::id:
        case kind::string_item:
            return "string";
        case kind::u64:
        case kind::extent:
            return "non-negative integer";
        case kind::boolean:
            return "true or false";
        case kind::extents:
            return "array of non-negative integers";
        case kind::ids:
            return "array of strings";
        case kind::nullable_strings:
            return "null or array of strings";
        case kind::objects:
            return "array of objects";
        case kind::nullable_objects:
            return "array of objects or nulls";
        case kind::object:
        case kind::object_item:
            return "object";
        case kind::nullable_object_item:
            return "object or null";
        case kind::skip:
            break;
    }
    return "any value";
}

// How many objects and arrays the schema of M nests, M included: the most frames a decoder of M
// holds open (ignored values take none; they are skipped with a counter).
template <class M>
constexpr std::size_t schema_depth() {
    constexpr form f = form_of<M>();
    if constexpr (f == form::message) {
        std::size_t deepest = 0;
        for_each_field<M>([&](const auto& fd) {
            deepest = std::max(deepest, schema_depth<typename std::remove_cvref_t<decltype(fd)>::member_type>());
        });
        return 1 + deepest;
    } else if constexpr (f == form::nullable) {
        return schema_depth<typename M::value_type>();
    } else if constexpr (f == form::list) {
        return 1 + schema_depth<typename M::value_type>();
    } else {
        return f == form::ids ? 1 : 0;
    }
}

// A stack of at most N elements, in place.
template <class T, std::size_t N>
class fixed_stack {
public:
    void push_back(const T& v) noexcept { at_[size_++] = v; }
    void pop_back() noexcept { --size_; }
    [[nodiscard]] T& back() noexcept { return at_[size_ - 1]; }
    [[nodiscard]] const T& back() const noexcept { return at_[size_ - 1]; }
    [[nodiscard]] bool empty() const noexcept { return size_ == 0; }
    [[nodiscard]] const T* begin() const noexcept { return at_.data(); }
    [[nodiscard]] const T* end() const noexcept { return at_.data() + size_; }

private:
    std::array<T, N> at_{};
    std::size_t size_ = 0;
};

class decoder {
public:
    // The most objects and arrays a decoder holds open (checked against each schema at compile time).
    static constexpr std::size_t max_depth = 8;

    template <class T>
    decoder(T& root, const decode_options& options)
        : root_{root_kind<T>(), &root, root_info<T>()}, strict_{options.reject_unknown_keys} {
        static_assert(schema_depth<T>() <= max_depth, "decoder::max_depth is too small for this schema");
    }

    // ---- scalar events --------------------------------------------------------------------

    void null() {
        if (skip_ != 0) {
            return;
        }
        const slot s = next();
        switch (s.what) {
            case kind::skip:
                break;
            case kind::nullable_strings:
                static_cast<std::optional<std::vector<std::string>>*>(s.target)->reset();
                break;
            case kind::nullable_object_item:
                s.info->null_item(s.target, s.index);
                break;
            default:
                mismatch(s.what, "null");
        }
        value_done();
    }

    void boolean(bool value) {
        if (skip_ != 0) {
            return;
        }
        const slot s = next();
        if (s.what == kind::boolean) {
            *static_cast<bool*>(s.target) = value;
        } else if (s.what != kind::skip) {
            mismatch(s.what, value ? "true" : "false");
        }
        value_done();
    }

    void unsigned_integer(std::uint64_t value) {
        if (skip_ != 0) {
            return;
        }
        const slot s = next();
        switch (s.what) {
            case kind::skip:
                break;
            case kind::u64:
                *static_cast<std::uint64_t*>(s.target) = value;
                break;
            case kind::extent:
                if (value > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
                    fail("expected non-negative integer that fits int64, got integer " + std::to_string(value));
                }
                static_cast<std::vector<std::int64_t>*>(s.target)->push_back(static_cast<std::int64_t>(value));
                break;
            default:
                mismatch(s.what, "integer " + std::to_string(value));
        }
        value_done();
    }

    void integer(std::int64_t value) {
        if (value >= 0) {
            unsigned_integer(static_cast<std::uint64_t>(value));
            return;
        }
        if (skip_ != 0) {
            return;
        }
        const slot s = next();
        if (s.what != kind::skip) {
            mismatch(s.what, "integer " + std::to_string(value));
        }
        value_done();
    }

    // A number that is not an integer, as written (or as the shortest text of its value).
    void floating(std::string_view text) { unexpected("float " + std::string{text}); }

    // A JSON integer too large for 64 bits.
    void out_of_range(std::string_view text) { unexpected("integer out of range " + std::string{text}); }

    void string(std::string_view value) {
        if (skip_ != 0) {
            return;
        }
        const slot s = next();
        switch (s.what) {
            case kind::skip:
                break;
            case kind::string:
                static_cast<std::string*>(s.target)->assign(value);
                break;
            case kind::id:
                // Appended as it comes; sorted and deduplicated once at the end of the array.
                id_set_access::append(*static_cast<id_set*>(s.target), value);
                break;
            case kind::string_item:
                if (auto& list = *static_cast<std::vector<std::string>*>(s.target); s.index < list.size()) {
                    list[s.index].assign(value);
                } else {
                    list.emplace_back(value);
                }
                break;
            default:
                mismatch(s.what, "string");
        }
        value_done();
    }

    // A value with no JSON counterpart (MessagePack bin or ext), named by `what`.
    void other(std::string_view what) { unexpected(std::string{what}); }

    // ---- structure events -----------------------------------------------------------------

    void start_object() {
        if (skip_ != 0) {
            ++skip_;
            return;
        }
        const slot s = next();
        void* target = nullptr;
        switch (s.what) {
            case kind::skip:
                skip_ = 1;
                return;
            case kind::object:
                target = s.target;
                break;
            case kind::object_item:
                target = s.info->item(s.target, s.index);
                break;
            case kind::nullable_object_item:
                target = s.info->engaged_item(s.target, s.index);
                break;
            default:
                mismatch(s.what, "object");
        }
        stack_.push_back(frame{kind::object, target, s.info});
    }

    void key(std::string_view name) {
        if (skip_ != 0) {
            return;
        }
        frame& f = stack_.back();
        // Canonical input lists fields in declared order: try the one after the last first.
        std::size_t i = f.pending_index + 1 < f.info->size ? f.pending_index + 1 : 0;
        for (std::size_t n = 0; n < f.info->size; ++n, i = i + 1 == f.info->size ? 0 : i + 1) {
            if (same_name(f.info->fields[i].name, name)) {
                f.pending = &f.info->fields[i];
                f.pending_index = i;
                f.seen |= std::uint32_t{1} << i;
                return;
            }
        }
        f.pending = nullptr;
        if (strict_) {
            std::string where = pointer();
            append_pointer_token(where, name);
            throw decode_error(std::move(where), "expected a known key, got unknown key");
        }
    }

    void end_object() {
        if (skip_ != 0) {
            leave_skipped();
            return;
        }
        const frame& f = stack_.back();
        if (const std::uint32_t missing = f.info->required & ~f.seen; missing != 0) {
            const field_info& fd = f.info->fields[std::countr_zero(missing)];
            std::string where = pointer();
            append_pointer_token(where, fd.name);
            throw decode_error(std::move(where),
                               "expected " + std::string{describe(fd.what)} + ", got nothing (required key missing)");
        }
        f.info->defaults(f.target, f.seen);  // what the input left out, as T{} has it
        stack_.pop_back();
        value_done();
    }

    void start_array() {
        if (skip_ != 0) {
            ++skip_;
            return;
        }
        const slot s = next();
        void* target = s.target;
        switch (s.what) {
            case kind::skip:
                skip_ = 1;
                return;
            case kind::extents:
                static_cast<std::vector<std::int64_t>*>(target)->clear();
                break;
            case kind::ids:
                static_cast<id_set*>(target)->clear();
                break;
            case kind::nullable_strings:
                if (auto& list = *static_cast<std::optional<std::vector<std::string>>*>(target); list) {
                    target = &*list;  // its strings are overwritten in place, then it is cut to length
                } else {
                    target = &list.emplace();
                }
                break;
            case kind::objects:
            case kind::nullable_objects:
                break;  // elements are overwritten in place, then the list is cut to length
            default:
                mismatch(s.what, "array");
        }
        stack_.push_back(frame{s.what, target, s.info});
    }

    void end_array() {
        if (skip_ != 0) {
            leave_skipped();
            return;
        }
        switch (const frame& f = stack_.back(); f.what) {
            case kind::ids:
                id_set_access::finish(*static_cast<id_set*>(f.target));
                break;
            case kind::nullable_strings:
                static_cast<std::vector<std::string>*>(f.target)->resize(f.count);
                break;
            case kind::objects:
                f.info->truncate(f.target, f.count);
                break;
            case kind::nullable_objects:
                f.info->truncate_nullable(f.target, f.count);
                break;
            default:
                break;
        }
        stack_.pop_back();
        value_done();
    }

    // ---- for readers that can skip a whole value themselves (MessagePack, a DOM) ---------

    // True when the next value belongs to a key the schema does not know.
    [[nodiscard]] bool skipping_next() const noexcept {
        return skip_ == 0 && !stack_.empty() && stack_.back().what == kind::object && stack_.back().pending == nullptr;
    }
    void skipped() { value_done(); }

    // The open array holds n elements: for a reader that has seen them all (a parsed DOM), never
    // for a length read from the input, which could promise anything.
    void expect_elements(std::size_t n) {
        if (skip_ != 0 || stack_.empty()) {
            return;
        }
        const frame& f = stack_.back();
        switch (f.what) {
            case kind::extents:
                static_cast<std::vector<std::int64_t>*>(f.target)->reserve(n);
                break;
            case kind::nullable_strings:
                static_cast<std::vector<std::string>*>(f.target)->reserve(n);
                break;
            case kind::objects:
                f.info->reserve_list(f.target, n);
                break;
            case kind::nullable_objects:
                f.info->reserve_nullable_list(f.target, n);
                break;
            default:  // an object, or ids (the reader reserves their bytes too)
                break;
        }
    }

    // The id set being filled, when the open array is one: a reader may then append its string
    // elements straight into it with id() (anything else goes through the events, to fail there).
    [[nodiscard]] id_set* filling_ids() const noexcept {
        return skip_ == 0 && !stack_.empty() && stack_.back().what == kind::ids
                   ? static_cast<id_set*>(stack_.back().target)
                   : nullptr;
    }
    void id(std::string_view value) {
        id_set_access::append(*static_cast<id_set*>(stack_.back().target), value);
        ++stack_.back().count;
    }

    // The RFC 6901 pointer of the value being read.
    [[nodiscard]] std::string pointer() const {
        std::string out;
        for (const frame& f : stack_) {
            if (f.what == kind::object) {
                if (f.pending != nullptr) {
                    append_pointer_token(out, f.pending->name);
                }
            } else {
                out += '/';
                out += std::to_string(f.count);
            }
        }
        return out;
    }

    [[noreturn]] void fail(const std::string& what) const { throw decode_error(pointer(), what); }

    [[noreturn]] void syntax_error(std::size_t offset, const std::string& what) const {
        throw decode_error(pointer(), what + " at byte " + std::to_string(offset), offset);
    }

private:
    struct slot {
        kind what;
        void* target;
        const struct_info* info;
        std::size_t index = 0;  // list items: the element's position
    };

    struct frame {
        kind what;  // kind::object, or the kind of list
        void* target;
        const struct_info* info;
        const field_info* pending = nullptr;                       // object: the field whose value comes next
        std::uint32_t seen = 0;                                    // object: fields present so far
        std::size_t pending_index = static_cast<std::size_t>(-1);  // object: index of the last known key
        std::size_t count = 0;                                     // list: elements so far
    };

    [[nodiscard]] slot next() const noexcept {
        if (stack_.empty()) {
            return root_;
        }
        const frame& f = stack_.back();
        switch (f.what) {
            case kind::object:
                if (f.pending == nullptr) {
                    return {kind::skip, nullptr, nullptr};
                }
                return {f.pending->what, f.pending->member(f.target), f.pending->element};
            case kind::extents:
                return {kind::extent, f.target, nullptr};
            case kind::ids:
                return {kind::id, f.target, nullptr};
            case kind::nullable_strings:
                return {kind::string_item, f.target, nullptr, f.count};
            case kind::objects:
                return {kind::object_item, f.target, f.info, f.count};
            default:
                return {kind::nullable_object_item, f.target, f.info, f.count};
        }
    }

    void value_done() noexcept {
        if (stack_.empty()) {
            return;
        }
        frame& f = stack_.back();
        if (f.what == kind::object) {
            f.pending = nullptr;
        } else {
            ++f.count;
        }
    }

    void leave_skipped() noexcept {
        if (--skip_ == 0) {
            value_done();
        }
    }

    // A value no slot accepts: fine under an ignored key, an error anywhere else.
    void unexpected(const std::string& found) {
        if (skip_ != 0) {
            return;
        }
        const slot s = next();
        if (s.what != kind::skip) {
            mismatch(s.what, found);
        }
        value_done();
    }

    [[noreturn]] void mismatch(kind expected, const std::string& found) const {
        fail("expected " + std::string{describe(expected)} + ", got " + found);
    }

    slot root_;
    bool strict_;
    std::size_t skip_ = 0;                 // depth inside a value being ignored: a counter, never a stack
    fixed_stack<frame, max_depth> stack_;  // the schema bounds the open frames: no allocation
};

}  // namespace ecmeta_oracle
