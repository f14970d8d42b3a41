// decode on simdjson (when this build has it) against the nlohmann path: the same value or the
// same error for every document, including those only one of the two parsers accepts.
#include <optional>
#include <string>
#include <string_view>

#include "../fuzz/properties.hpp"
#include "test.hpp"

using namespace ecmeta_test;

namespace {

constexpr bool on_simdjson = ecmeta::json_backend() == "simdjson";

// Checks both decoders of T on `json`, printing what each gave.
template <class T>
void require_agreement(std::string_view json, const ecmeta::decode_options& options = {}) {
    using outcome = ecmeta_fuzz::outcome<T>;
    const auto fast = outcome::of([&] { return ecmeta::decode<T>(json, options); });
    const auto reference = outcome::of([&] { return ecmeta::detail::decode_nlohmann<T>(json, options); });
    INFO("input: " << json);
    CHECK(fast.what == reference.what);
    CHECK(fast.pointer == reference.pointer);
    CHECK(fast.offset == reference.offset);
    CHECK(fast.value == reference.value);
}

// True when simdjson alone decodes `json` (no fallback to nlohmann).
template <class T>
bool simdjson_decodes([[maybe_unused]] std::string_view json) {
#if defined(ECMETA_USE_SIMDJSON) && ECMETA_USE_SIMDJSON
    T value{};
    return ecmeta::detail::decode_simdjson(json, ecmeta::decode_options{}, value);
#else
    return false;
#endif
}

const std::string report =
    ecmeta::encode(ECMooncakeWorkerMetadata{.loaded = {"a", "b"}, .failed_loads = {"c"}, .pending_saves = true});

}  // namespace

TEST_CASE("json_backend names the parser this build decodes with", "[backends]") {
#if defined(ECMETA_USE_SIMDJSON) && ECMETA_USE_SIMDJSON
    CHECK(ecmeta::json_backend() == "simdjson");
#else
    CHECK(ecmeta::json_backend() == "nlohmann");
#endif
}

TEST_CASE("canonical documents decode on simdjson itself", "[backends]") {
    CHECK(simdjson_decodes<ECMooncakeWorkerMetadata>(report) == on_simdjson);
    CHECK(ecmeta::decode<ECMooncakeWorkerMetadata>(report) ==
          ECMooncakeWorkerMetadata{.loaded = {"a", "b"}, .failed_loads = {"c"}, .pending_saves = true});
}

TEST_CASE("documents only nlohmann accepts decode to nlohmann's value", "[backends]") {
    // simdjson refuses each of these; nlohmann reads them, so decode must too.
    const std::string deep = std::string(2000, '[') + std::string(2000, ']');
    const std::string beyond_depth = R"({"ignored":)" + deep + R"(,"loaded":["x"]})";
    const std::string with_bom = "\xEF\xBB\xBF" + report;
    const std::string big_integer = R"({"n":123456789012345678901234567890,"loaded":["x"]})";
    for (const std::string& json : {beyond_depth, with_bom, big_integer}) {
        CAPTURE(json.substr(0, 60));
        CHECK_FALSE(simdjson_decodes<ECMooncakeWorkerMetadata>(json));
        CHECK_NOTHROW(ecmeta::detail::decode_nlohmann<ECMooncakeWorkerMetadata>(json));
        require_agreement<ECMooncakeWorkerMetadata>(json);
    }
    CHECK(ecmeta::decode<ECMooncakeWorkerMetadata>(beyond_depth).loaded == ecmeta::id_set{"x"});
    // nlohmann's lexer takes a NUL byte for the end of the input; decode refuses what follows the
    // value there too, on both, as JSON text never holds a NUL.
    const std::string nul_after_value = report + std::string{'\0'} + "anything";
    CHECK_FALSE(simdjson_decodes<ECMooncakeWorkerMetadata>(nul_after_value));
    CHECK_THROWS_AS(ecmeta::detail::decode_nlohmann<ECMooncakeWorkerMetadata>(nul_after_value), ecmeta::decode_error);
    require_agreement<ECMooncakeWorkerMetadata>(nul_after_value);
}

TEST_CASE("minus zero (-0) is the integer 0 on both", "[backends]") {
    const std::string_view minus_zero = R"({"mm_hash":"h","nbytes":-0,"shape":[],"dtype":"d","transfer_id":"t"})";
    CHECK(simdjson_decodes<ECMooncakeLoadSpec>(minus_zero) == on_simdjson);
    CHECK(ecmeta::decode<ECMooncakeLoadSpec>(minus_zero).nbytes == 0);
    require_agreement<ECMooncakeLoadSpec>(minus_zero);
}

