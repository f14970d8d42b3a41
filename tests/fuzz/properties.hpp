// What every decoded value must satisfy, whichever form it came from.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include <ecmeta/ecmeta.hpp>

#include "fuzz.hpp"

namespace ecmeta_fuzz {

using ranks = std::vector<std::optional<ecmeta::ECMooncakeWorkerMetadata>>;

// Decodes must re-encode; encode(decode(encode(x))) == encode(x); both forms carry the same value.
template <class T>
void check_decoded(const T& x) {
    const std::string json = ecmeta::encode(x);
    const T from_json = ecmeta::decode<T>(json);
    ECMETA_FUZZ_CHECK(from_json == x);
    ECMETA_FUZZ_CHECK(ecmeta::encode(from_json) == json);
    const auto packed = ecmeta::encode_msgpack(x);
    const T from_msgpack = ecmeta::decode_msgpack<T>(packed);
    ECMETA_FUZZ_CHECK(from_msgpack == x);
    ECMETA_FUZZ_CHECK(ecmeta::encode_msgpack(from_msgpack) == packed);
    if constexpr (ecmeta::detail::described<T>) {
        static_cast<void>(ecmeta::validate(x));
    } else {
        static_cast<void>(ecmeta::aggregate(x));
    }
}

// The first byte picks the type, the rest is the input; only decode_error may escape a decode.
template <class Decode>
void fuzz_all_types(std::span<const std::uint8_t> input, Decode&& decode) {
    if (input.empty()) {
        return;
    }
    const auto rest = input.subspan(1);
    const auto attempt = [&]<class T>() {
        std::optional<T> x;
        try {
            x.emplace(decode.template operator()<T>(rest));
        } catch (const ecmeta::decode_error& e) {
            ECMETA_FUZZ_CHECK(e.what() != std::string_view{});
            return;
        }
        check_decoded(*x);
    };
    switch (input[0] % 5) {
        case 0:
            attempt.template operator()<ecmeta::ECMooncakeLoadSpec>();
            break;
        case 1:
            attempt.template operator()<ecmeta::ECMooncakePushSpec>();
            break;
        case 2:
            attempt.template operator()<ecmeta::ECMooncakeConnectorMetadata>();
            break;
        case 3:
            attempt.template operator()<ecmeta::ECMooncakeWorkerMetadata>();
            break;
        default:
            attempt.template operator()<ranks>();
    }
}

}  // namespace ecmeta_fuzz
