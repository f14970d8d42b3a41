// ecmeta — {fmt} formatting of the four types and id_set: `{}` is the canonical JSON, `{:s}` the
// short form for log lines ("3 loads, 1 push, freed null"). Needs {fmt} 9 or later (ecmeta::fmt).
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <fmt/format.h>
#include <fmt/ranges.h>  // to tell its range formatter that id_set is formatted here

#include "detail/text.hpp"

namespace fmt {

template <class T>
requires ecmeta::detail::formattable<T>
struct formatter<T, char> {
    bool short_form = false;

    constexpr format_parse_context::iterator parse(format_parse_context& ctx) {
        return ecmeta::detail::parse_text_form<format_error>(ctx.begin(), ctx.end(), short_form);
    }
    template <class FormatContext>
    auto format(const T& value, FormatContext& ctx) const {
        const std::string text = ecmeta::detail::formatted_text(value, short_form);
        return std::copy(text.begin(), text.end(), ctx.out());
    }
};

// id_set is a range of strings: without this, fmt/ranges.h's formatter would match it too.
template <>
struct is_range<ecmeta::id_set, char> : std::false_type {};

}  // namespace fmt
