// ecmeta — MessagePack's tag bytes: by name, for the writer, and as one table of what each begins,
// for the reader (read, skip and describe alike). The fix forms carry their value or size in the
// low bits; the sized forms come in runs of 1, 2, 4 and 8 bytes (str, bin and ext have no 8, array
// and map no 1). Standard library only.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "../../version.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>

#include "../inline.hpp"

namespace ecmeta::inline ECMETA_ABI::detail::msgpack_tag {

inline constexpr std::uint8_t positive_fixint_max = 0x7F;
inline constexpr std::uint8_t fixmap = 0x80, fixmap_max = 0x8F;
inline constexpr std::uint8_t fixarray = 0x90, fixarray_max = 0x9F;
inline constexpr std::uint8_t fixstr = 0xA0, fixstr_max = 0xBF;
inline constexpr std::uint8_t nil = 0xC0, reserved = 0xC1, false_ = 0xC2, true_ = 0xC3;
inline constexpr std::uint8_t bin8 = 0xC4, bin32 = 0xC6, ext8 = 0xC7, ext32 = 0xC9;
inline constexpr std::uint8_t float32 = 0xCA, float64 = 0xCB;
inline constexpr std::uint8_t uint8 = 0xCC, uint16 = 0xCD, uint32 = 0xCE, uint64 = 0xCF;
inline constexpr std::uint8_t int8 = 0xD0, int16 = 0xD1, int32 = 0xD2, int64 = 0xD3;
inline constexpr std::uint8_t fixext1 = 0xD4, fixext16 = 0xD8;
inline constexpr std::uint8_t str8 = 0xD9, str16 = 0xDA, str32 = 0xDB;
inline constexpr std::uint8_t array16 = 0xDC, array32 = 0xDD;
inline constexpr std::uint8_t map16 = 0xDE, map32 = 0xDF;
inline constexpr std::uint8_t negative_fixint_min = 0xE0;  // -32 .. -1

// The largest length a fix form holds.
inline constexpr std::uint8_t fixstr_len_max = 31, fixarray_len_max = 15, fixmap_len_max = 15;

// The head a number or a length is written with: the tag, then `bytes` big-endian bytes; or, for
// a fix form (fix_head), the tag alone, the number in its low bits.
template <std::uint8_t Tag, std::size_t Bytes>
struct head {
    static constexpr std::uint8_t tag = Tag;
    static constexpr std::size_t bytes = Bytes;
    static constexpr std::size_t size = 1 + Bytes;  // in the output
};
using fix_head = head<0, 0>;
// A head's size, as a function the choosers below can call.
inline constexpr auto head_size = [](auto h) { return decltype(h)::size; };

// The smallest head of each kind of number: each calls f(head) with the one canonical MessagePack
// (and msgpack.packb) takes, said once for the writer and its size walk.
template <class F>
ECMETA_INLINE constexpr decltype(auto) unsigned_head(std::uint64_t n, F&& f) {
    if (n <= positive_fixint_max) {
        return f(fix_head{});
    }
    if (n <= std::numeric_limits<std::uint8_t>::max()) {
        return f(head<uint8, 1>{});
    }
    if (n <= std::numeric_limits<std::uint16_t>::max()) {
        return f(head<uint16, 2>{});
    }
    if (n <= std::numeric_limits<std::uint32_t>::max()) {
        return f(head<uint32, 4>{});
    }
    return f(head<uint64, 8>{});
}
// n < 0 (a non-negative integer takes unsigned_head).
template <class F>
ECMETA_INLINE constexpr decltype(auto) negative_head(std::int64_t n, F&& f) {
    if (n >= -32) {
        return f(fix_head{});  // a negative fixint: the tag is n's low byte
    }
    if (n >= std::numeric_limits<std::int8_t>::min()) {
        return f(head<int8, 1>{});
    }
    if (n >= std::numeric_limits<std::int16_t>::min()) {
        return f(head<int16, 2>{});
    }
    if (n >= std::numeric_limits<std::int32_t>::min()) {
        return f(head<int32, 4>{});
    }
    return f(head<int64, 8>{});
}
// A string's length (a longer one than 32 bits can hold gets the 32-bit head: the writer refuses it).
template <class F>
ECMETA_INLINE constexpr decltype(auto) str_head(std::size_t n, F&& f) {
    if (n <= fixstr_len_max) {
        return f(fix_head{});
    }
    if (n <= std::numeric_limits<std::uint8_t>::max()) {
        return f(head<str8, 1>{});
    }
    if (n <= std::numeric_limits<std::uint16_t>::max()) {
        return f(head<str16, 2>{});
    }
    return f(head<str32, 4>{});
}
// An array's or a map's count: no 8-bit form.
template <std::uint8_t Tag16, std::size_t FixMax, class F>
ECMETA_INLINE constexpr decltype(auto) count_head(std::size_t n, F&& f) {
    if (n <= FixMax) {
        return f(fix_head{});
    }
    if (n <= std::numeric_limits<std::uint16_t>::max()) {
        return f(head<Tag16, 2>{});
    }
    return f(head<Tag16 + 1, 4>{});  // array32 and map32 follow their 16-bit tags
}
template <class F>
ECMETA_INLINE constexpr decltype(auto) array_head(std::size_t n, F&& f) {
    return count_head<array16, fixarray_len_max>(n, f);
}
template <class F>
ECMETA_INLINE constexpr decltype(auto) map_head(std::size_t n, F&& f) {
    return count_head<map16, fixmap_len_max>(n, f);
}

// What a tag begins.
enum class family : std::uint8_t {
    uint,      // an unsigned integer
    sint,      // a signed integer (a negative fixint is the tag itself, as an int8)
    null,      // nil
    boolean,   // `fixed` is its value
    floating,  // `size` bytes of IEEE 754
    str,       // a length, then that many bytes of UTF-8
    bin,       // a length, then that many bytes
    ext,       // a length, then a type byte and that many bytes
    array,     // a count, then that many values
    map,       // a count, then that many key-value pairs
    unused,    // 0xC1, reserved and never used
};

// A tag's header: what follows the tag is `size` big-endian bytes holding the value, length or
// count; with size 0 that number is `fixed`, held in the tag (or, for fixext, implied by it).
struct header_form {
    family kind;
    std::uint8_t size;
    std::uint8_t fixed;
};

[[nodiscard]] constexpr header_form header_form_of(std::uint8_t b) noexcept {
    const auto low = [b](unsigned bits) { return static_cast<std::uint8_t>(b & ((1U << bits) - 1U)); };
    const auto run = [b](std::uint8_t first) { return static_cast<std::uint8_t>(1U << (b - first)); };
    if (b <= positive_fixint_max) {
        return {family::uint, 0, b};
    }
    if (b >= negative_fixint_min) {
        return {family::sint, 0, 0};
    }
    if (b <= fixmap_max) {
        return {family::map, 0, low(4)};
    }
    if (b <= fixarray_max) {
        return {family::array, 0, low(4)};
    }
    if (b <= fixstr_max) {
        return {family::str, 0, low(5)};
    }
    if (b == nil) {
        return {family::null, 0, 0};
    }
    if (b == false_ || b == true_) {
        return {family::boolean, 0, static_cast<std::uint8_t>(b == true_ ? 1 : 0)};
    }
    if (b >= bin8 && b <= bin32) {
        return {family::bin, run(bin8), 0};
    }
    if (b >= ext8 && b <= ext32) {
        return {family::ext, run(ext8), 0};
    }
    if (b == float32 || b == float64) {
        return {family::floating, static_cast<std::uint8_t>(b == float32 ? 4 : 8), 0};
    }
    if (b >= uint8 && b <= uint64) {
        return {family::uint, run(uint8), 0};
    }
    if (b >= int8 && b <= int64) {
        return {family::sint, run(int8), 0};
    }
    if (b >= fixext1 && b <= fixext16) {
        return {family::ext, 0, run(fixext1)};
    }
    if (b >= str8 && b <= str32) {
        return {family::str, run(str8), 0};
    }
    if (b == array16 || b == array32) {
        return {family::array, static_cast<std::uint8_t>(b == array16 ? 2 : 4), 0};
    }
    if (b == map16 || b == map32) {
        return {family::map, static_cast<std::uint8_t>(b == map16 ? 2 : 4), 0};
    }
    return {family::unused, 0, 0};
}

// Every tag's header form, looked up once per value read.
inline constexpr std::array<header_form, 256> header_forms = [] {
    std::array<header_form, 256> table{};
    for (unsigned b = 0; b < 256; ++b) {
        table[b] = header_form_of(static_cast<std::uint8_t>(b));
    }
    return table;
}();

}  // namespace ecmeta::detail::msgpack_tag
