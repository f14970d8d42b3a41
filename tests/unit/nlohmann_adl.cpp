// The nlohmann hooks (adl_serializer): `json j = spec;` and `j.get<T>()`, by decode's rules.
#include "test.hpp"

using namespace ecmeta_test;

TEST_CASE("to_json and from_json round-trip through a DOM", "[nlohmann]") {
    const ECMooncakeConnectorMetadata m{
        .loads = {{.mm_hash = "h", .nbytes = 2, .shape = {1}, .dtype = "int16", .transfer_id = "t"}},
        .freed = std::vector<std::string>{}};
    const nlohmann::json j = m;
    CHECK(j["freed"].is_array());
    CHECK(j["loads"][0]["nbytes"] == 2);
    CHECK(j.get<ECMooncakeConnectorMetadata>() == m);
    const nlohmann::json none = ECMooncakeConnectorMetadata{};
    CHECK(none["freed"].is_null());
}

TEST_CASE("ordered_json keeps the declared order: its dump is the canonical form", "[nlohmann]") {
    const ECMooncakeWorkerMetadata w{.loaded = {"b", "a"}, .pending_saves = true};
    const nlohmann::ordered_json j = w;
    CHECK(j.dump() == ecmeta::encode(w));
    CHECK(j.get<ECMooncakeWorkerMetadata>() == w);
}

TEST_CASE("from_json applies decode's rules and leaves the target untouched on failure", "[nlohmann]") {
    ECMooncakeWorkerMetadata target{.loaded = {"keep"}};
    const auto bad = nlohmann::json::parse(R"({"loaded":["a"],"failed_loads":[1]})");
    const auto e = decode_failure([&] { bad.get_to(target); });
    CHECK(e.pointer() == "/failed_loads/0");
    CHECK(target == ECMooncakeWorkerMetadata{.loaded = {"keep"}});
    CHECK_THROWS_AS(nlohmann::json::parse(R"({"nbytes":8.0})").get<ECMooncakeLoadSpec>(), ecmeta::decode_error);
    // Deep values under unknown keys are handed back whole, not walked.
    auto deep = nlohmann::json::array();
    for (int i = 0; i < 2000; ++i) {
        deep = nlohmann::json::array({deep});
    }
    const nlohmann::json with_deep = {{"extra", deep}, {"pending_saves", true}};
    CHECK(with_deep.get<ECMooncakeWorkerMetadata>().pending_saves);
}

TEST_CASE("the nlohmann_json headers built against are the package CMake found", "[nlohmann]") {
    // CI builds the suite against several releases; this shows which one each build really used.
    CHECK(std::to_string(NLOHMANN_JSON_VERSION_MAJOR) + "." + std::to_string(NLOHMANN_JSON_VERSION_MINOR) + "." +
              std::to_string(NLOHMANN_JSON_VERSION_PATCH) ==
          ECMETA_NLOHMANN_VERSION);
}
