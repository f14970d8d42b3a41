// MessagePack: the JSON form's data model and rules, every length and integer in its smallest form.
#include "test.hpp"

using namespace ecmeta_test;

namespace {
template <class T>
ecmeta::decode_error msgpack_failure(const std::vector<std::uint8_t>& in) {
    return decode_failure([&] { static_cast<void>(ecmeta::decode_msgpack<T>(in)); });
}

const ECMooncakeConnectorMetadata sample{.loads = {{.mm_hash = std::string(64, 'a'),
                                                    .nbytes = 7340032,
                                                    .shape = {1024, 3584},
                                                    .dtype = "bfloat16",
                                                    .transfer_id = std::string(32, 'f'),
                                                    .local = true}},
                                         .pushes = {{.mm_hash = "h",
                                                     .nbytes = 70000,
                                                     .shape = {35000},
                                                     .dtype = "int16",
                                                     .consumer_zmq = "tcp://[::1]:5555",
                                                     .transfer_id = "req-1:0",
                                                     .request_id = "req-1"}},
                                         .freed = std::vector<std::string>{"x", "x"}};
}  // namespace

TEST_CASE("encode_msgpack is what nlohmann writes for the canonical JSON, byte for byte", "[msgpack]") {
    // nlohmann also picks the smallest forms; ordered_json keeps the declared field order.
    const auto expected = nlohmann::ordered_json::to_msgpack(nlohmann::ordered_json::parse(ecmeta::encode(sample)));
    CHECK(ecmeta::encode_msgpack(sample) == expected);
    const ECMooncakeWorkerMetadata w{.loaded = {std::string(300, 'x'), std::string(70000, 'y')}, .pending_saves = true};
    CHECK(ecmeta::encode_msgpack(w) ==
          nlohmann::ordered_json::to_msgpack(nlohmann::ordered_json::parse(ecmeta::encode(w))));
}

TEST_CASE("decode_msgpack reads back what encode_msgpack wrote", "[msgpack]") {
    CHECK(ecmeta::decode_msgpack<ECMooncakeConnectorMetadata>(ecmeta::encode_msgpack(sample)) == sample);
    const std::vector<std::optional<ECMooncakeWorkerMetadata>> ranks{std::nullopt,
                                                                     ECMooncakeWorkerMetadata{.loaded = {"a"}}};
    CHECK(ecmeta::decode_msgpack<std::vector<std::optional<ECMooncakeWorkerMetadata>>>(ecmeta::encode_msgpack(ranks)) ==
          ranks);
}

TEST_CASE("integers in any width are accepted when their value fits", "[msgpack]") {
    // {"nbytes": 5 as uint64, "shape": [int8 3, uint16 2]} plus the other required keys
    auto j = nlohmann::ordered_json::parse(R"({"mm_hash":"h","dtype":"d","transfer_id":"t"})");
    auto head = nlohmann::ordered_json::to_msgpack(j);
    head[0] = static_cast<std::uint8_t>(0x85);  // fixmap of 5 pairs instead of 3
    const auto extra = bytes({0xA6, 'n', 'b', 'y', 't', 'e', 's',  0xCF, 0, 0,    0, 0, 0, 0, 0, 5,  //
                              0xA5, 's', 'h', 'a', 'p', 'e', 0x92, 0xD0, 3, 0xCD, 0, 2});
    head.insert(head.end(), extra.begin(), extra.end());
    const auto l = ecmeta::decode_msgpack<ECMooncakeLoadSpec>(head);
    CHECK(l.nbytes == 5);
    CHECK(l.shape == std::vector<std::int64_t>{3, 2});
}

