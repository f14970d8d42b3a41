// The laws of the fold, stated as RapidCheck properties: an item counts as loaded only when every
// rank that reported loaded it, and a failure any rank reports is kept; so the fold is
// commutative, associative and idempotent, and silent ranks are skipped. Reports are drawn by the
// test kit from a shared id pool, so that intersections are not trivially empty.
#include "test.hpp"
#include "wild.hpp"

#include <algorithm>
#include <functional>
#include <set>

using namespace ecmeta_test;
using W = ECMooncakeWorkerMetadata;

namespace {

// The obvious model, independent of id_set: std::set_intersection / std::set_union over
// std::set<std::string> copies of the ids.
W model(const W& a, const W& b) {
    using strings = std::set<std::string>;
    const auto meet = [](const id_set& x, const id_set& y) {
        const strings sx(x.begin(), x.end());
        const strings sy(y.begin(), y.end());
        strings out;
        std::set_intersection(sx.begin(), sx.end(), sy.begin(), sy.end(), std::inserter(out, out.end()));
        return id_set(out);
    };
    const auto join = [](const id_set& x, const id_set& y) {
        strings out(x.begin(), x.end());
        out.insert(y.begin(), y.end());
        return id_set(out);
    };
    W r;
    r.loaded = meet(a.loaded, b.loaded);
    r.failed_loads = join(a.failed_loads, b.failed_loads);
    r.reclaimed = join(a.reclaimed, b.reclaimed);
    r.pending_saves = a.pending_saves || b.pending_saves;
    r.failed_saves = join(a.failed_saves, b.failed_saves);
    return r;
}

bool subset(const id_set& small, const id_set& big) {
    return std::includes(big.begin(), big.end(), small.begin(), small.end());
}

// Folds ranks[lo, hi) by a random bracketing: a tree reduction as across hosts.
W tree_fold(const std::vector<W>& ranks, std::size_t lo, std::size_t hi) {
    if (hi - lo == 1) {
        return ranks[lo];
    }
    const auto mid = *rc::gen::inRange(lo + 1, hi);
    return tree_fold(ranks, lo, mid).aggregate(tree_fold(ranks, mid, hi));
}

// Each id of the pool, with the given chance in percent.
id_set some_of(const std::vector<std::string>& pool, int percent) {
    id_set out;
    for (const auto& id : pool) {
        if (*rc::gen::resize(rc::kNominalSize, rc::gen::inRange(0, 100)) < percent) {
            out.insert(id);
        }
    }
    return out;
}

// Ranks over a pool of tricky ids, most of it loaded everywhere.
rc::Gen<std::vector<W>> tricky_ranks() {
    return rc::gen::exec([] {
        const auto pool = *rc::gen::container<std::vector<std::string>>(wild::tricky_id());
        const auto n = *rc::gen::inRange<std::size_t>(1, 9);
        std::vector<W> ranks(n);
        for (auto& r : ranks) {
            r = {.loaded = some_of(pool, 85),
                 .failed_loads = some_of(pool, 10),
                 .reclaimed = some_of(pool, 10),
                 .pending_saves = *rc::gen::arbitrary<bool>(),
                 .failed_saves = some_of(pool, 10)};
        }
        return ranks;
    });
}

rc::Gen<std::vector<W>> some_ranks() {
    return rc::gen::mapcat(rc::gen::inRange<std::size_t>(1, 9),
                           [](std::size_t n) { return ecmeta::testing::rank_reports(n); });
}

}  // namespace

TEST_CASE("aggregate agrees with the set-algorithm model", "[laws]") {
    ECMETA_PROP("a.aggregate(b) == model(a, b)", [] {
        const auto r = *ecmeta::testing::rank_reports(2);
        RC_ASSERT(r[0].aggregate(r[1]) == model(r[0], r[1]));
    });
    ECMETA_PROP("unrelated reports too", [](const W& a, const W& b) { RC_ASSERT(a.aggregate(b) == model(a, b)); });
}

