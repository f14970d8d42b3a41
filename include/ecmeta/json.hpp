// ecmeta — the JSON wire form: canonical JSON text, decoded by ecmeta's own reader; and the
// nlohmann_json integration (nlohmann::adl_serializer for the described types).
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "detail/json/dom.hpp"
#include "detail/json/reader.hpp"
#include "detail/json/writer.hpp"
#include "error.hpp"
#include "metadata.hpp"
#include "ostream.hpp"

namespace ecmeta {

// Canonical JSON text into `out`, which it replaces: fields in declared order, sets sorted, no
// spaces, UTF-8 as is. out's storage is kept, so a buffer warmed on the largest message allocates
// nothing. Throws encode_error if a string is not UTF-8, and then leaves `out` empty.
template <class T>
requires detail::wire_type<T>
void encode_into(const T& value, std::string& out) {
    detail::encode_at<detail::json::writer>(value, out, 0);
}

// Canonical JSON text in a fresh string: encode_into on one that has room for it (its length is
// walked first, which costs less than growing it).
template <class T>
requires detail::wire_type<T>
[[nodiscard]] std::string encode(const T& value) {
    std::string out;
    out.reserve(detail::json::plain_size(value));
    encode_into(value, out);
    return out;
}

// Strict decoding into `out`, an engine's message of every step: its strings, lists and id sets
// keep their storage, and a field the input leaves out takes its default. Throws decode_error
// naming the JSON Pointer, and then leaves `out == T{}` (its storage kept), never half-written.
template <class T>
requires detail::wire_type<T>
void decode_into(std::string_view json, T& out, const decode_options& options = {}) {
    detail::decode_into<detail::json::reader>(json, out, options);
}

// Strict decoding into a fresh T: decode_into on T{}.
template <class T>
requires detail::wire_type<T>
[[nodiscard]] T decode(std::string_view json, const decode_options& options = {}) {
    T result{};
    decode_into(json, result, options);
    return result;
}

}  // namespace ecmeta

// The nlohmann hooks: `nlohmann::json j = spec;` and `j.get<ECMooncakeLoadSpec>()`, for any
// basic_json with the default serializer. nlohmann::ordered_json keeps the declared field order;
// nlohmann::json sorts keys. from_json applies decode's rules and leaves `value` untouched when it
// throws. They are a specialisation of adl_serializer, not free functions found by ADL: in C++20
// an aggregate whose first field is a string is constructible from one, and nlohmann before 3.11
// then offers its own string from_json, which a free function would tie with.
namespace nlohmann {
template <ecmeta::detail::described T>
struct adl_serializer<T, void> {
    template <ecmeta::detail::json::nlohmann_dom BasicJson>
    static void to_json(BasicJson& j, const T& value) {
        j = ecmeta::detail::json::to_dom<BasicJson>(value);
    }

    template <ecmeta::detail::json::nlohmann_dom BasicJson>
    static void from_json(const BasicJson& j, T& value) {
        T result{};
        ecmeta::detail::json::dom_reader<BasicJson> reader{j};
        ecmeta::detail::walk(reader, result, false);
        value = std::move(result);
    }
};
}  // namespace nlohmann
