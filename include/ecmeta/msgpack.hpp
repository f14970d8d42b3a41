// ecmeta — the MessagePack wire form; standard library only.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "version.hpp"

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "bytes.hpp"
#include "detail/msgpack/reader.hpp"
#include "detail/msgpack/writer.hpp"
#include "error.hpp"
#include "metadata.hpp"

namespace ecmeta::inline ECMETA_ABI {

// Canonical MessagePack into `out` (a byte vector or a std::string), which it replaces: the JSON
// form's data model, every integer and length in its smallest form. out's storage is kept, so a
// buffer warmed on the largest message allocates nothing. Throws encode_error if a string is not
// UTF-8, and then leaves `out` empty.
template <wire_type T, byte_buffer Buffer>
void encode_msgpack_into(const T& value, Buffer& out) {
    detail::encode_at<detail::msgpack::writer>(value, out, 0);
}

// Canonical MessagePack in a fresh vector: encode_msgpack_into on one that has room for it (its
// length is walked first, which costs less than growing it).
template <wire_type T>
[[nodiscard]] std::vector<std::uint8_t> encode_msgpack(const T& value) {
    std::vector<std::uint8_t> out;
    out.reserve(detail::msgpack::packed_size(value));
    encode_msgpack_into(value, out);
    return out;
}

// Strict decoding into `out` by the same rules as decode_into: storage reused, left-out fields
// defaulted; throws decode_error and then leaves `out == T{}`.
template <wire_type T>
void decode_msgpack_into(std::span<const std::uint8_t> bytes, T& out, const decode_options& options = {}) {
    detail::decode_into<detail::msgpack_reader>(bytes, out, options);
}

// Strict decoding into a fresh T: decode_msgpack_into on T{}.
template <wire_type T>
[[nodiscard]] T decode_msgpack(std::span<const std::uint8_t> bytes, const decode_options& options = {}) {
    T result{};
    decode_msgpack_into(bytes, result, options);
    return result;
}

// The same from any other contiguous bytes: a std::string, std::vector<char>,
// std::span<const std::byte> …
template <wire_type T, byte_range Bytes>
requires(!std::convertible_to<const Bytes&, std::span<const std::uint8_t>>) void decode_msgpack_into(
    const Bytes& bytes, T& out, const decode_options& options = {}) {
    decode_msgpack_into(detail::as_octets(bytes), out, options);
}
template <wire_type T, byte_range Bytes>
requires(!std::convertible_to<const Bytes&, std::span<const std::uint8_t>>) [[nodiscard]] T
    decode_msgpack(const Bytes& bytes, const decode_options& options = {}) {
    return decode_msgpack<T>(detail::as_octets(bytes), options);
}

}  // namespace ecmeta
