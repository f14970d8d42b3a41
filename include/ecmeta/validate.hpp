// ecmeta — checks of meaning: what a well-formed message must also satisfy. Standard library only.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "version.hpp"

#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "detail/schema.hpp"
#include "metadata.hpp"

namespace ecmeta::inline ECMETA_ABI {

// One finding: where (an RFC 6901 pointer relative to the value validated) and what is wrong.
struct problem {
    std::string pointer{};
    std::string message{};

    friend bool operator==(const problem&, const problem&) = default;
};

// Every finding, in wire order (findings at one place in the order they were found); empty when
// the value means something the running system accepts. A list is validated element by element
// (a null rank report has nothing to find), its pointers beginning with the element's index.
template <wire_type T>
[[nodiscard]] std::vector<problem> validate(const T& value);

// ---- what nbytes must be: torch's dtypes and numel(shape) * itemsize ---------------------------

struct dtype_info {
    std::string_view name;
    std::uint64_t itemsize;  // bytes per element as torch counts them (packed kinds: per pack)
};

// Every dtype torch exposes, by the name str(dtype) gives without "torch." and by its aliases
// (torch.half is torch.float16). Sub-byte kinds occupy a whole byte per element, as
// Tensor.element_size() reports; "_x2"/"x4"/"x8" kinds pack several values into one item.
// clang-format off
inline constexpr auto dtypes = std::to_array<dtype_info>({
    {"float32", 4}, {"float", 4}, {"float64", 8}, {"double", 8}, {"float16", 2}, {"half", 2}, {"bfloat16", 2},
    {"complex32", 4}, {"chalf", 4}, {"complex64", 8}, {"cfloat", 8}, {"complex128", 16}, {"cdouble", 16},
    {"uint8", 1}, {"uint16", 2}, {"uint32", 4}, {"uint64", 8},
    {"int8", 1}, {"int16", 2}, {"short", 2}, {"int32", 4}, {"int", 4}, {"int64", 8}, {"long", 8},
    {"bool", 1},
    {"quint8", 1}, {"qint8", 1}, {"qint32", 4}, {"quint4x2", 1}, {"quint2x4", 1},
    {"float8_e4m3fn", 1}, {"float8_e4m3fnuz", 1}, {"float8_e5m2", 1}, {"float8_e5m2fnuz", 1}, {"float8_e8m0fnu", 1},
    {"float4_e2m1fn_x2", 1},
    {"bits1x8", 1}, {"bits2x4", 1}, {"bits4x2", 1}, {"bits8", 1}, {"bits16", 2},
    {"uint1", 1}, {"uint2", 1}, {"uint3", 1}, {"uint4", 1}, {"uint5", 1}, {"uint6", 1}, {"uint7", 1},
    {"int1", 1}, {"int2", 1}, {"int3", 1}, {"int4", 1}, {"int5", 1}, {"int6", 1}, {"int7", 1},
});
// clang-format on

// The item size of a dtype name, or nullopt for a name torch does not know.
[[nodiscard]] constexpr std::optional<std::uint64_t> itemsize(std::string_view dtype) noexcept {
    for (const auto& d : dtypes) {
        if (d.name == dtype) {
            return d.itemsize;
        }
    }
    return std::nullopt;
}

// numel(shape) * itemsize, or nullopt when an extent is negative or the product overflows 64 bits.
[[nodiscard]] constexpr std::optional<std::uint64_t> expected_nbytes(const std::vector<std::int64_t>& shape,
                                                                     std::uint64_t item) noexcept {
    bool empty = false;
    for (const std::int64_t extent : shape) {
        if (extent < 0) {
            return std::nullopt;
        }
        empty = empty || extent == 0;
    }
    if (empty || item == 0) {
        return 0;  // an empty tensor, however large its other extents
    }
    std::uint64_t n = item;  // numel([]) == 1: a scalar
    for (const std::int64_t extent : shape) {
        const auto e = static_cast<std::uint64_t>(extent);
        if (n > std::numeric_limits<std::uint64_t>::max() / e) {
            return std::nullopt;
        }
        n *= e;
    }
    return n;
}

}  // namespace ecmeta

#include "detail/validate/checks.hpp"  // validate() and its checks
