// The four types as plain structs, for the peers of the compile-time comparison. Id sets are
// vectors of strings, and freed a vector (the peers' own optional handling differs).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

struct LoadSpec {
    std::string mm_hash;
    std::uint64_t nbytes = 0;
    std::vector<std::int64_t> shape;
    std::string dtype;
    std::string transfer_id;
    bool local = false;
    bool operator==(const LoadSpec&) const = default;
};
struct PushSpec {
    std::string mm_hash;
    std::uint64_t nbytes = 0;
    std::vector<std::int64_t> shape;
    std::string dtype;
    std::string consumer_zmq;
    std::string transfer_id;
    std::string request_id;
    bool operator==(const PushSpec&) const = default;
};
struct ConnectorMetadata {
    std::vector<LoadSpec> loads;
    std::vector<PushSpec> pushes;
    std::vector<std::string> freed;
    bool operator==(const ConnectorMetadata&) const = default;
};
struct WorkerMetadata {
    std::vector<std::string> loaded;
    std::vector<std::string> failed_loads;
    std::vector<std::string> reclaimed;
    bool pending_saves = false;
    std::vector<std::string> failed_saves;
    bool operator==(const WorkerMetadata&) const = default;
};
