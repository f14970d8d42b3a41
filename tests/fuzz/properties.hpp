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
#include <ecmeta/nlohmann.hpp>

#include "fuzz.hpp"
#include "json_verdicts.hpp"

namespace ecmeta_fuzz {

using ranks = std::vector<std::optional<ecmeta::ECMooncakeWorkerMetadata>>;

// Decodes must re-encode; encode(decode(encode(x))) == encode(x); both forms carry the same value;
// encoding into a kept buffer writes what a fresh encode writes.
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
    // Into buffers kept from one input to the next, whatever they last held: the same bytes.
    thread_local std::string kept_json;
    thread_local std::vector<std::uint8_t> kept_packed;
    ecmeta::encode_into(x, kept_json);
    ECMETA_FUZZ_CHECK(kept_json == json);
    ecmeta::encode_msgpack_into(x, kept_packed);
    ECMETA_FUZZ_CHECK(kept_packed == packed);
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

// What one decode gave: a value, or the error's message(), pointer() and offset().
template <class T>
struct outcome {
    std::optional<T> value;
    std::string message;
    std::string pointer;
    std::optional<std::size_t> offset;

    template <class Decode>
    static outcome of(Decode&& decode) {
        outcome o;
        try {
            o.value.emplace(decode());
        } catch (const ecmeta::decode_error& e) {
            o.message = e.message();
            o.pointer = e.pointer();
            o.offset = e.offset();
        }
        return o;
    }

    bool operator==(const outcome&) const = default;

