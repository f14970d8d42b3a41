// The two verdicts on JSON text that must agree: nlohmann's and ecmeta's reader's.
#pragma once

#include <string_view>

#include <nlohmann/json.hpp>

#include <ecmeta/json.hpp>

namespace ecmeta_test {

// nlohmann's verdict: json::accept, but for a NUL byte, which nlohmann takes for the end of the
// input and ecmeta refuses wherever it stands.
inline bool nlohmann_accepts(std::string_view json) {
    return json.find('\0') == std::string_view::npos && nlohmann::json::accept(json);
}

// ecmeta's reader's verdict on the text alone: one whole value (skipped) and nothing after it.
inline bool ecmeta_accepts(std::string_view json) {
    std::string buffer;
    ecmeta::detail::json::reader<false> reader{json, buffer};
    reader.skip(reader.root());
    if (!reader.failed()) {
        reader.finish();
    }
    return !reader.failed();
}

}  // namespace ecmeta_test
