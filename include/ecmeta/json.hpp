// ecmeta — the JSON wire form: canonical JSON text, written and read by ecmeta itself; standard
// library only (nlohmann_json's DOM integration is <ecmeta/nlohmann.hpp>).
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "version.hpp"

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bytes.hpp"
#include "detail/json/reader.hpp"
#include "detail/json/writer.hpp"
#include "error.hpp"
#include "metadata.hpp"
#include "ostream.hpp"

namespace ecmeta::inline ECMETA_ABI {

// Canonical JSON text into `out` (a std::string or a byte vector), which it replaces: fields in
// declared order, sets sorted, no spaces, UTF-8 as is. out's storage is kept, so a buffer warmed
// on the largest message allocates nothing. Throws encode_error if a string is not UTF-8, and then
// leaves `out` empty.
template <wire_type T, byte_buffer Buffer>
void encode_into(const T& value, Buffer& out) {
    detail::encode_at<detail::json::writer>(value, out, 0);
}

// Canonical JSON text in a fresh string: encode_into on one that has room for it (its length is
// walked first, which costs less than growing it).
template <wire_type T>
[[nodiscard]] std::string encode(const T& value) {
    std::string out;
    out.reserve(detail::json::plain_size(value));
    encode_into(value, out);
    return out;
}

// Strict decoding into `out`, an engine's message of every step: its strings, lists and id sets
// keep their storage, and a field the input leaves out takes its default. Throws decode_error
// naming the JSON Pointer, and then leaves `out == T{}` (its storage kept), never half-written.
template <wire_type T>
void decode_into(std::string_view json, T& out, const decode_options& options = {}) {
    detail::decode_into<detail::json::reader>(json, out, options);
}

// Strict decoding into a fresh T: decode_into on T{}.
template <wire_type T>
[[nodiscard]] T decode(std::string_view json, const decode_options& options = {}) {
    T result{};
    decode_into(json, result, options);
    return result;
}

// The same from any other contiguous bytes (std::vector<char>, std::span<const std::byte> …);
// a string literal or std::string takes the std::string_view calls above.
template <wire_type T, byte_range Bytes>
requires(!std::convertible_to<const Bytes&, std::string_view>) void decode_into(const Bytes& json, T& out,
                                                                                const decode_options& options = {}) {
    decode_into(detail::as_chars(json), out, options);
}
template <wire_type T, byte_range Bytes>
requires(!std::convertible_to<const Bytes&, std::string_view>) [[nodiscard]] T
    decode(const Bytes& json, const decode_options& options = {}) {
    return decode<T>(detail::as_chars(json), options);
}

}  // namespace ecmeta
