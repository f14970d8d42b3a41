// Property: one value decoded into again and again, as an engine does each step, is always what a
// fresh decode gives. The inputs come in any order: valid and invalid, JSON and MessagePack, with
// fields left out, keys in any order and keys nobody knows.
#include <algorithm>

#include "test.hpp"
#include "wild.hpp"

using namespace ecmeta_test;

namespace {

using ordered = nlohmann::ordered_json;
using ranks = std::vector<std::optional<ECMooncakeWorkerMetadata>>;

// Reshapes every object of a document, one byte of `how` each (cycled): drops a key, moves one,
// adds an unknown one, or (rarely) gives a field a value of the wrong type.
void mutate(ordered& j, const std::vector<std::uint8_t>& how, std::size_t& at) {
    if (how.empty()) {
        return;
    }
    if (j.is_array()) {
        for (auto& item : j) {
            mutate(item, how, at);
        }
        return;
    }
    if (!j.is_object() || j.empty()) {
        return;
    }
    for (auto& [key, value] : j.items()) {
        mutate(value, how, at);
    }
    const std::uint8_t b = how[at++ % how.size()];
    const std::size_t pick = (b >> 4U) % j.size();
    const std::string key = std::next(j.begin(), static_cast<std::ptrdiff_t>(pick)).key();
    switch (b % 8) {
        case 0:  // left out: the default, or a missing required key
            j.erase(key);
            break;
        case 1: {  // moved to the end
            ordered value = j[key];
            j.erase(key);
            j[key] = std::move(value);
            break;
        }
        case 2:
            j["zz_unknown"] = ordered::array({1, {{"x", 8.0}}, nullptr});
            break;
        case 3:
            if (b % 64 == 3) {  // the wrong type: rarely, so that most inputs decode
                j[key] = b % 128 == 3 ? ordered(8.0) : ordered("x");
            }
            break;
        default:
            break;
    }
}

// Same value, or same error, with `out` reset to T{} on error.
template <class T>
void check_into(T& out, const ordered& doc, bool as_msgpack) {
    std::optional<T> fresh;
    std::string fresh_error;
    std::string into_error;
    const std::string json = doc.dump();
    const auto packed = ordered::to_msgpack(doc);
    try {
        fresh.emplace(as_msgpack ? ecmeta::decode_msgpack<T>(packed) : ecmeta::decode<T>(json));
    } catch (const ecmeta::decode_error& e) {
        fresh_error = e.what();
    }
    try {
        as_msgpack ? ecmeta::decode_msgpack_into(packed, out) : ecmeta::decode_into(json, out);
    } catch (const ecmeta::decode_error& e) {
        into_error = e.what();
    }
    RC_ASSERT(into_error == fresh_error);
    if (fresh) {
        RC_ASSERT(out == *fresh);
    } else {
        RC_ASSERT(out == T{});
    }
}

template <class T>
void reused_value_agrees_with_fresh_decode(const rc::Gen<T>& values) {
    // A dozen steps of modest values: the sequence is the point, and it keeps the suite quick.
    const auto steps = *rc::gen::resize(
        12,
        rc::gen::container<std::vector<std::tuple<T, std::vector<std::uint8_t>, bool>>>(rc::gen::tuple(
            rc::gen::resize(30, values), rc::gen::arbitrary<std::vector<std::uint8_t>>(), rc::gen::arbitrary<bool>())));
    T out{};
    for (const auto& [value, how, as_msgpack] : steps) {
        ordered doc = ordered::parse(ecmeta::encode(value));
        std::size_t at = 0;
        mutate(doc, how, at);
        check_into(out, doc, as_msgpack);
    }
}

}  // namespace

TEST_CASE("a reused ECMooncakeConnectorMetadata decodes as a fresh one", "[decode_into][property]") {
    ECMETA_PROP("same value, or same error and T{}",
                [] { reused_value_agrees_with_fresh_decode(wild::connector_metadata()); });
}

TEST_CASE("a reused ECMooncakePushSpec decodes as a fresh one", "[decode_into][property]") {
    ECMETA_PROP("same value, or same error and T{}", [] { reused_value_agrees_with_fresh_decode(wild::push_spec()); });
}

TEST_CASE("a reused ECMooncakeWorkerMetadata decodes as a fresh one", "[decode_into][property]") {
    ECMETA_PROP("same value, or same error and T{}",
                [] { reused_value_agrees_with_fresh_decode(wild::worker_metadata()); });
}

TEST_CASE("a reused list of rank reports decodes as a fresh one", "[decode_into][property]") {
    ECMETA_PROP("same value, or same error and T{}", [] {
        reused_value_agrees_with_fresh_decode(rc::gen::container<ranks>(
            rc::gen::oneOf(rc::gen::just(std::optional<ECMooncakeWorkerMetadata>{}),
                           rc::gen::map(wild::worker_metadata(),
                                        [](ECMooncakeWorkerMetadata w) { return std::optional{std::move(w)}; }))));
    });
}
