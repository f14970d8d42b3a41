// The types: plain aggregates with the Python dataclasses' names, order and defaults.
#include "test.hpp"

#include <type_traits>

using namespace ecmeta_test;

static_assert(std::is_aggregate_v<ECMooncakeLoadSpec>);
static_assert(std::is_aggregate_v<ECMooncakePushSpec>);
static_assert(std::is_aggregate_v<ECMooncakeConnectorMetadata>);
static_assert(std::is_aggregate_v<ECMooncakeWorkerMetadata>);

TEST_CASE("the headers' ECMETA_VERSION_* are the version CMake's project() declares", "[types]") {
    CHECK(std::to_string(ECMETA_VERSION_MAJOR) + "." + std::to_string(ECMETA_VERSION_MINOR) + "." +
              std::to_string(ECMETA_VERSION_PATCH) ==
          ECMETA_PROJECT_VERSION);
}

static_assert(ecmeta::connector_metadata<ECMooncakeConnectorMetadata>);
static_assert(!ecmeta::connector_metadata<ECMooncakeWorkerMetadata>);
static_assert(ecmeta::connector_worker_metadata<ECMooncakeWorkerMetadata>);
static_assert(!ecmeta::connector_worker_metadata<ECMooncakeLoadSpec>);

TEST_CASE("defaults are the dataclass defaults", "[types]") {
    const ECMooncakeLoadSpec load{};
    CHECK_FALSE(load.local);
    CHECK(load.nbytes == 0);
    CHECK(load.shape.empty());
    const ECMooncakePushSpec push{};
    CHECK(push.request_id.empty());
    const ECMooncakeConnectorMetadata step{};
    CHECK_FALSE(step.freed.has_value());  // None: "scan every pinned item", not "retire nothing"
    const ECMooncakeWorkerMetadata report{};
    CHECK_FALSE(report.pending_saves);
    CHECK(report.loaded.empty());
}

TEST_CASE("partial designated initializers compile and fill the rest with defaults", "[types]") {
    const ECMooncakeWorkerMetadata w{.loaded = {"a"}, .pending_saves = true};
    CHECK(w.loaded.contains(std::string_view{"a"}));
    CHECK(w.pending_saves);
    CHECK(w.failed_loads.empty());
    const ECMooncakePushSpec p{.mm_hash = "h", .consumer_zmq = "tcp://h:1"};
    CHECK(p.request_id.empty());
    CHECK(p.consumer_zmq == "tcp://h:1");
}

TEST_CASE("freed: null and an empty list are different messages", "[types]") {
    const ECMooncakeConnectorMetadata scan_all{};
    const ECMooncakeConnectorMetadata retire_nothing{.freed = std::vector<std::string>{}};
    CHECK(scan_all != retire_nothing);
    CHECK(ecmeta::encode(scan_all) != ecmeta::encode(retire_nothing));
}

TEST_CASE("equality compares every field", "[types]") {
    const ECMooncakeLoadSpec a{.mm_hash = "h", .nbytes = 2, .shape = {1}, .dtype = "int16", .transfer_id = "t"};
    auto b = a;
    CHECK(a == b);
    b.local = true;
    CHECK(a != b);
    ECMooncakeWorkerMetadata x{}, y{};
    y.failed_saves.insert("req-1");
    CHECK(x != y);
}

TEST_CASE("the JSON form lists fields in declared order", "[types]") {
    CHECK(ecmeta::encode(ECMooncakeLoadSpec{}) ==
          R"({"mm_hash":"","nbytes":0,"shape":[],"dtype":"","transfer_id":"","local":false})");
    CHECK(ecmeta::encode(ECMooncakePushSpec{}) ==
          R"({"mm_hash":"","nbytes":0,"shape":[],"dtype":"","consumer_zmq":"","transfer_id":"","request_id":""})");
    CHECK(ecmeta::encode(ECMooncakeConnectorMetadata{}) == R"({"loads":[],"pushes":[],"freed":null})");
    CHECK(ecmeta::encode(ECMooncakeWorkerMetadata{}) ==
          R"({"loaded":[],"failed_loads":[],"reclaimed":[],"pending_saves":false,"failed_saves":[]})");
}
