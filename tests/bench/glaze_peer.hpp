// The glaze comparator's interface: glaze 7 reads and writes JSON and MessagePack with the same
// structs in its own C++23 translation unit (glaze_peer.cpp), a bench-only dependency, never the
// library's.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <ecmeta/metadata.hpp>

namespace glaze_peer {

// The worker report as glaze reads it: its sets as vectors, the strictest comparison for
// ecmeta, which sorts and deduplicates them.
struct worker {
    std::vector<std::string> loaded, failed_loads, reclaimed;
    bool pending_saves = false;
    std::vector<std::string> failed_saves;

    bool operator==(const worker&) const = default;
};

// What glaze reads a T into, and a T's value in it.
template <class T>
struct mirror {
    using type = T;
    static const T& of(const T& value) { return value; }
};
template <>
struct mirror<ecmeta::ECMooncakeWorkerMetadata> {
    using type = worker;
    static worker of(const ecmeta::ECMooncakeWorkerMetadata& w) {
        return {{w.loaded.begin(), w.loaded.end()},
                {w.failed_loads.begin(), w.failed_loads.end()},
                {w.reclaimed.begin(), w.reclaimed.end()},
                w.pending_saves,
                {w.failed_saves.begin(), w.failed_saves.end()}};
    }
};

// Reads `json` into `out` (kept: glaze reuses its storage) with ecmeta's rules where glaze has
// them: unknown keys ignored, required keys required, skipped values and what follows the value
// checked. False when glaze refuses it.
bool read(const std::string& json, ecmeta::ECMooncakeConnectorMetadata& out);
bool read(const std::string& json, worker& out);
// The same from MessagePack.
bool read_msgpack(const std::string& bytes, ecmeta::ECMooncakeConnectorMetadata& out);
bool read_msgpack(const std::string& bytes, worker& out);

// Writes `value` into `out` (kept: glaze reuses its storage) as JSON with nulls written, as ecmeta
// writes them, or as MessagePack. False when glaze fails.
bool write_json(const ecmeta::ECMooncakeConnectorMetadata& value, std::string& out);
bool write_json(const worker& value, std::string& out);
bool write_msgpack(const ecmeta::ECMooncakeConnectorMetadata& value, std::string& out);
bool write_msgpack(const worker& value, std::string& out);

template <class T>
std::optional<typename mirror<T>::type> read_fresh(const std::string& json) {
    typename mirror<T>::type value{};
    if (!read(json, value)) {
        return std::nullopt;
    }
    return value;
}

}  // namespace glaze_peer