TEST_CASE("every error is nlohmann's, word for word, pointer and offset", "[backends]") {
    for (const std::string_view json : {
             "",
             " ",
             "{",
             R"({"loaded":["a",]})",
             R"({"loaded":["a"]} x)",
             R"({"loaded":["a", 1]})",
             R"({"loaded":"a"})",
             R"({"loaded":["\ud800"]})",
             "{\"loaded\":[\"\xff\"]}",
             "{\"loaded\":[\"\x01\"]}",
             R"({"pending_saves":1})",
             R"({"pending_saves":1.5})",
             R"({"pending_saves":1e400})",
             R"({"pending_saves":18446744073709551616})",
             R"({"loaded":null})",
             R"([{"loaded":[]},{"loaded":[2]}])",
         }) {
        require_agreement<ECMooncakeWorkerMetadata>(json);
        require_agreement<std::vector<std::optional<ECMooncakeWorkerMetadata>>>(json);
    }
    require_agreement<ECMooncakeWorkerMetadata>(std::string_view{"{} \0 x", 6});  // NUL after the value
    require_agreement<ECMooncakeLoadSpec>(R"({"mm_hash":"h","nbytes":4,"shape":[1,-2],"dtype":"d","transfer_id":"t"})");
    require_agreement<ECMooncakeLoadSpec>(R"({"mm_hash":"h","nbytes":4,"dtype":"d","transfer_id":"t"})");
    require_agreement<ECMooncakeConnectorMetadata>(R"({"loads":[{"mm_hash":"h","nbytes":"4"}]})");
}

TEST_CASE("unknown keys, duplicate keys, strict mode and the size limit behave alike", "[backends]") {
    const std::string unknown = R"({"extra":{"deep":[1.5,{"x":null}]},"loaded":["a"],"loaded":["b","c"]})";
    CHECK(simdjson_decodes<ECMooncakeWorkerMetadata>(unknown) == on_simdjson);
    CHECK(ecmeta::decode<ECMooncakeWorkerMetadata>(unknown).loaded == ecmeta::id_set{"b", "c"});  // the later wins
    require_agreement<ECMooncakeWorkerMetadata>(unknown);
    require_agreement<ECMooncakeWorkerMetadata>(unknown, {.reject_unknown_keys = true});
    require_agreement<ECMooncakeWorkerMetadata>(report, {.max_input_bytes = report.size() - 1});
    require_agreement<ECMooncakeWorkerMetadata>(report, {.max_input_bytes = report.size()});
}

TEST_CASE("unsorted and duplicated ids come out sorted and unique on both", "[backends]") {
    const std::string json = R"({"loaded":["c","a","c","b","a"],"failed_loads":["z","y"]})";
    CHECK(simdjson_decodes<ECMooncakeWorkerMetadata>(json) == on_simdjson);
    CHECK(ecmeta::decode<ECMooncakeWorkerMetadata>(json).loaded == ecmeta::id_set{"a", "b", "c"});
    require_agreement<ECMooncakeWorkerMetadata>(json);
}

TEST_CASE("with padding promised, decode reads the caller's bytes in place and leaves them be", "[backends]") {
    std::string buffer = report;
    buffer.reserve(report.size() + ecmeta::json_padding);
    const std::string before = buffer;
    const auto value = ecmeta::decode<ECMooncakeWorkerMetadata>(buffer, {.padding = buffer.capacity() - buffer.size()});
    CHECK(value == ecmeta::decode<ECMooncakeWorkerMetadata>(report));
    CHECK(buffer == before);
    // A document that ends early in a padded buffer is still read only up to its size.
    const std::string_view prefix{buffer.data(), buffer.size() - 1};
    require_agreement<ECMooncakeWorkerMetadata>(prefix, {.padding = ecmeta::json_padding});
}

TEST_CASE("random documents and their mutations decode alike on both", "[backends]") {
    ECMETA_PROP("decode == decode_nlohmann", [](const ECMooncakeConnectorMetadata& step, std::uint8_t byte) {
        std::string json = ecmeta::encode(step);
        const auto at = *rc::gen::inRange<std::size_t>(0, json.size() + 1);
        const auto how = *rc::gen::inRange(0, 3);
        if (how == 0) {
            json.resize(at);  // truncated
        } else if (how == 1 && at < json.size()) {
            json[at] = static_cast<char>(byte);  // one byte replaced
        }
        using outcome = ecmeta_fuzz::outcome<ECMooncakeConnectorMetadata>;
        const auto fast = outcome::of([&] { return ecmeta::decode<ECMooncakeConnectorMetadata>(json); });
        const auto reference =
            outcome::of([&] { return ecmeta::detail::decode_nlohmann<ECMooncakeConnectorMetadata>(json); });
        RC_ASSERT(fast.what == reference.what);
        RC_ASSERT(fast.offset == reference.offset);
        RC_ASSERT(fast.value == reference.value);
    });
}
