// Fuzz target: ecmeta::decode<T> of every type; against nlohmann on the same text (verdicts and
// values), lenient and strict; its two readers against each other; from_json against decode on
// the same DOM.
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
    const std::string_view json = as_text(input.subspan(1));
    ecmeta_fuzz::with_type(input[0], [&]<class T>() {
        ecmeta_fuzz::check_dom_agrees<T, nlohmann::json>(json);
        ecmeta_fuzz::check_dom_agrees<T, nlohmann::ordered_json>(json);
        for (const bool strict : {false, true}) {
            const ecmeta::decode_options options{.reject_unknown_keys = strict};
            ecmeta_fuzz::check_json_against_nlohmann<T>(json, options);
            ecmeta_fuzz::check_readers_agree<ecmeta::detail::json::reader, std::string_view, T>(json, options);
        }
    });
}
