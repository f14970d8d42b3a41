// ecmeta — finding where a JSON string's plain run ends: the first byte that is '"', '\\', a
// control character or not ASCII. 16 bytes at a time on SSE2 (always there on x86-64), 8 at a
// time anywhere else; never a byte past the end. Standard library only.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "../../version.hpp"

#include <bit>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__) || defined(_M_X64)
#include <emmintrin.h>
#define ECMETA_JSON_SSE2 1
#else
#define ECMETA_JSON_SSE2 0
#endif
// AVX2 where the build targets it (-mavx2, -march=native): the writer copies 32 bytes at a time.
#if defined(__AVX2__)
#include <immintrin.h>
#define ECMETA_JSON_AVX2 1
#else
#define ECMETA_JSON_AVX2 0
#endif

namespace ecmeta::inline ECMETA_ABI::detail::json {

[[nodiscard]] constexpr bool special_byte(unsigned char c) noexcept {
    return c < 0x20 || c >= 0x80 || c == '"' || c == '\\';
}

// Eight bytes at a time. Each test below ("is any byte < 0x20?") sets a byte's high bit exactly at
// the first byte that passes it; later bytes may be set by a borrow, so only the lowest set bit is
// read, which on a little-endian load is the first byte in memory.
struct swar {
    [[nodiscard]] static const char* find_special(const char* p, const char* end) noexcept {
        if constexpr (std::endian::native == std::endian::little) {
            constexpr std::uint64_t ones = 0x0101010101010101U;
            constexpr std::uint64_t high = 0x8080808080808080U;
            const auto zero_byte = [](std::uint64_t v) { return (v - ones) & ~v & high; };
            for (; end - p >= 8; p += 8) {
                std::uint64_t w = 0;
                std::memcpy(&w, p, sizeof w);
                const std::uint64_t found = (w & high) | ((w - ones * 0x20U) & ~w & high) |
                                            zero_byte(w ^ (ones * '"')) | zero_byte(w ^ (ones * '\\'));
                if (found != 0) {
                    return p + std::countr_zero(found) / 8;
                }
            }
        }
        for (; p != end; ++p) {
            if (special_byte(static_cast<unsigned char>(*p))) {
                return p;
            }
        }
        return end;
    }
};

#if ECMETA_JSON_SSE2
// Sixteen bytes at a time: a signed compare below 0x20 catches control characters and every byte
// >= 0x80 at once.
struct sse2 {
    [[nodiscard]] static const char* find_special(const char* p, const char* end) noexcept {
        const __m128i quote = _mm_set1_epi8('"');
        const __m128i backslash = _mm_set1_epi8('\\');
        const __m128i space = _mm_set1_epi8(0x20);
        for (; end - p >= 16; p += 16) {
            const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
            const __m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)),
                                             _mm_cmplt_epi8(v, space));
            if (const auto mask = static_cast<unsigned>(_mm_movemask_epi8(hit)); mask != 0) {
                return p + std::countr_zero(mask);
            }
        }
        return swar::find_special(p, end);
    }
};
using string_scan = sse2;
#else
using string_scan = swar;
#endif

}  // namespace ecmeta::detail::json
