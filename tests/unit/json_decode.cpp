// decode: strict decoding with errors that say where (a JSON Pointer) and what was expected.
#include "test.hpp"

using namespace ecmeta_test;

namespace {
constexpr std::string_view load_ok = R"({"mm_hash":"h","nbytes":4,"shape":[2],"dtype":"int16","transfer_id":"t"})";
constexpr std::string_view push_ok =
    R"({"mm_hash":"h","nbytes":4,"shape":[2],"dtype":"int16","consumer_zmq":"tcp://a:1","transfer_id":"t"})";

template <class T>
std::string error_of(std::string_view json, const ecmeta::decode_options& options = {}) {
    return decode_failure([&] { static_cast<void>(ecmeta::decode<T>(json, options)); }).what();
}
template <class T>
std::string pointer_of(std::string_view json) {
    return decode_failure([&] { static_cast<void>(ecmeta::decode<T>(json)); }).pointer();
}
}  // namespace

TEST_CASE("absent optional keys take their defaults", "[decode]") {
    const auto l = ecmeta::decode<ECMooncakeLoadSpec>(load_ok);
    CHECK(l == ECMooncakeLoadSpec{.mm_hash = "h", .nbytes = 4, .shape = {2}, .dtype = "int16", .transfer_id = "t"});
    CHECK(ecmeta::decode<ECMooncakePushSpec>(push_ok).request_id.empty());
    CHECK(ecmeta::decode<ECMooncakeConnectorMetadata>("{}") == ECMooncakeConnectorMetadata{});
    CHECK(ecmeta::decode<ECMooncakeWorkerMetadata>("{}") == ECMooncakeWorkerMetadata{});
}

TEST_CASE("every required key is required, and the pointer says where it belongs", "[decode]") {
    for (const std::string_view key : {"mm_hash", "nbytes", "shape", "dtype", "transfer_id"}) {
        auto j = nlohmann::json::parse(load_ok);
        j.erase(std::string{key});
        const std::string text = R"({"loads":[)" + std::string{load_ok} + "," + j.dump() + "]}";
        const auto e = decode_failure([&] { static_cast<void>(ecmeta::decode<ECMooncakeConnectorMetadata>(text)); });
        CHECK(e.pointer() == "/loads/1/" + std::string{key});
        CHECK_THAT(e.what(), ContainsSubstring("required key missing"));
    }
    CHECK(pointer_of<ECMooncakePushSpec>(
              R"({"mm_hash":"h","nbytes":4,"shape":[2],"dtype":"int16","transfer_id":"t"})") == "/consumer_zmq");
}

TEST_CASE("what() reads '<pointer>: expected ..., got ...'", "[decode]") {
    CHECK(error_of<ECMooncakeConnectorMetadata>(
              R"({"loads":[{"mm_hash":"h","nbytes":"4","shape":[],"dtype":"x","transfer_id":"t"}]})") ==
          "/loads/0/nbytes: expected non-negative integer, got string");
    CHECK(error_of<ECMooncakeLoadSpec>(R"({"shape":[1,-2]})") ==
          "/shape/1: expected non-negative integer, got integer -2");
}

TEST_CASE("numbers: no floats, no booleans, no null, nothing out of range", "[decode]") {
    CHECK_THAT(error_of<ECMooncakeLoadSpec>(R"({"nbytes":8.0})"), ContainsSubstring("got float 8.0"));
    CHECK_THAT(error_of<ECMooncakeLoadSpec>(R"({"nbytes":1e3})"), ContainsSubstring("got float 1e3"));
    CHECK_THAT(error_of<ECMooncakeLoadSpec>(R"({"nbytes":true})"), ContainsSubstring("got true"));
    CHECK_THAT(error_of<ECMooncakeLoadSpec>(R"({"nbytes":null})"), ContainsSubstring("got null"));
    CHECK_THAT(error_of<ECMooncakeLoadSpec>(R"({"nbytes":-1})"), ContainsSubstring("got integer -1"));
    CHECK_THAT(error_of<ECMooncakeLoadSpec>(R"({"nbytes":18446744073709551616})"),
               ContainsSubstring("got integer out of range 18446744073709551616"));
    CHECK_THAT(error_of<ECMooncakeLoadSpec>(R"({"shape":[9223372036854775808]})"),
               ContainsSubstring("/shape/0: expected non-negative integer that fits int64"));
    const auto big = ecmeta::decode<ECMooncakeLoadSpec>(
        R"({"mm_hash":"h","nbytes":18446744073709551615,"shape":[9223372036854775807],"dtype":"d","transfer_id":"t"})");
    CHECK(big.nbytes == 18446744073709551615ULL);
    CHECK(big.shape[0] == 9223372036854775807LL);
}

