// json_schema<T>: generated from the schema table, it names exactly the table's fields, in order,
// with their required-ness, descriptions and defaults. (tests/schema/ checks it against decode.)
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "test.hpp"

namespace {

using nlohmann::ordered_json;
using namespace ecmeta;

// The schema's object for S, checked against schema<S> field by field; its nested objects too.
template <class S>
void check_object(const ordered_json& object) {
    CHECK(object.at("title") == std::string{detail::schema<S>::name});
    CHECK(object.at("type") == "object");
    CHECK(object.at("additionalProperties") == true);
    CHECK(object.at("description").get<std::string>().size() > 10);
    const ordered_json& properties = object.at("properties");
    std::vector<std::string> names;
    std::vector<std::string> required;
    const S fresh{};
    detail::for_each_field<S>([&](const auto& fd) {
        const std::string name{fd.name};
        names.push_back(name);
        if (fd.required) {
            required.push_back(name);
        }
        INFO(name);
        REQUIRE(properties.contains(name));
        const ordered_json& p = properties.at(name);
        CHECK(p.at("description") == std::string{fd.meaning});
        // A field that may be left out says its default: the member of a fresh value, as encoded.
        CHECK(p.contains("default") == !fd.required);
        if (!fd.required) {
            std::string encoded;
            CHECK_FALSE(detail::encode_at<detail::json::writer>(fresh.*fd.member, encoded, 0));
            CHECK(p.at("default") == ordered_json::parse(encoded));
        }
        using M = typename std::remove_cvref_t<decltype(fd)>::member_type;
        if constexpr (detail::list_of<M>(detail::form::message)) {
            check_object<typename detail::is_vector<M>::element>(p.at("items"));
        }
    });
    std::vector<std::string> listed;
    for (const auto& [key, value] : properties.items()) {
        listed.push_back(key);
    }
    CHECK(listed == names);  // exactly the table's fields, in its order
    CHECK(object.at("required").get<std::vector<std::string>>() == required);
}

template <class T>
ordered_json schema_of() {
    const ordered_json s = ordered_json::parse(json_schema<T>());
    CHECK(s.at("$schema") == "https://json-schema.org/draft/2020-12/schema");
    return s;
}

}  // namespace

TEST_CASE("json_schema names exactly the schema table's fields, in order, with defaults and descriptions",
          "[json_schema]") {
    check_object<ECMooncakeLoadSpec>(schema_of<ECMooncakeLoadSpec>());
    check_object<ECMooncakePushSpec>(schema_of<ECMooncakePushSpec>());
    check_object<ECMooncakeConnectorMetadata>(schema_of<ECMooncakeConnectorMetadata>());
    check_object<ECMooncakeWorkerMetadata>(schema_of<ECMooncakeWorkerMetadata>());
}

TEST_CASE("json_schema bounds integers as decode does, and says what may be null", "[json_schema]") {
    const ordered_json load = schema_of<ECMooncakeLoadSpec>().at("properties");
    CHECK(load.at("nbytes").at("type") == "integer");
    CHECK(load.at("nbytes").at("minimum") == 0);
    CHECK(load.at("nbytes").at("maximum") == std::numeric_limits<std::uint64_t>::max());
    CHECK(load.at("shape").at("items").at("maximum") == std::numeric_limits<std::int64_t>::max());
    CHECK(load.at("local").at("default") == false);
    const ordered_json step = schema_of<ECMooncakeConnectorMetadata>().at("properties");
    CHECK(step.at("freed").at("type") == ordered_json::array({"array", "null"}));
    CHECK(step.at("freed").at("default") == nullptr);
    CHECK(step.at("loads").at("type") == "array");  // not null
    const ordered_json report = schema_of<ECMooncakeWorkerMetadata>().at("properties");
    CHECK(report.at("loaded").at("items").at("type") == "string");
    CHECK(report.at("loaded").at("default") == ordered_json::array());
}

TEST_CASE("json_schema of lists: items are the element's schema, and a rank may be null", "[json_schema]") {
    const ordered_json loads = schema_of<std::vector<ECMooncakeLoadSpec>>();
    CHECK(loads.at("type") == "array");
    check_object<ECMooncakeLoadSpec>(loads.at("items"));
    const ordered_json ranks = schema_of<std::vector<std::optional<ECMooncakeWorkerMetadata>>>();
    CHECK(ranks.at("type") == "array");
    const ordered_json& either = ranks.at("items").at("anyOf");
    REQUIRE(either.size() == 2);
    check_object<ECMooncakeWorkerMetadata>(either[0]);
    CHECK(either[1] == ordered_json{{"type", "null"}});
}
