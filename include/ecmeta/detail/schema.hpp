// ecmeta — one description of every field, read by the wire forms, validation and the test kit.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "../version.hpp"

#include <array>
#include <charconv>
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
#include "inline.hpp"
#include "reflect.hpp"

namespace ecmeta::inline ECMETA_ABI::detail {

template <class C, class M>
struct field {
    using member_type = M;

    std::string_view name;
    M C::*member;
    bool required;
    std::string_view meaning;  // what the field means in the running system: the JSON Schema's description
};
template <class C, class M>
field(std::string_view, M C::*, bool, std::string_view) -> field<C, M>;

// The meanings the load and the push share.
namespace shared_meaning {
inline constexpr std::string_view mm_hash =
    R"(Opaque id of the item: 64 hex characters (blake3 or sha256), 128 (sha512), a user-supplied id, or )"
    R"("{lora_name}:{hash}". Any string.)";
inline constexpr std::string_view nbytes =
    "Payload size in bytes, exactly numel(shape) * itemsize(dtype); a consumer rejects a mismatch.";
inline constexpr std::string_view shape = "Tensor shape, e.g. [num_embeddings, hidden_size].";
inline constexpr std::string_view dtype =
    R"(The unqualified torch dtype name: "bfloat16", "float16", "float32" ..., never "torch.bfloat16".)";
inline constexpr std::string_view transfer_id =
    R"(Opaque id shared by scheduler, producer and consumer (often 32 hex characters, sometimes )"
    R"("{request_id}:{index}"); non-empty.)";
}  // namespace shared_meaning

// Field names, order and required-ness exactly as the Python dataclasses declare them, and what
// each type and field means (docs/wire-format.md, "What each field means").
//
// Adding a field takes six steps, and this table is the second: CONTRIBUTING.md, "Adding a field".
template <class T>
struct schema;

template <>
struct schema<ECMooncakeLoadSpec> {
    using T = ECMooncakeLoadSpec;
    static constexpr std::string_view name = "ECMooncakeLoadSpec";
    static constexpr std::string_view meaning = "A consumer-side load: attach one item to the encoder cache.";
    static constexpr std::tuple fields{
        field{"mm_hash", &T::mm_hash, true, shared_meaning::mm_hash},
        field{"nbytes", &T::nbytes, true, shared_meaning::nbytes},
        field{"shape", &T::shape, true, shared_meaning::shape},
        field{"dtype", &T::dtype, true, shared_meaning::dtype},
        field{"transfer_id", &T::transfer_id, true, shared_meaning::transfer_id},
        field{"local", &T::local, false,
              "The consumer's receive pool still holds the item: a local hand-off, no transfer, no producer."},
    };
};

template <>
struct schema<ECMooncakePushSpec> {
    using T = ECMooncakePushSpec;
    static constexpr std::string_view name = "ECMooncakePushSpec";
    static constexpr std::string_view meaning =
        "A producer-side reservation, started before the tensor exists: push one item to a consumer.";
    static constexpr std::tuple fields{
        field{"mm_hash", &T::mm_hash, true, shared_meaning::mm_hash},
        field{"nbytes", &T::nbytes, true, shared_meaning::nbytes},
        field{"shape", &T::shape, true, shared_meaning::shape},
        field{"dtype", &T::dtype, true, shared_meaning::dtype},
        field{"consumer_zmq", &T::consumer_zmq, true,
              "The destination consumer's base control address, a ZeroMQ endpoint: tcp://10.0.0.7:19019, "
              "tcp://[::1]:5555, ipc:///path."},
        field{"transfer_id", &T::transfer_id, true, shared_meaning::transfer_id},
        field{"request_id", &T::request_id, false, "The request that owns the push and may cancel it."},
    };
};

template <>
struct schema<ECMooncakeConnectorMetadata> {
    using T = ECMooncakeConnectorMetadata;
    static constexpr std::string_view name = "ECMooncakeConnectorMetadata";
    static constexpr std::string_view meaning =
        "What the scheduler tells every worker in one engine step: the loads and pushes to start, and the "
        "ids the encoder cache freed.";
    static constexpr std::tuple fields{
        field{"loads", &T::loads, false, "Consumer-side loads in the order they were begun; repeats are possible."},
        field{"pushes", &T::pushes, false,
              "Producer-side reservations in the order queued; transfer_id is unique within a step."},
        field{"freed", &T::freed, false,
              "The ids the encoder cache freed this step, in order, repeats kept. null: scan every pinned item; "
              "[]: retire nothing."},
    };
};

template <>
struct schema<ECMooncakeWorkerMetadata> {
    using T = ECMooncakeWorkerMetadata;
    static constexpr std::string_view name = "ECMooncakeWorkerMetadata";
    static constexpr std::string_view meaning =
        "What one tensor-parallel rank reports for a step; the ranks' reports are folded with aggregate.";
    static constexpr std::tuple fields{
        field{"loaded", &T::loaded, false,
              "Item ids now in this rank's encoder cache (intersected across ranks). A set: sorted, no repeats."},
        field{"failed_loads", &T::failed_loads, false, "Item ids whose load failed on this rank. A set."},
        field{"reclaimed", &T::reclaimed, false,
              "Item ids the receive pool evicted; losing one leaks a scheduler cache slot. A set."},
        field{"pending_saves", &T::pending_saves, false, "This rank still has push work in flight."},
        field{"failed_saves", &T::failed_saves, false, "Request ids (not item ids) whose push was rejected. A set."},
    };
};

template <class T>
concept described = requires {
    schema<T>::fields;
};

// How aggregate folds T, member by member in declared order, in the words of its rules table
// (fold_rules<T>): "loaded intersected, failed_loads united, ..., pending_saves or-ed". The JSON
// Schema and the command say it from here, so it cannot drift from the fold.
template <class T>
[[nodiscard]] std::string fold_description() {
    std::string out;
    const auto say = [&](const auto& member, std::string_view how) {
        std::apply(
            [&](const auto&... fd) {
                const auto match = [&](const auto& f) {
                    if constexpr (std::is_same_v<decltype(f.member), std::remove_cvref_t<decltype(member)>>) {
                        if (f.member == member) {
                            out += out.empty() ? "" : ", ";
                            out += f.name;
                            out += ' ';
                            out += how;
                        }
                    }
                };
                (match(fd), ...);
            },
            schema<T>::fields);
    };
    std::apply(
        [&](const auto&... rule) {
            const auto one = [&](const auto& r) {
                using R = std::remove_cvref_t<decltype(r)>;
                if constexpr (std::is_same_v<R, intersected<T>>) {
                    say(r.member, "intersected");
                } else if constexpr (std::is_same_v<R, united<T>>) {
                    say(r.member, "united");
                } else {
                    static_assert(std::is_same_v<R, any_of<T>>, "a fold rule with no words");
                    say(r.member, "or-ed");
                }
            };
            (one(rule), ...);
        },
        fold_rules<T>::fields);
    return out;
}

template <class T>
struct is_vector : std::false_type {};
template <class T>
struct is_vector<std::vector<T>> : std::true_type {
    using element = T;
};

}  // namespace ecmeta::detail

