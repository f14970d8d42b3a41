// decode_into and decode_msgpack_into: decoding into the caller's value, as an engine decodes the
// message of every step into one value that keeps its storage.
#include "allocations.hpp"
#include "test.hpp"

using namespace ecmeta_test;

namespace {

ECMooncakeConnectorMetadata step(std::size_t n, const std::string& stem) {
    ECMooncakeConnectorMetadata m{.freed = std::vector<std::string>{}};
    for (std::size_t i = 0; i < n; ++i) {
        const std::string id = stem + std::to_string(i) + std::string(48, 'a');
        m.loads.push_back({.mm_hash = id,
                           .nbytes = 1024ULL * 3584 * 2,
                           .shape = {1024, 3584},
                           .dtype = "bfloat16",
                           .transfer_id = id.substr(0, 32),
                           .local = i % 3 == 0});
        m.pushes.push_back({.mm_hash = id,
                            .nbytes = 7,
                            .shape = {7},
                            .dtype = "uint8",
                            .consumer_zmq = "tcp://10.0.0.7:19019",
                            .transfer_id = id.substr(0, 32),
                            .request_id = "req-" + std::to_string(i)});
        m.freed->push_back(id);
    }
    return m;
}

ECMooncakeWorkerMetadata report(std::size_t n, const std::string& stem) {
    ECMooncakeWorkerMetadata w{.pending_saves = true};
    for (std::size_t i = 0; i < n; ++i) {
        w.loaded.insert(stem + std::to_string(i) + std::string(56, 'b'));
        w.failed_loads.insert("f" + stem + std::to_string(i));
    }
    w.reclaimed.insert("r" + stem);
    w.failed_saves.insert("req-" + stem);
    return w;
}

// Heap allocations of one call of f.
template <class F>
std::size_t allocations_of(F&& f) {
    const std::size_t before = ecmeta_support::allocations();
    f();
    return ecmeta_support::allocations() - before;
}

template <class T>
void decode_json_into(const T& value, T& out) {
    ecmeta::decode_into(ecmeta::encode(value), out);
}

template <class T>
void decode_msgpack_into(const T& value, T& out) {
    ecmeta::decode_msgpack_into(ecmeta::encode_msgpack(value), out);
}

}  // namespace

TEST_CASE("decode_into gives what decode gives, whatever the value held before", "[decode_into]") {
    ECMooncakeConnectorMetadata out = step(5, "x");
    decode_json_into(step(2, "y"), out);
    CHECK(out == step(2, "y"));
    decode_msgpack_into(step(7, "z"), out);
    CHECK(out == step(7, "z"));
    ECMooncakeWorkerMetadata w = report(9, "x");
    decode_json_into(report(3, "y"), w);
    CHECK(w == report(3, "y"));
    decode_msgpack_into(report(1, "z"), w);
    CHECK(w == report(1, "z"));
    std::vector<std::optional<ECMooncakeWorkerMetadata>> ranks{report(2, "a"), std::nullopt, report(4, "c")};
    const std::vector<std::optional<ECMooncakeWorkerMetadata>> next{std::nullopt, report(1, "b")};
    decode_json_into(next, ranks);
    CHECK(ranks == next);
    ranks = {report(2, "a"), std::nullopt, report(4, "c")};
    decode_msgpack_into(next, ranks);
    CHECK(ranks == next);
}

TEST_CASE("decode_into gives a field the input leaves out its default, not the value held before", "[decode_into]") {
    ECMooncakeConnectorMetadata out = step(3, "x");
    ecmeta::decode_into(R"({"loads":[{"mm_hash":"h","nbytes":2,"shape":[2],"dtype":"uint8","transfer_id":"t"}]})", out);
    CHECK(out.freed == std::nullopt);  // null, not the [] held before: "scan every pinned item"
    CHECK(out.pushes.empty());
    REQUIRE(out.loads.size() == 1);
    CHECK_FALSE(out.loads[0].local);  // step(3, …)'s first load was local
    ECMooncakePushSpec push = step(1, "x").pushes[0];
    ecmeta::decode_msgpack_into(nlohmann::ordered_json::to_msgpack(nlohmann::ordered_json{{"mm_hash", "h"},
                                                                                          {"nbytes", 1},
                                                                                          {"shape", {1}},
                                                                                          {"dtype", "uint8"},
                                                                                          {"consumer_zmq", "ipc:///s"},
                                                                                          {"transfer_id", "t"}}),
                                push);
    CHECK(push.request_id.empty());
    ECMooncakeWorkerMetadata w = report(4, "x");
    ecmeta::decode_into(R"({"failed_saves":["r"]})", w);
    CHECK(w == ECMooncakeWorkerMetadata{.failed_saves = {"r"}});
}

