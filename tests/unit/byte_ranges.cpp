// What the wire calls read from and write into: any contiguous bytes in, std::string or any byte
// vector out, with the same value, bytes and errors whichever is used.
#include <array>
#include <cstddef>
#include <cstring>
#include <span>
#include <sstream>

#include "test.hpp"

using namespace ecmeta_test;

namespace {

const ECMooncakeConnectorMetadata step{
    .loads = {{.mm_hash = "h", .nbytes = 8, .shape = {2, 2}, .dtype = "bfloat16", .transfer_id = "t", .local = true}},
    .freed = std::vector<std::string>{"x"}};

// The same bytes as each byte container.
template <class Container>
Container as(std::string_view bytes) {
    Container out(bytes.size(), {});
    std::memcpy(out.data(), bytes.data(), bytes.size());
    return out;
}

}  // namespace

TEST_CASE("decode takes any contiguous bytes: each gives the value std::string_view gives", "[byte_ranges]") {
    const std::string json = ecmeta::encode(step);
    CHECK(ecmeta::decode<ECMooncakeConnectorMetadata>(as<std::vector<char>>(json)) == step);
    CHECK(ecmeta::decode<ECMooncakeConnectorMetadata>(as<std::vector<std::uint8_t>>(json)) == step);
    const auto bytes = as<std::vector<std::byte>>(json);
    CHECK(ecmeta::decode<ECMooncakeConnectorMetadata>(std::span<const std::byte>{bytes}) == step);
    ECMooncakeConnectorMetadata into;
    ecmeta::decode_into(as<std::vector<unsigned char>>(json), into);
    CHECK(into == step);
    // A string literal is text without its NUL, as std::string_view reads it.
    CHECK(ecmeta::decode<ECMooncakeWorkerMetadata>("{}") == ECMooncakeWorkerMetadata{});

    const std::vector<std::uint8_t> packed = ecmeta::encode_msgpack(step);
    const std::string_view packed_chars{reinterpret_cast<const char*>(packed.data()), packed.size()};
    CHECK(ecmeta::decode_msgpack<ECMooncakeConnectorMetadata>(std::string{packed_chars}) == step);
    CHECK(ecmeta::decode_msgpack<ECMooncakeConnectorMetadata>(as<std::vector<char>>(packed_chars)) == step);
    CHECK(ecmeta::decode_msgpack<ECMooncakeConnectorMetadata>(std::span<const std::uint8_t>{packed}) == step);
    ecmeta::decode_msgpack_into(as<std::vector<std::byte>>(packed_chars), into);
    CHECK(into == step);
}

TEST_CASE("decode errors are the same whichever bytes carry the input", "[byte_ranges]") {
    const std::string json = R"({"loads":[{"mm_hash":"h","nbytes":-1}]})";
    const auto text = decode_failure([&] { static_cast<void>(ecmeta::decode<ECMooncakeConnectorMetadata>(json)); });
    const auto bytes = decode_failure(
        [&] { static_cast<void>(ecmeta::decode<ECMooncakeConnectorMetadata>(as<std::vector<std::byte>>(json))); });
    CHECK(std::string{bytes.what()} == text.what());
    CHECK(bytes.offset() == text.offset());
    CHECK(text.pointer() == "/loads/0/nbytes");
}

TEST_CASE("encode_into and encode_msgpack_into fill std::string and every byte vector alike", "[byte_ranges]") {
    const std::string json = ecmeta::encode(step);
    const std::vector<std::uint8_t> packed = ecmeta::encode_msgpack(step);
    const std::string_view packed_chars{reinterpret_cast<const char*>(packed.data()), packed.size()};

    std::vector<char> json_chars{'z'};
    ecmeta::encode_into(step, json_chars);
    CHECK(json_chars == as<std::vector<char>>(json));
    std::vector<std::byte> json_bytes;
    ecmeta::encode_into(step, json_bytes);
    CHECK(json_bytes == as<std::vector<std::byte>>(json));

    std::string packed_string = "old";
    ecmeta::encode_msgpack_into(step, packed_string);
    CHECK(packed_string == packed_chars);
    std::vector<char> packed_vector;
    ecmeta::encode_msgpack_into(step, packed_vector);
    CHECK(packed_vector == as<std::vector<char>>(packed_chars));
    std::vector<std::byte> packed_bytes(1000, std::byte{7});
    ecmeta::encode_msgpack_into(step, packed_bytes);
    CHECK(packed_bytes == as<std::vector<std::byte>>(packed_chars));

    // Not UTF-8: the error, and an empty buffer, in every container.
    ECMooncakeConnectorMetadata bad = step;
    bad.loads[0].mm_hash = "\xff";
    CHECK_THROWS_AS(ecmeta::encode_msgpack_into(bad, packed_string), ecmeta::encode_error);
    CHECK(packed_string.empty());
    CHECK_THROWS_AS(ecmeta::encode_into(bad, json_bytes), ecmeta::encode_error);
    CHECK(json_bytes.empty());
}

TEST_CASE("ecmeta::error is the one base: pointer, message and offset of both errors", "[byte_ranges][errors]") {
    const auto catch_base = [](auto&& f) -> std::string {
        try {
            f();
        } catch (const ecmeta::error& e) {
            return e.pointer() + "|" + std::string{e.message()} + "|" + (e.offset() ? "offset" : "no offset");
        }
        return "nothing thrown";
    };
    CHECK(catch_base([] { static_cast<void>(ecmeta::decode<ECMooncakeLoadSpec>("{")); }) ==
          "|expected a string key or '}', got end of input at byte 1|offset");
    ECMooncakeWorkerMetadata w{.failed_saves = {"\xc0"}};
    CHECK(catch_base([&] { static_cast<void>(ecmeta::encode(w)); }) ==
          "/failed_saves/0|expected a UTF-8 string, got invalid UTF-8|no offset");
}

TEST_CASE("a list of rank reports validates and prints as decode takes it", "[byte_ranges][wire_type]") {
    static_assert(ecmeta::wire_type<std::vector<std::optional<ECMooncakeWorkerMetadata>>>);
    static_assert(ecmeta::wire_type<std::vector<ECMooncakeLoadSpec>>);
    static_assert(!ecmeta::wire_type<ecmeta::id_set>);
    static_assert(!ecmeta::wire_type<std::vector<int>>);
    const std::vector<std::optional<ECMooncakeWorkerMetadata>> ranks{
        ECMooncakeWorkerMetadata{.loaded = {"a"}}, std::nullopt,
        ECMooncakeWorkerMetadata{.loaded = {"b"}, .failed_loads = {"b"}}};
    const auto problems = ecmeta::validate(ranks);
    REQUIRE(problems.size() == 1);
    CHECK(problems[0].pointer == "/2/failed_loads/0");
    CHECK(problems[0] ==
          ecmeta::problem{"/2" + ecmeta::validate(*ranks[2])[0].pointer, ecmeta::validate(*ranks[2])[0].message});
    std::ostringstream out;
    out << ranks;
    CHECK(out.str() == ecmeta::encode(ranks));
}
