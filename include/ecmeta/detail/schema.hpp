// ecmeta — the type side: one table of every field (its key, order, required-ness and meaning),
// read by the wire forms, validation, the JSON Schema and the test kits.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "../version.hpp"

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
consteval std::string_view key_of(M C::*member) {
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

}  // namespace ecmeta::detail
