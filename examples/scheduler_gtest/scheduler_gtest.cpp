// A scheduler-side unit test written with ecmeta's GoogleTest kit: the GoogleTest twin of
// examples/scheduler_test/scheduler_test.cpp, the kind of test a scheduler project keeps next to
// its own code.
// SPDX-License-Identifier: Apache-2.0
#include <ecmeta/testing/gtest.hpp>  // values print as canonical JSON; IsLoadedEverywhere, FoldsTo

#include <rapidcheck/gtest.h>  // RC_GTEST_PROP

#include <ecmeta/ecmeta.hpp>
#include <ecmeta/testing/rapidcheck.hpp>  // rc::Arbitrary for the four types, rank_reports()

#include <optional>
#include <string>
#include <vector>

#include "../scheduler_test/ready_items.hpp"  // the scheduler code under test

using ecmeta::testing::FoldsTo;
using ecmeta::testing::IsLoadedEverywhere;
using ::testing::ElementsAre;
using ::testing::IsEmpty;
using ::testing::Not;
using Ranks = std::vector<std::optional<ecmeta::ECMooncakeWorkerMetadata>>;

// ---- its tests ----------------------------------------------------------------------------

RC_GTEST_PROP(ReadyItems, an_item_one_rank_failed_to_load_is_never_ready, ()) {
    const auto step = *rc::gen::arbitrary<ecmeta::ECMooncakeConnectorMetadata>();
    auto reports = *ecmeta::testing::rank_reports(4);  // ids from one pool: folds keep some
    // Make one rank fail one of the step's items.
    if (!step.loads.empty()) {
        const auto& victim = step.loads[*rc::gen::inRange<std::size_t>(0, step.loads.size())].mm_hash;
        reports[2].loaded.erase(victim);
        reports[2].failed_loads.insert(victim);
    }
    const Ranks ranks(reports.begin(), reports.end());
    for (const auto& id : ready_items(step, ranks)) {
        RC_ASSERT(!reports[2].failed_loads.contains(id));
    }
}

TEST(ReadyItems, silence_is_not_an_empty_report) {
    const ecmeta::ECMooncakeConnectorMetadata step{.loads = {{.mm_hash = "a"}}};
    const ecmeta::ECMooncakeWorkerMetadata has_a{.loaded = {"a"}};
    const Ranks one_silent{has_a, std::nullopt};
    EXPECT_THAT(one_silent, IsLoadedEverywhere("a"));
    EXPECT_THAT(ready_items(step, one_silent), ElementsAre("a"));
    const Ranks one_empty{has_a, ecmeta::ECMooncakeWorkerMetadata{}};
    EXPECT_THAT(one_empty, Not(IsLoadedEverywhere("a")));
    EXPECT_THAT(ready_items(step, one_empty), IsEmpty());
    EXPECT_THAT(ready_items(step, {std::nullopt, std::nullopt}), IsEmpty());
}

TEST(ReadyItems, the_fold_is_what_every_rank_agrees_on) {
    const Ranks ranks{ecmeta::ECMooncakeWorkerMetadata{.loaded = {"a", "b"}, .pending_saves = true},
                      ecmeta::ECMooncakeWorkerMetadata{.loaded = {"b"}, .failed_loads = {"a"}}};
    EXPECT_THAT(ranks, FoldsTo({.loaded = {"b"}, .failed_loads = {"a"}, .pending_saves = true}));
}

RC_GTEST_PROP(Reports, survive_the_wire_unchanged, (const ecmeta::ECMooncakeWorkerMetadata& report)) {
    RC_ASSERT(ecmeta::decode<ecmeta::ECMooncakeWorkerMetadata>(ecmeta::encode(report)) == report);
    RC_ASSERT(ecmeta::validate(report).empty());
}