TEST_CASE("booleans are only true and false, strings only strings", "[decode]") {
    CHECK(pointer_of<ECMooncakeWorkerMetadata>(R"({"pending_saves":0})") == "/pending_saves");
    CHECK(pointer_of<ECMooncakeWorkerMetadata>(R"({"pending_saves":"true"})") == "/pending_saves");
    CHECK(pointer_of<ECMooncakeLoadSpec>(R"({"mm_hash":7})") == "/mm_hash");
    CHECK(pointer_of<ECMooncakeLoadSpec>(R"({"mm_hash":null})") == "/mm_hash");
    CHECK(pointer_of<ECMooncakeWorkerMetadata>(R"({"loaded":["a",1]})") == "/loaded/1");
    CHECK(pointer_of<ECMooncakeWorkerMetadata>(R"({"loaded":null})") == "/loaded");
    CHECK(pointer_of<ECMooncakeWorkerMetadata>(R"({"loaded":"a"})") == "/loaded");
    CHECK(pointer_of<ECMooncakeConnectorMetadata>(R"({"freed":[null]})") == "/freed/0");
    CHECK(pointer_of<ECMooncakeConnectorMetadata>(R"({"loads":{}})") == "/loads");
    CHECK(pointer_of<ECMooncakeConnectorMetadata>(R"({"pushes":[[]]})") == "/pushes/0");
}

TEST_CASE("sets: any order in, duplicates collapse", "[decode]") {
    const auto w = ecmeta::decode<ECMooncakeWorkerMetadata>(R"({"loaded":["c","a","c","b"],"failed_saves":["r"]})");
    CHECK(w.loaded == id_set{"a", "b", "c"});
    CHECK(w.failed_saves == id_set{"r"});
}

TEST_CASE("freed: absent and null are None, [] is an empty list, order and repeats kept", "[decode]") {
    CHECK_FALSE(ecmeta::decode<ECMooncakeConnectorMetadata>(R"({})").freed.has_value());
    CHECK_FALSE(ecmeta::decode<ECMooncakeConnectorMetadata>(R"({"freed":null})").freed.has_value());
    const auto empty = ecmeta::decode<ECMooncakeConnectorMetadata>(R"({"freed":[]})").freed;
    REQUIRE(empty.has_value());
    CHECK(empty->empty());
    CHECK(ecmeta::decode<ECMooncakeConnectorMetadata>(R"({"freed":["b","a","b"]})").freed ==
          std::vector<std::string>{"b", "a", "b"});
}

TEST_CASE("unknown keys are ignored, however deep, the strict mode refuses them", "[decode]") {
    const std::string text = R"({"num_token":3,"loads":[{"reservation_id":{"a":[1,{"b":null}]},)" +
                             std::string{load_ok}.substr(1) + R"(],"pending_loads":[[[]]],"x":1.5})";
    const auto m = ecmeta::decode<ECMooncakeConnectorMetadata>(text);
    REQUIRE(m.loads.size() == 1);
    CHECK(m.loads[0].mm_hash == "h");
    const auto e = decode_failure(
        [&] { static_cast<void>(ecmeta::decode<ECMooncakeConnectorMetadata>(text, {.reject_unknown_keys = true})); });
    CHECK(e.pointer() == "/num_token");
    CHECK_NOTHROW(ecmeta::decode<ECMooncakeWorkerMetadata>(R"({"loaded":[],"a/b~c":1})"));
    const auto strict_escaped = decode_failure([&] {
        static_cast<void>(ecmeta::decode<ECMooncakeWorkerMetadata>(R"({"a/b~c":1})", {.reject_unknown_keys = true}));
    });
    CHECK(strict_escaped.pointer() == "/a~1b~0c");  // RFC 6901 escaping
}

