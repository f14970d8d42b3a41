// What every ecmeta test includes: Catch2 (2.x or 3.x), ecmeta with its nlohmann_json glue
// (nlohmann is the tests' reference) and, in the programs that link RapidCheck
// (ECMETA_TEST_PROPERTIES), RapidCheck and the test kit.
#pragma once

#include <ecmeta/testing/catch.hpp>  // brings Catch2 (2 or 3) and says which: ECMETA_TESTING_CATCH2_MAJOR
#if ECMETA_TESTING_CATCH2_MAJOR >= 3
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#endif

#include <ecmeta/ecmeta.hpp>
#include <ecmeta/nlohmann.hpp>

#if ECMETA_TEST_PROPERTIES
#include <rapidcheck.h>

#include <ecmeta/testing/rapidcheck.hpp>

// A property as a Catch2 assertion: RapidCheck prints the shrunk counterexample on failure.
#define ECMETA_PROP(description, ...) REQUIRE(rc::check(description, __VA_ARGS__))
#endif

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ecmeta_test {

// Catch2 3 renamed the substring matcher.
#if ECMETA_TESTING_CATCH2_MAJOR >= 3
using Catch::Matchers::ContainsSubstring;
#else
inline auto ContainsSubstring(const std::string& s) {
    return Catch::Matchers::Contains(s);
}
#endif

using ecmeta::ECMooncakeConnectorMetadata;
using ecmeta::ECMooncakeLoadSpec;
using ecmeta::ECMooncakePushSpec;
using ecmeta::ECMooncakeWorkerMetadata;
using ecmeta::id_set;

// Runs f and returns the decode_error it must throw.
template <class F>
ecmeta::decode_error decode_failure(F&& f) {
    try {
        f();
    } catch (const ecmeta::decode_error& e) {
        return e;
    }
    FAIL("expected a decode_error");
    return ecmeta::decode_error("", "");  // unreachable: FAIL throws
}

inline std::vector<std::uint8_t> bytes(std::initializer_list<int> list) {
    std::vector<std::uint8_t> out;
    for (const int b : list) {
        out.push_back(static_cast<std::uint8_t>(b));
    }
    return out;
}

}  // namespace ecmeta_test
