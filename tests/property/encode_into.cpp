// encode_into and encode_msgpack_into into one buffer, as an engine writes each step: the bytes of a
// fresh encode every time, and no allocation once the buffer has held the largest message.
#include "allocations.hpp"
#include "test.hpp"
#include "wild.hpp"

using namespace ecmeta_test;

namespace {

template <class T>
void check_warmed_buffers(const std::vector<T>& messages) {
    std::string json;
    std::vector<std::uint8_t> packed;
    for (const T& m : messages) {  // warm on each, so on the largest of either form
        ecmeta::encode_into(m, json);
        ecmeta::encode_msgpack_into(m, packed);
    }
    for (const T& m : messages) {
        const std::string fresh_json = ecmeta::encode(m);
        const auto fresh_packed = ecmeta::encode_msgpack(m);
        const std::size_t before = ecmeta_support::allocations();
        ecmeta::encode_into(m, json);
        ecmeta::encode_msgpack_into(m, packed);
        const std::size_t after = ecmeta_support::allocations();  // before RC_ASSERT, which allocates
        RC_ASSERT(after == before);
        RC_ASSERT(json == fresh_json);
        RC_ASSERT(packed == fresh_packed);
    }
}

}  // namespace

TEST_CASE("a buffer warmed on the largest message encodes any sequence of others with no allocation",
          "[encode_into][property]") {
    // Sequences of up to 8 messages: what matters is their order of sizes, not their number.
    const auto sequence = [](auto gen) {
        using T = typename decltype(gen)::ValueType;
        return *rc::gen::resize(8, rc::gen::container<std::vector<T>>(rc::gen::resize(30, gen)));
    };
    ECMETA_PROP("connector steps",
                [&] { check_warmed_buffers(sequence(rc::gen::arbitrary<ECMooncakeConnectorMetadata>())); });
    ECMETA_PROP("worker reports",
                [&] { check_warmed_buffers(sequence(rc::gen::arbitrary<ECMooncakeWorkerMetadata>())); });
    ECMETA_PROP("any connector step: arbitrary UTF-8, control characters",
                [&] { check_warmed_buffers(sequence(wild::connector_metadata())); });
}
