// Differential fuzz target: ecmeta's JSON reader against nlohmann's json::accept on every input,
// and decode<T> against nlohmann's DOM where it accepts (properties.hpp).
#include "properties.hpp"

ECMETA_FUZZ_TARGET(json_accept) {
    if (input.empty()) {
        return;
    }
    // The first byte picks the type and whether unknown keys are refused; the rest is the input.
    const std::string_view json{reinterpret_cast<const char*>(input.data()) + 1, input.size() - 1};
    const ecmeta::decode_options options{.reject_unknown_keys = (input[0] / 5) % 2 == 1};
    ecmeta_fuzz::with_type(input[0], [&]<class T>() {
        ecmeta_fuzz::check_json_against_nlohmann<T>(json, options);
        ecmeta_fuzz::check_readers_agree<ecmeta::detail::json::reader, std::string_view, T>(json, options);
    });
}
