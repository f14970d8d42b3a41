// ecmeta::testing — GoogleTest and gMock: values print as canonical JSON, and matchers over the
// ranks' reports say which rank fell short. Needs GoogleTest and gMock 1.10 or later (ecmeta::gtest).
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "../version.hpp"

#include <cstddef>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "../detail/text.hpp"
#include "../metadata.hpp"

namespace ecmeta::inline ECMETA_ABI {

// GoogleTest finds these by ADL: EXPECT_EQ, EXPECT_THAT and RC_GTEST_PROP show canonical JSON.
template <class T>
requires detail::described<T>
void PrintTo(const T& value, std::ostream* os) {
    *os << detail::canonical_text(value);
}
inline void PrintTo(const id_set& value, std::ostream* os) {
    *os << detail::canonical_text(value);
}
// The ranks' reports, null for a rank that said nothing.
inline void PrintTo(const std::vector<std::optional<ECMooncakeWorkerMetadata>>& ranks, std::ostream* os) {
    *os << detail::canonical_text(ranks);
}

namespace testing {
namespace detail {

using W = ECMooncakeWorkerMetadata;

// A rank's report, or null for a rank that said nothing: the ranks may be reports or optional ones.
inline const W* report_of(const W& report) {
    return &report;
}
inline const W* report_of(const std::optional<W>& report) {
    return report ? &*report : nullptr;
}

// An id as JSON writes it.
inline std::string quoted(std::string_view id) {
    std::string out;
    ecmeta::detail::json::append_string(out, id);
    return out;
}

// "rank 0", "ranks 1, 3".
inline std::string ranks_text(const std::vector<std::size_t>& ranks) {
    std::string out = ranks.size() == 1 ? "rank " : "ranks ";
    for (std::size_t i = 0; i < ranks.size(); ++i) {
        out += (i == 0 ? "" : ", ") + std::to_string(ranks[i]);
    }
    return out;
}

// Joins what a matcher explains with "; ".
class explanation {
public:
    explicit explanation(::testing::MatchResultListener* listener) : listener_(listener) {}
    void add(const std::string& line) {
        *listener_ << (first_ ? "" : "; ") << line;
        first_ = false;
    }

private:
    ::testing::MatchResultListener* listener_;
    bool first_ = true;
};

// The ranks (in order, silent ones skipped) whose report satisfies has(report).
template <class Ranks, class Has>
std::vector<std::size_t> ranks_where(const Ranks& ranks, Has&& has) {
    std::vector<std::size_t> out;
    std::size_t rank = 0;
    for (const auto& r : ranks) {
        if (const W* report = report_of(r); report != nullptr && has(*report)) {
            out.push_back(rank);
        }
        ++rank;
    }
    return out;
}

class loaded_everywhere {
public:
    explicit loaded_everywhere(std::string id) : id_(std::move(id)) {}

    template <class Ranks>
    bool MatchAndExplain(const Ranks& ranks, ::testing::MatchResultListener* listener) const {
        explanation why{listener};
        const auto reported = ranks_where(ranks, [](const W&) { return true; });
        if (reported.empty()) {
            why.add("no rank reported");
            return false;
        }
        const auto failed = ranks_where(ranks, [&](const W& r) { return r.failed_loads.contains(id_); });
        const auto lacking =
            ranks_where(ranks, [&](const W& r) { return !r.loaded.contains(id_) && !r.failed_loads.contains(id_); });
        if (!failed.empty()) {
            why.add(ranks_text(failed) + " failed to load it");
        }
        if (!lacking.empty()) {
            why.add(ranks_text(lacking) + " did not report it loaded");
        }
        if (failed.empty() && lacking.empty()) {
            why.add("loaded on " + ranks_text(reported) + ", every rank that reported");
        }
        return failed.empty() && lacking.empty();
    }
    void DescribeTo(std::ostream* os) const {
        *os << "has " << quoted(id_) << " loaded on every rank that reported (silent ranks skipped)";
    }
    void DescribeNegationTo(std::ostream* os) const {
        *os << "has " << quoted(id_) << " not loaded on some rank that reported, or no rank reported";
    }

private:
    std::string id_;
};

class folds_to {
public:
    explicit folds_to(W expected) : expected_(std::move(expected)) {}

