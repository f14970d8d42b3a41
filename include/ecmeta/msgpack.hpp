// ecmeta — the MessagePack wire form; standard library only.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "detail/msgpack_reader.hpp"
#include "detail/writer.hpp"
#include "error.hpp"
#include "metadata.hpp"

namespace ecmeta {

// Canonical MessagePack: the JSON form's data model, every integer and length in its smallest form.
template <class T>
requires detail::wire_type<T>
[[nodiscard]] std::vector<std::uint8_t> encode_msgpack(const T& value) {
    std::vector<std::uint8_t> out;
    out.reserve(detail::size_hint(value));
    detail::msgpack_writer w{out};
    w.write(value);
    if (!w.ok()) {
        detail::throw_not_utf8(value);
    }
    return out;
}

// Strict decoding into `out` by the same rules as decode_into: storage reused, left-out fields
// defaulted; throws decode_error and then leaves `out == T{}`.
template <class T>
requires detail::wire_type<T>
void decode_msgpack_into(std::span<const std::uint8_t> bytes, T& out, const decode_options& options = {}) {
    detail::decode_into<detail::msgpack_pull>(bytes, out, options);
}

// Strict decoding into a fresh T: decode_msgpack_into on T{}.
template <class T>
requires detail::wire_type<T>
[[nodiscard]] T decode_msgpack(std::span<const std::uint8_t> bytes, const decode_options& options = {}) {
    T result{};
    decode_msgpack_into(bytes, result, options);
    return result;
}

}  // namespace ecmeta
