// encode_into and encode_msgpack_into: the caller's buffer, replaced, its storage kept.
#include "allocations.hpp"
#include "test.hpp"

using namespace ecmeta_test;

namespace {

const ECMooncakeConnectorMetadata step{
    .loads = {{.mm_hash = std::string(64, 'a'), .nbytes = 8, .shape = {2, 2}, .dtype = "bfloat16", .transfer_id = "t"}},
    .pushes =
        {{.mm_hash = "h", .nbytes = 2, .shape = {1}, .dtype = "int16", .consumer_zmq = "ipc:///x", .transfer_id = "u"}},
    .freed = std::vector<std::string>{"x\n\"y\""}};

}  // namespace

TEST_CASE("encode_into gives what encode gives, whatever the buffer held before", "[encode_into]") {
    for (const std::string& before : {std::string{}, std::string(3, 'z'), std::string(100000, 'z')}) {
        INFO(before.size() << " bytes before");
        std::string json = before;
        ecmeta::encode_into(step, json);
        CHECK(json == ecmeta::encode(step));
        std::vector<std::uint8_t> packed(before.begin(), before.end());
        ecmeta::encode_msgpack_into(step, packed);
        CHECK(packed == ecmeta::encode_msgpack(step));
    }
}

TEST_CASE("encode_into keeps the buffer's storage, and a warmed buffer allocates nothing", "[encode_into]") {
    std::string json;
    json.reserve(4096);
    const char* storage = json.data();
    std::vector<std::uint8_t> packed;
    packed.reserve(4096);
    const std::uint8_t* packed_storage = packed.data();
    const ECMooncakeWorkerMetadata report{.loaded = {"a", "b"}};
    const std::size_t before = ecmeta_support::allocations();
    ecmeta::encode_into(step, json);
    ecmeta::encode_msgpack_into(step, packed);
    ecmeta::encode_into(report, json);
    ecmeta::encode_msgpack_into(report, packed);
    const std::size_t after = ecmeta_support::allocations();
    CHECK(after == before);
    CHECK(json.data() == storage);
    CHECK(packed.data() == packed_storage);
    CHECK(json == R"({"loaded":["a","b"],"failed_loads":[],"reclaimed":[],"pending_saves":false,"failed_saves":[]})");
}

TEST_CASE("encode_into that throws leaves the buffer empty", "[encode_into]") {
    ECMooncakeConnectorMetadata bad = step;
    bad.pushes.push_back(step.pushes[0]);
    bad.pushes[1].request_id = std::string(40, 'r') + "\xff";
    std::string json = "old";
    CHECK_THROWS_AS(ecmeta::encode_into(bad, json), ecmeta::encode_error);
    CHECK(json.empty());
    std::vector<std::uint8_t> packed{1, 2, 3};
    try {
        ecmeta::encode_msgpack_into(bad, packed);
        FAIL("expected encode_error");
    } catch (const ecmeta::encode_error& e) {
        CHECK(e.pointer() == "/pushes/1/request_id");
    }
    CHECK(packed.empty());
}

TEST_CASE("every byte is escaped or kept wherever it falls in a vector, a word or the tail", "[encode_into]") {
    // The writers copy 32 bytes (AVX2), 16, 8, then one at a time; nlohmann writes each string again.
    for (const std::size_t length :
         std::initializer_list<std::size_t>{1, 7, 8, 9, 15, 16, 17, 31, 32, 33, 40, 63, 64, 65}) {
        for (int byte = 0; byte < 0x80; ++byte) {
            for (std::size_t at = 0; at < length; ++at) {
                std::string id(length, 'a');
                id[at] = static_cast<char>(byte);
                INFO("byte " << byte << " at " << at << " of " << length);
                const std::string json = ecmeta::encode(ECMooncakeWorkerMetadata{.loaded = {id}});
                REQUIRE(json.starts_with(R"({"loaded":[)" + nlohmann::json(id).dump() + "]"));
                REQUIRE(ecmeta::encode_msgpack(ECMooncakeWorkerMetadata{.loaded = {id}}) ==
                        nlohmann::ordered_json::to_msgpack(nlohmann::ordered_json::parse(json)));
            }
        }
    }
    // Multi-byte sequences across every edge: kept as they are; a broken one anywhere is refused.
    for (const std::string_view sequence : {"\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80"}) {
        for (std::size_t at = 0; at < 70; ++at) {
            std::string id = std::string(at, 'a') + std::string{sequence} + std::string(5, 'b');
            INFO("sequence at " << at);
            REQUIRE(
                ecmeta::encode(ECMooncakeWorkerMetadata{.loaded = {id}}).starts_with(R"({"loaded":[")" + id + "\"]"));
            id.pop_back();
            id.resize(at + sequence.size() - 1);  // cut inside the sequence
            REQUIRE_THROWS_AS(ecmeta::encode(ECMooncakeWorkerMetadata{.loaded = {id}}), ecmeta::encode_error);
            REQUIRE_THROWS_AS(ecmeta::encode_msgpack(ECMooncakeWorkerMetadata{.loaded = {id}}), ecmeta::encode_error);
        }
    }
}

TEST_CASE("a string of escapes only is written in full: its room is asked for as it grows", "[encode_into]") {
    const std::string controls(5000, '\x01');
    std::string expected = R"({"loaded":[")";
    for (std::size_t i = 0; i < controls.size(); ++i) {
        expected += "\\u0001";
    }
    expected += R"("],"failed_loads":[],"reclaimed":[],"pending_saves":false,"failed_saves":[]})";
    std::string json(10, 'x');  // a small buffer: every escape may need the buffer to grow
    ecmeta::encode_into(ECMooncakeWorkerMetadata{.loaded = {controls}}, json);
    CHECK(json == expected);
}

TEST_CASE("a set is written whole when its bytes are plain, and id by id otherwise", "[encode_into]") {
    // Every length from 0 to 70 in one set: each id copied in blocks, under each string header.
    std::vector<std::string> ids;
    for (std::size_t length = 0; length <= 70; ++length) {
        ids.push_back(std::string(length, static_cast<char>('a' + length % 26)));
    }
    const auto expect_as_nlohmann = [](const ecmeta::id_set& set) {
        const std::vector<std::string> sorted(set.begin(), set.end());
        const std::string json = ecmeta::encode(ECMooncakeWorkerMetadata{.loaded = set});
        REQUIRE(json.starts_with(R"({"loaded":)" + nlohmann::json(sorted).dump() + ","));
        REQUIRE(ecmeta::encode_msgpack(ECMooncakeWorkerMetadata{.loaded = set}) ==
                nlohmann::ordered_json::to_msgpack(nlohmann::ordered_json::parse(json)));
    };
    ecmeta::id_set set(ids);
    expect_as_nlohmann(set);
    // An erased id's bytes stay behind, plain or not: neither may change what is written.
    set.insert("needs \"escapes\" \xc3\xa9");
    expect_as_nlohmann(set);
    set.erase("needs \"escapes\" \xc3\xa9");
    expect_as_nlohmann(set);
    set.erase(ids[40]);
    expect_as_nlohmann(set);
    // Two ids that are not UTF-8 although their bytes, side by side, are.
    const ecmeta::id_set split{"a\xc3", "\xa9z"};
    CHECK_THROWS_AS(ecmeta::encode(ECMooncakeWorkerMetadata{.loaded = split}), ecmeta::encode_error);
    CHECK_THROWS_AS(ecmeta::encode_msgpack(ECMooncakeWorkerMetadata{.loaded = split}), ecmeta::encode_error);
}
