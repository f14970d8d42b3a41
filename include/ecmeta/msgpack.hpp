// ecmeta — the MessagePack wire form; standard library only.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "version.hpp"

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bytes.hpp"
#include "decode_options.hpp"
#include "decode_storage.hpp"
#include "detail/decode.hpp"
#include "detail/encode.hpp"
#include "detail/exceptions.hpp"
#include "detail/msgpack/reader.hpp"
#include "detail/msgpack/writer.hpp"
#include "error.hpp"
#include "metadata.hpp"

namespace ecmeta::inline ECMETA_ABI {

// As in json.hpp, each call comes twice: throwing its error, and as try_…, returning it.

// Canonical MessagePack into `out` (a byte vector or a std::string), which it replaces: the JSON
// form's data model, every integer and length in its smallest form. out's storage is kept, so a
// buffer warmed on the largest message allocates nothing. If a string is not UTF-8 it returns
// encode_error naming it, and leaves `out` empty.
template <wire_type T, byte_buffer Buffer>
[[nodiscard]] std::optional<encode_error> try_encode_msgpack_into(const T& value, Buffer& out) {
    return detail::encode_at<detail::msgpack::writer>(value, out, 0);
}
template <wire_type T, byte_buffer Buffer>
void encode_msgpack_into(const T& value, Buffer& out) {
    if (auto e = try_encode_msgpack_into(value, out)) [[unlikely]] {
        detail::raise(std::move(*e));
    }
}

// Canonical MessagePack in a fresh vector: encode_msgpack_into on one that has room for it (its
// length is walked first, which costs less than growing it).
template <wire_type T>
[[nodiscard]] result<std::vector<std::uint8_t>, encode_error> try_encode_msgpack(const T& value) {
    result<std::vector<std::uint8_t>, encode_error> r;
    r.value.reserve(detail::msgpack::encoded_size(value));
    r.error = try_encode_msgpack_into(value, r.value);
    return r;
}
template <wire_type T>
[[nodiscard]] std::vector<std::uint8_t> encode_msgpack(const T& value) {
    auto [bytes, error] = try_encode_msgpack(value);
    if (error) [[unlikely]] {
        detail::raise(std::move(*error));
    }
    return std::move(bytes);
}

// Strict decoding into `out` by the same rules as decode_into: storage reused, left-out fields
// defaulted; on failure decode_error, and `out == T{}`.
template <wire_type T>
[[nodiscard]] std::optional<decode_error> try_decode_msgpack_into(std::span<const std::uint8_t> bytes, T& out,
                                                                  decode_storage<T>& storage,
                                                                  const decode_options& options = {}) {
    return detail::decode_into<detail::msgpack::reader>(bytes, out, detail::storage_access::of(storage), options);
}
template <wire_type T>
[[nodiscard]] std::optional<decode_error> try_decode_msgpack_into(std::span<const std::uint8_t> bytes, T& out,
                                                                  const decode_options& options = {}) {
    return detail::decode_into<detail::msgpack::reader>(bytes, out, detail::thread_storage<T>(), options);
}
template <wire_type T>
void decode_msgpack_into(std::span<const std::uint8_t> bytes, T& out, decode_storage<T>& storage,
                         const decode_options& options = {}) {
    if (auto e = try_decode_msgpack_into(bytes, out, storage, options)) [[unlikely]] {
        detail::raise(std::move(*e));
    }
}
template <wire_type T>
void decode_msgpack_into(std::span<const std::uint8_t> bytes, T& out, const decode_options& options = {}) {
    if (auto e = try_decode_msgpack_into(bytes, out, options)) [[unlikely]] {
        detail::raise(std::move(*e));
    }
}

// Strict decoding into a fresh T, which keeps nothing for later.
template <wire_type T>
[[nodiscard]] result<T, decode_error> try_decode_msgpack(std::span<const std::uint8_t> bytes,
                                                         const decode_options& options = {}) {
    result<T, decode_error> r;
    detail::no_storage fresh;
    r.error = detail::decode_into<detail::msgpack::reader>(bytes, r.value, fresh, options);
    return r;
}
template <wire_type T>
[[nodiscard]] T decode_msgpack(std::span<const std::uint8_t> bytes, const decode_options& options = {}) {
    auto [value, error] = try_decode_msgpack<T>(bytes, options);
    if (error) [[unlikely]] {
        detail::raise(std::move(*error));
    }
    return std::move(value);
}

// The same from any other contiguous bytes: a std::string, std::vector<char>,
// std::span<const std::byte> …
template <wire_type T, byte_range Bytes>
requires(!std::convertible_to<const Bytes&, std::span<const std::uint8_t>>)
    [[nodiscard]] std::optional<decode_error> try_decode_msgpack_into(const Bytes& bytes, T& out,
                                                                      const decode_options& options = {}) {
    return try_decode_msgpack_into(detail::as_octets(bytes), out, options);
}
template <wire_type T, byte_range Bytes>
requires(!std::convertible_to<const Bytes&, std::span<const std::uint8_t>>) void decode_msgpack_into(
    const Bytes& bytes, T& out, const decode_options& options = {}) {
    decode_msgpack_into(detail::as_octets(bytes), out, options);
}
template <wire_type T, byte_range Bytes>
requires(!std::convertible_to<const Bytes&, std::span<const std::uint8_t>>)
    [[nodiscard]] std::optional<decode_error> try_decode_msgpack_into(const Bytes& bytes, T& out,
                                                                      decode_storage<T>& storage,
                                                                      const decode_options& options = {}) {
    return try_decode_msgpack_into(detail::as_octets(bytes), out, storage, options);
}
template <wire_type T, byte_range Bytes>
requires(!std::convertible_to<const Bytes&, std::span<const std::uint8_t>>) void decode_msgpack_into(
    const Bytes& bytes, T& out, decode_storage<T>& storage, const decode_options& options = {}) {
    decode_msgpack_into(detail::as_octets(bytes), out, storage, options);
}
template <wire_type T, byte_range Bytes>
requires(!std::convertible_to<const Bytes&, std::span<const std::uint8_t>>)
    [[nodiscard]] result<T, decode_error> try_decode_msgpack(const Bytes& bytes, const decode_options& options = {}) {
    return try_decode_msgpack<T>(detail::as_octets(bytes), options);
}
template <wire_type T, byte_range Bytes>
requires(!std::convertible_to<const Bytes&, std::span<const std::uint8_t>>) [[nodiscard]] T
    decode_msgpack(const Bytes& bytes, const decode_options& options = {}) {
    return decode_msgpack<T>(detail::as_octets(bytes), options);
}

}  // namespace ecmeta