TEST_CASE("ids are ordered by their bytes, however they start", "[laws]") {
    ECMETA_PROP("the fold's comparison has the sign of std::string::compare", [] {
        const auto a = *wild::tricky_id();
        const auto b = *rc::gen::oneOf(wild::tricky_id(), rc::gen::just(a), rc::gen::just(a + '\0'));
        const int fast = ecmeta::detail::compare_ids(ecmeta::detail::id_head(a), a, ecmeta::detail::id_head(b), b);
        const int slow = a.compare(b);
        RC_ASSERT((fast < 0) == (slow < 0));
        RC_ASSERT((fast == 0) == (slow == 0));
    });
    // The equality the fold matches ids with and the decoder matches keys with: blocks of 16, 8, 4
    // and single bytes, so lengths from 0 to 70 and a byte changed anywhere.
    ECMETA_PROP("same_bytes is string equality", [] {
        const std::string alphabet("ab\0\xff", 4);
        const auto a = *rc::gen::resize(70, rc::gen::container<std::string>(rc::gen::elementOf(alphabet)));
        std::string b = a;
        if (!a.empty() && *rc::gen::arbitrary<bool>()) {
            const auto at = *rc::gen::inRange<std::size_t>(0, a.size());
            b[at] = b[at] == 'a' ? 'b' : 'a';
        } else if (*rc::gen::arbitrary<bool>()) {
            b = *rc::gen::container<std::string>(rc::gen::elementOf(alphabet));
        }
        RC_ASSERT(ecmeta::detail::same_bytes(a, b) == (a == b));
    });
    ECMETA_PROP("every form of the fold agrees with the model on such ids", [] {
        const auto ranks = *tricky_ranks();
        W expected = ranks[0];
        for (std::size_t i = 1; i < ranks.size(); ++i) {
            RC_ASSERT(expected.aggregate(ranks[i]) == model(expected, ranks[i]));
            W left = expected;
            W right = ranks[i];
            RC_ASSERT(std::move(left).aggregate(std::move(right)) == model(expected, ranks[i]));
            expected = model(expected, ranks[i]);
        }
        RC_ASSERT(*ecmeta::aggregate(ranks) == expected);
        auto owned = ranks;
        RC_ASSERT(*ecmeta::aggregate(std::move(owned)) == expected);
    });
}

TEST_CASE("the fold is commutative, associative and idempotent", "[laws]") {
    ECMETA_PROP("commutative", [] {
        const auto r = *ecmeta::testing::rank_reports(2);
        RC_ASSERT(r[0].aggregate(r[1]) == r[1].aggregate(r[0]));
    });
    ECMETA_PROP("associative", [] {
        const auto r = *ecmeta::testing::rank_reports(3);
        RC_ASSERT(r[0].aggregate(r[1]).aggregate(r[2]) == r[0].aggregate(r[1].aggregate(r[2])));
    });
    ECMETA_PROP("idempotent", [](const W& a) { RC_ASSERT(a.aggregate(a) == a); });
}

TEST_CASE("any order and any bracketing of the ranks gives the same result", "[laws]") {
    ECMETA_PROP("permuted, tree-reduced == left fold", [] {
        auto ranks = *some_ranks();
        const W left = *ecmeta::aggregate(ranks);
        const auto order =
            *rc::gen::unique<std::vector<std::size_t>>(ranks.size(), rc::gen::inRange<std::size_t>(0, ranks.size()));
        std::vector<W> shuffled;
        for (const auto i : order) {
            shuffled.push_back(ranks[i]);
        }
        RC_ASSERT(tree_fold(shuffled, 0, shuffled.size()) == left);
        RC_ASSERT(*ecmeta::aggregate(shuffled) == left);
    });
}

TEST_CASE("the fold is monotone and keeps reports consistent", "[laws]") {
    ECMETA_PROP("loaded shrinks, failures grow", [] {
        const auto ranks = *some_ranks();
        const W r = *ecmeta::aggregate(ranks);
        for (const auto& x : ranks) {
            RC_ASSERT(subset(r.loaded, x.loaded));
            RC_ASSERT(subset(x.failed_loads, r.failed_loads));
            RC_ASSERT(subset(x.reclaimed, r.reclaimed));
            RC_ASSERT(subset(x.failed_saves, r.failed_saves));
            RC_ASSERT(!x.pending_saves || r.pending_saves);
        }
    });
    ECMETA_PROP("no input with an id both loaded and failed => nor the result", [] {
        const auto ranks = *some_ranks();  // the kit's reports are each consistent
        const W r = *ecmeta::aggregate(ranks);
        for (const auto& id : r.failed_loads) {
            RC_ASSERT(!r.loaded.contains(id));
        }
        RC_ASSERT(ecmeta::validate(r).empty());
    });
}

TEST_CASE("the && and range forms equal the const& form", "[laws]") {
    ECMETA_PROP("&& with a const& right operand", [] {
        const auto r = *ecmeta::testing::rank_reports(2);
        W a = r[0];
        RC_ASSERT(std::move(a).aggregate(r[1]) == r[0].aggregate(r[1]));
    });
    ECMETA_PROP("&& with an rvalue right operand", [] {
        const auto r = *ecmeta::testing::rank_reports(2);
        W a = r[0];
        W b = r[1];
        RC_ASSERT(std::move(a).aggregate(std::move(b)) == r[0].aggregate(r[1]));
    });
    ECMETA_PROP("range folds: borrowed, moved, with silent ranks", [] {
        const auto ranks = *some_ranks();
        W expected = ranks[0];
        for (std::size_t i = 1; i < ranks.size(); ++i) {
            expected = expected.aggregate(ranks[i]);
        }
        RC_ASSERT(*ecmeta::aggregate(ranks) == expected);
        auto owned = ranks;
        RC_ASSERT(*ecmeta::aggregate(std::move(owned)) == expected);
        std::vector<std::optional<W>> with_silence;
        for (const auto& r : ranks) {
            with_silence.emplace_back(std::nullopt);
            with_silence.emplace_back(r);
        }
        RC_ASSERT(*ecmeta::aggregate(with_silence) == expected);
        RC_ASSERT(*ecmeta::aggregate(std::move(with_silence)) == expected);
    });
}
