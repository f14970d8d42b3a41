// Round trips: decode(encode(x)) == x in both forms, encode(decode(s)) == s for canonical s, and the
// two forms agree — for the kit's realistic values and for any value the wire can carry.
#include "test.hpp"
#include "wild.hpp"

using namespace ecmeta_test;

namespace {

template <class T>
void check_round_trips(const T& x) {
    const std::string json = ecmeta::encode(x);
    RC_ASSERT(ecmeta::decode<T>(json) == x);
    RC_ASSERT(ecmeta::encode(ecmeta::decode<T>(json)) == json);
    const auto packed = ecmeta::encode_msgpack(x);
    RC_ASSERT(ecmeta::decode_msgpack<T>(packed) == x);
    RC_ASSERT(ecmeta::encode_msgpack(ecmeta::decode_msgpack<T>(packed)) == packed);
    // nlohmann reads both forms to the same document: they carry the same data.
    RC_ASSERT(nlohmann::ordered_json::parse(json) == nlohmann::ordered_json::from_msgpack(packed));
    RC_ASSERT(nlohmann::ordered_json::parse(json).dump() == json);
}

}  // namespace

TEST_CASE("realistic values round-trip through JSON and MessagePack", "[roundtrip]") {
    ECMETA_PROP("load", [](const ECMooncakeLoadSpec& x) { check_round_trips(x); });
    ECMETA_PROP("push", [](const ECMooncakePushSpec& x) { check_round_trips(x); });
    ECMETA_PROP("connector", [](const ECMooncakeConnectorMetadata& x) { check_round_trips(x); });
    ECMETA_PROP("worker", [](const ECMooncakeWorkerMetadata& x) { check_round_trips(x); });
    ECMETA_PROP("rank list", [] {
        auto ranks = *ecmeta::testing::rank_reports(3);
        std::vector<std::optional<ECMooncakeWorkerMetadata>> maybe(ranks.begin(), ranks.end());
        maybe.insert(maybe.begin() + 1, std::nullopt);
        check_round_trips(maybe);
    });
}

TEST_CASE("any value round-trips: arbitrary UTF-8, control characters, extreme integers", "[roundtrip]") {
    ECMETA_PROP("load", [] { check_round_trips(*wild::load_spec()); });
    ECMETA_PROP("push", [] { check_round_trips(*wild::push_spec()); });
    ECMETA_PROP("connector", [] { check_round_trips(*wild::connector_metadata()); });
    ECMETA_PROP("worker", [] { check_round_trips(*wild::worker_metadata()); });
}

namespace {

// to_json builds its document on the walk encode takes; nlohmann is a second writer of it.
template <class T>
void check_dom(const T& x) {
    const std::string json = ecmeta::encode(x);
    RC_ASSERT(nlohmann::ordered_json(x).dump() == json);
    RC_ASSERT(nlohmann::json(x) == nlohmann::json::parse(json));
}

}  // namespace

TEST_CASE("nlohmann's own dump of the JSON is byte-identical to encode", "[roundtrip]") {
    // nlohmann escapes exactly as Python does with ensure_ascii=False: a second implementation.
    ECMETA_PROP("load", [] { check_dom(*wild::load_spec()); });
    ECMETA_PROP("push", [] { check_dom(*wild::push_spec()); });
    ECMETA_PROP("connector", [] { check_dom(*wild::connector_metadata()); });
    ECMETA_PROP("worker", [] { check_dom(*wild::worker_metadata()); });
}

TEST_CASE("non-canonical input decodes to the value its canonical form encodes", "[roundtrip]") {
    ECMETA_PROP("reordered keys, unsorted sets, spaces, escapes", [](const ECMooncakeWorkerMetadata& w) {
        nlohmann::json j = nlohmann::json::parse(ecmeta::encode(w));  // std::map: keys re-sorted
        auto loaded = j["loaded"].get<std::vector<std::string>>();
        std::reverse(loaded.begin(), loaded.end());
        if (!loaded.empty()) {
            loaded.push_back(loaded.front());  // a duplicate
        }
        j["loaded"] = loaded;
        const std::string text = j.dump(2, ' ', true);  // indented, ASCII-only with \u escapes
        RC_ASSERT(ecmeta::decode<ECMooncakeWorkerMetadata>(text) == w);
    });
}
