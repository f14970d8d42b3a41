// Input from other hosts: no crash, no reading past the end, no allocation from a length the
// input states, no recursion on depth, and no half-written object.
#include "test.hpp"

#include <chrono>

#include "allocations.hpp"

using namespace ecmeta_test;

TEST_CASE("regression: a 4 GiB MessagePack array header followed by nothing fails at once", "[hostile]") {
    // {"loads": array32(0xFFFFFFFF)}
    const auto in = bytes({0x81, 0xA5, 'l', 'o', 'a', 'd', 's', 0xDD, 0xFF, 0xFF, 0xFF, 0xFF});
    const auto e = decode_failure([&] { static_cast<void>(ecmeta::decode_msgpack<ECMooncakeConnectorMetadata>(in)); });
    CHECK(e.offset() == std::optional<std::size_t>{7});
    CHECK(std::string{e.what()}.find("4294967295 elements") != std::string::npos);
    // The same lie at the root, and as a map, and as a str32 length.
    CHECK_THROWS_AS(
        ecmeta::decode_msgpack<std::vector<ECMooncakeWorkerMetadata>>(bytes({0xDD, 0xFF, 0xFF, 0xFF, 0xFF})),
        ecmeta::decode_error);
    CHECK_THROWS_AS(ecmeta::decode_msgpack<ECMooncakeWorkerMetadata>(bytes({0xDF, 0xFF, 0xFF, 0xFF, 0xFF})),
                    ecmeta::decode_error);
    CHECK_THROWS_AS(ecmeta::decode_msgpack<ECMooncakeWorkerMetadata>(
                        bytes({0x81, 0xA6, 'l', 'o', 'a', 'd', 'e', 'd', 0x91, 0xDB, 0xFF, 0xFF, 0xFF, 0xFF})),
                    ecmeta::decode_error);
}

TEST_CASE("regression: huge lengths inside an ignored value fail without allocating", "[hostile]") {
    // {"x": [array32(0xFFFFFFFF)]}: the skipper promises no more values than bytes remain.
    const auto in = bytes({0x81, 0xA1, 'x', 0x91, 0xDD, 0xFF, 0xFF, 0xFF, 0xFF});
    CHECK_THROWS_AS(ecmeta::decode_msgpack<ECMooncakeWorkerMetadata>(in), ecmeta::decode_error);
}

TEST_CASE("a MessagePack decode makes no room beyond its input for what lengths promise", "[hostile]") {
    // Lengths that promise as many elements as there are bytes left, followed by one element or
    // none and then bytes the list cannot hold: each decode fails at the next element, having made
    // room for no more than the bytes left could hold.
    const auto with_tail = [](std::vector<std::uint8_t> head, std::size_t tail, std::uint8_t fill) {
        head.insert(head.end(), tail, fill);
        head.push_back(0xC1);
        return head;
    };
    // {"loaded": array16(0x7FFF) [str8(255) "aaa…", 'a' …]}: an id list's room is estimated from
    // its first id's length.
    const auto ids =
        with_tail(bytes({0x81, 0xA6, 'l', 'o', 'a', 'd', 'e', 'd', 0xDC, 0x7F, 0xFF, 0xD9, 0xFF}), 0x7FFF, 'a');
    // {"loads": array16(0x7FFF) [{"shape": array16(0x7FFF) [0xC1 …]}]}
    const auto lists = with_tail(bytes({0x81, 0xA5, 'l', 'o', 'a', 'd', 's', 0xDC, 0x7F, 0xFF,
                                        0x81, 0xA5, 's', 'h', 'a', 'p', 'e', 0xDC, 0x7F, 0xFF}),
                                 0x7FFF, 0xC1);
    // array16(0x7FFF) [0xC1 …]: a list of reports
    const auto reports = with_tail(bytes({0xDC, 0x7F, 0xFF}), 0x7FFF, 0xC1);

    const auto largest_block = [](auto&& decode) {
        ecmeta_support::reset_largest_allocation();
        CHECK_THROWS_AS(decode(), ecmeta::decode_error);
        return ecmeta_support::largest_allocation();
    };
    CHECK(largest_block([&] { return ecmeta::decode_msgpack<ECMooncakeWorkerMetadata>(ids); }) <= ids.size());
    CHECK(largest_block([&] { return ecmeta::decode_msgpack<ECMooncakeConnectorMetadata>(lists); }) <= lists.size());
    CHECK(largest_block([&] { return ecmeta::decode_msgpack<std::vector<ECMooncakeWorkerMetadata>>(reports); }) <=
          reports.size());
}

TEST_CASE("regression: deep nesting under an unknown key is skipped without recursion", "[hostile]") {
    constexpr std::size_t depth = 1'000'000;
    const std::string json =
        R"({"x":)" + std::string(depth, '[') + std::string(depth, ']') + R"(,"pending_saves":true})";
    CHECK(ecmeta::decode<ECMooncakeWorkerMetadata>(json).pending_saves);

    std::vector<std::uint8_t> packed{0x82, 0xA1, 'x'};
    packed.insert(packed.end(), depth, 0x91);  // [[[[…
    packed.push_back(0xC0);
    const auto tail = bytes({0xAD, 'p', 'e', 'n', 'd', 'i', 'n', 'g', '_', 's', 'a', 'v', 'e', 's', 0xC3});
    packed.insert(packed.end(), tail.begin(), tail.end());
    CHECK(ecmeta::decode_msgpack<ECMooncakeWorkerMetadata>(packed).pending_saves);

    // Where the schema expects a value, depth is an error at the first level that does not fit.
    const std::string deep_known = R"({"loaded":)" + std::string(depth, '[') + std::string(depth, ']') + "}";
    CHECK(decode_failure([&] { static_cast<void>(ecmeta::decode<ECMooncakeWorkerMetadata>(deep_known)); }).pointer() ==
          "/loaded/0");
}

TEST_CASE("regression: every prefix of valid input is refused cleanly", "[hostile]") {
    const ECMooncakeConnectorMetadata m{
        .loads = {{.mm_hash = "h", .nbytes = 2, .shape = {1}, .dtype = "int16", .transfer_id = "t"}},
        .freed = std::vector<std::string>{"é"}};
    const std::string json = ecmeta::encode(m);
    for (std::size_t n = 0; n < json.size(); ++n) {
        CHECK_THROWS_AS(ecmeta::decode<ECMooncakeConnectorMetadata>(std::string_view{json}.substr(0, n)),
                        ecmeta::decode_error);
    }
}

TEST_CASE("regression: a failed decode leaves no half-written object", "[hostile]") {
    ECMooncakeConnectorMetadata target{.freed = std::vector<std::string>{"keep"}};
    const auto before = target;
    const auto j = nlohmann::json::parse(R"({"freed":["a"],"loads":[{"mm_hash":"h"}]})");
    CHECK_THROWS_AS(j.get_to(target), ecmeta::decode_error);
    CHECK(target == before);
}

TEST_CASE("strict mode and the size limit apply to MessagePack too", "[hostile]") {
    const auto packed = ecmeta::encode_msgpack(ECMooncakeWorkerMetadata{});
    CHECK_THROWS_AS(ecmeta::decode_msgpack<ECMooncakeWorkerMetadata>(packed, {.max_input_bytes = packed.size() - 1}),
                    ecmeta::decode_error);
    CHECK_NOTHROW(ecmeta::decode_msgpack<ECMooncakeWorkerMetadata>(
        packed, {.max_input_bytes = packed.size(), .reject_unknown_keys = true}));
}
