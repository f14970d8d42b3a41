// The worker's rule: what a rank reports for a step, from the step's ids and the rank alone, so
// that any run is reproducible and a checker can say what each rank should have sent. Needs only
// ecmeta's types (examples/pybind11 uses it too).
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <ecmeta/metadata.hpp>

namespace zmq_step {

// A hash of the id and the rank, eight bytes at a time (splitmix64's finalizer per word).
[[nodiscard]] inline std::uint64_t mix(std::string_view id, std::uint64_t rank) noexcept {
    const auto finish = [](std::uint64_t h) {
        h = (h ^ (h >> 30U)) * 0xbf58476d1ce4e5b9U;
        h = (h ^ (h >> 27U)) * 0x94d049bb133111ebU;
        return h ^ (h >> 31U);
    };
    std::uint64_t h = (rank + 1) * 0x9e3779b97f4a7c15U ^ id.size();
    std::size_t i = 0;
    for (; i + 8 <= id.size(); i += 8) {
        std::uint64_t word = 0;
        std::memcpy(&word, id.data() + i, sizeof word);
        h = finish(h ^ word);
    }
    std::uint64_t tail = 0;
    std::memcpy(&tail, id.data() + i, id.size() - i);
    return finish(h ^ tail);
}

// What rank `rank` reports for a step: a local load always lands; of the others one in 16 fails
// and one in 16 is still in flight (in neither set); a freed id is reclaimed one time in 4; a
// push is still saving one time in 2 and fails one time in 32 (by its request id). An idle step
// (no loads, no pushes, no freed ids) has nothing to report.
[[nodiscard]] inline std::optional<ecmeta::ECMooncakeWorkerMetadata> play(
    const ecmeta::ECMooncakeConnectorMetadata& step, std::uint64_t rank) {
    const bool idle = step.loads.empty() && step.pushes.empty() && (!step.freed || step.freed->empty());
    if (idle) {
        return std::nullopt;
    }
    std::vector<std::string_view> loaded;
    std::vector<std::string_view> failed;
    std::vector<std::string_view> reclaimed;
    std::vector<std::string_view> failed_saves;
    loaded.reserve(step.loads.size());
    for (const ecmeta::ECMooncakeLoadSpec& load : step.loads) {
        const std::uint64_t roll = mix(load.mm_hash, rank) % 16;
        if (load.local || roll > 1) {
            loaded.push_back(load.mm_hash);
        } else if (roll == 0) {
            failed.push_back(load.mm_hash);
        }
    }
    for (const std::string& id : step.freed ? std::span{*step.freed} : std::span<const std::string>{}) {
        if (mix(id, rank) % 4 == 0) {
            reclaimed.push_back(id);
        }
    }
    bool pending = false;
    for (const ecmeta::ECMooncakePushSpec& push : step.pushes) {
        const std::uint64_t roll = mix(push.mm_hash, rank);
        pending = pending || roll % 2 == 0;
        if (roll % 32 == 1) {
            failed_saves.push_back(push.request_id);
        }
    }
    return ecmeta::ECMooncakeWorkerMetadata{.loaded = ecmeta::id_set(loaded),
                                            .failed_loads = ecmeta::id_set(failed),
                                            .reclaimed = ecmeta::id_set(reclaimed),
                                            .pending_saves = pending,
                                            .failed_saves = ecmeta::id_set(failed_saves)};
}

}  // namespace zmq_step
