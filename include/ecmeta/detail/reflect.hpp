// ecmeta — the number of members of an aggregate, so that tables listing every member (the wire
// schema, the fold's rules) are checked at compile time. Standard library only.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <type_traits>
#include <utility>

namespace ecmeta::detail {

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

}  // namespace ecmeta::detail
