// The benchmark's inputs, generated deterministically so C++ and CPython see the same bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <ecmeta/metadata.hpp>

namespace ecmeta_bench {

class ids {
public:
    explicit ids(std::uint64_t seed) : rng_(seed) {}

    std::string hex(std::size_t n) {
        static constexpr char digits[] = "0123456789abcdef";
        std::string s(n, '0');
        for (auto& c : s) {
            c = digits[rng_() & 15U];
        }
        return s;
    }
    std::uint64_t below(std::uint64_t n) { return rng_() % n; }

private:
    std::mt19937_64 rng_;
};

// 8 ranks of m ids each, drawn from a shared pool of m + m/8 so the intersection stays large,
// plus a few failures and reclaims.
inline std::vector<ecmeta::ECMooncakeWorkerMetadata> ranks(std::size_t count, std::size_t m) {
    ids gen(42 + m);
    std::vector<std::string> pool;
    for (std::size_t i = 0; i < m + m / 8; ++i) {
        pool.push_back(gen.hex(64));
    }
    std::vector<ecmeta::ECMooncakeWorkerMetadata> out(count);
    for (auto& r : out) {
        std::vector<bool> taken(pool.size());
        std::vector<std::string> loaded;
        std::vector<std::string> failed;
        std::vector<std::string> reclaimed;
        for (std::size_t n = 0; n < m;) {
            const auto i = gen.below(pool.size());
            if (!taken[i]) {
                taken[i] = true;
                loaded.push_back(pool[i]);
                ++n;
            }
        }
        for (std::size_t i = 0; i < pool.size(); ++i) {
            if (!taken[i] && gen.below(8) == 0) {
                failed.push_back(pool[i]);
            } else if (!taken[i] && gen.below(8) == 0) {
                reclaimed.push_back(pool[i]);
            }
        }
        r.loaded = ecmeta::id_set(loaded);  // bulk: one sort, not an insertion per id
        r.failed_loads = ecmeta::id_set(failed);
        r.reclaimed = ecmeta::id_set(reclaimed);
        r.pending_saves = gen.below(2) == 0;
        r.failed_saves.insert("req-" + std::to_string(gen.below(4)));
    }
    return out;
}

// One engine step: n loads and n pushes of [1024, 3584] bfloat16, n/4 freed ids.
inline ecmeta::ECMooncakeConnectorMetadata connector(std::size_t n) {
    ids gen(7 + n);
    ecmeta::ECMooncakeConnectorMetadata m{.freed = std::vector<std::string>{}};
    for (std::size_t i = 0; i < n; ++i) {
        m.loads.push_back({.mm_hash = gen.hex(64),
                           .nbytes = 1024ULL * 3584 * 2,
                           .shape = {1024, 3584},
                           .dtype = "bfloat16",
                           .transfer_id = gen.hex(32),
                           .local = gen.below(4) == 0});
        m.pushes.push_back({.mm_hash = gen.hex(64),
                            .nbytes = 1024ULL * 3584 * 2,
                            .shape = {1024, 3584},
                            .dtype = "bfloat16",
                            .consumer_zmq = "tcp://10.0.0." + std::to_string(gen.below(250)) + ":19019",
                            .transfer_id = gen.hex(32),
                            .request_id = "req-" + std::to_string(gen.below(100000))});
    }
    for (std::size_t i = 0; i < n / 4; ++i) {
        m.freed->push_back(gen.hex(64));
    }
    return m;
}

inline ecmeta::ECMooncakeWorkerMetadata worker(std::size_t m) {
    return ranks(1, m)[0];
}

}  // namespace ecmeta_bench
