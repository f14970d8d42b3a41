// id_set against std::set<std::string>: random sequences of every operation, with every
// observable compared after every step.
#include "test.hpp"
#include "wild.hpp"

#include <set>

using namespace ecmeta_test;

namespace {

using model = std::set<std::string, std::less<>>;

// Everything one can observe of a set, compared with the model's.
void check_same(const id_set& s, const model& m, const std::vector<std::string>& probes) {
    RC_ASSERT(s.size() == m.size());
    RC_ASSERT(s.empty() == m.empty());
    RC_ASSERT(std::equal(s.begin(), s.end(), m.begin(), m.end()));
    RC_ASSERT(std::equal(s.rbegin(), s.rend(), m.rbegin(), m.rend()));
    for (const auto& p : probes) {
        RC_ASSERT(s.contains(p) == m.contains(p));
        RC_ASSERT(s.count(p) == m.count(p));
        RC_ASSERT(s.lower_bound(p) - s.begin() == std::distance(m.begin(), m.lower_bound(p)));
        RC_ASSERT(s.upper_bound(p) - s.begin() == std::distance(m.begin(), m.upper_bound(p)));
        RC_ASSERT((s.find(p) == s.end()) == (m.find(p) == m.end()));
    }
}

std::vector<std::string> some_ids() {
    return *rc::gen::container<std::vector<std::string>>(wild::tricky_id());
}

// One random sequence of operations on an id_set and on its model, side by side.
void run_sequence() {
    const auto probes = some_ids();
    id_set s;
    model m;
    id_set other;
    model other_m;
    const auto steps = *rc::gen::inRange(1, 40);
    for (int step = 0; step < steps; ++step) {
        const auto pick = [&] {
            // Mostly ids that are already there or probed, so that erase and duplicates happen.
            if (!m.empty() && *rc::gen::inRange(0, 3) == 0) {
                return *std::next(m.begin(),
                                  *rc::gen::inRange<std::ptrdiff_t>(0, static_cast<std::ptrdiff_t>(m.size())));
            }
            return probes.empty() || *rc::gen::arbitrary<bool>() ? *wild::tricky_id() : *rc::gen::elementOf(probes);
        };
        switch (*rc::gen::inRange(0, 11)) {
            case 0: {
                const auto id = pick();
                const auto [at, added] = s.insert(id);
                RC_ASSERT(added == m.insert(id).second);
                RC_ASSERT(*at == id);
                break;
            }
            case 1: {
                const auto ids = some_ids();
                s.insert_range(ids);
                m.insert(ids.begin(), ids.end());
                break;
            }
            case 2: {
                const auto ids = some_ids();
                s.insert(ids.begin(), ids.end());
                m.insert(ids.begin(), ids.end());
                break;
            }
            case 3: {
                const auto id = pick();
                const auto hint =
                    s.begin() + *rc::gen::inRange<std::ptrdiff_t>(0, static_cast<std::ptrdiff_t>(s.size()) + 1);
                RC_ASSERT(*s.insert(hint, id) == id);
                m.insert(id);
                break;
            }
            case 4: {
                const auto id = pick();
                RC_ASSERT(s.erase(id) == m.erase(id));
                break;
            }
            case 5:
                if (!m.empty()) {
                    const auto i = *rc::gen::inRange<std::ptrdiff_t>(0, static_cast<std::ptrdiff_t>(m.size()));
                    const auto next = s.erase(s.begin() + i);
                    const auto model_next = m.erase(std::next(m.begin(), i));
                    RC_ASSERT(next - s.begin() == i);
                    RC_ASSERT((next == s.end()) == (model_next == m.end()));
                    // Not one RC_ASSERT: its expression capture would evaluate both sides of ||.
                    if (next != s.end()) {
                        RC_ASSERT(*next == *model_next);
                    }
                }
                break;
            case 6: {
                const auto cut = *rc::gen::inRange(0, 256);
                const auto drop = [cut](std::string_view id) {
                    return !id.empty() && static_cast<unsigned char>(id.back()) < cut;
                };
                RC_ASSERT(erase_if(s, drop) == std::erase_if(m, [&](const std::string& id) { return drop(id); }));
                break;
            }
            case 7: {  // copy, then diverge
                other = s;
                other_m = m;
                const auto id = pick();
                other.insert(id);
                other_m.insert(id);
                break;
            }
            case 8:
                s.swap(other);
                m.swap(other_m);
                break;
            case 9:
                if (*rc::gen::inRange(0, 8) == 0) {
                    s.clear();
                    m.clear();
                } else {
                    s.shrink_to_fit();
                }
                break;
            default: {
                id_set moved = std::move(s);
                s = std::move(moved);
                break;
            }
        }
        check_same(s, m, probes);
        check_same(other, other_m, probes);
        RC_ASSERT((s == other) == (m == other_m));
        RC_ASSERT(((s <=> other) < 0) == (m < other_m));
        RC_ASSERT(((s <=> other) == 0) == (m == other_m));
        RC_ASSERT(id_set(m) == s);
    }
}

}  // namespace

TEST_CASE("id_set behaves as std::set<std::string> under any sequence of operations", "[id_set][laws]") {
    ECMETA_PROP("model-based: insert, bulk insert, erase, lookup, copy, compare", run_sequence);
}
