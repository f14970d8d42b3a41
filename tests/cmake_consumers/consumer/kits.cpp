// A consumer of the installed GoogleTest kit and {fmt} formatters (ecmeta::gtest, ecmeta::fmt).
#include <ecmeta/ecmeta.hpp>
#include <ecmeta/fmt.hpp>
#include <ecmeta/testing/gtest.hpp>

#include <optional>
#include <vector>

TEST(installed_kits, match_and_format) {
    const std::vector<std::optional<ecmeta::ECMooncakeWorkerMetadata>> ranks{
        ecmeta::ECMooncakeWorkerMetadata{.loaded = {"a"}}, std::nullopt};
    EXPECT_THAT(ranks, ecmeta::testing::IsLoadedEverywhere("a"));
    EXPECT_EQ(fmt::format("{:s}", *ranks[0]),
              "1 loaded, 0 failed loads, 0 reclaimed, no saves pending, 0 failed saves");
}
