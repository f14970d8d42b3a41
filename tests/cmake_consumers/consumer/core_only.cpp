// ecmeta::core needs nothing but the standard library.
#include <ecmeta/metadata.hpp>
#include <ecmeta/msgpack.hpp>
#include <ecmeta/validate.hpp>

int main() {
    const ecmeta::ECMooncakeWorkerMetadata a{.loaded = {"x"}};
    const auto back = ecmeta::decode_msgpack<ecmeta::ECMooncakeWorkerMetadata>(ecmeta::encode_msgpack(a));
    return back == a && ecmeta::validate(a).empty() ? 0 : 1;
}
