// ecmeta — the order of ids (bytes compared unsigned, as std::string compares them), through
// their first eight bytes as one big-endian integer, so that most comparisons are one integer
// comparison. Standard library only.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "../version.hpp"

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "inline.hpp"

#if defined(_MSC_VER) && !defined(__clang__)
#include <stdlib.h>  // _byteswap_uint64
#endif

namespace ecmeta::inline ECMETA_ABI::detail {

// Whether n bytes at x and y are equal, for the short strings field names and ids are: fixed-size
// blocks compared inline (a memcmp of a constant size compiles to one comparison, where a call to
// memcmp costs more than the bytes), the last block overlapping the one before it.
[[nodiscard]] ECMETA_INLINE bool same_bytes(const char* x, const char* y, std::size_t n) noexcept {
    const auto same = [&]<std::size_t Width>(std::size_t at)
                          ECMETA_INLINE_LAMBDA { return std::memcmp(x + at, y + at, Width) == 0; };
    if (n >= 16) {
        const std::size_t last = n - 16;
        for (std::size_t at = 0; at < last; at += 16) {
            if (!same.template operator()<16>(at)) {
                return false;
            }
        }
        return same.template operator()<16>(last);
    }
    if (n >= 8) {
        return same.template operator()<8>(0) && same.template operator()<8>(n - 8);
    }
    if (n >= 4) {
        return same.template operator()<4>(0) && same.template operator()<4>(n - 4);
    }
    for (std::size_t i = 0; i < n; ++i) {
        if (x[i] != y[i]) {
            return false;
        }
    }
    return true;
}
[[nodiscard]] inline bool same_bytes(std::string_view a, std::string_view b) noexcept {
    return a.size() == b.size() && same_bytes(a.data(), b.data(), a.size());
}

[[nodiscard]] inline std::uint64_t load_big_endian(const char* bytes) noexcept {
    std::uint64_t value = 0;
    std::memcpy(&value, bytes, sizeof value);
    if constexpr (std::endian::native == std::endian::little) {
#if defined(_MSC_VER) && !defined(__clang__)
        value = _byteswap_uint64(value);
#else
        value = __builtin_bswap64(value);  // std::byteswap is C++23
#endif
    }
    return value;
}

// The first eight bytes of an id as one big-endian integer, zero-padded: heads order ids exactly
// as their bytes do wherever they differ, so most comparisons are one integer comparison.
[[nodiscard]] inline std::uint64_t id_head(std::string_view id) noexcept {
    if (id.size() >= 8) {
        return load_big_endian(id.data());
    }
    char padded[8] = {};
    if (!id.empty()) {
        std::memcpy(padded, id.data(), id.size());
    }
    return load_big_endian(padded);
}

// Byte order of two ids (as std::string compares them) given their heads; inline, eight bytes
// at a time, since equal heads are the common case of a fold (a match) and ids are short.
[[nodiscard]] inline int compare_ids(std::uint64_t head_a, std::string_view a, std::uint64_t head_b,
                                     std::string_view b) noexcept {
    if (head_a != head_b) {
        return head_a < head_b ? -1 : 1;
    }
    // Equal heads: the ids agree on their first min(size, 8) bytes.
    const std::size_t common = std::min(a.size(), b.size());
    std::size_t i = 8;
    for (; i + 8 <= common; i += 8) {
        const std::uint64_t x = load_big_endian(a.data() + i);
        const std::uint64_t y = load_big_endian(b.data() + i);
        if (x != y) {
            return x < y ? -1 : 1;
        }
    }
    for (; i < common; ++i) {
        if (a[i] != b[i]) {
            return static_cast<unsigned char>(a[i]) < static_cast<unsigned char>(b[i]) ? -1 : 1;
        }
    }
    return a.size() == b.size() ? 0 : (a.size() < b.size() ? -1 : 1);
}

}  // namespace ecmeta::detail
