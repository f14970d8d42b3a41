// ecmeta — a field's key as a format spells it in canonical input (JSON's `"name"`, MessagePack's
// fixstr header and name), matched against the input with two word compares: the decoder tells
// a reader which key comes next, and the reader need not scan it. Standard library only.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "../version.hpp"

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "inline.hpp"

namespace ecmeta::inline ECMETA_ABI::detail {

struct key_pattern {
    std::string_view name;  // the field's name: the key a match reads
    std::size_t size = 0;   // the bytes spelled: lead, name, trail; 0 when more than 16
    std::array<std::uint64_t, 2> words{};
    std::array<std::uint64_t, 2> mask{};  // the bytes spelled, in words

    // `lead`, the name, then `trail`, as the input holds them.
    constexpr key_pattern(std::string_view field, std::string_view lead, std::string_view trail) noexcept
        : name(field) {
        if (lead.size() + field.size() + trail.size() > 16) {
            return;
        }
        std::size_t at = 0;
        const auto put = [&](std::string_view bytes) {
            for (const char c : bytes) {
                const std::size_t shift = 8 * (std::endian::native == std::endian::little ? at % 8 : 7 - at % 8);
                words[at / 8] |= std::uint64_t{static_cast<unsigned char>(c)} << shift;
                mask[at / 8] |= std::uint64_t{0xFF} << shift;
                ++at;
            }
        };
        put(lead);
        put(field);
        put(trail);
        size = at;
    }
    constexpr key_pattern() noexcept = default;

    // Whether the bytes at p spell the key; p has 16 bytes to read.
    [[nodiscard]] ECMETA_INLINE bool matches(const void* p) const noexcept {
        std::array<std::uint64_t, 2> w{};
        std::memcpy(w.data(), p, sizeof w);
        return size != 0 && (((w[0] ^ words[0]) & mask[0]) | ((w[1] ^ words[1]) & mask[1])) == 0;
    }
};

}  // namespace ecmeta::detail
