// ecmeta — UTF-8 validation (RFC 3629: no overlongs, no surrogates, at most U+10FFFF).
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <string_view>

namespace ecmeta::detail {

// Length of the valid sequence starting at s[i] (which is >= 0x80), or 0 if it is invalid.
[[nodiscard]] constexpr std::size_t utf8_sequence(std::string_view s, std::size_t i) noexcept {
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
    const auto cont = [&](std::size_t k) { return k < s.size() && (byte(k) & 0xC0U) == 0x80U; };
    const unsigned char b = byte(i);
    if (b >= 0xC2 && b <= 0xDF) {
        return cont(i + 1) ? 2 : 0;
    }
    if (b >= 0xE0 && b <= 0xEF) {
        if (!cont(i + 1) || !cont(i + 2)) {
            return 0;
        }
        const unsigned char b1 = byte(i + 1);
        if ((b == 0xE0 && b1 < 0xA0) || (b == 0xED && b1 > 0x9F)) {
            return 0;  // overlong, or a UTF-16 surrogate
        }
        return 3;
    }
    if (b >= 0xF0 && b <= 0xF4) {
        if (!cont(i + 1) || !cont(i + 2) || !cont(i + 3)) {
            return 0;
        }
        const unsigned char b1 = byte(i + 1);
        if ((b == 0xF0 && b1 < 0x90) || (b == 0xF4 && b1 > 0x8F)) {
            return 0;  // overlong, or beyond U+10FFFF
        }
        return 4;
    }
    return 0;
}

[[nodiscard]] constexpr bool is_utf8(std::string_view s) noexcept {
    for (std::size_t i = 0; i < s.size();) {
        if (static_cast<unsigned char>(s[i]) < 0x80) {
            ++i;
            continue;
        }
        const std::size_t n = utf8_sequence(s, i);
        if (n == 0) {
            return false;
        }
        i += n;
    }
    return true;
}

}  // namespace ecmeta::detail
