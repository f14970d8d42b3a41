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
#include <tuple>
#include <type_traits>
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
        // Rule by rule, as fold_rules says the fold: the sets first, then the flags.
        constexpr auto rules =
            std::make_index_sequence<std::tuple_size_v<decltype(ecmeta::detail::fold_rules<W>::fields)>>{};
        explain_rules(rules, ranks, *folded, why, /*sets=*/true);
        explain_rules(rules, ranks, *folded, why, /*sets=*/false);
        return false;
    }
    void DescribeTo(std::ostream* os) const {
        *os << "folds (aggregate) to " << ecmeta::detail::canonical_text(expected_);
    }
    void DescribeNegationTo(std::ostream* os) const {
        *os << "does not fold (aggregate) to " << ecmeta::detail::canonical_text(expected_);
    }

private:
    template <class Ranks, std::size_t... I>
    void explain_rules(std::index_sequence<I...> /*unused*/, const Ranks& ranks, const W& folded, explanation& why,
                       bool sets) const {
        (explain<I>(ranks, folded, why, sets), ...);
    }

    // Why the fold differs from the expected value in the member rule I folds.
    template <std::size_t I, class Ranks>
    void explain(const Ranks& ranks, const W& folded, explanation& why, bool sets) const {
        constexpr auto rule = std::get<I>(ecmeta::detail::fold_rules<W>::fields);
        using rule_type = std::remove_cvref_t<decltype(rule)>;
        constexpr auto member = rule.member;
        const std::string name{ecmeta::detail::key_of(member)};
        if constexpr (std::is_same_v<rule_type, ecmeta::detail::intersected<W>>) {
            static_assert(member == &W::loaded, "an intersected set other than loaded needs its own words here");
            if (!sets) {
                return;
            }
            // An expected id is missing where some rank lacks it.
            for (const std::string_view id : expected_.*member) {
                if (!(folded.*member).contains(id)) {
                    const auto lacking = ranks_where(ranks, [&](const W& r) { return !(r.*member).contains(id); });
                    why.add(quoted(id) + " is not loaded everywhere: " + ranks_text(lacking) + " did not load it");
                }
            }
            for (const std::string_view id : folded.*member) {
                if (!(expected_.*member).contains(id)) {
                    why.add(quoted(id) + " is loaded on every rank that reported");
                }
            }
        } else if constexpr (std::is_same_v<rule_type, ecmeta::detail::united<W>>) {
            if (!sets) {
                return;
            }
            // An id is there when some rank reports it.
            for (const std::string_view id : expected_.*member) {
                if (!(folded.*member).contains(id)) {
                    why.add("no rank reported " + quoted(id) + " in " + name);
                }
            }
            for (const std::string_view id : folded.*member) {
                if (!(expected_.*member).contains(id)) {
                    const auto from = ranks_where(ranks, [&](const W& r) { return (r.*member).contains(id); });
                    why.add(ranks_text(from) + " reported " + quoted(id) + " in " + name);
                }
            }
        } else {
            static_assert(std::is_same_v<rule_type, ecmeta::detail::any_of<W>>, "a fold rule with no explanation");
            if (sets || folded.*member == expected_.*member) {
                return;
            }
            const auto set = ranks_where(ranks, [&](const W& r) { return r.*member; });
            why.add(set.empty() ? "no rank has " + name : ranks_text(set) + " reported " + name);
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
