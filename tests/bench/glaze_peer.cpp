// glaze 7.2.2 reading the bench's JSON, built with -std=c++23 (glaze_peer.hpp).
#include "glaze_peer.hpp"

#include <string_view>

#include <glaze/glaze.hpp>

// The required keys, as ecmeta's schema has them.
template <>
struct glz::meta<ecmeta::ECMooncakeLoadSpec> {
    static constexpr bool requires_key(std::string_view key, bool /*nullable*/) { return key != "local"; }
};
template <>
struct glz::meta<ecmeta::ECMooncakePushSpec> {
    static constexpr bool requires_key(std::string_view key, bool /*nullable*/) { return key != "request_id"; }
};

namespace {

struct read_opts : glz::opts {
    bool validate_skipped = true;
    bool validate_trailing_whitespace = true;
};
constexpr read_opts options{{.error_on_unknown_keys = false}};
constexpr glz::opts json_out{.skip_null_members = false};
constexpr glz::opts msgpack_out{.format = glz::MSGPACK, .skip_null_members = false};
constexpr read_opts msgpack_in{{.format = glz::MSGPACK, .error_on_unknown_keys = false}};

}  // namespace

bool glaze_peer::read(const std::string& json, ecmeta::ECMooncakeConnectorMetadata& out) {
    return !glz::read<options>(out, json);
}

bool glaze_peer::read(const std::string& json, worker& out) {
    return !glz::read<options>(out, json);
}

bool glaze_peer::read_msgpack(const std::string& bytes, ecmeta::ECMooncakeConnectorMetadata& out) {
    return !glz::read<msgpack_in>(out, bytes);
}

bool glaze_peer::read_msgpack(const std::string& bytes, worker& out) {
    return !glz::read<msgpack_in>(out, bytes);
}

bool glaze_peer::write_json(const ecmeta::ECMooncakeConnectorMetadata& value, std::string& out) {
    return !glz::write<json_out>(value, out);
}

bool glaze_peer::write_json(const worker& value, std::string& out) {
    return !glz::write<json_out>(value, out);
}

bool glaze_peer::write_msgpack(const ecmeta::ECMooncakeConnectorMetadata& value, std::string& out) {
    return !glz::write<msgpack_out>(value, out);
}

bool glaze_peer::write_msgpack(const worker& value, std::string& out) {
    return !glz::write<msgpack_out>(value, out);
}
