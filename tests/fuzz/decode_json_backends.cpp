// Differential fuzz target: decode<T> on simdjson and the nlohmann path agree on every input,
// value for value and error for error (what(), pointer(), offset()); and the nlohmann path agrees
// so with the parity oracle of the former JSON text path.
#include "properties.hpp"

ECMETA_FUZZ_TARGET(decode_json_backends) {
    if (input.empty()) {
        return;
    }
    // The first byte picks the type and whether unknown keys are refused; the rest is the input.
    const std::string_view json{reinterpret_cast<const char*>(input.data()) + 1, input.size() - 1};
    const ecmeta::decode_options options{.reject_unknown_keys = (input[0] / 5) % 2 == 1};
    ecmeta_fuzz::with_type(input[0], [&]<class T>() {
        ecmeta_fuzz::check_backends_agree<T>(json, options);
        ecmeta_fuzz::check_text_paths_agree<T>(json, options);
    });
}
