// glaze 7.2.2 reading and writing the bench's JSON and MessagePack, built with -std=c++23
// (glaze_peer.hpp).
#include "glaze_peer.hpp"

#include <string_view>

#include <glaze/glaze.hpp>

// Each struct as a glaze object: its MessagePack is then a map keyed by field name, as ecmeta's is
// (glaze 7 writes and reads a struct it only reflects as an array). The required keys, as
// ecmeta's schema has them.
template <>
struct glz::meta<ecmeta::ECMooncakeLoadSpec> {
    using T = ecmeta::ECMooncakeLoadSpec;
    static constexpr auto value = glz::object("mm_hash", &T::mm_hash, "nbytes", &T::nbytes, "shape", &T::shape, "dtype",
                                              &T::dtype, "transfer_id", &T::transfer_id, "local", &T::local);
    static constexpr bool requires_key(std::string_view key, bool /*nullable*/) { return key != "local"; }
};
template <>
struct glz::meta<ecmeta::ECMooncakePushSpec> {
    using T = ecmeta::ECMooncakePushSpec;
    static constexpr auto value =
        glz::object("mm_hash", &T::mm_hash, "nbytes", &T::nbytes, "shape", &T::shape, "dtype", &T::dtype,
                    "consumer_zmq", &T::consumer_zmq, "transfer_id", &T::transfer_id, "request_id", &T::request_id);
    static constexpr bool requires_key(std::string_view key, bool /*nullable*/) { return key != "request_id"; }
};
template <>
struct glz::meta<ecmeta::ECMooncakeConnectorMetadata> {
    using T = ecmeta::ECMooncakeConnectorMetadata;
    static constexpr auto value = glz::object("loads", &T::loads, "pushes", &T::pushes, "freed", &T::freed);
};
template <>
struct glz::meta<glaze_peer::worker> {
    using T = glaze_peer::worker;
    static constexpr auto value =
        glz::object("loaded", &T::loaded, "failed_loads", &T::failed_loads, "reclaimed", &T::reclaimed, "pending_saves",
                    &T::pending_saves, "failed_saves", &T::failed_saves);
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
