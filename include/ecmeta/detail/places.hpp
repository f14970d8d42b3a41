// ecmeta — a walk of a value's places in wire order, for what reports at a place: validation's
// checks and the encoders' "not UTF-8" error. Standard library only.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "../version.hpp"

#include <concepts>
#include <cstddef>
#include <string_view>
#include <tuple>
#include <utility>

#include "form.hpp"
#include "pointer.hpp"
#include "schema.hpp"

namespace ecmeta::inline ECMETA_ABI::detail {

// What walk_places tells its visitor, each call returning true to stop the walk:
//   string(s, at): a string (an id too), after its place's field or element call
// and, where V::sees_fields is true:
//   field<Member>(owner, at): the field owner.*Member, at its place, before what is in it
//   element<Member>(owner, i, element, at): element i of the list or id set owner.*Member
// `at` lives only during the call: a visitor that keeps a place spells at.pointer() there.
template <class V>
concept place_visitor = requires(V& v, const place& at, std::string_view s) {
    { v.string(s, at) } -> std::same_as<bool>;
    { V::sees_fields } -> std::convertible_to<bool>;
};

// No call at each element (a visitor that does not see fields, or a list at the root).
struct no_element_call {
    template <class E>
    bool operator()(std::size_t /*i*/, const E& /*element*/, const place& /*at*/) const noexcept {
        return false;
    }
};

template <class T, place_visitor V, class OnElement = no_element_call>
bool walk_places(const T& value, const place& at, V& visitor, OnElement on_element = {});

// A field, for a visitor that sees fields: its call, then its elements' calls.
template <auto Member, class T, class V>
bool walk_seen_field(const T& owner, const place& here, V& visitor) {
    return visitor.template field<Member>(owner, here) ||
           walk_places(owner.*Member, here, visitor, [&](std::size_t i, const auto& element, const place& item) {
               return visitor.template element<Member>(owner, i, element, item);
           });
}

template <std::size_t I, class T, class V>
bool walk_field(const T& value, const place& at, V& visitor) {
    const place here{&at, std::get<I>(schema<T>::fields).name};
    if constexpr (V::sees_fields) {
        return walk_seen_field<std::get<I>(schema<T>::fields).member>(value, here, visitor);
    } else {
        return walk_places(value.*std::get<I>(schema<T>::fields).member, here, visitor);
    }
}

template <class T, class V, std::size_t... I>
bool walk_fields(const T& value, const place& at, V& visitor, std::index_sequence<I...> /*unused*/) {
    return (walk_field<I>(value, at, visitor) || ...);
}

// Walks value in wire order from the place `at`, telling `visitor` each place it reaches (a place
// before what is in it) until a call returns true; returns whether one did. on_element(i,
// element, place) is called at each element of a list or id set, before what is in it.
template <class T, place_visitor V, class OnElement>
bool walk_places(const T& value, const place& at, V& visitor, OnElement on_element) {
    constexpr form f = form_of<T>();
    if constexpr (f == form::string) {
        return visitor.string(std::string_view{value}, at);
    } else if constexpr (f == form::nullable) {
        return value && walk_places(*value, at, visitor);
    } else if constexpr (f == form::ids || f == form::list) {
        std::size_t i = 0;
        for (const auto& element : value) {
            const place item{&at, {}, i++};
            if (on_element(item.index, element, item)) {
                return true;
            }
            if constexpr (f == form::ids) {
                if (visitor.string(element, item)) {
                    return true;
                }
            } else if (walk_places(element, item, visitor)) {
                return true;
            }
        }
        return false;
    } else if constexpr (f == form::message) {
        return walk_fields(value, at, visitor,
                           std::make_index_sequence<std::tuple_size_v<decltype(schema<T>::fields)>>{});
    } else {
        return false;  // a number or a flag: no string in it
    }
}

// A visitor that sees only strings, from a function of (string, place) -> bool.
template <class F>
struct string_visitor {
    static constexpr bool sees_fields = false;
    F on_string;

    bool string(std::string_view s, const place& at) { return on_string(s, at); }
};
template <class F>
string_visitor(F) -> string_visitor<F>;  // clang before 17 deduces no aggregate's arguments

}  // namespace ecmeta::detail
