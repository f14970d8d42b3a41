// encode: canonical JSON, byte for byte what Python's json.dumps(ensure_ascii=False,
// separators=(",", ":")) writes for the dataclass as a dict with sorted sets.
#include "test.hpp"

using namespace ecmeta_test;

TEST_CASE("a load spec in canonical form", "[encode]") {
    const ECMooncakeLoadSpec s{
        .mm_hash = "ab", .nbytes = 8, .shape = {2, 2}, .dtype = "bfloat16", .transfer_id = "t1", .local = true};
    CHECK(ecmeta::encode(s) ==
          R"({"mm_hash":"ab","nbytes":8,"shape":[2,2],"dtype":"bfloat16","transfer_id":"t1","local":true})");
}

TEST_CASE("sets are written sorted by byte value, without duplicates", "[encode]") {
    const ECMooncakeWorkerMetadata w{.loaded = {"b", "a", "B", "é", "~"}, .failed_saves = {"r2", "r10"}};
    CHECK(
        ecmeta::encode(w) ==
        R"({"loaded":["B","a","b","~","é"],"failed_loads":[],"reclaimed":[],"pending_saves":false,"failed_saves":["r10","r2"]})");
}

TEST_CASE("freed keeps its order and duplicates, and null stays null", "[encode]") {
    CHECK(ecmeta::encode(ECMooncakeConnectorMetadata{.freed = std::vector<std::string>{"z", "a", "z"}}) ==
          R"({"loads":[],"pushes":[],"freed":["z","a","z"]})");
    CHECK(ecmeta::encode(ECMooncakeConnectorMetadata{.freed = std::vector<std::string>{}}) ==
          R"({"loads":[],"pushes":[],"freed":[]})");
    CHECK(ecmeta::encode(ECMooncakeConnectorMetadata{}) == R"({"loads":[],"pushes":[],"freed":null})");
}

TEST_CASE("only quote, backslash and control characters are escaped", "[encode]") {
    const std::string id = std::string{"q\"b\\s/\b\f\n\r\t"} + '\x01' + '\x1f' + '\x7f' + "é€😀";
    const auto out = ecmeta::encode(ECMooncakeWorkerMetadata{.loaded = {id}});
    CHECK(out.starts_with(R"({"loaded":["q\"b\\s/\b\f\n\r\t\u0001\u001f)"
                          "\x7f"
                          "é€😀\"]"));
    const std::string nul(1, '\0');
    CHECK(ecmeta::encode(ECMooncakeWorkerMetadata{.loaded = {nul}}).starts_with(R"({"loaded":["\u0000"])"));
}

TEST_CASE("integers are written in full", "[encode]") {
    const ECMooncakeLoadSpec s{.nbytes = 18446744073709551615ULL, .shape = {9223372036854775807LL, 0}};
    CHECK(ecmeta::encode(s).find(R"("nbytes":18446744073709551615,"shape":[9223372036854775807,0])") !=
          std::string::npos);
}

TEST_CASE("every number is written as std::to_string writes it: each below 10^6, every power of ten's edges",
          "[encode]") {
    // Below 10^8 the digits are found side by side in one word; above, two at a time.
    std::vector<std::uint64_t> numbers;
    for (std::uint64_t n = 0; n < 1000000; ++n) {
        numbers.push_back(n);
    }
    for (std::uint64_t power = 10; power <= 10000000000000000000U; power *= 10) {
        numbers.insert(numbers.end(), {power - 1, power, power + 1, power * 9 / 10 + 7});
        if (power > UINT64_MAX / 10) {
            break;
        }
    }
    numbers.insert(numbers.end(), {99999999, 100000000, 12345678, 87654321, 10000001, UINT64_MAX});
    char buffer[24];
    for (const std::uint64_t n : numbers) {
        char* const end = ecmeta::detail::json::write_decimal(buffer, n);
        REQUIRE(std::string(buffer, static_cast<std::size_t>(end - buffer)) == std::to_string(n));
    }
}

TEST_CASE("lists of messages and of optional reports", "[encode]") {
    const std::vector<std::optional<ECMooncakeWorkerMetadata>> ranks{std::nullopt, ECMooncakeWorkerMetadata{}};
    CHECK(ecmeta::encode(ranks) ==
          R"([null,{"loaded":[],"failed_loads":[],"reclaimed":[],"pending_saves":false,"failed_saves":[]}])");
    CHECK(ecmeta::encode(std::vector<ECMooncakeLoadSpec>{}) == "[]");
}

TEST_CASE("a string that is not UTF-8 has no JSON form: encode_error names it", "[encode]") {
    ECMooncakeConnectorMetadata m;
    m.pushes.resize(2);
    m.pushes[1].consumer_zmq = "tcp://\xff:1";
    try {
        static_cast<void>(ecmeta::encode(m));
        FAIL("expected encode_error");
    } catch (const ecmeta::encode_error& e) {
        CHECK(e.pointer() == "/pushes/1/consumer_zmq");
    }
    for (const char* bad : {"\xc0\x80", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xe2\x82", "\x80"}) {
        INFO(bad);
        CHECK_THROWS_AS(ecmeta::encode(ECMooncakeWorkerMetadata{.reclaimed = {bad}}), ecmeta::encode_error);
        CHECK_THROWS_AS(ecmeta::encode_msgpack(ECMooncakeWorkerMetadata{.reclaimed = {bad}}), ecmeta::encode_error);
    }
}
