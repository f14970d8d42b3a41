// What a C++ engineer writes in an afternoon, written plainly and not slowed on purpose:
// std::set<std::string> members, folds by copy with std::set_intersection / std::set_union,
// decoding through nlohmann's DOM with at()/value(), encoding by building a json and dump().
#pragma once

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace naive {

struct LoadSpec {
    std::string mm_hash;
    std::uint64_t nbytes = 0;
    std::vector<std::int64_t> shape;
    std::string dtype;
    std::string transfer_id;
    bool local = false;
};

struct PushSpec {
    std::string mm_hash;
    std::uint64_t nbytes = 0;
    std::vector<std::int64_t> shape;
    std::string dtype;
    std::string consumer_zmq;
    std::string transfer_id;
    std::string request_id;
};

struct ConnectorMetadata {
    std::vector<LoadSpec> loads;
    std::vector<PushSpec> pushes;
    std::optional<std::vector<std::string>> freed;
};

struct WorkerMetadata {
    std::set<std::string> loaded;
    std::set<std::string> failed_loads;
    std::set<std::string> reclaimed;
    bool pending_saves = false;
    std::set<std::string> failed_saves;

    WorkerMetadata aggregate(const WorkerMetadata& other) const {
        WorkerMetadata r;
        std::set_intersection(loaded.begin(), loaded.end(), other.loaded.begin(), other.loaded.end(),
                              std::inserter(r.loaded, r.loaded.end()));
        std::set_union(failed_loads.begin(), failed_loads.end(), other.failed_loads.begin(), other.failed_loads.end(),
                       std::inserter(r.failed_loads, r.failed_loads.end()));
        std::set_union(reclaimed.begin(), reclaimed.end(), other.reclaimed.begin(), other.reclaimed.end(),
                       std::inserter(r.reclaimed, r.reclaimed.end()));
        r.pending_saves = pending_saves || other.pending_saves;
        std::set_union(failed_saves.begin(), failed_saves.end(), other.failed_saves.begin(), other.failed_saves.end(),
                       std::inserter(r.failed_saves, r.failed_saves.end()));
        return r;
    }
};

inline std::optional<WorkerMetadata> aggregate(const std::vector<WorkerMetadata>& ranks) {
    if (ranks.empty()) {
        return std::nullopt;
    }
    WorkerMetadata acc = ranks[0];
    for (std::size_t i = 1; i < ranks.size(); ++i) {
        acc = acc.aggregate(ranks[i]);
    }
    return acc;
}

inline void from_json(const nlohmann::json& j, LoadSpec& s) {
    s.mm_hash = j.at("mm_hash").get<std::string>();
    s.nbytes = j.at("nbytes").get<std::uint64_t>();
    s.shape = j.at("shape").get<std::vector<std::int64_t>>();
    s.dtype = j.at("dtype").get<std::string>();
    s.transfer_id = j.at("transfer_id").get<std::string>();
    s.local = j.value("local", false);
}

inline void from_json(const nlohmann::json& j, PushSpec& s) {
    s.mm_hash = j.at("mm_hash").get<std::string>();
    s.nbytes = j.at("nbytes").get<std::uint64_t>();
    s.shape = j.at("shape").get<std::vector<std::int64_t>>();
    s.dtype = j.at("dtype").get<std::string>();
    s.consumer_zmq = j.at("consumer_zmq").get<std::string>();
    s.transfer_id = j.at("transfer_id").get<std::string>();
    s.request_id = j.value("request_id", std::string{});
}

inline void from_json(const nlohmann::json& j, ConnectorMetadata& m) {
    m.loads = j.value("loads", std::vector<LoadSpec>{});
    m.pushes = j.value("pushes", std::vector<PushSpec>{});
    if (j.contains("freed") && !j.at("freed").is_null()) {
        m.freed = j.at("freed").get<std::vector<std::string>>();
    }
}

inline void from_json(const nlohmann::json& j, WorkerMetadata& w) {
    w.loaded = j.value("loaded", std::set<std::string>{});
    w.failed_loads = j.value("failed_loads", std::set<std::string>{});
    w.reclaimed = j.value("reclaimed", std::set<std::string>{});
    w.pending_saves = j.value("pending_saves", false);
    w.failed_saves = j.value("failed_saves", std::set<std::string>{});
}

inline void to_json(nlohmann::json& j, const LoadSpec& s) {
    j = {{"mm_hash", s.mm_hash}, {"nbytes", s.nbytes},           {"shape", s.shape},
         {"dtype", s.dtype},     {"transfer_id", s.transfer_id}, {"local", s.local}};
}

inline void to_json(nlohmann::json& j, const PushSpec& s) {
    j = {{"mm_hash", s.mm_hash},
         {"nbytes", s.nbytes},
         {"shape", s.shape},
         {"dtype", s.dtype},
         {"consumer_zmq", s.consumer_zmq},
         {"transfer_id", s.transfer_id},
         {"request_id", s.request_id}};
}

inline void to_json(nlohmann::json& j, const ConnectorMetadata& m) {
    j = {{"loads", m.loads}, {"pushes", m.pushes}, {"freed", nullptr}};
    if (m.freed) {
        j["freed"] = *m.freed;
    }
}

inline void to_json(nlohmann::json& j, const WorkerMetadata& w) {
    j = {{"loaded", w.loaded},
         {"failed_loads", w.failed_loads},
         {"reclaimed", w.reclaimed},
         {"pending_saves", w.pending_saves},
         {"failed_saves", w.failed_saves}};
}

template <class T>
T decode(const std::string& text) {
    return nlohmann::json::parse(text).get<T>();
}

template <class T>
std::string encode(const T& value) {
    return nlohmann::json(value).dump();
}

}  // namespace naive
