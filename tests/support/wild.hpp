// Generators of any value the wire forms can carry — not only meaningful ones (the test kit
// draws those): arbitrary UTF-8, control characters, extreme numbers, empty strings.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <rapidcheck.h>

#include <ecmeta/metadata.hpp>

namespace ecmeta_test::wild {

inline void append_utf8(std::string& s, std::uint32_t cp) {
    if (cp < 0x80) {
        s += static_cast<char>(cp);
    } else if (cp < 0x800) {
        s += static_cast<char>(0xC0 | (cp >> 6));
        s += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        s += static_cast<char>(0xE0 | (cp >> 12));
        s += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        s += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        s += static_cast<char>(0xF0 | (cp >> 18));
        s += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        s += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        s += static_cast<char>(0x80 | (cp & 0x3F));
    }
}

// Valid UTF-8 of every length class, heavy on what JSON must escape.
inline rc::Gen<std::string> text() {
    const auto code_point = rc::gen::weightedOneOf<std::uint32_t>({
        {6, rc::gen::inRange<std::uint32_t>(0x20, 0x7F)},
        {2, rc::gen::inRange<std::uint32_t>(0x00, 0x20)},
        {1, rc::gen::elementOf(std::vector<std::uint32_t>{'"', '\\', '/', 0x7F})},
        {1, rc::gen::inRange<std::uint32_t>(0x80, 0x800)},
        {1, rc::gen::oneOf(rc::gen::inRange<std::uint32_t>(0x800, 0xD800),
                           rc::gen::inRange<std::uint32_t>(0xE000, 0x10000))},
        {1, rc::gen::inRange<std::uint32_t>(0x10000, 0x110000)},
    });
    return rc::gen::map(rc::gen::container<std::vector<std::uint32_t>>(code_point),
                        [](const std::vector<std::uint32_t>& cps) {
                            std::string s;
                            for (const auto cp : cps) {
                                append_utf8(s, cp);
                            }
                            return s;
                        });
}

// Ids that mostly agree on their first eight bytes, or where one is a prefix of another, with NUL
// and bytes above 0x7f: where the fold's comparison of 8-byte heads hands over to the rest.
inline rc::Gen<std::string> tricky_id() {
    return rc::gen::apply([](const std::string& stem, const std::string& tail) { return stem + tail; },
                          rc::gen::element<std::string>("", "a", std::string("abcdefg\0", 8), "abcdefgh",
                                                        "abcdefghabcdefgh", std::string(8, '\xff')),
                          rc::gen::mapcat(rc::gen::inRange<std::size_t>(0, 10), [](std::size_t n) {
                              return rc::gen::container<std::string>(
                                  n, rc::gen::element('\0', 'a', 'h', '\x7f', '\x80', '\xff'));
                          }));
}

inline rc::Gen<std::uint64_t> u64() {
    return rc::gen::weightedOneOf<std::uint64_t>({
        {3, rc::gen::arbitrary<std::uint64_t>()},
        {1, rc::gen::elementOf(std::vector<std::uint64_t>{0, 127, 128, 255, 256, 65535, 65536, 4294967295ULL,
                                                          4294967296ULL, std::numeric_limits<std::uint64_t>::max()})},
    });
}

inline rc::Gen<std::vector<std::int64_t>> shape() {
    return rc::gen::container<std::vector<std::int64_t>>(
        rc::gen::map(u64(), [](std::uint64_t v) { return static_cast<std::int64_t>(v >> 1U); }));
}

inline rc::Gen<ecmeta::id_set> ids() {
    return rc::gen::map(rc::gen::container<std::vector<std::string>>(text()),
                        [](const std::vector<std::string>& v) { return ecmeta::id_set(v); });
}

inline rc::Gen<ecmeta::ECMooncakeLoadSpec> load_spec() {
    return rc::gen::build<ecmeta::ECMooncakeLoadSpec>(rc::gen::set(&ecmeta::ECMooncakeLoadSpec::mm_hash, text()),
                                                      rc::gen::set(&ecmeta::ECMooncakeLoadSpec::nbytes, u64()),
                                                      rc::gen::set(&ecmeta::ECMooncakeLoadSpec::shape, shape()),
                                                      rc::gen::set(&ecmeta::ECMooncakeLoadSpec::dtype, text()),
                                                      rc::gen::set(&ecmeta::ECMooncakeLoadSpec::transfer_id, text()),
                                                      rc::gen::set(&ecmeta::ECMooncakeLoadSpec::local));
}

inline rc::Gen<ecmeta::ECMooncakePushSpec> push_spec() {
    using P = ecmeta::ECMooncakePushSpec;
    return rc::gen::build<P>(rc::gen::set(&P::mm_hash, text()), rc::gen::set(&P::nbytes, u64()),
                             rc::gen::set(&P::shape, shape()), rc::gen::set(&P::dtype, text()),
                             rc::gen::set(&P::consumer_zmq, text()), rc::gen::set(&P::transfer_id, text()),
                             rc::gen::set(&P::request_id, text()));
}

inline rc::Gen<ecmeta::ECMooncakeConnectorMetadata> connector_metadata() {
    using C = ecmeta::ECMooncakeConnectorMetadata;
    return rc::gen::build<C>(
        rc::gen::set(&C::loads, rc::gen::container<std::vector<ecmeta::ECMooncakeLoadSpec>>(load_spec())),
        rc::gen::set(&C::pushes, rc::gen::container<std::vector<ecmeta::ECMooncakePushSpec>>(push_spec())),
        rc::gen::set(&C::freed, rc::gen::oneOf(rc::gen::just(std::optional<std::vector<std::string>>{}),
                                               rc::gen::map(rc::gen::container<std::vector<std::string>>(text()),
                                                            [](std::vector<std::string> v) {
                                                                return std::optional{std::move(v)};
                                                            }))));
}

inline rc::Gen<ecmeta::ECMooncakeWorkerMetadata> worker_metadata() {
    using W = ecmeta::ECMooncakeWorkerMetadata;
    return rc::gen::build<W>(rc::gen::set(&W::loaded, ids()), rc::gen::set(&W::failed_loads, ids()),
                             rc::gen::set(&W::reclaimed, ids()), rc::gen::set(&W::pending_saves),
                             rc::gen::set(&W::failed_saves, ids()));
}

}  // namespace ecmeta_test::wild