    template <class Ranks>
    bool MatchAndExplain(const Ranks& ranks, ::testing::MatchResultListener* listener) const {
        explanation why{listener};
        const std::optional<W> folded = ecmeta::aggregate(ranks);
        if (!folded) {
            why.add("no rank reported, so there is no fold");
            return false;
        }
        if (*folded == expected_) {
            return true;
        }
        why.add("the fold is " + ecmeta::detail::canonical_text(*folded));
        // Loaded is intersected: an expected id is missing where some rank lacks it.
        for (const std::string_view id : expected_.loaded) {
            if (!folded->loaded.contains(id)) {
                const auto lacking = ranks_where(ranks, [&](const W& r) { return !r.loaded.contains(id); });
                why.add(quoted(id) + " is not loaded everywhere: " + ranks_text(lacking) + " did not load it");
            }
        }
        for (const std::string_view id : folded->loaded) {
            if (!expected_.loaded.contains(id)) {
                why.add(quoted(id) + " is loaded on every rank that reported");
            }
        }
        // The other sets are united: an id is there when some rank reports it.
        united<&W::failed_loads>(ranks, *folded, why);
        united<&W::reclaimed>(ranks, *folded, why);
        united<&W::failed_saves>(ranks, *folded, why);
        if (folded->pending_saves != expected_.pending_saves) {
            const auto pending = ranks_where(ranks, [](const W& r) { return r.pending_saves; });
            why.add(pending.empty() ? std::string{"no rank has pending_saves"}
                                    : ranks_text(pending) + " reported pending_saves");
        }
        return false;
    }
    void DescribeTo(std::ostream* os) const {
        *os << "folds (aggregate) to " << ecmeta::detail::canonical_text(expected_);
    }
    void DescribeNegationTo(std::ostream* os) const {
        *os << "does not fold (aggregate) to " << ecmeta::detail::canonical_text(expected_);
    }

private:
    template <auto member, class Ranks>
    void united(const Ranks& ranks, const W& folded, explanation& why) const {
        constexpr std::string_view name = ecmeta::detail::wire_name(member);
        for (const std::string_view id : expected_.*member) {
            if (!(folded.*member).contains(id)) {
                why.add("no rank reported " + quoted(id) + " in " + std::string{name});
            }
        }
        for (const std::string_view id : folded.*member) {
            if (!(expected_.*member).contains(id)) {
                const auto from = ranks_where(ranks, [&](const W& r) { return (r.*member).contains(id); });
                why.add(ranks_text(from) + " reported " + quoted(id) + " in " + std::string{name});
            }
        }
    }

    W expected_;
};

}  // namespace detail

// Matches the ranks' reports (a range of ECMooncakeWorkerMetadata or of std::optional of it, null
// for a silent rank) when every rank that reported has `id` loaded, so the fold has it: the item
// is ready. Its failure says which ranks failed the load and which did not report it.
inline ::testing::PolymorphicMatcher<detail::loaded_everywhere> IsLoadedEverywhere(std::string id) {
    return ::testing::MakePolymorphicMatcher(detail::loaded_everywhere{std::move(id)});
}

// Matches the ranks' reports when aggregate() of them is `expected`. Its failure shows the fold and,
// for every id or flag that differs, the ranks it comes from or that lack it.
inline ::testing::PolymorphicMatcher<detail::folds_to> FoldsTo(ECMooncakeWorkerMetadata expected) {
    return ::testing::MakePolymorphicMatcher(detail::folds_to{std::move(expected)});
}

}  // namespace testing
}  // namespace ecmeta
