// ecmeta — the number of members of an aggregate, and whether a table's member pointers are all
// different, so that tables listing every member (the wire schema, the fold's rules) are checked
// at compile time to list each exactly once. Standard library only.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "../version.hpp"

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

namespace ecmeta::inline ECMETA_ABI::detail {

// Converts to any member type; used only in unevaluated aggregate initialization.
struct any_member {
    template <class T>
    operator T() const;  // NOLINT(google-explicit-constructor): implicit by design
};

template <class T, std::size_t... I>
constexpr bool initializable_with(std::index_sequence<I...> /*unused*/) {
    return requires {
        T{(static_cast<void>(I), any_member{})...};
    };
}

// The most initializers T accepts: its member count for an aggregate without base classes or
// C arrays, as ecmeta's types are.
template <class T, std::size_t N = 0>
constexpr std::size_t member_count() {
    static_assert(std::is_aggregate_v<T>);
    if constexpr (N > 32 || !initializable_with<T>(std::make_index_sequence<N + 1>{})) {
        return N;
    } else {
        return member_count<T, N + 1>();
    }
}

template <class A, class B>
constexpr bool same_member(A a, B b) {
    if constexpr (std::is_same_v<A, B>) {
        return a == b;
    } else {
        return false;  // members of different types are different members
    }
}

// True when no two entries of a tuple (each with a `member` pointer) name the same member. With
// as many entries as the struct has members, each member is then listed exactly once.
template <class Tuple>
consteval bool distinct_members(const Tuple& entries) {
    return std::apply(
        [](const auto&... e) {
            std::size_t repeats = 0;
            const auto count = [&](const auto& one) { ((repeats += same_member(one.member, e.member) ? 1 : 0), ...); };
            (count(e), ...);
            return repeats == sizeof...(e);  // each entry matches itself only
        },
        entries);
}

}  // namespace ecmeta::detail
