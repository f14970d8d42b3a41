// ecmeta — the JSON wire form: canonical JSON text, written and read by ecmeta itself; standard
// library only (nlohmann_json's DOM integration is <ecmeta/nlohmann.hpp>).
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "version.hpp"

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <optional>
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
#include "detail/json/reader.hpp"
#include "detail/json/writer.hpp"
#include "error.hpp"
#include "metadata.hpp"
#include "ostream.hpp"

namespace ecmeta::inline ECMETA_ABI {

// Each call comes twice: throwing its error (decode_error, encode_error), and as try_…, returning
// it. The try_ calls never throw for bad input or for a value with no wire form; with exceptions
// off (-fno-exceptions) they are the ones to use, as the throwing ones then print the error and
// stop the program. Only running out of memory throws from either (and ends the program without
// exceptions, as the standard library's allocation does).

// Canonical JSON text into `out` (a std::string or a byte vector), which it replaces: fields in
// declared order, sets sorted, no spaces, UTF-8 as is. out's storage is kept, so a buffer warmed
// on the largest message allocates nothing. If a string is not UTF-8 it returns encode_error
// naming it, and leaves `out` empty.
template <wire_type T, byte_buffer Buffer>
[[nodiscard]] std::optional<encode_error> try_encode_into(const T& value, Buffer& out) {
    return detail::encode_at<detail::json::writer>(value, out, 0);
}
template <wire_type T, byte_buffer Buffer>
void encode_into(const T& value, Buffer& out) {
    if (auto e = try_encode_into(value, out)) [[unlikely]] {
        detail::raise(std::move(*e));
    }
}

// Canonical JSON text in a fresh string: encode_into on one that has room for it (its length is
// walked first, which costs less than growing it).
template <wire_type T>
[[nodiscard]] result<std::string, encode_error> try_encode(const T& value) {
    result<std::string, encode_error> r;
    r.value.reserve(detail::json::encoded_size(value));
    r.error = try_encode_into(value, r.value);
    return r;
}
template <wire_type T>
[[nodiscard]] std::string encode(const T& value) {
    auto [text, error] = try_encode(value);
    if (error) [[unlikely]] {
        detail::raise(std::move(*error));
    }
    return std::move(text);
}

// Strict decoding into `out`, an engine's message of every step: its strings, lists and id sets
// keep their storage, and what the decode drops (shortened lists' elements, a value that became
// null) is kept in `storage` for the next decode; the calls without one keep it on the thread. A
// field the input leaves out takes its default. On failure it returns decode_error naming the
// JSON Pointer, and leaves `out == T{}` (its storage kept), never half-written. decode_options
// apply alike to every call.
template <wire_type T>
[[nodiscard]] std::optional<decode_error> try_decode_into(std::string_view json, T& out, decode_storage<T>& storage,
                                                          const decode_options& options = {}) {
    return detail::decode_into<detail::json::reader>(json, out, detail::storage_access::of(storage), options);
}
template <wire_type T>
[[nodiscard]] std::optional<decode_error> try_decode_into(std::string_view json, T& out,
                                                          const decode_options& options = {}) {
    return detail::decode_into<detail::json::reader>(json, out, detail::thread_storage<T>(), options);
}
template <wire_type T>
void decode_into(std::string_view json, T& out, decode_storage<T>& storage, const decode_options& options = {}) {
    if (auto e = try_decode_into(json, out, storage, options)) [[unlikely]] {
        detail::raise(std::move(*e));
    }
}
template <wire_type T>
void decode_into(std::string_view json, T& out, const decode_options& options = {}) {
    if (auto e = try_decode_into(json, out, options)) [[unlikely]] {
        detail::raise(std::move(*e));
    }
}

// Strict decoding into a fresh T, which keeps nothing for later.
template <wire_type T>
[[nodiscard]] result<T, decode_error> try_decode(std::string_view json, const decode_options& options = {}) {
    result<T, decode_error> r;
    detail::no_storage fresh;
    r.error = detail::decode_into<detail::json::reader>(json, r.value, fresh, options);
    return r;
}
template <wire_type T>
[[nodiscard]] T decode(std::string_view json, const decode_options& options = {}) {
    auto [value, error] = try_decode<T>(json, options);
    if (error) [[unlikely]] {
        detail::raise(std::move(*error));
    }
    return std::move(value);
}

// The same from any other contiguous bytes (std::vector<char>, std::span<const std::byte> …);
// a string literal or std::string takes the std::string_view calls above.
template <wire_type T, byte_range Bytes>
requires(!std::convertible_to<const Bytes&, std::string_view>)
    [[nodiscard]] std::optional<decode_error> try_decode_into(const Bytes& json, T& out,
                                                              const decode_options& options = {}) {
    return try_decode_into(detail::as_chars(json), out, options);
}
template <wire_type T, byte_range Bytes>
requires(!std::convertible_to<const Bytes&, std::string_view>) void decode_into(const Bytes& json, T& out,
                                                                                const decode_options& options = {}) {
    decode_into(detail::as_chars(json), out, options);
}
template <wire_type T, byte_range Bytes>
requires(!std::convertible_to<const Bytes&, std::string_view>)
    [[nodiscard]] std::optional<decode_error> try_decode_into(const Bytes& json, T& out, decode_storage<T>& storage,
                                                              const decode_options& options = {}) {
    return try_decode_into(detail::as_chars(json), out, storage, options);
}
template <wire_type T, byte_range Bytes>
requires(!std::convertible_to<const Bytes&, std::string_view>) void decode_into(const Bytes& json, T& out,
                                                                                decode_storage<T>& storage,
                                                                                const decode_options& options = {}) {
    decode_into(detail::as_chars(json), out, storage, options);
}
template <wire_type T, byte_range Bytes>
requires(!std::convertible_to<const Bytes&, std::string_view>)
    [[nodiscard]] result<T, decode_error> try_decode(const Bytes& json, const decode_options& options = {}) {
    return try_decode<T>(detail::as_chars(json), options);
}
template <wire_type T, byte_range Bytes>
requires(!std::convertible_to<const Bytes&, std::string_view>) [[nodiscard]] T
    decode(const Bytes& json, const decode_options& options = {}) {
    return decode<T>(detail::as_chars(json), options);
}

}  // namespace ecmeta
