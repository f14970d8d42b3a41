// Property: one value decoded into again and again, as an engine does each step, is always what a
// fresh decode gives. The inputs come in any order: valid and invalid, JSON and MessagePack, with
// fields left out, keys in any order and keys nobody knows.
#include <algorithm>

#include "allocations.hpp"
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

namespace {

// Engine steps of `loads` loads and pushes, ids of fixed lengths as hashes have, and `freed`
// null, empty or listed: what the step sizes and the freed list's form do to a reused value.
ECMooncakeConnectorMetadata sized_step(std::size_t loads, int freed, std::uint64_t seed) {
    const auto hex = [&seed](std::size_t n) {
        std::string s(n, '0');
        for (char& c : s) {
            seed = seed * 6364136223846793005U + 1442695040888963407U;
            c = "0123456789abcdef"[seed >> 60U];
        }
        return s;
    };
    ECMooncakeConnectorMetadata m;
    for (std::size_t i = 0; i < loads; ++i) {
        m.loads.push_back({.mm_hash = hex(64),
                           .nbytes = 14,
                           .shape = {7},
                           .dtype = "bfloat16",
                           .transfer_id = hex(32),
                           .local = i % 2 == 0});
        m.pushes.push_back({.mm_hash = hex(64),
                            .nbytes = 14,
                            .shape = {1, 7},
                            .dtype = "bfloat16",
                            .consumer_zmq = "tcp://10.0.0." + std::to_string(100 + i % 100) + ":19019",
                            .transfer_id = hex(32),
                            .request_id = "request-" + hex(24)});
    }
    if (freed > 0) {
        m.freed.emplace();
        for (std::size_t i = 0; i < loads / 2; ++i) {
            m.freed->push_back(hex(64));
        }
    } else if (freed == 0) {
        m.freed.emplace();
    }
    return m;
}

}  // namespace

TEST_CASE("a value warmed on its largest message allocates nothing for any later sequence of smaller ones",
          "[decode_into]") {
    // Shortened lists keep their elements and a null freed keeps its list (spares.hpp), so sizes
    // may go down and up again in any order. The thread's spares are shared by every value it
    // decodes into: each case starts from none, as a thread that decodes into one value does.
    ECMETA_PROP("JSON and MessagePack, mixed", [] {
        constexpr std::size_t largest = 60;
        const auto sizes = *rc::gen::container<std::vector<std::size_t>>(rc::gen::inRange<std::size_t>(0, largest + 1));
        const auto freed = *rc::gen::container<std::vector<int>>(sizes.size(), rc::gen::inRange(-1, 2));
        const auto formats = *rc::gen::container<std::vector<bool>>(sizes.size(), rc::gen::arbitrary<bool>());
        ecmeta::release_thread_buffers();
        ECMooncakeConnectorMetadata out;
        const auto warm = sized_step(largest, 1, 1);
        ecmeta::decode_into(ecmeta::encode(warm), out);
        ecmeta::decode_msgpack_into(ecmeta::encode_msgpack(warm), out);
        for (std::size_t i = 0; i < sizes.size(); ++i) {
            const auto message = sized_step(sizes[i], freed[i], i + 2);
            const std::string json = ecmeta::encode(message);
            const auto packed = ecmeta::encode_msgpack(message);
            const std::size_t before = ecmeta_support::allocations();
            if (formats[i]) {
                ecmeta::decode_msgpack_into(packed, out);
            } else {
                ecmeta::decode_into(json, out);
            }
            const std::size_t after = ecmeta_support::allocations();  // before RC_ASSERT, which allocates
            RC_ASSERT(after == before);
            RC_ASSERT(out == message);
        }
    });
    ECMETA_PROP("rank reports that come and go", [] {
        const auto report = [](std::size_t ids, std::size_t salt) {
            ECMooncakeWorkerMetadata w;
            for (std::size_t i = 0; i < ids; ++i) {
                w.loaded.insert(std::to_string(1000 + i) + std::string(60, 'a'));
            }
            w.failed_saves.insert("request-" + std::to_string(10 + salt % 10));
            return w;
        };
        const auto shapes = *rc::gen::container<std::vector<std::vector<int>>>(
            rc::gen::container<std::vector<int>>(rc::gen::inRange(-1, 9)));
        ecmeta::release_thread_buffers();
        ranks out;
        ranks warm;
        for (std::size_t rank = 0; rank < 8; ++rank) {
            warm.emplace_back(report(8, rank));
        }
        ecmeta::decode_into(ecmeta::encode(warm), out);
        for (const auto& shape : shapes) {
            ranks message;
            for (std::size_t rank = 0; rank < std::min<std::size_t>(shape.size(), 8); ++rank) {
                if (shape[rank] >= 0) {
                    message.emplace_back(report(static_cast<std::size_t>(shape[rank]), rank));
                } else {
                    message.emplace_back();  // a rank that said nothing
                }
            }
            const std::string json = ecmeta::encode(message);
            const std::size_t before = ecmeta_support::allocations();
            ecmeta::decode_into(json, out);
            const std::size_t after = ecmeta_support::allocations();
            RC_ASSERT(after == before);
            RC_ASSERT(out == message);
        }
    });
}
