#include "test.hpp"

std::string ecmeta_odr_a();

TEST_CASE("two translation units with every header link and agree", "[odr]") {
    CHECK(ecmeta_odr_a() == ecmeta::encode(ecmeta::ECMooncakeWorkerMetadata{.loaded = {"a"}}) +
                                std::to_string(ecmeta::validate(ecmeta::ECMooncakeLoadSpec{}).size()));
}