TEST_CASE("a duplicate key: the last one wins, as in Python", "[decode]") {
    CHECK(ecmeta::decode<ECMooncakeWorkerMetadata>(R"({"loaded":["a","b"],"loaded":["c"]})").loaded == id_set{"c"});
    CHECK(ecmeta::decode<ECMooncakeWorkerMetadata>(R"({"pending_saves":true,"pending_saves":false})").pending_saves ==
          false);
    CHECK(ecmeta::decode<ECMooncakeConnectorMetadata>(R"({"freed":["a"],"freed":null})").freed == std::nullopt);
    const auto l = ecmeta::decode<ECMooncakeLoadSpec>(
        R"({"mm_hash":"h","nbytes":4,"shape":[1,2,3],"dtype":"int16","transfer_id":"t","shape":[2]})");
    CHECK(l.shape == std::vector<std::int64_t>{2});
    const auto m = ecmeta::decode<ECMooncakeConnectorMetadata>(R"({"loads":[)" + std::string{load_ok} + "," +
                                                               std::string{load_ok} + R"(],"loads":[]})");
    CHECK(m.loads.empty());
}

TEST_CASE("syntax errors name the byte offset, anything after the value is an error", "[decode]") {
    const auto e =
        decode_failure([] { static_cast<void>(ecmeta::decode<ECMooncakeWorkerMetadata>(R"({"loaded":[tru]})")); });
    REQUIRE(e.offset().has_value());
    CHECK(*e.offset() == 11);  // where the broken literal starts
    CHECK_THAT(e.what(), ContainsSubstring("at byte 11"));
    CHECK(e.pointer() == "/loaded/0");

    const auto trailing = decode_failure([] { static_cast<void>(ecmeta::decode<ECMooncakeWorkerMetadata>("{} {}")); });
    CHECK(trailing.offset() == std::optional<std::size_t>{3});
    // nlohmann's lexer reads NUL as the end of the input; ecmeta does not.
    using namespace std::string_view_literals;
    for (const std::string_view nul : {"{}\0"sv, "{} \0junk"sv, "{\"loaded\":[]}\0{}"sv}) {
        const auto failure = decode_failure([&] { static_cast<void>(ecmeta::decode<ECMooncakeWorkerMetadata>(nul)); });
        CHECK(failure.offset() == std::optional<std::size_t>{nul.find('\0')});
        CHECK_THAT(failure.what(), ContainsSubstring("expected end of input, got byte 0x00"));
    }
    CHECK_THROWS_AS(ecmeta::decode<ECMooncakeWorkerMetadata>(""), ecmeta::decode_error);
    CHECK_THROWS_AS(ecmeta::decode<ECMooncakeWorkerMetadata>("{"), ecmeta::decode_error);
    CHECK_THROWS_AS(ecmeta::decode<ECMooncakeWorkerMetadata>(R"({"loaded":["a",]})"), ecmeta::decode_error);
    CHECK_THROWS_AS(ecmeta::decode<ECMooncakeWorkerMetadata>("{} // comment"), ecmeta::decode_error);
    CHECK_THROWS_AS(ecmeta::decode<ECMooncakeWorkerMetadata>("[]"), ecmeta::decode_error);
}

TEST_CASE("strings must be valid UTF-8 without raw control characters", "[decode]") {
    CHECK(pointer_of<ECMooncakeWorkerMetadata>("{\"loaded\":[\"a\xff\"]}") == "/loaded/0");
    CHECK(pointer_of<ECMooncakeWorkerMetadata>("{\"loaded\":[\"a\nb\"]}") == "/loaded/0");
    CHECK(pointer_of<ECMooncakeWorkerMetadata>(R"({"loaded":["\ud800"]})") == "/loaded/0");  // lone surrogate
    CHECK(ecmeta::decode<ECMooncakeWorkerMetadata>(R"({"loaded":["\u00e9\ud83d\ude00"]})").loaded == id_set{"é😀"});
}

