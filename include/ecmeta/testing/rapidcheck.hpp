// ecmeta::testing — RapidCheck generators of realistic, valid metadata, for downstream tests.
// Link ecmeta::testing plus your own rapidcheck target.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "../version.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <rapidcheck.h>

#include "../detail/schema.hpp"
#include "../metadata.hpp"
#include "../validate.hpp"
#include "show.hpp"

namespace ecmeta::inline ECMETA_ABI::testing {

namespace gen {

// n lowercase hex digits; shrinks toward "000…".
inline rc::Gen<std::string> hex(std::size_t n) {
    return rc::gen::container<std::string>(n, rc::gen::elementOf(std::string_view{"0123456789abcdef"}));
}

// Usually a 64-hex blake3/sha256 digest, sometimes a 128-hex sha512 or a LoRA-scoped one.
inline rc::Gen<std::string> mm_hash() {
    return rc::gen::weightedOneOf<std::string>({
        {8, hex(64)},
        {1, hex(128)},
        {1, rc::gen::apply([](int lora, const std::string& h) { return "lora-" + std::to_string(lora) + ":" + h; },
                           rc::gen::inRange(0, 4), hex(64))},
    });
}

// Usually 32 hex digits, sometimes "{request_id}:{index}".
inline rc::Gen<std::string> transfer_id() {
    return rc::gen::weightedOneOf<std::string>({
        {4, hex(32)},
        {1,
         rc::gen::apply([](int req, int index) { return "req-" + std::to_string(req) + ":" + std::to_string(index); },
                        rc::gen::inRange(0, 1000), rc::gen::inRange(0, 8))},
    });
}

inline rc::Gen<std::string> request_id() {
    return rc::gen::map(rc::gen::inRange(0, 1000), [](int n) { return "req-" + std::to_string(n); });
}

// The dtypes drawn: canonical names (not aliases), each in validate's table, which the compiler
// checks (itemsize of every one is then known where nbytes is computed).
inline constexpr std::array<std::string_view, 13> drawn_dtypes{
    "bfloat16", "float16", "float32", "float64", "float8_e4m3fn", "float8_e5m2",     "int8",
    "uint8",    "int32",   "int64",   "bool",    "complex64",     "float4_e2m1fn_x2"};
static_assert(std::ranges::all_of(drawn_dtypes, [](std::string_view d) { return ecmeta::itemsize(d).has_value(); }),
              "every dtype the generator draws must be in ecmeta::dtypes");

inline rc::Gen<std::string> dtype() {
    return rc::gen::elementOf(std::vector<std::string>(drawn_dtypes.begin(), drawn_dtypes.end()));
}

inline rc::Gen<std::vector<std::int64_t>> shape() {
    return rc::gen::weightedOneOf<std::vector<std::int64_t>>({
        {6, rc::gen::apply(
                [](std::int64_t n, std::int64_t h) {
                    return std::vector<std::int64_t>{n, h};
                },
                rc::gen::inRange<std::int64_t>(1, 4097),
                rc::gen::elementOf(std::vector<std::int64_t>{1024, 2048, 3584, 4096, 5120, 8192}))},
        // Up to four dimensions of up to 64: numel(shape) * itemsize never overflows.
        {1, rc::gen::mapcat(rc::gen::inRange<std::size_t>(0, 5),
                            [](std::size_t dims) {
                                return rc::gen::container<std::vector<std::int64_t>>(
                                    dims, rc::gen::inRange<std::int64_t>(0, 65));
                            })},
    });
}

inline rc::Gen<std::string> zmq_endpoint() {
    return rc::gen::weightedOneOf<std::string>({
        {4, rc::gen::apply(
                [](int a, int b, int port) {
                    return "tcp://10.0." + std::to_string(a) + "." + std::to_string(b) + ":" + std::to_string(port);
                },
                rc::gen::inRange(0, 256), rc::gen::inRange(0, 256), rc::gen::inRange(1, 65536))},
        {1, rc::gen::map(rc::gen::inRange(1, 65536), [](int port) { return "tcp://[::1]:" + std::to_string(port); })},
        {1, rc::gen::map(rc::gen::inRange(0, 100),
                         [](int n) { return "tcp://encoder-" + std::to_string(n) + ".local:19019"; })},
        {1, rc::gen::map(rc::gen::inRange(0, 100), [](int n) { return "ipc:///tmp/ec-" + std::to_string(n); })},
    });
}

namespace detail {
// nbytes always agrees with shape and dtype, as a consumer demands.
template <class Spec>
Spec with_nbytes(Spec s) {
    s.nbytes = ecmeta::expected_nbytes(s.shape, *ecmeta::itemsize(s.dtype)).value_or(0);
    return s;
}
}  // namespace detail

// Each generator below draws every member of its type; a member added to a type fails here until
// its generator draws it (and the count is raised).
static_assert(ecmeta::detail::field_count<ECMooncakeLoadSpec>() == 6, "load_spec() draws 6 members");
static_assert(ecmeta::detail::field_count<ECMooncakePushSpec>() == 7, "push_spec() draws 7 members");
static_assert(ecmeta::detail::field_count<ECMooncakeConnectorMetadata>() == 3, "connector_metadata() draws 3 members");
static_assert(ecmeta::detail::field_count<ECMooncakeWorkerMetadata>() == 5, "report_from() draws 5 members");

inline rc::Gen<ECMooncakeLoadSpec> load_spec() {
    return rc::gen::apply(
        [](std::string h, std::vector<std::int64_t> s, std::string d, std::string t, bool local) {
            return detail::with_nbytes(ECMooncakeLoadSpec{.mm_hash = std::move(h),
                                                          .shape = std::move(s),
                                                          .dtype = std::move(d),
                                                          .transfer_id = std::move(t),
                                                          .local = local});
        },
        mm_hash(), shape(), dtype(), transfer_id(), rc::gen::arbitrary<bool>());
}

inline rc::Gen<ECMooncakePushSpec> push_spec() {
    return rc::gen::apply(
        [](std::string h, std::vector<std::int64_t> s, std::string d, std::string z, std::string t, std::string r) {
            return detail::with_nbytes(ECMooncakePushSpec{.mm_hash = std::move(h),
                                                          .shape = std::move(s),
                                                          .dtype = std::move(d),
                                                          .consumer_zmq = std::move(z),
                                                          .transfer_id = std::move(t),
                                                          .request_id = std::move(r)});
        },
        mm_hash(), shape(), dtype(), zmq_endpoint(), transfer_id(), request_id());
}

inline rc::Gen<ECMooncakeConnectorMetadata> connector_metadata() {
    return rc::gen::apply(
        [](std::vector<ECMooncakeLoadSpec> loads, std::vector<ECMooncakePushSpec> pushes,
           std::optional<std::vector<std::string>> freed) {
            // transfer_id is unique per push within a step; shrinking would otherwise collide them.
            std::set<std::string, std::less<>> seen;
            for (std::size_t i = 0; i < pushes.size(); ++i) {
                if (!seen.insert(pushes[i].transfer_id).second) {
                    pushes[i].transfer_id += "-" + std::to_string(i);
                    seen.insert(pushes[i].transfer_id);
                }
            }
            return ECMooncakeConnectorMetadata{std::move(loads), std::move(pushes), std::move(freed)};
        },
        rc::gen::container<std::vector<ECMooncakeLoadSpec>>(load_spec()),
        rc::gen::container<std::vector<ECMooncakePushSpec>>(push_spec()),
        rc::gen::weightedOneOf<std::optional<std::vector<std::string>>>({
            {2, rc::gen::just(std::optional<std::vector<std::string>>{})},
            {1, rc::gen::just(std::optional<std::vector<std::string>>{std::vector<std::string>{}})},
            {3, rc::gen::map(rc::gen::container<std::vector<std::string>>(mm_hash()),
                             [](std::vector<std::string> v) { return std::optional{std::move(v)}; })},
        }));
}

namespace detail {

// A roll in [0, n) whatever the test size (inRange narrows at small sizes); shrinks toward 0,
// which the kit maps to the ordinary outcome.
inline rc::Gen<int> roll(int n) {
    return rc::gen::resize(rc::kNominalSize, rc::gen::inRange(0, n));
}

// What happens to one item on every rank: most load, some fail (the producer was unreachable,
// so on many ranks at once), some are evicted from the receive pool.
enum class fate : std::uint8_t { healthy, failing, evicted };

struct pools {
    std::vector<std::string> items;  // sorted, unique
    std::vector<fate> fates;         // one per item
    std::vector<std::string> requests;
};

inline rc::Gen<pools> shared_pools() {
    return rc::gen::apply(
        [](std::vector<std::string> items, const std::vector<int>& draws, std::vector<std::string> requests) {
            std::sort(items.begin(), items.end());
            items.erase(std::unique(items.begin(), items.end()), items.end());
            std::sort(requests.begin(), requests.end());
            requests.erase(std::unique(requests.begin(), requests.end()), requests.end());
            pools p{std::move(items), {}, std::move(requests)};
            for (std::size_t i = 0; i < p.items.size(); ++i) {
                const int d = i < draws.size() ? draws[i] : 0;
                p.fates.push_back(d < 14 ? fate::healthy : d < 18 ? fate::failing : fate::evicted);
            }
            return p;
        },
        rc::gen::container<std::vector<std::string>>(mm_hash()), rc::gen::container<std::vector<int>>(roll(20)),
        rc::gen::container<std::vector<std::string>>(request_id()));
}

// One valid report drawn from shared pools: no id both loaded and failed.
inline rc::Gen<ECMooncakeWorkerMetadata> report_from(const pools& p) {
    const std::size_t n = p.items.size();
    return rc::gen::apply(
        [p](const std::vector<int>& rolls, bool pending, const std::vector<int>& save_rolls) {
            ECMooncakeWorkerMetadata w{.pending_saves = pending};
            for (std::size_t i = 0; i < p.items.size(); ++i) {
                const int roll = rolls[i];  // 0..9
                switch (p.fates[i]) {
                    case fate::healthy:
                        if (roll < 9) {
                            w.loaded.insert(p.items[i]);
                        }
                        break;
                    case fate::failing:
                        if (roll < 6) {
                            w.failed_loads.insert(p.items[i]);
                        }
                        break;
                    case fate::evicted:
                        if (roll < 5) {
                            w.reclaimed.insert(p.items[i]);
                        } else {
                            w.loaded.insert(p.items[i]);
                        }
                        break;
                }
            }
            for (std::size_t i = 0; i < p.requests.size(); ++i) {
                if (save_rolls[i] == 0) {
                    w.failed_saves.insert(p.requests[i]);
                }
            }
            return w;
        },
        rc::gen::container<std::vector<int>>(n, roll(10)), rc::gen::arbitrary<bool>(),
        rc::gen::container<std::vector<int>>(p.requests.size(), roll(4)));
}
}  // namespace detail

inline rc::Gen<ECMooncakeWorkerMetadata> worker_metadata() {
    return rc::gen::mapcat(detail::shared_pools(), [](const detail::pools& p) { return detail::report_from(p); });
}

}  // namespace gen

// `ranks` reports whose ids come from one shared pool, so a fold keeps something loaded in a fair
// share of cases and failures overlap across ranks; each report is valid on its own.
inline rc::Gen<std::vector<ECMooncakeWorkerMetadata>> rank_reports(std::size_t ranks) {
    return rc::gen::mapcat(gen::detail::shared_pools(), [ranks](const gen::detail::pools& p) {
        return rc::gen::container<std::vector<ECMooncakeWorkerMetadata>>(ranks, gen::detail::report_from(p));
    });
}

}  // namespace ecmeta::testing