    // As a golden line holds it: which decode, then the value's canonical JSON (its size and
    // FNV-1a hash past 256 bytes, which keeps the files small), or the error's message, pointer
    // and offset (null for an error of meaning).
    void record(std::string_view form, const ecmeta::decode_options& options) const {
        ecmeta_fuzz::record([&] {
            std::string decode{form};
            if constexpr (ecmeta::detail::described<T>) {
                decode += ecmeta::detail::schema<T>::name;
            } else {
                decode += "ranks";
            }
            nlohmann::ordered_json o{{"decode", decode}, {"strict", options.reject_unknown_keys}};
            if (value) {
                const std::string json = ecmeta::encode(*value);
                if (json.size() <= 256) {
                    o["value"] = nlohmann::ordered_json::parse(json);
                } else {
                    std::uint64_t hash = 14695981039346656037ULL;
                    for (const char c : json) {
                        hash = (hash ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
                    }
                    o["value_bytes"] = json.size();
                    o["value_fnv1a"] = hash;
                }
            } else {
                o["message"] = message;
                o["pointer"] = pointer;
                o["offset"] = offset ? nlohmann::ordered_json(*offset) : nlohmann::ordered_json();
            }
            return o.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
        });
    }
};

// from_json, or for a list, from_json of each element (null for a rank that said nothing).
template <class T>
T from_dom(const nlohmann::ordered_json& j) {
    if constexpr (ecmeta::detail::described<T>) {
        return j.get<T>();
    } else {
        using E = typename T::value_type;
        if (!j.is_array()) {
            throw ecmeta::decode_error("", "expected array");
        }
        T out;
        for (const auto& element : j) {
            if constexpr (ecmeta::detail::is_optional_v<E>) {
                out.push_back(element.is_null() ? E{} : E{element.get<typename E::value_type>()});
            } else {
                out.push_back(element.get<E>());
            }
        }
        return out;
    }
}

// decode<T> against nlohmann on the same text: the reader accepts what nlohmann accepts; decode
// refuses what nlohmann refuses; on text nlohmann accepts, decode finds no error of syntax (one
// with an offset), and lenient, what it decodes from_json of nlohmann's DOM decodes the same, and
// what from_json refuses it refuses.
template <class T>
void check_json_against_nlohmann(std::string_view json, const ecmeta::decode_options& options) {
    const bool accepted = ecmeta_test::nlohmann_accepts(json);
    ECMETA_FUZZ_CHECK(ecmeta_test::ecmeta_accepts(json) == accepted);
    const auto decoded = outcome<T>::of([&] { return ecmeta::decode<T>(json, options); });
    decoded.record("json ", options);
    if (!accepted) {
        ECMETA_FUZZ_CHECK(!decoded.value.has_value());
        return;
    }
    ECMETA_FUZZ_CHECK(!decoded.offset.has_value());
    if (options.reject_unknown_keys) {
        return;  // from_json has no strict form
    }
    // The DOM's builder and destructor nest as the input does: keep to documents of modest nesting.
    if (std::count_if(json.begin(), json.end(), [](char c) { return c == '[' || c == '{'; }) > 256) {
        return;
    }
    const auto dom = outcome<T>::of([&] { return from_dom<T>(nlohmann::ordered_json::parse(json)); });
    // A duplicate key's earlier value is checked by decode, which streams, and dropped unread by
    // the DOM (docs/wire-format.md): only there may decode refuse what from_json takes.
    if (decoded.value || !dom.value) {
        ECMETA_FUZZ_CHECK(decoded.value == dom.value);
    }
}

// The refusing reader (the fast path) and the naming reader (which words errors) agree: both
// decode the same value, or both fail, the naming one with a message that names the type asked
// for. And the call that returns its error (try_decode, try_decode_msgpack) gives what the
// throwing call gives.
template <template <bool> class Reader, class Input, class T>
void check_readers_agree(Input input, const ecmeta::decode_options& options) {
    ecmeta::detail::no_storage keep;
    T fast{};
    Reader<false> fast_reader{input, keep.escapes()};
    ecmeta::detail::read_document(fast_reader, fast, keep, options.reject_unknown_keys);
    T naming{};
    Reader<true> naming_reader{input, keep.escapes()};
    ecmeta::detail::read_document(naming_reader, naming, keep, options.reject_unknown_keys);
    ECMETA_FUZZ_CHECK(fast_reader.failed() == naming_reader.failed());
    if (naming_reader.failed()) {
        ECMETA_FUZZ_CHECK(!naming_reader.recorded().type_unnamed);
        ECMETA_FUZZ_CHECK(!naming_reader.recorded().message.empty());
    } else {
        ECMETA_FUZZ_CHECK(fast == naming);
    }

    constexpr bool json = std::is_same_v<Input, std::string_view>;
    const auto thrown = outcome<T>::of([&] {
        if constexpr (json) {
            return ecmeta::decode<T>(input, options);
        } else {
            return ecmeta::decode_msgpack<T>(input, options);
        }
    });
    const auto returned = [&] {
        if constexpr (json) {
            return ecmeta::try_decode<T>(input, options);
        } else {
            return ecmeta::try_decode_msgpack<T>(input, options);
        }
    }();
    ECMETA_FUZZ_CHECK(returned.error.has_value() == !thrown.value.has_value());
    if (returned.error) {
        ECMETA_FUZZ_CHECK(returned.value == T{});
        ECMETA_FUZZ_CHECK(returned.error->message() == thrown.message);
        ECMETA_FUZZ_CHECK(returned.error->pointer() == thrown.pointer);
        ECMETA_FUZZ_CHECK(returned.error->offset() == thrown.offset);
    } else {
        ECMETA_FUZZ_CHECK(returned.value == *thrown.value);
    }
}

// Whether a MessagePack input nests containers deeper than nlohmann's reader, which recurses, can
// be trusted with (counting every byte that could open a container, an over-estimate).
inline bool deeply_nested(std::span<const std::uint8_t> bytes) {
    return std::count_if(bytes.begin(), bytes.end(),
                         [](std::uint8_t b) { return (b >= 0x80 && b <= 0x9f) || (b >= 0xdc && b <= 0xdf); }) > 256;
}

// decode_msgpack against nlohmann's MessagePack reader, through JSON: what nlohmann refuses,
// decode_msgpack refuses when it refuses unknown keys (lenient, it skips an unknown key's value
// unread, map keys that are not strings too); what decode_msgpack decodes, decode of nlohmann's
// DOM written as JSON decodes the same; what that refuses, decode_msgpack refuses. (decode_msgpack
// may refuse what the DOM's text gives: a string not UTF-8, which the text replaces, a NaN the
// text writes as null, a duplicate key's earlier value, which the DOM drops.) The outcome is
// recorded for the golden lines.
template <class T>
void check_msgpack_against_nlohmann(std::span<const std::uint8_t> bytes, const ecmeta::decode_options& options) {
    const auto packed = outcome<T>::of([&] { return ecmeta::decode_msgpack<T>(bytes, options); });
    packed.record("msgpack ", options);
    if (deeply_nested(bytes)) {
        return;
    }
    const auto dom = nlohmann::ordered_json::from_msgpack(bytes, true, false);
    if (dom.is_discarded()) {
        ECMETA_FUZZ_CHECK(!(options.reject_unknown_keys && packed.value.has_value()));
        return;
    }
    const std::string text = dom.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
    const auto via_json = outcome<T>::of([&] { return ecmeta::decode<T>(text, options); });
    if (packed.value || !via_json.value) {
        ECMETA_FUZZ_CHECK(packed.value == via_json.value);
    }
}

// from_json (the decoder over nlohmann's DOM) gives what decode gives on the DOM's own text: the
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
    ECMETA_FUZZ_CHECK(into.message == fresh.message);
    ECMETA_FUZZ_CHECK(into.value == fresh.value);
    ECMETA_FUZZ_CHECK((fresh.value.has_value() || out == T{}));
}

}  // namespace ecmeta_fuzz