TEST_CASE("rank reports decode as a list with null for silent ranks", "[decode]") {
    const auto ranks =
        ecmeta::decode<std::vector<std::optional<ECMooncakeWorkerMetadata>>>(R"([null,{"loaded":["a"]},{}])");
    REQUIRE(ranks.size() == 3);
    CHECK_FALSE(ranks[0].has_value());
    CHECK(ranks[1]->loaded == id_set{"a"});
    CHECK(*ranks[2] == ECMooncakeWorkerMetadata{});
    CHECK(pointer_of<std::vector<std::optional<ECMooncakeWorkerMetadata>>>(R"([null,{"loaded":[1]}])") ==
          "/1/loaded/0");
    CHECK(pointer_of<std::vector<ECMooncakeWorkerMetadata>>(R"([{},null])") == "/1");
}

TEST_CASE("max_input_bytes refuses long input before parsing it", "[decode]") {
    CHECK_NOTHROW(ecmeta::decode<ECMooncakeWorkerMetadata>("{}", {.max_input_bytes = 2}));
    CHECK_THAT(error_of<ECMooncakeWorkerMetadata>("{ }", {.max_input_bytes = 2}),
               ContainsSubstring("expected at most 2 bytes, got 3 bytes"));
}

TEST_CASE("a key names a field only when every byte matches", "[decode]") {
    // Names of 5 to 13 bytes: the word-at-a-time comparison's every branch.
    for (const std::string_view name : {"loaded", "failed_loads", "reclaimed", "pending_saves", "failed_saves"}) {
        const std::string valid = "{\"" + std::string{name} + "\":" + (name == "pending_saves" ? "true" : "[]") + "}";
        CHECK_NOTHROW(ecmeta::decode<ECMooncakeWorkerMetadata>(valid, {.reject_unknown_keys = true}));
        std::vector<std::string> near{std::string{name.substr(1)}, std::string{name} + "x",
                                      std::string{name.substr(0, name.size() - 1)}};
        for (std::size_t i = 0; i < name.size(); ++i) {
            std::string changed{name};
            changed[i] ^= 0x20;
            near.push_back(changed);
        }
        for (const std::string& key : near) {
            INFO(key);
            CHECK_THAT(error_of<ECMooncakeWorkerMetadata>("{\"" + key + "\":1}", {.reject_unknown_keys = true}),
                       ContainsSubstring("unknown key"));
        }
    }
}

TEST_CASE("the key expected next names its field only when every byte matches, near the input's end or not",
          "[decode]") {
    // The decoder tells the reader which key canonical input has next: each field after the one
    // before it, with 16 bytes or more left to read at once, or fewer.
    const std::array<std::string_view, 5> fields{"loaded", "failed_loads", "reclaimed", "pending_saves",
                                                 "failed_saves"};
    const auto value_of = [](std::string_view name) { return name == "pending_saves" ? "true" : "[\"a\"]"; };
    for (std::size_t k = 0; k < fields.size(); ++k) {
        const std::string_view name = fields[k];
        const std::string before =
            k == 0 ? "{" : "{\"" + std::string{fields[k - 1]} + "\":" + value_of(fields[k - 1]) + ",";
        for (const std::string padding : {"", "                    "}) {
            const auto object = [&](std::string_view key) {
                return before + "\"" + std::string{key} + "\":" + value_of(name) + padding + "}";
            };
            const auto w = ecmeta::decode<ECMooncakeWorkerMetadata>(object(name), {.reject_unknown_keys = true});
            CHECK(ecmeta::encode(w) ==
                  ecmeta::encode(ecmeta::decode<ECMooncakeWorkerMetadata>(nlohmann::json::parse(object(name)).dump())));
            CHECK(w != ECMooncakeWorkerMetadata{});
            // The same key with an escape names the same field.
            const auto first = static_cast<unsigned char>(name[0]);
            const std::string_view hex = "0123456789abcdef";
            const std::string escaped =
                "\\u00" + std::string{hex[first >> 4U]} + hex[first & 15U] + std::string{name.substr(1)};
            CHECK(ecmeta::decode<ECMooncakeWorkerMetadata>(object(escaped), {.reject_unknown_keys = true}) == w);
            for (const std::string& key : {std::string{name} + "x", std::string{name.substr(0, name.size() - 1)},
                                           std::string{name.substr(1)}, "x" + std::string{name}}) {
                INFO(object(key));
                CHECK_THAT(error_of<ECMooncakeWorkerMetadata>(object(key), {.reject_unknown_keys = true}),
                           ContainsSubstring("unknown key"));
            }
        }
    }
}