TEST_CASE("every integer width reads its big-endian bytes", "[msgpack]") {
    // {"nbytes": n} in each unsigned and signed width, n the largest value it holds (signed: the
    // largest non-negative one).
    const std::vector<std::pair<std::uint8_t, std::size_t>> widths{{0xCC, 1}, {0xCD, 2}, {0xCE, 4}, {0xCF, 8},
                                                                   {0xD0, 1}, {0xD1, 2}, {0xD2, 4}, {0xD3, 8}};
    for (const auto& [tag, size] : widths) {
        const bool sign = tag >= 0xD0;
        for (const std::uint8_t fill : std::array<std::uint8_t, 3>{0x01, 0x5A, 0xFF}) {
            auto in = nlohmann::ordered_json::to_msgpack(
                nlohmann::ordered_json::parse(R"({"mm_hash":"h","shape":[],"dtype":"d","transfer_id":"t"})"));
            in[0] = 0x85;  // a fifth pair follows
            const auto key = bytes({0xA6, 'n', 'b', 'y', 't', 'e', 's', tag});
            in.insert(in.end(), key.begin(), key.end());
            std::uint64_t n = 0;
            for (std::size_t i = 0; i < size; ++i) {
                const std::uint8_t b = i == 0 && sign ? static_cast<std::uint8_t>(fill & 0x7F) : fill;
                in.push_back(b);
                n = (n << 8U) | b;
            }
            INFO(int{tag} << " " << int{fill});
            CHECK(ecmeta::decode_msgpack<ECMooncakeLoadSpec>(in).nbytes == n);
        }
    }
}

TEST_CASE("MessagePack values with no place in the schema are refused with a pointer", "[msgpack]") {
    // {"loaded": [<x>]}
    const auto with = [](std::initializer_list<int> x) {
        auto out = bytes({0x81, 0xA6, 'l', 'o', 'a', 'd', 'e', 'd', 0x91});
        const auto tail = bytes(x);
        out.insert(out.end(), tail.begin(), tail.end());
        return out;
    };
    CHECK_THAT(msgpack_failure<ECMooncakeWorkerMetadata>(with({0xC4, 1, 'a'})).what(),
               ContainsSubstring("/loaded/0: expected string, got binary"));
    CHECK_THAT(msgpack_failure<ECMooncakeWorkerMetadata>(with({0xD4, 1, 0})).what(),
               ContainsSubstring("got extension"));
    CHECK_THAT(msgpack_failure<ECMooncakeWorkerMetadata>(with({0xCB, 0x40, 0x20, 0, 0, 0, 0, 0, 0})).what(),
               ContainsSubstring("got float 8"));
    CHECK_THAT(msgpack_failure<ECMooncakeWorkerMetadata>(with({0xC0})).what(), ContainsSubstring("got null"));
    CHECK_THAT(msgpack_failure<ECMooncakeWorkerMetadata>(with({0xA1, 0xFF})).what(),
               ContainsSubstring("invalid UTF-8"));
    CHECK_THAT(msgpack_failure<ECMooncakeWorkerMetadata>(with({0xC1})).what(), ContainsSubstring("reserved byte"));
    // 0xC1 is refused where a value is skipped too: under an unknown key, and inside one.
    CHECK_THAT(msgpack_failure<ECMooncakeWorkerMetadata>(bytes({0x81, 0xA1, 'x', 0xC1})).what(),
               ContainsSubstring("expected a MessagePack value, got reserved byte 0xc1 at byte 3"));
    CHECK_THAT(msgpack_failure<ECMooncakeWorkerMetadata>(bytes({0x81, 0xA1, 'x', 0x92, 0x01, 0xC1})).what(),
               ContainsSubstring("reserved byte 0xc1 at byte 5"));
    CHECK_THAT(msgpack_failure<ECMooncakeWorkerMetadata>(bytes({0x81, 0x01, 0x90})).what(),
               ContainsSubstring("expected a string key"));
}

TEST_CASE("truncated input and trailing bytes are errors with an offset", "[msgpack]") {
    const auto full = ecmeta::encode_msgpack(sample);
    for (std::size_t n = 0; n < full.size(); ++n) {
        const std::vector<std::uint8_t> cut(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(n));
        CHECK_THROWS_AS(ecmeta::decode_msgpack<ECMooncakeConnectorMetadata>(cut), ecmeta::decode_error);
    }
    auto longer = full;
    longer.push_back(0xC0);
    const auto e = msgpack_failure<ECMooncakeConnectorMetadata>(longer);
    CHECK(e.offset() == std::optional<std::size_t>{full.size()});
}

