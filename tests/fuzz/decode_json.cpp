// Fuzz target: ecmeta::decode<T> of every type; from_json against decode on the same DOM; the
// nlohmann path against the oracle of the former JSON text path, lenient and strict.
#include "properties.hpp"

ECMETA_FUZZ_TARGET(decode_json) {
    const auto as_text = [](std::span<const std::uint8_t> bytes) {
        return std::string_view{reinterpret_cast<const char*>(bytes.data()), bytes.size()};
    };
    ecmeta_fuzz::fuzz_all_types(
        input, [&]<class T>(std::span<const std::uint8_t> bytes) { return ecmeta::decode<T>(as_text(bytes)); });
    if (input.empty()) {
        return;
    }
    ecmeta_fuzz::with_type(input[0], [&]<class T>() {
        ecmeta_fuzz::check_dom_agrees<T, nlohmann::json>(as_text(input.subspan(1)));
        ecmeta_fuzz::check_dom_agrees<T, nlohmann::ordered_json>(as_text(input.subspan(1)));
        for (const bool strict : {false, true}) {
            ecmeta_fuzz::check_text_paths_agree<T>(as_text(input.subspan(1)), {.reject_unknown_keys = strict});
        }
    });
}
