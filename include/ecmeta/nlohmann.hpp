// ecmeta — the nlohmann_json integration (target ecmeta::nlohmann): `nlohmann::json j = spec;` and
// `j.get<ECMooncakeLoadSpec>()`. Not needed for the JSON form itself, which is <ecmeta/json.hpp>.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <utility>

#include <nlohmann/json.hpp>

#include "detail/decode.hpp"
#include "detail/json/dom.hpp"
#include "metadata.hpp"

// For any basic_json with the default serializer. nlohmann::ordered_json keeps the declared field order;
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
        ecmeta::detail::no_storage fresh;
        ecmeta::detail::read_document(reader, result, fresh, false);
        if (reader.failed()) {
            ecmeta::detail::raise(ecmeta::detail::to_error(reader.recorded()));
        }
        value = std::move(result);
    }
};
}  // namespace nlohmann
