// A scheduler-side unit test written with ecmeta's test kit: the kind of test a scheduler
// project keeps next to its own code.
// SPDX-License-Identifier: Apache-2.0
#define CATCH_CONFIG_MAIN            // Catch2 2: main is here; Catch2 3: link Catch2::Catch2WithMain
#include <ecmeta/testing/catch.hpp>  // failing REQUIREs print the values as canonical JSON
#if ECMETA_TESTING_CATCH2_MAJOR >= 3
#include <catch2/catch_test_macros.hpp>
#endif

#include <rapidcheck.h>

#include <ecmeta/ecmeta.hpp>
#include <ecmeta/testing/rapidcheck.hpp>  // rc::Arbitrary for the four types, rank_reports()

#include <optional>
#include <string>
#include <vector>

#include "ready_items.hpp"  // the scheduler code under test

// ---- its tests ----------------------------------------------------------------------------

TEST_CASE("an item one rank failed to load is never ready") {
    REQUIRE(rc::check([] {
        const auto step = *rc::gen::arbitrary<ecmeta::ECMooncakeConnectorMetadata>();
        auto reports = *ecmeta::testing::rank_reports(4);  // ids from one pool: folds keep some
        // Make one rank fail one of the step's items.
        if (!step.loads.empty()) {
            const auto& victim = step.loads[*rc::gen::inRange<std::size_t>(0, step.loads.size())].mm_hash;
            reports[2].loaded.erase(victim);
            reports[2].failed_loads.insert(victim);
        }
        const std::vector<std::optional<ecmeta::ECMooncakeWorkerMetadata>> ranks(reports.begin(), reports.end());
        for (const auto& id : ready_items(step, ranks)) {
            RC_ASSERT(!reports[2].failed_loads.contains(id));
        }
    }));
}

TEST_CASE("silence is not an empty report") {
    const ecmeta::ECMooncakeConnectorMetadata step{.loads = {{.mm_hash = "a"}}};
    const ecmeta::ECMooncakeWorkerMetadata has_a{.loaded = {"a"}};
    CHECK(ready_items(step, {has_a, std::nullopt}) == std::vector<std::string>{"a"});
    CHECK(ready_items(step, {has_a, ecmeta::ECMooncakeWorkerMetadata{}}).empty());
    CHECK(ready_items(step, {std::nullopt, std::nullopt}).empty());
}

TEST_CASE("reports survive the wire unchanged") {
    REQUIRE(rc::check([](const ecmeta::ECMooncakeWorkerMetadata& report) {
        RC_ASSERT(ecmeta::decode<ecmeta::ECMooncakeWorkerMetadata>(ecmeta::encode(report)) == report);
        RC_ASSERT(ecmeta::validate(report).empty());
    }));
}