TEST_CASE("integers of every length read as their digits say, however much input follows", "[decode]") {
    constexpr std::string_view rest = R"("mm_hash":"h","dtype":"int16","transfer_id":"t")";
    std::string digits = "1";
    for (int length = 1; length <= 20; ++length, digits += std::to_string(length % 10)) {
        const std::uint64_t n = std::stoull(digits);
        const std::string extent = digits.substr(0, 18);  // fits int64
        // Last in the input (fewer than 8 bytes follow), or followed by more.
        for (const std::string after : {"", " ", "                "}) {
            for (const bool last : {true, false}) {
                const std::string number = "\"nbytes\":" + digits + after;
                const std::string shape = "\"shape\":[" + extent + after + "," + digits.substr(0, 7) + after + "]";
                const std::string text = last ? "{" + std::string{rest} + "," + shape + "," + number + "}"
                                              : "{" + number + "," + shape + "," + std::string{rest} + "}";
                INFO(text);
                const auto l = ecmeta::decode<ECMooncakeLoadSpec>(text);
                CHECK(l.nbytes == n);
                CHECK(l.shape == std::vector<std::int64_t>{std::stoll(extent), std::stoll(digits.substr(0, 7))});
            }
        }
    }
    // What follows the digits is read as before: a leading zero, a letter, a fraction.
    const auto with = [&](std::string_view number) {
        return "{" + std::string{rest} + R"(,"shape":[],"nbytes":)" + std::string{number} + "}";
    };
    CHECK_THROWS_AS(ecmeta::decode<ECMooncakeLoadSpec>(with("01234567")), ecmeta::decode_error);
    CHECK_THROWS_AS(ecmeta::decode<ECMooncakeLoadSpec>(with("1234567x")), ecmeta::decode_error);
    CHECK_THAT(error_of<ECMooncakeLoadSpec>(with("1234567.5")), ContainsSubstring("got float 1234567.5"));
}

TEST_CASE("an error's message is what() without its pointer", "[decode]") {
    const auto e = decode_failure([] { static_cast<void>(ecmeta::decode<ECMooncakeLoadSpec>(R"({"nbytes": -1})")); });
    CHECK(e.pointer() == "/nbytes");
    CHECK(e.message() == "expected non-negative integer, got integer -1");
    CHECK(std::string{e.what()} == e.pointer() + ": " + std::string{e.message()});
    const auto root = decode_failure([] { static_cast<void>(ecmeta::decode<ECMooncakeLoadSpec>("[]")); });
    CHECK(root.pointer().empty());
    CHECK(root.message() == "expected object, got array");
    CHECK(std::string{root.what()} == "(root): expected object, got array");  // as the command prints it
}

TEST_CASE("an error's pointer and message keep a NUL byte a key holds, where what() stops", "[decode]") {
    using namespace std::string_literals;
    const auto e = decode_failure([] {
        static_cast<void>(ecmeta::decode<ECMooncakeLoadSpec>(R"({"a\u0000b": 1})", {.reject_unknown_keys = true}));
    });
    CHECK(e.pointer() == "/a\0b"s);
    CHECK(e.message() == "expected a known key, got unknown key");
    CHECK(std::string{e.what()} == "/a");
}
