// ecmeta — what the wire calls read from and write into: any contiguous run of bytes, and the
// byte containers the writers fill. Standard library only.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "version.hpp"

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "detail/ranges.hpp"

namespace ecmeta::inline ECMETA_ABI {

// A type whose objects are bytes: char, unsigned char (std::uint8_t) or std::byte.
template <class B>
concept byte_like = std::same_as<B, char> || std::same_as<B, unsigned char> || std::same_as<B, std::byte> ||
    std::same_as<B, std::uint8_t>;

// Input: any contiguous range of bytes — std::string, std::string_view, std::vector<char>,
// std::span<const std::byte>, std::vector<std::uint8_t>, an array of bytes …
template <class R>
concept byte_range = std::ranges::contiguous_range<R> && std::ranges::sized_range<R> &&
    byte_like<std::remove_cv_t<std::ranges::range_value_t<R>>>;

// Output: a container the writers resize and fill: std::string, or a std::vector of bytes.
template <class C>
concept byte_buffer = std::same_as<C, std::string> || std::same_as<C, std::vector<char>> ||
    std::same_as<C, std::vector<unsigned char>> || std::same_as<C, std::vector<std::byte>>;

namespace detail {

// The bytes of r, as the JSON reader (chars) and the MessagePack reader (octets) take them. Every
// byte_like type may alias any object's bytes.
template <byte_range R>
[[nodiscard]] std::string_view as_chars(const R& r) noexcept {
    return {reinterpret_cast<const char*>(std::ranges::data(r)), std::ranges::size(r)};
}
template <byte_range R>
[[nodiscard]] std::span<const std::uint8_t> as_octets(const R& r) noexcept {
    return {reinterpret_cast<const std::uint8_t*>(std::ranges::data(r)), std::ranges::size(r)};
}

}  // namespace detail

}  // namespace ecmeta
