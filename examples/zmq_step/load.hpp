// The scheduler's load: one step's connector metadata, drawn from a seed.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <random>
#include <string>

#include "protocol.hpp"

namespace zmq_step {

[[nodiscard]] inline connector make_step(std::uint64_t seed, std::uint64_t step, std::size_t loads) {
    std::mt19937_64 rng{seed * 0x9e3779b97f4a7c15U + step};
    const auto hex = [&](std::size_t n) {
        std::string s(n, '0');
        for (char& c : s) {
            c = "0123456789abcdef"[rng() % 16];
        }
        return s;
    };
    connector m;
    m.loads.reserve(loads);
    for (std::size_t i = 0; i < loads; ++i) {
        m.loads.push_back({.mm_hash = hex(64),
                           .nbytes = 1024ULL * 3584 * 2,
                           .shape = {1024, 3584},
                           .dtype = "bfloat16",
                           .transfer_id = hex(32),
                           .local = rng() % 4 == 0});
    }
    for (std::size_t i = 0; i < (loads + 3) / 4; ++i) {
        m.pushes.push_back({.mm_hash = hex(64),
                            .nbytes = 1024ULL * 3584 * 2,
                            .shape = {1024, 3584},
                            .dtype = "bfloat16",
                            .consumer_zmq = "tcp://10.0.0." + std::to_string(rng() % 250) + ":19019",
                            .transfer_id = hex(32),
                            .request_id = "req-" + std::to_string(rng() % 100000)});
    }
    m.freed.emplace();
    for (std::size_t i = 0; i < loads / 8; ++i) {
        m.freed->push_back(hex(64));
    }
    return m;
}

}  // namespace zmq_step