namespace ecmeta::inline ECMETA_ABI {
// RapidCheck finds these by ADL: counterexamples print as canonical JSON.
inline void showValue(const ECMooncakeLoadSpec& v, std::ostream& os) {
    os << testing::show(v);
}
inline void showValue(const ECMooncakePushSpec& v, std::ostream& os) {
    os << testing::show(v);
}
inline void showValue(const ECMooncakeConnectorMetadata& v, std::ostream& os) {
    os << testing::show(v);
}
inline void showValue(const ECMooncakeWorkerMetadata& v, std::ostream& os) {
    os << testing::show(v);
}
}  // namespace ecmeta

namespace rc {

template <>
struct Arbitrary<ecmeta::ECMooncakeLoadSpec> {
    static Gen<ecmeta::ECMooncakeLoadSpec> arbitrary() { return ecmeta::testing::gen::load_spec(); }
};

template <>
struct Arbitrary<ecmeta::ECMooncakePushSpec> {
    static Gen<ecmeta::ECMooncakePushSpec> arbitrary() { return ecmeta::testing::gen::push_spec(); }
};

template <>
struct Arbitrary<ecmeta::ECMooncakeConnectorMetadata> {
    static Gen<ecmeta::ECMooncakeConnectorMetadata> arbitrary() { return ecmeta::testing::gen::connector_metadata(); }
};

template <>
struct Arbitrary<ecmeta::ECMooncakeWorkerMetadata> {
    static Gen<ecmeta::ECMooncakeWorkerMetadata> arbitrary() { return ecmeta::testing::gen::worker_metadata(); }
};

}  // namespace rc
