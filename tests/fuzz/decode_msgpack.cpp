// Fuzz target: ecmeta::decode_msgpack<T> of every type, and against nlohmann's MessagePack reader
// (properties.hpp), with unknown keys ignored and refused; its two readers against each other.
#include "properties.hpp"

ECMETA_FUZZ_TARGET(decode_msgpack) {
    ecmeta_fuzz::fuzz_all_types(
        input, []<class T>(std::span<const std::uint8_t> bytes) { return ecmeta::decode_msgpack<T>(bytes); });
    if (input.empty()) {
        return;
    }
    ecmeta_fuzz::with_type(input[0], [&]<class T>() {
        for (const bool strict : {false, true}) {
            const ecmeta::decode_options options{.reject_unknown_keys = strict};
            ecmeta_fuzz::check_msgpack_against_nlohmann<T>(input.subspan(1), options);
            ecmeta_fuzz::check_readers_agree<ecmeta::detail::msgpack::reader, std::span<const std::uint8_t>, T>(
                input.subspan(1), options);
        }
    });
}
