// ecmeta::core needs nothing but the standard library: both wire forms, the fold and validation.
#include <ecmeta/ecmeta.hpp>

#ifdef NLOHMANN_JSON_VERSION_MAJOR
#error "ecmeta.hpp included nlohmann_json"
#endif

int main() {
    const ecmeta::ECMooncakeWorkerMetadata a{.loaded = {"x"}};
    const auto packed = ecmeta::decode_msgpack<ecmeta::ECMooncakeWorkerMetadata>(ecmeta::encode_msgpack(a));
    const auto json = ecmeta::decode<ecmeta::ECMooncakeWorkerMetadata>(ecmeta::encode(a));
    return packed == a && json == a && ecmeta::validate(a).empty() ? 0 : 1;
}