namespace ecmeta::inline ECMETA_ABI {

// What every call takes (encode, decode, validate, print): a message, or a list of messages or of
// optional ones (the per-rank reports, where null is a rank that said nothing).
template <class T>
concept wire_type = detail::described<T> ||
    (detail::is_vector<T>::value &&
     (detail::described<typename detail::is_vector<T>::element> ||
      (detail::is_optional_v<typename detail::is_vector<T>::element> &&
       detail::described<typename detail::report_type<typename detail::is_vector<T>::element>::type>)));

}  // namespace ecmeta

namespace ecmeta::inline ECMETA_ABI::detail {

template <class T, class F>
constexpr void for_each_field(F&& f) {
    std::apply([&](const auto&... fs) { (f(fs), ...); }, schema<T>::fields);
}

// Never defined and not constexpr: a constant expression that reaches it does not compile.
void schema_of_C_does_not_list_this_member();

// A member's wire name, from schema<C>: one the schema does not list fails to compile.
template <class C, class M>
consteval std::string_view wire_name(M C::*member) {
    std::string_view name;
    for_each_field<C>([&](const auto& fd) {
        if (same_member(fd.member, member)) {
            name = fd.name;
        }
    });
    if (name.empty()) {
        schema_of_C_does_not_list_this_member();
    }
    return name;
}

// ---- what a type is on the wire: the member-kind dispatch, said once --------------------------

// The forms a value takes: JSON's and MessagePack's shared data model, as the Python mirror's
// field types use it. Every consumer dispatches on form_of and on nothing else: the writers,
// walk_places and the DOM hook through visit (below); the walker, name_of, to_default,
// validate and the JSON Schema directly. So a member type is classified here once, and one with
// no wire form fails to compile here.
enum class form : std::uint8_t {
    string,    // std::string
    u64,       // std::uint64_t
    i64,       // std::int64_t (a shape's extent, non-negative on the wire)
    boolean,   // bool
    ids,       // id_set: a list of strings
    nullable,  // std::optional<E>: E or null
    list,      // std::vector<E>
    message,   // a struct schema<T> describes: an object (JSON) or map (MessagePack) of its fields
};

template <class T>
constexpr form form_of() {
    if constexpr (std::is_same_v<T, std::string>) {
        return form::string;
    } else if constexpr (std::is_same_v<T, std::uint64_t>) {
        return form::u64;
    } else if constexpr (std::is_same_v<T, std::int64_t>) {
        return form::i64;
    } else if constexpr (std::is_same_v<T, bool>) {
        return form::boolean;
    } else if constexpr (std::is_same_v<T, id_set>) {
        return form::ids;
    } else if constexpr (is_optional_v<T>) {
        return form::nullable;
    } else if constexpr (is_vector<T>::value) {
        return form::list;
    } else {
        static_assert(described<T>, "no wire form for this type");
        return form::message;
    }
}

// A scalar member: its default is T{}'s value, and it holds no storage to keep.
template <class T>
inline constexpr bool scalar_form = form_of<T>() == form::u64 || form_of<T>() == form::i64
                                    || form_of<T>() == form::boolean;

template <class T, class Sink>
void visit(const T& value, Sink& sink);

template <class T, class Sink, std::size_t... I>
ECMETA_INLINE void visit_fields(const T& value, Sink& sink, std::index_sequence<I...> /*unused*/) {
    // By index, so that a sink that inlines key() sees its index and name as constants.
    const auto field = [&](const auto index, const auto& fd) ECMETA_INLINE_LAMBDA {
        if constexpr (requires { sink.field(index, fd.name, value.*fd.member); }) {
            sink.field(index, fd.name, value.*fd.member);
        } else {
            sink.key(decltype(index)::value, fd.name);
            visit(value.*fd.member, sink);
        }
    };
    (field(std::integral_constant<std::size_t, I>{}, std::get<I>(schema<T>::fields)), ...);
}

// Walks a value in wire order and tells `sink` what it meets. The writers, walk_places and the DOM
// hook are sinks:
//   string(std::string_view)  u64(std::uint64_t)  i64(std::int64_t)  boolean(bool)  null()
//   begin_list(size)  item(index)  end_list()       item(i) comes before element i
//   begin_object(size)  key(index, name)  end_object()   key(i, name) comes before field i
//   whole_ids(const id_set&), optional: true if the sink took the whole set at once; if false,
//   the set is walked as a list of strings
//   field(index, name, const M& member), optional: a field whole, in place of key(i, name) and
//   the member's walk (a writer that can check room once for both)
// The whole walk is inlined into its caller, so that a sink's state (the writers' cursor) can live
// in registers rather than be stored and reloaded at every step.
template <class T, class Sink>
ECMETA_INLINE void visit(const T& value, Sink& sink) {
    constexpr form f = form_of<T>();
    if constexpr (f == form::string) {
        sink.string(std::string_view{value});
    } else if constexpr (f == form::u64) {
        sink.u64(value);
    } else if constexpr (f == form::i64) {
        sink.i64(value);
    } else if constexpr (f == form::boolean) {
        sink.boolean(value);
    } else if constexpr (f == form::nullable) {
        if (value) {
            visit(*value, sink);
        } else {
            sink.null();
        }
    } else if constexpr (f == form::ids || f == form::list) {
        if constexpr (f == form::ids && requires { sink.whole_ids(value); }) {
            if (sink.whole_ids(value)) {
                return;
            }
        }
        sink.begin_list(value.size());
        std::size_t i = 0;
        for (const auto& item : value) {
            sink.item(i++);
            if constexpr (f == form::ids) {
                sink.string(item);
            } else {
                visit(item, sink);
            }
        }
        sink.end_list();
    } else {
        constexpr std::size_t n = std::tuple_size_v<decltype(schema<T>::fields)>;
        sink.begin_object(n);
        visit_fields(value, sink, std::make_index_sequence<n>{});
        sink.end_object();
    }
}

// ---- what decoding needs of a struct ------------------------------------------------------

// How many fields schema<T> lists: every member of T, or a missing one would neither encode nor
// decode.
template <class T>
consteval std::size_t field_count() {
    constexpr std::size_t n = std::tuple_size_v<decltype(schema<T>::fields)>;
    static_assert(n == member_count<T>(),
                  "schema<T> must list every member of T: a missing one would neither encode nor decode");
    static_assert(distinct_members(schema<T>::fields), "schema<T> lists a member of T twice");
    static_assert(n <= 32, "a decoder marks the fields it has seen in 32 bits");
    return n;
}

// Bit i: field i of T must be present.
template <class T>
inline constexpr std::uint32_t required_fields = std::apply(
    [](const auto&... fs) {
        std::uint32_t mask = 0;
        std::uint32_t bit = 1;
        ((mask |= fs.required ? bit : 0U, bit <<= 1U), ...);
        return mask;
    },
    schema<T>::fields);

// Gives v the default of its member (the value in a fresh T{}), keeping its storage in `keep`
// (storage.hpp). Every container member defaults to empty and every optional to nullopt; scalars
// take T{}'s value.
template <class T, class M, class Keep>
void to_default(M& v, M T::*member, Keep& keep) {
    if constexpr (form_of<M>() == form::nullable) {
        keep.drop(v);
    } else if constexpr (scalar_form<M>) {
        v = T{}.*member;
    } else if constexpr (form_of<M>() == form::list) {
        keep.shorten(v, 0);
    } else {
        v.clear();
    }
}

// Gives each field of `value` that is not in `seen` (bit i: field i) its default, keeping its
// storage: what a decoded input left out, as T{} has it.
template <class T, class Keep>
void to_defaults(T& value, std::uint32_t seen, Keep& keep) {
    std::size_t i = 0;
    for_each_field<T>([&](const auto& fd) {
        if ((seen & (std::uint32_t{1} << i++)) == 0) {
            to_default(value.*fd.member, fd.member, keep);
        }
    });
}

// Whether M is a std::vector of elements of form e.
template <class M>
constexpr bool list_of(form e) {
    if constexpr (form_of<M>() == form::list) {
        return form_of<typename M::value_type>() == e;
    } else {
        return false;
    }
}

// Gives every member of a decoded value its default, keeping what storage it can: a decode that
// fails leaves its target equal to T{}, never half-written.
template <class T, class Keep>
void reset_in_place(T& value, Keep& keep) {
    if constexpr (form_of<T>() == form::message) {
        to_defaults(value, 0, keep);
    } else {
        keep.shorten(value, 0);  // a list of messages
    }
}

// What messages call a value of type T: "expected <name_of<T>()>, got ...". Said here once for
// every decoder; there are names for the shapes the Python mirror's fields take.
template <class T>
constexpr std::string_view name_of() {
    constexpr form f = form_of<T>();
    if constexpr (f == form::string) {
        return "string";
    } else if constexpr (f == form::u64 || f == form::i64) {
        return "non-negative integer";
    } else if constexpr (f == form::boolean) {
        return "true or false";
    } else if constexpr (f == form::message) {
        return "object";
    } else if constexpr (f == form::ids || list_of<T>(form::string)) {
        return "array of strings";
    } else if constexpr (list_of<T>(form::i64)) {
        return "array of non-negative integers";
    } else if constexpr (list_of<T>(form::message)) {
        return "array of objects";
    } else if constexpr (name_of<typename T::value_type>() == std::string_view{"object or null"}) {
        return "array of objects or nulls";  // a list of optional messages
    } else if constexpr (f == form::nullable && form_of<typename T::value_type>() == form::message) {
        return "object or null";
    } else {
        static_assert(f == form::nullable && list_of<typename T::value_type>(form::string),
                      "no name for this type in messages");
        return "null or array of strings";
    }
}

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

// Walks value in wire order with `pointer` naming the place it has reached: calls at(pointer) on
// reaching each place (the value itself, then each field and element, a place before what is in
// it) and string(pointer, s) at each string, until one returns true; then `pointer` names that
// place, else it is as it was. Validation reports through it, and the encoders' errors.
template <class T, class At, class String>
bool walk_places(const T& value, std::string& pointer, At&& at, String&& string) {
    struct place_sink {
        std::string& pointer;
        At& at;
        String& on_string;
        std::vector<std::size_t> marks{};  // where each open list or object's pointer ends
        bool found = false;

        void reach() { found = found || at(std::as_const(pointer)); }
        void string(std::string_view s) { found = found || on_string(std::as_const(pointer), s); }
        void u64(std::uint64_t /*unused*/) const noexcept {}
        void i64(std::int64_t /*unused*/) const noexcept {}
        void boolean(bool /*unused*/) const noexcept {}
        void null() const noexcept {}
        void begin_list(std::size_t /*size*/) { marks.push_back(pointer.size()); }
        void item(std::size_t i) {
            if (!found) {
                pointer.resize(marks.back());
                char digits[24];
                append_pointer_token(pointer, {digits, std::to_chars(digits, digits + sizeof digits, i).ptr});
                reach();
            }
        }
        void end_list() {
            if (!found) {
                pointer.resize(marks.back());
            }
            marks.pop_back();
        }
        void begin_object(std::size_t size) { begin_list(size); }
        void key(std::size_t /*index*/, std::string_view name) {
            if (!found) {
                pointer.resize(marks.back());
                append_pointer_token(pointer, name);
                reach();
            }
        }
        void end_object() { end_list(); }
    } sink{pointer, at, string};
    sink.reach();
    visit(value, sink);
    return sink.found;
}

}  // namespace ecmeta::detail
