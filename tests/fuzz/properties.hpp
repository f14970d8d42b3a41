// What every decoded value must satisfy, whichever form it came from.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <ecmeta/ecmeta.hpp>

#include "fuzz.hpp"
#include "json_events.hpp"
#include "msgpack_events.hpp"

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

// Calls check.template operator()<T>() for the decodable type that `pick` names.
template <class Check>
void with_type(std::uint8_t pick, Check&& check) {
    switch (pick % 5) {
        case 0:
            check.template operator()<ecmeta::ECMooncakeLoadSpec>();
            break;
        case 1:
            check.template operator()<ecmeta::ECMooncakePushSpec>();
            break;
        case 2:
            check.template operator()<ecmeta::ECMooncakeConnectorMetadata>();
            break;
        case 3:
            check.template operator()<ecmeta::ECMooncakeWorkerMetadata>();
            break;
        default:
            check.template operator()<ranks>();
    }
}

// The first byte picks the type, the rest is the input; only decode_error may escape a decode.
template <class Decode>
void fuzz_all_types(std::span<const std::uint8_t> input, Decode&& decode) {
    if (input.empty()) {
        return;
    }
    const auto rest = input.subspan(1);
    with_type(input[0], [&]<class T>() {
        std::optional<T> x;
        try {
            x.emplace(decode.template operator()<T>(rest));
        } catch (const ecmeta::decode_error& e) {
            ECMETA_FUZZ_CHECK(e.what() != std::string_view{});
            return;
        }
        check_decoded(*x);
    });
}

// What one decode gave: a value, or the error's what(), pointer() and offset().
template <class T>
struct outcome {
    std::optional<T> value;
    std::string what;
    std::string pointer;
    std::optional<std::size_t> offset;

    template <class Decode>
    static outcome of(Decode&& decode) {
        outcome o;
        try {
            o.value.emplace(decode());
        } catch (const ecmeta::decode_error& e) {
            o.what = e.what();
            o.pointer = e.pointer();
            o.offset = e.offset();
        }
        return o;
    }

    bool operator==(const outcome&) const = default;
};

// decode<T> (simdjson, when this build has it) and the nlohmann path give the same value or the
// same error, whichever options apply.
template <class T>
void check_backends_agree(std::string_view json, const ecmeta::decode_options& options) {
    const auto fast = outcome<T>::of([&] { return ecmeta::decode<T>(json, options); });
    const auto reference = outcome<T>::of([&] { return ecmeta::detail::decode_nlohmann<T>(json, options); });
    ECMETA_FUZZ_CHECK(fast == reference);
}

// The nlohmann path (the walker over nlohmann's lexer) and the parity oracle (nlohmann's SAX
// parser into the event decoder, as JSON text was decoded before) give the same value or the same
// error: message, pointer and offset.
template <class T>
void check_text_paths_agree(std::string_view json, const ecmeta::decode_options& options) {
    const auto walked = outcome<T>::of([&] { return ecmeta::detail::decode_nlohmann<T>(json, options); });
    const auto reference = outcome<T>::of([&] {
        T out{};
        ecmeta_test::decode_json_events(json, out, options);
        return out;
    });
    ECMETA_FUZZ_CHECK(walked == reference);
}

// decode_msgpack (the generated decoder, which names its own errors) and the parity oracle (the
// event reader into the event decoder, as MessagePack was decoded before) give the same value or
// the same error: message, pointer and offset.
template <class T>
void check_msgpack_paths_agree(std::span<const std::uint8_t> bytes, const ecmeta::decode_options& options) {
    const auto fast = outcome<T>::of([&] { return ecmeta::decode_msgpack<T>(bytes, options); });
    const auto reference = outcome<T>::of([&] {
        T out{};
        ecmeta_test::decode_msgpack_events(bytes, out, options);
        return out;
    });
    ECMETA_FUZZ_CHECK(fast == reference);
}

// from_json (the walker over nlohmann's DOM) gives what decode gives on the DOM's own text: the
// same value, or the same error, a value named as the DOM holds it (a float as nlohmann writes it).
template <class T, class BasicJson>
void check_dom_agrees(std::string_view json) {
    if constexpr (ecmeta::detail::described<T>) {
        // dump() recurses: keep to documents of modest nesting.
        if (std::count_if(json.begin(), json.end(), [](char c) { return c == '[' || c == '{'; }) > 256) {
            return;
        }
        const BasicJson j = BasicJson::parse(json, nullptr, false);
        if (j.is_discarded()) {
            return;
        }
        const std::string text = j.dump();
        if (BasicJson::parse(text) != j) {
            return;  // a float beyond double's range, which nlohmann parses as inf and writes as null
        }
        const auto dom = outcome<T>::of([&] { return j.template get<T>(); });
        const auto from_text = outcome<T>::of([&] { return ecmeta::decode<T>(text); });
        ECMETA_FUZZ_CHECK(dom == from_text);
    }
}

// Decoding into `out`, reused, gives what a fresh decode gives, or the same error and T{}.
template <class T>
void check_into_agrees(T& out, std::span<const std::uint8_t> input, bool as_msgpack,
                       const ecmeta::decode_options& options) {
    const std::string_view json{reinterpret_cast<const char*>(input.data()), input.size()};
    const auto fresh = outcome<T>::of(
        [&] { return as_msgpack ? ecmeta::decode_msgpack<T>(input, options) : ecmeta::decode<T>(json, options); });
    const auto into = outcome<T>::of([&] {
        as_msgpack ? ecmeta::decode_msgpack_into(input, out, options) : ecmeta::decode_into(json, out, options);
        return out;
    });
    ECMETA_FUZZ_CHECK(into.what == fresh.what);
    ECMETA_FUZZ_CHECK(into.value == fresh.value);
    ECMETA_FUZZ_CHECK((fresh.value.has_value() || out == T{}));
}

}  // namespace ecmeta_fuzz
