// Differential fuzz target for decoding into a reused value, against a fresh decode, and for each
// document against nlohmann (its MessagePack reader, or its JSON parser). The input is a sequence
// of documents, decoded one after the other into one value, as an engine decodes each step's message.
#include <algorithm>

#include "properties.hpp"

ECMETA_FUZZ_TARGET(decode_reuse) {
    if (input.empty()) {
        return;
    }
    // The first byte picks the type and whether unknown keys are refused; then documents separated
    // by 0xFF 0xFF, each with a first byte that picks its format (even: JSON, odd: MessagePack).
    const ecmeta::decode_options options{.reject_unknown_keys = (input[0] / 5) % 2 == 1};
    ecmeta_fuzz::with_type(input[0], [&]<class T>() {
        T out{};
        std::span<const std::uint8_t> rest = input.subspan(1);
        while (!rest.empty()) {
            constexpr std::uint8_t separator[] = {0xFF, 0xFF};
            const auto end = std::search(rest.begin(), rest.end(), std::begin(separator), std::end(separator));
            const auto doc = rest.first(static_cast<std::size_t>(end - rest.begin()));
            rest = rest.subspan(std::min(rest.size(), doc.size() + 2));
            if (doc.empty()) {
                continue;
            }
            const bool as_msgpack = doc[0] % 2 == 1;
            ecmeta_fuzz::check_into_agrees(out, doc.subspan(1), as_msgpack, options);
            if (as_msgpack) {
                ecmeta_fuzz::check_msgpack_against_nlohmann<T>(doc.subspan(1), options);
            } else {
                ecmeta_fuzz::check_json_against_nlohmann<T>(
                    {reinterpret_cast<const char*>(doc.data()) + 1, doc.size() - 1}, options);
            }
        }
    });
}
