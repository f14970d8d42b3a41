// The GoogleTest kit and the {fmt} formatters: what a failing expectation, a matcher and a log line show.
#include <ecmeta/ecmeta.hpp>
#include <ecmeta/fmt.hpp>
#include <ecmeta/testing/gtest.hpp>

#include <fmt/format.h>

#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace {

using ecmeta::ECMooncakeConnectorMetadata;
using ecmeta::ECMooncakeWorkerMetadata;
using ::testing::HasSubstr;
using ::testing::Not;
using Ranks = std::vector<std::optional<ECMooncakeWorkerMetadata>>;

const ECMooncakeWorkerMetadata rank0{.loaded = {"a", "b"}, .pending_saves = true};
const ECMooncakeWorkerMetadata rank2{.loaded = {"b"}, .failed_loads = {"a"}, .failed_saves = {"req-1"}};
const Ranks ranks{rank0, std::nullopt, rank2};

template <class Matcher, class Value>
std::string explain(const Matcher& matcher, const Value& value) {
    ::testing::StringMatchResultListener listener;
    static_cast<void>(::testing::Matcher<const Value&>(matcher).MatchAndExplain(value, &listener));
    return listener.str();
}

}  // namespace

TEST(PrintTo, shows_canonical_json) {
    EXPECT_EQ(::testing::PrintToString(rank0), ecmeta::encode(rank0));
    EXPECT_EQ(::testing::PrintToString(rank0.loaded), R"(["a","b"])");
    EXPECT_EQ(::testing::PrintToString(ranks), ecmeta::encode(ranks));
    const ECMooncakeConnectorMetadata step{.loads = {{.mm_hash = "h", .nbytes = 2, .dtype = "int16"}}};
    EXPECT_EQ(::testing::PrintToString(step), ecmeta::encode(step));
    EXPECT_EQ(::testing::PrintToString(step.loads[0]), ecmeta::encode(step.loads[0]));
}

TEST(PrintTo, a_string_that_is_not_utf8_prints_a_note_and_does_not_throw) {
    const ECMooncakeWorkerMetadata bad{.loaded = {"\xff"}};
    EXPECT_EQ(::testing::PrintToString(bad), "<no wire form: /loaded/0: expected a UTF-8 string, got invalid UTF-8>");
}

TEST(IsLoadedEverywhere, matches_when_every_rank_that_reported_loaded_the_id) {
    EXPECT_THAT(ranks, ecmeta::testing::IsLoadedEverywhere("b"));
    EXPECT_THAT(ranks, Not(ecmeta::testing::IsLoadedEverywhere("a")));
    EXPECT_THAT((Ranks{std::nullopt}), Not(ecmeta::testing::IsLoadedEverywhere("a")));
    // Plain reports too, not only optional ones.
    EXPECT_THAT((std::vector<ECMooncakeWorkerMetadata>{rank0, rank2}), ecmeta::testing::IsLoadedEverywhere("b"));
}

TEST(IsLoadedEverywhere, says_which_rank_fell_short) {
    const Ranks three{rank0, ECMooncakeWorkerMetadata{}, rank2};
    EXPECT_EQ(explain(ecmeta::testing::IsLoadedEverywhere("a"), three),
              "rank 2 failed to load it; rank 1 did not report it loaded");
    EXPECT_EQ(explain(ecmeta::testing::IsLoadedEverywhere("b"), ranks),
              "loaded on ranks 0, 2, every rank that reported");
    EXPECT_EQ(explain(ecmeta::testing::IsLoadedEverywhere("b"), Ranks{std::nullopt}), "no rank reported");
    EXPECT_EQ(::testing::DescribeMatcher<Ranks>(ecmeta::testing::IsLoadedEverywhere("a")),
              R"(has "a" loaded on every rank that reported (silent ranks skipped))");
}

