// Fuzz target: ecmeta::decode_msgpack<T> of every type.
#include "properties.hpp"

ECMETA_FUZZ_TARGET(decode_msgpack) {
    ecmeta_fuzz::fuzz_all_types(
        input, []<class T>(std::span<const std::uint8_t> bytes) { return ecmeta::decode_msgpack<T>(bytes); });
}
