// ecmeta — UTF-8 validation (RFC 3629: no overlongs, no surrogates, at most U+10FFFF).
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "../version.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <type_traits>

#include "inline.hpp"
#include "simd.hpp"

namespace ecmeta::inline ECMETA_ABI::detail {

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

// How many bytes at the start of s are ASCII. Ids are mostly ASCII: 32, then 8 bytes at a time.
// Each word is loaded straight from the input (a copy through a wider buffer stalls on store
// forwarding).
[[nodiscard]] constexpr std::size_t ascii_length(std::string_view s) noexcept {
    std::size_t i = 0;
    if (!std::is_constant_evaluated()) {
        constexpr std::uint64_t high_bits = 0x8080808080808080U;
        const auto word = [&](std::size_t at) {
            std::uint64_t w = 0;
            std::memcpy(&w, s.data() + at, sizeof w);
            return w;
        };
        for (; i + 32 <= s.size(); i += 32) {
            if (((word(i) | word(i + 8) | word(i + 16) | word(i + 24)) & high_bits) != 0) {
                break;
            }
        }
        for (; i + 8 <= s.size(); i += 8) {
            if ((word(i) & high_bits) != 0) {
                break;
            }
        }
        // The tail: the input's last word, when it has one, else byte by byte below.
        if (i != s.size() && s.size() - i < 8 && s.size() >= 8 && (word(s.size() - 8) & high_bits) == 0) {
            return s.size();
        }
    }
    while (i != s.size() && static_cast<unsigned char>(s[i]) < 0x80) {
        ++i;
    }
    return i;
}

// Whether every byte of s is ASCII: its words or'ed together, the last overlapping the one before.
// Inlined, for the ids a MessagePack string mostly is.
[[nodiscard]] ECMETA_INLINE bool all_ascii(std::string_view s) noexcept {
    std::uint64_t seen = 0;
    if (s.size() >= 8) {
        const auto word = [&](std::size_t at) ECMETA_INLINE_LAMBDA {
            std::uint64_t w = 0;
            std::memcpy(&w, s.data() + at, sizeof w);
            return w;
        };
        for (std::size_t i = 0; i + 8 < s.size(); i += 8) {
            seen |= word(i);
        }
        seen |= word(s.size() - 8);
    } else {
        for (const char c : s) {
            seen |= static_cast<unsigned char>(c);
        }
    }
    return (seen & 0x8080808080808080U) == 0;
}

// Copies n bytes and says whether all are ASCII, in one pass: 16 bytes at a time (SSE2), or 8,
// the last block overlapping the one before it; never a byte past either end.
[[nodiscard]] inline bool copy_ascii(const char* in, std::size_t n, void* to) noexcept {
    auto* const out = static_cast<unsigned char*>(to);
#if ECMETA_X86_64
    if (n >= 16) {
        __m128i any = _mm_setzero_si128();
        const auto block = [&](std::size_t at) {
            const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + at));
            _mm_storeu_si128(reinterpret_cast<__m128i*>(out + at), v);
            any = _mm_or_si128(any, v);
        };
        for (std::size_t at = 0; at + 16 <= n; at += 16) {
            block(at);
        }
        block(n - 16);
        return _mm_movemask_epi8(any) == 0;
    }
#endif
    constexpr std::uint64_t high = 0x8080808080808080U;
    std::uint64_t any = 0;
    if (n >= 8) {
        const auto word = [&](std::size_t at) {
            std::uint64_t w = 0;
            std::memcpy(&w, in + at, sizeof w);
            std::memcpy(out + at, &w, sizeof w);
            any |= w;
        };
        for (std::size_t at = 0; at + 8 <= n; at += 8) {
            word(at);
        }
        word(n - 8);
        return (any & high) == 0;
    }
    for (std::size_t i = 0; i < n; ++i) {
        out[i] = static_cast<unsigned char>(in[i]);
        any |= out[i];
    }
    return (any & 0x80U) == 0;
}

[[nodiscard]] constexpr bool is_utf8(std::string_view s) noexcept {
    if (!std::is_constant_evaluated() && all_ascii(s)) {
        return true;
    }
    for (std::size_t i = ascii_length(s); i != s.size(); i += ascii_length(s.substr(i))) {
        const std::size_t n = utf8_sequence(s, i);
        if (n == 0) {
            return false;
        }
        i += n;
    }
    return true;
}

}  // namespace ecmeta::detail