TEST(FoldsTo, matches_the_aggregate) {
    EXPECT_THAT(ranks, ecmeta::testing::FoldsTo(*ecmeta::aggregate(ranks)));
    EXPECT_THAT(ranks, ecmeta::testing::FoldsTo(
                           {.loaded = {"b"}, .failed_loads = {"a"}, .pending_saves = true, .failed_saves = {"req-1"}}));
    EXPECT_THAT(ranks, Not(ecmeta::testing::FoldsTo(rank0)));
    EXPECT_THAT((Ranks{std::nullopt}), Not(ecmeta::testing::FoldsTo({})));
}

TEST(FoldsTo, names_the_ranks_behind_each_difference) {
    const std::string why = explain(ecmeta::testing::FoldsTo(ECMooncakeWorkerMetadata{.loaded = {"a", "c"}}), ranks);
    EXPECT_THAT(why, HasSubstr(R"(the fold is {"loaded":["b"],"failed_loads":["a"],)"));
    EXPECT_THAT(why, HasSubstr(R"("a" is not loaded everywhere: rank 2 did not load it)"));
    EXPECT_THAT(why, HasSubstr(R"("c" is not loaded everywhere: ranks 0, 2 did not load it)"));
    EXPECT_THAT(why, HasSubstr(R"("b" is loaded on every rank that reported)"));
    EXPECT_THAT(why, HasSubstr(R"(rank 2 reported "a" in failed_loads)"));
    EXPECT_THAT(why, HasSubstr(R"(rank 2 reported "req-1" in failed_saves)"));
    EXPECT_THAT(why, HasSubstr("rank 0 reported pending_saves"));
    const std::string missing =
        explain(ecmeta::testing::FoldsTo(ECMooncakeWorkerMetadata{.loaded = {"b"}, .reclaimed = {"r"}}), ranks);
    EXPECT_THAT(missing, HasSubstr(R"(no rank reported "r" in reclaimed)"));
}

TEST(ostream, writes_canonical_json) {
    std::ostringstream os;
    os << rank0 << ' ' << rank0.loaded;
    EXPECT_EQ(os.str(), ecmeta::encode(rank0) + R"( ["a","b"])");
}

TEST(fmt, braces_give_canonical_json_and_s_the_short_form) {
    const ECMooncakeConnectorMetadata step{
        .loads = {{.mm_hash = "0123456789abcdef0123", .nbytes = 8, .shape = {2, 2}, .dtype = "int16"},
                  {.mm_hash = "x", .local = true}},
        .pushes = {{.mm_hash = "p", .nbytes = 2, .shape = {1}, .dtype = "int16", .consumer_zmq = "ipc:///c"}}};
    EXPECT_EQ(fmt::format("{}", step), ecmeta::encode(step));
    EXPECT_EQ(fmt::format("{:s}", step), "2 loads, 1 push, freed null");
    EXPECT_EQ(fmt::format("{:s}", ECMooncakeConnectorMetadata{.freed = std::vector<std::string>{"f"}}),
              "0 loads, 0 pushes, freed 1");
    EXPECT_EQ(fmt::format("{:s}", step.loads[0]), "load 0123456789abcdef… 8 B int16[2,2]");
    EXPECT_EQ(fmt::format("{:s}", step.loads[1]), "load x 0 B [] local");
    EXPECT_EQ(fmt::format("{:s}", step.pushes[0]), "push p 2 B int16[1] to ipc:///c");
    EXPECT_EQ(fmt::format("{:s}", rank2), "1 loaded, 1 failed load, 0 reclaimed, no saves pending, 1 failed save");
    EXPECT_EQ(fmt::format("{}", rank0), ecmeta::encode(rank0));
    EXPECT_EQ(fmt::format("{} {:s}", rank0.loaded, rank0.loaded), R"(["a","b"] 2 ids)");
    EXPECT_THROW(static_cast<void>(fmt::format(fmt::runtime("{:x}"), rank0)), fmt::format_error);
}
