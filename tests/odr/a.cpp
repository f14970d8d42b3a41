// Two translation units include every header: a missing `inline` fails to link.
#include <ecmeta/ecmeta.hpp>
#include <ecmeta/testing/catch.hpp>
#include <ecmeta/testing/rapidcheck.hpp>

std::string ecmeta_odr_a() {
    return ecmeta::encode(ecmeta::ECMooncakeWorkerMetadata{.loaded = {"a"}}) +
           std::to_string(ecmeta::validate(ecmeta::ECMooncakeLoadSpec{}).size());
}
