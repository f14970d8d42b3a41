// The test kit itself: what it draws is valid and realistic, and Catch2 prints it as JSON.
#include "test.hpp"

using namespace ecmeta_test;

TEST_CASE("every value the kit draws passes validate", "[testing]") {
    ECMETA_PROP("load specs are valid", [](const ECMooncakeLoadSpec& v) { RC_ASSERT(ecmeta::validate(v).empty()); });
    ECMETA_PROP("push specs are valid", [](const ECMooncakePushSpec& v) { RC_ASSERT(ecmeta::validate(v).empty()); });
    ECMETA_PROP("connector steps are valid",
                [](const ECMooncakeConnectorMetadata& v) { RC_ASSERT(ecmeta::validate(v).empty()); });
    ECMETA_PROP("worker reports are valid",
                [](const ECMooncakeWorkerMetadata& v) { RC_ASSERT(ecmeta::validate(v).empty()); });
    ECMETA_PROP("rank reports are each valid", [] {
        const auto ranks = *ecmeta::testing::rank_reports(4);
        RC_ASSERT(ranks.size() == 4U);
        for (const auto& r : ranks) {
            RC_ASSERT(ecmeta::validate(r).empty());
        }
    });
}

TEST_CASE("rank reports share a pool: folds keep something loaded in a fair share of cases", "[testing]") {
    int kept = 0;
    int overlapping_failures = 0;
    constexpr int samples = 300;
    const auto gen = ecmeta::testing::rank_reports(4);
    for (int i = 0; i < samples; ++i) {
        const auto ranks = gen(rc::Random(static_cast<std::uint64_t>(i) * 7919U + 1U), 50).value();
        const auto folded = ecmeta::aggregate(ranks);
        REQUIRE(folded.has_value());
        kept += folded->loaded.empty() ? 0 : 1;
        std::size_t failures = 0;
        for (const auto& r : ranks) {
            failures += r.failed_loads.size();
        }
        overlapping_failures += failures > folded->failed_loads.size() ? 1 : 0;
    }
    CHECK(kept > samples / 4);
    CHECK(overlapping_failures > samples / 20);
}

TEST_CASE("Catch2 prints the types as canonical JSON", "[testing]") {
    const ECMooncakeWorkerMetadata w{.loaded = {"b", "a"}};
    CHECK(Catch::StringMaker<ECMooncakeWorkerMetadata>::convert(w) == ecmeta::encode(w));
    CHECK(Catch::Detail::stringify(ECMooncakeLoadSpec{}) == ecmeta::encode(ECMooncakeLoadSpec{}));
    CHECK(Catch::StringMaker<ECMooncakeWorkerMetadata>::convert({.loaded = {"\xff"}})
              .starts_with("<no wire form: /loaded/0"));
}

TEST_CASE("the kit's ids look like the real ones", "[testing]") {
    ECMETA_PROP("mm_hash is 64 or 128 hex digits, maybe LoRA-scoped", [] {
        const auto h = *ecmeta::testing::gen::mm_hash();
        const auto digest = h.substr(h.find(':') == std::string::npos ? 0 : h.find(':') + 1);
        RC_ASSERT(digest.size() == 64U || digest.size() == 128U);
        RC_ASSERT(digest.find_first_not_of("0123456789abcdef") == std::string::npos);
    });
}
