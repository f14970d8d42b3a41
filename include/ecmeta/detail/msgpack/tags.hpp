// ecmeta — MessagePack's tag bytes by name, for its reader and its writer. The fix* forms carry
// their value or size in the low bits; the sized forms come in runs of 1, 2, 4 and 8 bytes (str,
// array and map have no 8, array and map no 1). Standard library only.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>

namespace ecmeta::detail::msgpack_tag {

inline constexpr std::uint8_t positive_fixint_max = 0x7F;
inline constexpr std::uint8_t fixmap = 0x80, fixmap_max = 0x8F;
inline constexpr std::uint8_t fixarray = 0x90, fixarray_max = 0x9F;
inline constexpr std::uint8_t fixstr = 0xA0, fixstr_max = 0xBF;
inline constexpr std::uint8_t nil = 0xC0, false_ = 0xC2, true_ = 0xC3;
inline constexpr std::uint8_t uint8 = 0xCC, uint16 = 0xCD, uint32 = 0xCE, uint64 = 0xCF;
inline constexpr std::uint8_t int8 = 0xD0, int16 = 0xD1, int32 = 0xD2, int64 = 0xD3;
inline constexpr std::uint8_t str8 = 0xD9, str16 = 0xDA, str32 = 0xDB;
inline constexpr std::uint8_t array16 = 0xDC, array32 = 0xDD;
inline constexpr std::uint8_t map16 = 0xDE, map32 = 0xDF;
inline constexpr std::uint8_t negative_fixint_min = 0xE0;  // -32 .. -1

// The largest length a fix form holds.
inline constexpr std::uint8_t fixstr_len_max = 31, fixarray_len_max = 15, fixmap_len_max = 15;

}  // namespace ecmeta::detail::msgpack_tag
