// The parity oracle of JSON text decoding: nlohmann's SAX parser into the event decoder
// (decoder.hpp), as JSON text was decoded before the walker read nlohmann's lexer itself. The
// library no longer uses it; the fuzz targets and their corpus replay hold decode to exactly its
// verdicts, values, messages, pointers and offsets.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <ecmeta/json.hpp>

#include "event_decoder.hpp"

namespace ecmeta_test {

// nlohmann's SAX interface, forwarded to the decoder; every failure is thrown from there.
struct json_events {
    decoder& out;

    bool null() { return out.null(), true; }
    bool boolean(bool v) { return out.boolean(v), true; }
    bool number_integer(std::int64_t v) { return out.integer(v), true; }
    bool number_unsigned(std::uint64_t v) { return out.unsigned_integer(v), true; }
    bool number_float(double /*value*/, const std::string& text) {
        // nlohmann hands integers beyond 64 bits over as floats; the text tells them apart.
        if (text.find_first_of(".eE") == std::string::npos) {
            return out.out_of_range(text), true;
        }
        return out.floating(text), true;
    }
    bool string(std::string& v) { return out.string(v), true; }
    bool binary(std::vector<std::uint8_t>& /*value*/) { return out.other("binary"), true; }
    bool start_object(std::size_t /*size*/) { return out.start_object(), true; }
    bool key(std::string& k) { return out.key(k), true; }
    bool end_object() { return out.end_object(), true; }
    bool start_array(std::size_t /*size*/) { return out.start_array(), true; }
    bool end_array() { return out.end_array(), true; }

    bool parse_error(std::size_t position, const std::string& /*last_token*/, const nlohmann::detail::exception& e) {
        // Keep nlohmann's reason (after "column N: "), not its error-code prefix; cap its echo
        // of the input, which may be long.
        std::string_view why = e.what();
        if (const auto colon = why.find(": "); colon != std::string_view::npos) {
            why.remove_prefix(colon + 2);
        }
        std::string reason{why.substr(0, 160)};
        if (why.size() > 160) {
            reason += "...";
        }
        const std::size_t offset = position == 0 ? 0 : position - 1;  // nlohmann counts the byte it read
        throw decode_error(out.pointer(), "invalid JSON at byte " + std::to_string(offset) + ": " + reason, offset);
    }
};

// Decodes into `out` in place; when it throws, `out` is half-written.
template <class T>
void decode_json_events(std::string_view json, T& out, const ecmeta::decode_options& options) {
    ecmeta::detail::check_size(json.size(), options);
    decoder events{out, options};
    json_events sax{events};
    static_cast<void>(nlohmann::json::sax_parse(json.data(), json.data() + json.size(), &sax));
    if (const std::size_t nul = json.find('\0'); nul != std::string_view::npos) {
        throw decode_error("",
                           "invalid JSON at byte " + std::to_string(nul) +
                               ": syntax error while parsing value - unexpected NUL byte; expected end of input",
                           nul);
    }
}

}  // namespace ecmeta_test
