// Fuzz target: ecmeta::decode<T> of every type.
#include "properties.hpp"

ECMETA_FUZZ_TARGET(decode_json) {
    ecmeta_fuzz::fuzz_all_types(input, []<class T>(std::span<const std::uint8_t> bytes) {
        return ecmeta::decode<T>(std::string_view{reinterpret_cast<const char*>(bytes.data()), bytes.size()});
    });
}
