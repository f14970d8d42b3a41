// ecmeta::core is standard library only: its headers must not pull in nlohmann_json. Built as part
// of every test build, linked to ecmeta::core alone.
#include <ecmeta/error.hpp>
#include <ecmeta/json_schema.hpp>
#include <ecmeta/metadata.hpp>
#include <ecmeta/msgpack.hpp>
#include <ecmeta/validate.hpp>

#ifdef NLOHMANN_JSON_VERSION_MAJOR
#error "an ecmeta::core header included nlohmann_json"
#endif

bool ecmeta_core_round_trip() {
    const ecmeta::ECMooncakeWorkerMetadata w{.loaded = {"a"}};
    return ecmeta::decode_msgpack<ecmeta::ECMooncakeWorkerMetadata>(ecmeta::encode_msgpack(w)) == w;
}