TEST_CASE("decode_into keeps the storage the value already has", "[decode_into]") {
    ECMooncakeConnectorMetadata out;
    decode_json_into(step(4, "x"), out);
    const auto* loads = out.loads.data();
    const auto* hash = out.loads[1].mm_hash.data();
    const auto* freed = out.freed->data();
    decode_msgpack_into(step(3, "y"), out);
    CHECK(out.loads.data() == loads);
    CHECK(out.loads[1].mm_hash.data() == hash);
    REQUIRE(out.freed);
    CHECK(out.freed->data() == freed);
    CHECK(out == step(3, "y"));
}

TEST_CASE("a warmed value decodes the same input, or a smaller one, with no allocation", "[decode_into]") {
    const ECMooncakeConnectorMetadata big = step(200, "x");
    const ECMooncakeConnectorMetadata small = step(20, "y");
    const ECMooncakeWorkerMetadata wide = report(1000, "x");
    const ECMooncakeWorkerMetadata narrow = report(10, "y");
    const std::string big_json = ecmeta::encode(big);
    const std::string small_json = ecmeta::encode(small);
    const auto big_packed = ecmeta::encode_msgpack(big);
    const auto small_packed = ecmeta::encode_msgpack(small);
    const std::string wide_json = ecmeta::encode(wide);
    const std::string narrow_json = ecmeta::encode(narrow);
    const auto wide_packed = ecmeta::encode_msgpack(wide);
    const auto narrow_packed = ecmeta::encode_msgpack(narrow);

    ECMooncakeConnectorMetadata c;
    ECMooncakeWorkerMetadata w;
    SECTION("MessagePack") {
        ecmeta::decode_msgpack_into(big_packed, c);
        ecmeta::decode_msgpack_into(wide_packed, w);
        CHECK(allocations_of([&] { ecmeta::decode_msgpack_into(big_packed, c); }) == 0);
        CHECK(allocations_of([&] { ecmeta::decode_msgpack_into(small_packed, c); }) == 0);
        CHECK(allocations_of([&] { ecmeta::decode_msgpack_into(wide_packed, w); }) == 0);
        CHECK(allocations_of([&] { ecmeta::decode_msgpack_into(narrow_packed, w); }) == 0);
        CHECK(c == small);
        CHECK(w == narrow);
    }
    SECTION("JSON") {
        ecmeta::decode_into(big_json, c);
        ecmeta::decode_into(wide_json, w);
        CHECK(allocations_of([&] { ecmeta::decode_into(big_json, c); }) == 0);
        CHECK(allocations_of([&] { ecmeta::decode_into(small_json, c); }) == 0);
        CHECK(allocations_of([&] { ecmeta::decode_into(wide_json, w); }) == 0);
        CHECK(allocations_of([&] { ecmeta::decode_into(narrow_json, w); }) == 0);
        CHECK(c == small);
        CHECK(w == narrow);
    }
}

