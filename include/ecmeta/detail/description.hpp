// ecmeta — the type side as data: a description of every wire type (its form, the words messages
// use for it, its element, its fields with their keys and required-ness), made at compile time
// from schema<T> and form_of. What runs only when something is wrong reads it (the naming walk,
// decode.hpp), so that code is made once per format, not once per type; what runs every time stays
// generated per type.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "../version.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <tuple>
#include <type_traits>

#include "form.hpp"
#include "schema.hpp"

namespace ecmeta::inline ECMETA_ABI::detail {

struct field_description;

// One wire type.
struct type_description {
    form kind;
    std::string_view text;            // "expected <text>, got ..." (form_text)
    const type_description* element;  // a list's or a nullable's; null for the others
    const field_description* fields;  // a message's, in schema order; null for the others
    std::size_t field_count;
    std::uint32_t required;  // bit i: field i must be present
};

// One field of a message.
struct field_description {
    std::string_view key;
    const type_description* type;
};

template <class T>
struct description;

template <class S>
inline constexpr auto field_descriptions = std::apply(
    [](const auto&... fd) {
        return std::array<field_description, sizeof...(fd)>{field_description{
            fd.name, &description<typename std::remove_cvref_t<decltype(fd)>::member_type>::value}...};
    },
    schema<S>::fields);

template <class T>
constexpr type_description describe() {
    constexpr form f = form_of<T>();
    if constexpr (f == form::nullable || f == form::list) {
        return {f, form_text<T>(), &description<typename T::value_type>::value, nullptr, 0, 0};
    } else if constexpr (f == form::message) {
        return {
            f, form_text<T>(), nullptr, field_descriptions<T>.data(), field_descriptions<T>.size(), required_fields<T>};
    } else {
        return {f, form_text<T>(), nullptr, nullptr, 0, 0};
    }
}

// T's description: constant data, one per type, reachable from its enclosing types'.
template <class T>
struct description {
    static constexpr type_description value = describe<T>();
};

}  // namespace ecmeta::detail