TEST_CASE("the key expected next names its field only when every byte matches, in any string form", "[msgpack]") {
    const std::array<std::string, 5> fields{"loaded", "failed_loads", "reclaimed", "pending_saves", "failed_saves"};
    for (std::size_t k = 0; k < fields.size(); ++k) {
        const std::string& name = fields[k];
        for (const std::size_t padding :
             {std::size_t{0}, std::size_t{20}}) {  // fewer than 16 bytes left at the key, or more
            const auto object = [&](const std::string& key) {
                nlohmann::ordered_json j = nlohmann::ordered_json::object();
                if (k != 0) {
                    j[fields[k - 1]] = fields[k - 1] == "pending_saves" ? nlohmann::ordered_json(true)
                                                                        : nlohmann::ordered_json::array({"a"});
                }
                j[key] = name == "pending_saves" ? nlohmann::ordered_json(true) : nlohmann::ordered_json::array({"a"});
                auto bytes = nlohmann::ordered_json::to_msgpack(j);
                if (padding != 0) {  // an unknown key last, holding a long string
                    bytes[0] = static_cast<std::uint8_t>(bytes[0] + 1);
                    const auto tail = nlohmann::ordered_json::to_msgpack(std::string(padding, 'p'));
                    bytes.insert(bytes.end(), {0xA1, 'z'});
                    bytes.insert(bytes.end(), tail.begin(), tail.end());
                }
                return bytes;
            };
            const auto w = ecmeta::decode_msgpack<ECMooncakeWorkerMetadata>(object(name));
            CHECK(w != ECMooncakeWorkerMetadata{});
            // The same key as a str8, not the smallest form, names the same field.
            auto str8 = object(name);
            const auto at = static_cast<std::size_t>(std::search(str8.begin(), str8.end(), name.begin(), name.end()) -
                                                     str8.begin()) -
                            1;
            str8[at] = 0xD9;
            str8.insert(str8.begin() + static_cast<std::ptrdiff_t>(at) + 1, static_cast<std::uint8_t>(name.size()));
            CHECK(ecmeta::decode_msgpack<ECMooncakeWorkerMetadata>(str8) == w);
            for (const std::string& key : {name + "x", name.substr(0, name.size() - 1), name.substr(1), "x" + name}) {
                INFO(key);
                const auto e = decode_failure([&] {
                    static_cast<void>(
                        ecmeta::decode_msgpack<ECMooncakeWorkerMetadata>(object(key), {.reject_unknown_keys = true}));
                });
                CHECK(e.pointer() == "/" + key);
            }
        }
    }
}

TEST_CASE("unknown keys are skipped whatever they hold, strict mode refuses them", "[msgpack]") {
    // {"x": {"y": [bin8 "ab", ext, 1.5, nil, {1: 2}]}, "pending_saves": true}
    const auto in = bytes({0x82, 0xA1, 'x',  0x81, 0xA1, 'y', 0x95, 0xC4, 2,    'a',  'b',  0xD4, 1,
                           0,    0xCA, 0x3F, 0xC0, 0,    0,   0xC0, 0x81, 0x01, 0x02, 0xAD, 'p',  'e',
                           'n',  'd',  'i',  'n',  'g',  '_', 's',  'a',  'v',  'e',  's',  0xC3});
    CHECK(ecmeta::decode_msgpack<ECMooncakeWorkerMetadata>(in).pending_saves);
    const auto e = decode_failure([&] {
        static_cast<void>(ecmeta::decode_msgpack<ECMooncakeWorkerMetadata>(in, {.reject_unknown_keys = true}));
    });
    CHECK(e.pointer() == "/x");
}