TEST_CASE("a warmed id set takes fewer bytes of ids with no allocation, whatever the first id's length",
          "[decode_into]") {
    // Room for a fresh set's ids is guessed from the first id's length, within the input's size.
    // Here the guess (100 ids of 200 bytes, under the 20 KB an unknown key adds to the input) must
    // not make a set warmed on 100 ids of 58 or 59 bytes and one of 200 allocate for 398 bytes of
    // ids.
    ECMooncakeWorkerMetadata skewed;
    skewed.loaded.insert(std::string(200, '0'));
    for (char c = 'a'; skewed.loaded.size() < 100; ++c) {
        for (char d = '0'; d <= '9' && skewed.loaded.size() < 100; ++d) {
            skewed.loaded.insert(std::string{c, d});
        }
    }
    const std::string unknown(20'000, 'u');
    ECMooncakeWorkerMetadata warm = report(100, "x");
    warm.loaded.insert(std::string(200, '1'));  // the longest id the field will hold
    ECMooncakeWorkerMetadata w;
    SECTION("MessagePack") {
        ecmeta::decode_msgpack_into(ecmeta::encode_msgpack(warm), w);
        auto packed = ecmeta::encode_msgpack(skewed);
        REQUIRE(packed.front() == 0x85);  // a map of the 5 fields; a sixth, unknown, goes after them
        packed.front() = 0x86;
        packed.insert(packed.end(), {0xA1, 'u', 0xDA, 20'000 >> 8, 20'000 & 0xFF});
        packed.insert(packed.end(), unknown.begin(), unknown.end());
        CHECK(allocations_of([&] { ecmeta::decode_msgpack_into(packed, w); }) == 0);
        CHECK(w == skewed);
    }
    SECTION("JSON") {
        std::string json = ecmeta::encode(skewed);
        json.pop_back();
        json += R"(,"u":")" + unknown + R"("})";
        ecmeta::decode_into(ecmeta::encode(warm), w);
        CHECK(allocations_of([&] { ecmeta::decode_into(json, w); }) == 0);
        CHECK(w == skewed);
    }
}

TEST_CASE("a warmed value decodes strings with escapes again with no allocation", "[decode_into]") {
    // The reader decodes an escaped string into a buffer its thread keeps, at the size of the
    // longest one so far.
    ECMooncakeConnectorMetadata escaped = step(20, "x");
    for (auto& load : escaped.loads) {
        load.transfer_id = "tab\there, quote \" and \u00e9 " + std::string(100, 'e') + "\n";
    }
    escaped.freed = std::vector<std::string>{"a\\b", std::string(300, 'f') + "\x01"};
    const std::string json = ecmeta::encode(escaped);
    REQUIRE(json.find("\\t") != std::string::npos);
    ECMooncakeConnectorMetadata c;
    ecmeta::decode_into(json, c);
    CHECK(allocations_of([&] { ecmeta::decode_into(json, c); }) == 0);
    CHECK(c == escaped);
}

TEST_CASE("a string read into a kept one is checked as a fresh one is: escapes, UTF-8, the input's end",
          "[decode_into]") {
    // A kept string is copied as it is read when it is no longer than the one it replaces: each
    // string below is, and each must decode, or fail, as into a fresh value.
    const ECMooncakeLoadSpec warm{.mm_hash = std::string(64, 'w'),
                                  .nbytes = 1,
                                  .shape = {1},
                                  .dtype = "bfloat16",
                                  .transfer_id = std::string(32, 'w')};
    const auto json_with = [](std::string_view id) {
        return R"({"mm_hash":")" + std::string{id} + R"(","nbytes":1,"shape":[1],"dtype":"int8","transfer_id":"t"})";
    };
    const auto msgpack_with = [](std::string_view id) {
        auto bytes = nlohmann::ordered_json::to_msgpack(
            nlohmann::ordered_json::parse(R"({"mm_hash":"","nbytes":1,"shape":[1],"dtype":"int8","transfer_id":"t"})"));
        const auto at = static_cast<std::ptrdiff_t>(std::string_view{"\x85\xA7mm_hash"}.size());
        bytes[static_cast<std::size_t>(at)] = static_cast<std::uint8_t>(0xD9);  // str8, then the length
        bytes.insert(bytes.begin() + at + 1, static_cast<std::uint8_t>(id.size()));
        bytes.insert(bytes.begin() + at + 2, id.begin(), id.end());
        return bytes;
    };
    const auto same_as_fresh = [&](const auto& decode_fresh, const auto& decode_kept) {
        std::string fresh_error;
        std::string kept_error;
        std::optional<ECMooncakeLoadSpec> fresh;
        ECMooncakeLoadSpec kept = warm;
        try {
            fresh = decode_fresh();
        } catch (const ecmeta::decode_error& e) {
            fresh_error = e.what();
        }
        try {
            decode_kept(kept);
        } catch (const ecmeta::decode_error& e) {
            kept_error = e.what();
        }
        CHECK(kept_error == fresh_error);
        CHECK(kept == fresh.value_or(ECMooncakeLoadSpec{}));
        return fresh.has_value();
    };
    const std::string long_id(60, 'i');
    for (const std::string& id :
         {long_id, long_id + "\xC3\xA9", long_id + "\xC3\x28", "\xE9" + long_id, std::string(9, 'i'),
          std::string{"\xF0\x9F\x98\x80"}, std::string(64, 'i'), std::string(65, 'i'), long_id + "\x7F"}) {
        INFO(id);
        const bool valid = same_as_fresh([&] { return ecmeta::decode_msgpack<ECMooncakeLoadSpec>(msgpack_with(id)); },
                                         [&](auto& out) { ecmeta::decode_msgpack_into(msgpack_with(id), out); });
        CHECK(valid == ecmeta::detail::is_utf8(id));
        same_as_fresh([&] { return ecmeta::decode<ECMooncakeLoadSpec>(json_with(id)); },
                      [&](auto& out) { ecmeta::decode_into(json_with(id), out); });
    }
    // JSON's own: escapes, control characters, and a string the input ends in.
    for (const std::string id : {R"(\u00e9x)", R"(a\"b)", "tab\there", R"(\ud83d\ude00)", R"(\ud83d)"}) {
        INFO(id);
        same_as_fresh([&] { return ecmeta::decode<ECMooncakeLoadSpec>(json_with(id)); },
                      [&](auto& out) { ecmeta::decode_into(json_with(id), out); });
    }
    for (const std::string cut : {R"({"mm_hash":"abcdefghij)", R"({"mm_hash":"abcdefghij\)"}) {
        INFO(cut);
        same_as_fresh([&] { return ecmeta::decode<ECMooncakeLoadSpec>(cut); },
                      [&](auto& out) { ecmeta::decode_into(cut, out); });
    }
}

TEST_CASE("release_thread_buffers frees the elements kept for reuse, and decoding goes on", "[decode_into]") {
    const ECMooncakeConnectorMetadata big = step(200, "x");
    const ECMooncakeConnectorMetadata small = step(2, "x");
    ECMooncakeConnectorMetadata c;
    ecmeta::decode_into(ecmeta::encode(big), c);
    ecmeta::decode_into(ecmeta::encode(small), c);  // 198 loads and pushes kept aside
    ecmeta::release_thread_buffers();
    const std::size_t released = allocations_of([&] { ecmeta::decode_into(ecmeta::encode(big), c); });
    CHECK(c == big);
    CHECK(released > 198);  // every dropped spec's strings, made again
    ecmeta::decode_into(ecmeta::encode(small), c);
    const std::string big_json = ecmeta::encode(big);
    CHECK(allocations_of([&] { ecmeta::decode_into(big_json, c); }) == 0);  // kept again
}

TEST_CASE("fresh values decoded again and again through one storage leave it at one value's size",
          "[decode_into][decode_storage]") {
    // Regression: the kept storage once kept room for every element any decode had made, so a
    // process decoding fresh values grew without bound (found by fuzz_json_accept: a 2 GB reserve).
    using ranks = std::vector<std::optional<ECMooncakeWorkerMetadata>>;
    const std::string json = ecmeta::encode(ranks(8, ECMooncakeWorkerMetadata{.loaded = {"a"}}));
    const std::string freed = ecmeta::encode(step(4, "f"));
    ecmeta::decode_storage<ranks> kept_ranks;
    ecmeta::decode_storage<ECMooncakeConnectorMetadata> kept_steps;
    std::size_t after_one[2] = {};
    for (int i = 0; i < 1000; ++i) {
        ranks r;
        ecmeta::decode_into(json, r, kept_ranks);
        ECMooncakeConnectorMetadata c;
        ecmeta::decode_into(freed, c, kept_steps);
        if (i == 0) {
            after_one[0] = kept_ranks.bytes();
            after_one[1] = kept_steps.bytes();
        }
    }
    CHECK(kept_ranks.bytes() == after_one[0]);
    CHECK(kept_steps.bytes() == after_one[1]);
}

TEST_CASE("a decode_storage keeps what shortened lists drop, says how much, and frees it", "[decode_storage]") {
    const std::string big = ecmeta::encode(step(200, "x"));
    const std::string small = ecmeta::encode(step(2, "x"));
    ecmeta::decode_storage<ECMooncakeConnectorMetadata> kept;
    ecmeta::decode_storage<ECMooncakeConnectorMetadata> other;
    ECMooncakeConnectorMetadata c;
    ecmeta::decode_into(big, c, kept);
    const std::size_t warm = kept.bytes();
    ecmeta::decode_into(small, c, kept);
    // 198 loads and pushes with their strings and shapes, and a freed list's 198 strings.
    CHECK(kept.bytes() > warm + 198 * 3 * 64);
    CHECK(other.bytes() == 0);  // each storage is its own
    CHECK(allocations_of([&] { ecmeta::decode_into(big, c, kept); }) == 0);
    CHECK(c == step(200, "x"));

    ecmeta::decode_into(small, c, kept);
    kept.release();
    CHECK(kept.bytes() == 0);
    CHECK(allocations_of([&] { ecmeta::decode_into(big, c, kept); }) > 198);  // made again
    CHECK(c == step(200, "x"));
    CHECK(allocations_of([&] { ecmeta::decode_into(big, c, kept); }) == 0);
}

TEST_CASE("a decode_storage with a limit frees what would exceed it, and decoding goes on", "[decode_storage]") {
    const std::string big = ecmeta::encode(step(200, "x"));
    const std::string small = ecmeta::encode(step(2, "x"));
    ecmeta::decode_storage<ECMooncakeConnectorMetadata> kept(64 * 1024);
    CHECK(kept.limit() == 64 * 1024);
    ECMooncakeConnectorMetadata c;
    for (int i = 0; i < 3; ++i) {
        ecmeta::decode_into(big, c, kept);
        CHECK(kept.bytes() <= 64 * 1024);
        ecmeta::decode_into(small, c, kept);  // would keep 198 specs: over the limit, so none
        CHECK(kept.bytes() <= 64 * 1024);
        CHECK(c == step(2, "x"));
    }
    kept.remove_limit();
    ecmeta::decode_into(big, c, kept);
    ecmeta::decode_into(small, c, kept);
    CHECK(kept.bytes() > 64 * 1024);
}

TEST_CASE("long and short ids trading places allocate nothing in a warm value", "[decode_into]") {
    // A LoRA-scoped mm_hash is longer than a plain one: the warm-up has the long ones at the end,
    // and a later step has them first.
    const auto with_ids = [](std::size_t n, std::size_t long_from) {
        ECMooncakeConnectorMetadata m;
        for (std::size_t i = 0; i < n; ++i) {
            std::string id = std::string(64, 'a') + std::to_string(i);
            if (i >= long_from) {
                id = "lora-adapter-with-a-long-name:" + id;
            }
            m.loads.push_back({.mm_hash = id, .nbytes = 1, .shape = {1}, .dtype = "uint8", .transfer_id = id});
        }
        return m;
    };
    const ECMooncakeConnectorMetadata warm = with_ids(300, 297);
    const ECMooncakeConnectorMetadata later = with_ids(3, 0);
    ECMooncakeConnectorMetadata c;
    ecmeta::decode_into(ecmeta::encode(warm), c);
    const std::string json = ecmeta::encode(later);
    const auto packed = ecmeta::encode_msgpack(later);
    CHECK(allocations_of([&] { ecmeta::decode_into(json, c); }) == 0);
    CHECK(c == later);
    ecmeta::decode_msgpack_into(ecmeta::encode_msgpack(warm), c);
    CHECK(allocations_of([&] { ecmeta::decode_msgpack_into(packed, c); }) == 0);
    CHECK(c == later);
}

TEST_CASE("ids repeated and out of order allocate nothing in a warm report", "[decode_into]") {
    const std::string warm = R"({"loaded":["c","a","b","a","a","a","a","a"]})";
    const std::string later = R"({"loaded":["b","b","b","b","b","b","b","a"]})";
    ECMooncakeWorkerMetadata w;
    ecmeta::decode_into(warm, w);
    CHECK(allocations_of([&] { ecmeta::decode_into(later, w); }) == 0);
    CHECK(w == ECMooncakeWorkerMetadata{.loaded = {"a", "b"}});
}

TEST_CASE("the most ids and the longest id, from different reports, never multiply into room", "[decode_storage]") {
    // Room for 100,000 ids of 1 MiB would be 100 GB: past the budget (4 times the largest input,
    // at least 1 MiB), so the room stays what each report needed.
    ECMooncakeWorkerMetadata many;
    for (int i = 0; i < 100'000; ++i) {
        many.loaded.insert(std::to_string(i));
    }
    const ECMooncakeWorkerMetadata long_one{.loaded = {std::string(1 << 20, 'x')}};
    ecmeta::decode_storage<ECMooncakeWorkerMetadata> kept;
    ECMooncakeWorkerMetadata w;
    ecmeta_support::reset_largest_allocation();
    ecmeta::decode_into(ecmeta::encode(many), w, kept);
    ecmeta::decode_into(ecmeta::encode(long_one), w, kept);
    ecmeta::decode_into(ecmeta::encode(many), w, kept);
    CHECK(w == many);
    CHECK(ecmeta_support::largest_allocation() < (std::size_t{16} << 20));
}

TEST_CASE("input that fails to decode raises no field's room", "[decode_storage]") {
    // A failed input's 100 KB mm_hash, had it raised the field's mark, would make the room for
    // every mark past the budget (50 loads of 100 KB), so a later rise of another field's mark
    // would be refused, and a long transfer_id moving to the front would allocate.
    const std::string good = ecmeta::encode(step(50, "x"));
    ECMooncakeConnectorMetadata long_hash = step(50, "x");
    long_hash.loads.front().mm_hash = std::string(100'000, 'y');
    std::string bad = ecmeta::encode(long_hash);
    bad.back() = ']';  // not JSON: fails after the long string was read
    ecmeta::decode_storage<ECMooncakeConnectorMetadata> kept;
    ECMooncakeConnectorMetadata c;
    ecmeta::decode_into(good, c, kept);
    CHECK(ecmeta::try_decode_into(bad, c, kept).has_value());
    ecmeta::decode_into(good, c, kept);
    CHECK(c == step(50, "x"));
    ECMooncakeConnectorMetadata longer = step(50, "x");
    longer.loads.back().transfer_id += std::string(40, 'z');
    ecmeta::decode_into(ecmeta::encode(longer), c, kept);
    ECMooncakeConnectorMetadata moved = step(50, "x");
    moved.loads.front().transfer_id += std::string(40, 'z');
    const std::string moved_json = ecmeta::encode(moved);
    CHECK(allocations_of([&] { ecmeta::decode_into(moved_json, c, kept); }) == 0);
    CHECK(c == moved);
}

TEST_CASE("decode_into that throws leaves T{}, with the error decode throws", "[decode_into]") {
    const std::vector<std::string> bad = {
        R"({"loads":[{"mm_hash":"h","nbytes":1,"shape":[1],"dtype":"x","transfer_id":"t"}],"pushes":3})",
        R"({"loads":[{"mm_hash":"h","nbytes":1,"shape":[1],"dtype":"x"}]})",
        R"({"loads":[{"mm_hash":"h","nbytes":1.0,"shape":[1],"dtype":"x","transfer_id":"t"}]})",
        R"({"freed":["a","b",7]})",
        R"({"loads":[],"freed":["a")",
        "\xef\xbb\xbf{\"loads\":[],\"zz\":[1]",
    };
    for (const std::string& json : bad) {
        INFO(json);
        const ecmeta::decode_error expected =
            decode_failure([&] { static_cast<void>(ecmeta::decode<ECMooncakeConnectorMetadata>(json)); });
        ECMooncakeConnectorMetadata out = step(3, "x");
        const ecmeta::decode_error got = decode_failure([&] { ecmeta::decode_into(json, out); });
        CHECK(std::string{got.what()} == expected.what());
        CHECK(got.pointer() == expected.pointer());
        CHECK(got.offset() == expected.offset());
        CHECK(out == ECMooncakeConnectorMetadata{});
    }
    ECMooncakeWorkerMetadata w = report(3, "x");
    const auto packed = bytes({0x81, 0xA6, 'l', 'o', 'a', 'd', 'e', 'd', 0x92, 0xA1, 'a', 0x07});
    const ecmeta::decode_error expected =
        decode_failure([&] { static_cast<void>(ecmeta::decode_msgpack<ECMooncakeWorkerMetadata>(packed)); });
    const ecmeta::decode_error got = decode_failure([&] { ecmeta::decode_msgpack_into(packed, w); });
    CHECK(std::string{got.what()} == expected.what());
    CHECK(got.pointer() == "/loaded/1");
    CHECK(w == ECMooncakeWorkerMetadata{});
    // The size limit is a decode_error like any other, and leaves T{} too.
    w = report(3, "x");
    CHECK_THROWS_AS(ecmeta::decode_into("{}", w, {.max_input_bytes = 1}), ecmeta::decode_error);
    CHECK(w == ECMooncakeWorkerMetadata{});
}
