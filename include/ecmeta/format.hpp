// ecmeta — std::format of the four types and id_set, where the standard library has <format>
// (__cpp_lib_format): `{}` is the canonical JSON, `{:s}` the short form. Elsewhere (libstdc++
// before 13, libc++ before 17) this header declares nothing.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <version>

#if defined(__cpp_lib_format)
#include <algorithm>
#include <format>
#include <string>

#include "detail/text.hpp"

template <class T>
requires ecmeta::detail::formattable<T>
struct std::formatter<T, char> {
    bool short_form = false;

    constexpr std::format_parse_context::iterator parse(std::format_parse_context& ctx) {
        return ecmeta::detail::parse_text_form<std::format_error>(ctx.begin(), ctx.end(), short_form);
    }
    template <class FormatContext>
    auto format(const T& value, FormatContext& ctx) const {
        const std::string text = ecmeta::detail::formatted_text(value, short_form);
        return std::copy(text.begin(), text.end(), ctx.out());
    }
};
#endif
