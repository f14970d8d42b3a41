// The scheduler code the two example tests test (scheduler_test.cpp with Catch2,
// ../scheduler_gtest/scheduler_gtest.cpp with GoogleTest): the kind of code a scheduler project has.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <ecmeta/metadata.hpp>

// Which of this step's loads the language model may use: those every rank reports loaded.
// Silent ranks are skipped; if no rank reported, nothing is ready.
inline std::vector<std::string> ready_items(const ecmeta::ECMooncakeConnectorMetadata& step,
                                            const std::vector<std::optional<ecmeta::ECMooncakeWorkerMetadata>>& ranks) {
    const auto seen = ecmeta::aggregate(ranks);
    std::vector<std::string> ready;
    if (!seen) {
        return ready;
    }
    for (const auto& load : step.loads) {
        if (seen->loaded.contains(load.mm_hash)) {
            ready.push_back(load.mm_hash);
        }
    }
    return ready;
}
