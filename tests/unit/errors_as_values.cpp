// The try_ calls: every decode and encode returns its error instead of throwing it, with the same
// pointer, message and offset as the throwing call, the same options, and the same T{} on failure.
#include "test.hpp"

using namespace ecmeta_test;

namespace {

const ECMooncakeConnectorMetadata step{
    .loads = {{.mm_hash = "h", .nbytes = 4, .shape = {2}, .dtype = "float16", .transfer_id = "t"}},
    .pushes =
        {{.mm_hash = "p", .nbytes = 1, .shape = {1}, .dtype = "int8", .consumer_zmq = "ipc:///x", .transfer_id = "u"}},
    .freed = std::vector<std::string>{"f"}};

void same_error(const ecmeta::error& returned, const ecmeta::error& thrown) {
    CHECK(std::string{returned.what()} == thrown.what());
    CHECK(returned.pointer() == thrown.pointer());
    CHECK(returned.message() == thrown.message());
    CHECK(returned.offset() == thrown.offset());
}

}  // namespace

TEST_CASE("try_decode and try_decode_msgpack give the value decode gives", "[errors_as_values]") {
    const auto json = ecmeta::try_decode<ECMooncakeConnectorMetadata>(ecmeta::encode(step));
    CHECK(json);
    CHECK_FALSE(json.error);
    CHECK(json.value == step);
    const auto [value, error] = ecmeta::try_decode_msgpack<ECMooncakeConnectorMetadata>(ecmeta::encode_msgpack(step));
    CHECK_FALSE(error);
    CHECK(value == step);
}

TEST_CASE("a refused input: the error decode throws, returned, and T{}", "[errors_as_values]") {
    const std::string bad_inputs[] = {
        R"({"loads":[{"mm_hash":"h","nbytes":-1}]})",  // meaning
        R"({"loads":[{"mm_hash":"h",)",                // syntax, with an offset
        R"([])",                                       // the root
        R"({"loads":[{"nbytes":1}]})",                 // a required key missing
    };
    for (const std::string& json : bad_inputs) {
        INFO(json);
        const auto thrown =
            decode_failure([&] { static_cast<void>(ecmeta::decode<ECMooncakeConnectorMetadata>(json)); });
        const auto returned = ecmeta::try_decode<ECMooncakeConnectorMetadata>(json);
        REQUIRE(returned.error);
        CHECK_FALSE(returned);
        same_error(*returned.error, thrown);
        CHECK(returned.value == ECMooncakeConnectorMetadata{});

        ECMooncakeConnectorMetadata kept = step;
        const auto into = ecmeta::try_decode_into(json, kept);
        REQUIRE(into);
        same_error(*into, thrown);
        CHECK(kept == ECMooncakeConnectorMetadata{});  // never half-written
    }
    const std::vector<std::uint8_t> truncated{0x81, 0xA5, 'l', 'o', 'a', 'd', 's', 0x91};
    const auto thrown =
        decode_failure([&] { static_cast<void>(ecmeta::decode_msgpack<ECMooncakeConnectorMetadata>(truncated)); });
    ECMooncakeConnectorMetadata kept = step;
    const auto returned = ecmeta::try_decode_msgpack_into(truncated, kept);
    REQUIRE(returned);
    same_error(*returned, thrown);
    CHECK(returned->offset().has_value());
    CHECK(kept == ECMooncakeConnectorMetadata{});
}

TEST_CASE("decode_options apply to the try_ calls alike", "[errors_as_values]") {
    const ecmeta::decode_options limit{.max_input_bytes = 4};
    const auto thrown =
        decode_failure([&] { static_cast<void>(ecmeta::decode<ECMooncakeWorkerMetadata>("{   }", limit)); });
    const auto returned = ecmeta::try_decode<ECMooncakeWorkerMetadata>("{   }", limit);
    REQUIRE(returned.error);
    same_error(*returned.error, thrown);
    const auto packed = ecmeta::try_decode_msgpack<ECMooncakeWorkerMetadata>(
        ecmeta::encode_msgpack(ECMooncakeWorkerMetadata{.loaded = {"abcdef"}}), limit);
    CHECK(packed.error);
    const ecmeta::decode_options strict{.reject_unknown_keys = true};
    const auto unknown = ecmeta::try_decode<ECMooncakeWorkerMetadata>(R"({"extra":1})", strict);
    REQUIRE(unknown.error);
    CHECK(unknown.error->pointer() == "/extra");
    CHECK(ecmeta::try_decode<ECMooncakeWorkerMetadata>(R"({"extra":1})"));
}

TEST_CASE("try_encode and try_encode_msgpack return encode_error and leave the buffer empty", "[errors_as_values]") {
    ECMooncakeConnectorMetadata bad = step;
    bad.pushes[0].consumer_zmq = "ipc:///\xc3";
    const auto json = ecmeta::try_encode(bad);
    REQUIRE(json.error);
    CHECK(json.error->pointer() == "/pushes/0/consumer_zmq");
    CHECK(json.value.empty());
    const auto packed = ecmeta::try_encode_msgpack(bad);
    REQUIRE(packed.error);
    CHECK(packed.error->pointer() == "/pushes/0/consumer_zmq");
    CHECK(packed.value.empty());
    try {
        static_cast<void>(ecmeta::encode(bad));
        FAIL("encode did not throw");
    } catch (const ecmeta::encode_error& e) {
        same_error(*json.error, e);
    }
    std::string text = "kept";
    CHECK(ecmeta::try_encode_into(bad, text));
    CHECK(text.empty());
    std::vector<std::uint8_t> bytes{1, 2, 3};
    CHECK(ecmeta::try_encode_msgpack_into(bad, bytes));
    CHECK(bytes.empty());
    CHECK_FALSE(ecmeta::try_encode_into(step, text));
    CHECK(text == ecmeta::encode(step));
    CHECK_FALSE(ecmeta::try_encode_msgpack_into(step, bytes));
    CHECK(bytes == ecmeta::encode_msgpack(step));
}
