// Fails on purpose: ctest runs it and checks what GoogleTest printed (tests/gtest/failure_output.cmake).
#include <ecmeta/testing/gtest.hpp>

#include <optional>
#include <vector>

TEST(deliberately, failing) {
    const ecmeta::ECMooncakeWorkerMetadata expected{.loaded = {"a", "b"}};
    const ecmeta::ECMooncakeWorkerMetadata actual{.loaded = {"b"}, .failed_loads = {"a"}};
    EXPECT_EQ(expected, actual);
    const std::vector<std::optional<ecmeta::ECMooncakeWorkerMetadata>> ranks{expected, std::nullopt, actual};
    EXPECT_THAT(ranks, ecmeta::testing::IsLoadedEverywhere("a"));
}
