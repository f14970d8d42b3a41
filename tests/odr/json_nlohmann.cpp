// The other half (see json_simdjson.cpp): this translation unit decodes on nlohmann. Were both
// decode<T> one symbol, the linker would keep one, and one of the checks below would fail.
#undef ECMETA_USE_SIMDJSON
#define ECMETA_USE_SIMDJSON 0

#include <cstddef>
#include <string>
#include <string_view>
#include <thread>

#include "test.hpp"

std::string_view ecmeta_odr_simdjson_backend();
ecmeta::ECMooncakeWorkerMetadata ecmeta_odr_simdjson_decode(std::string_view json);
std::size_t ecmeta_odr_simdjson_copy_capacity();

TEST_CASE("translation units with and without simdjson link into one program and keep their own decode",
          "[odr][backends]") {
    CHECK(ecmeta::json_backend() == "nlohmann");
    CHECK(ecmeta_odr_simdjson_backend() == "simdjson");

    const std::string json = ecmeta::encode(ecmeta::ECMooncakeWorkerMetadata{.loaded = {std::string(1000, 'a')}});
    std::size_t after_nlohmann = 1;
    std::size_t after_simdjson = 0;
    bool same_value = false;
    // A fresh thread, so its simdjson state starts empty.
    std::thread{[&] {
        const auto from_nlohmann = ecmeta::decode<ecmeta::ECMooncakeWorkerMetadata>(json);
        after_nlohmann = ecmeta_odr_simdjson_copy_capacity();
        const auto from_simdjson = ecmeta_odr_simdjson_decode(json);
        after_simdjson = ecmeta_odr_simdjson_copy_capacity();
        same_value = from_nlohmann == from_simdjson;
    }}.join();
    CHECK(after_nlohmann == 0);
    CHECK(after_simdjson >= json.size() + ecmeta::json_padding);
    CHECK(same_value);
}
