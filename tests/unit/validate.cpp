// validate: what a well-formed message must also mean.
#include "test.hpp"

using namespace ecmeta_test;
using ecmeta::problem;

namespace {
ECMooncakeLoadSpec good_load() {
    return {.mm_hash = std::string(64, 'a'),
            .nbytes = 1024ULL * 3584 * 2,
            .shape = {1024, 3584},
            .dtype = "bfloat16",
            .transfer_id = std::string(32, 'b')};
}
ECMooncakePushSpec good_push() {
    return {.mm_hash = std::string(64, 'a'),
            .nbytes = 8,
            .shape = {2},
            .dtype = "float32",
            .consumer_zmq = "tcp://10.0.0.7:19019",
            .transfer_id = "t1",
            .request_id = "req-1"};
}
std::vector<std::string> pointers(const std::vector<problem>& ps) {
    std::vector<std::string> out;
    for (const auto& p : ps) {
        out.push_back(p.pointer);
    }
    return out;
}
}  // namespace

TEST_CASE("a realistic step and report have no findings", "[validate]") {
    CHECK(ecmeta::validate(good_load()).empty());
    CHECK(ecmeta::validate(good_push()).empty());
    CHECK(ecmeta::validate(ECMooncakeConnectorMetadata{.loads = {good_load()}, .pushes = {good_push()}}).empty());
    CHECK(ecmeta::validate(ECMooncakeWorkerMetadata{.loaded = {"a"}, .failed_loads = {"b"}}).empty());
}

TEST_CASE("dtype: a torch dtype name, unqualified", "[validate]") {
    for (const auto& d : ecmeta::dtypes) {
        CHECK(ecmeta::itemsize(d.name) == d.itemsize);
    }
    CHECK(ecmeta::itemsize("bfloat16") == 2U);
    CHECK(ecmeta::itemsize("float8_e4m3fn") == 1U);
    CHECK(ecmeta::itemsize("complex128") == 16U);
    CHECK(ecmeta::itemsize("int7") == 1U);
    CHECK_FALSE(ecmeta::itemsize("torch.bfloat16"));
    CHECK_FALSE(ecmeta::itemsize("bf16"));
    auto l = good_load();
    l.dtype = "torch.bfloat16";
    const auto ps = ecmeta::validate(l);
    REQUIRE(ps.size() == 1);
    CHECK(ps[0].pointer == "/dtype");
    CHECK(ps[0].message.find("drop the \"torch.\" prefix") != std::string::npos);
}

TEST_CASE("nbytes == numel(shape) * itemsize(dtype), without overflow", "[validate]") {
    auto l = good_load();
    l.nbytes -= 1;
    REQUIRE(pointers(ecmeta::validate(l)) == std::vector<std::string>{"/nbytes"});
    CHECK(ecmeta::validate(l)[0].message == "expected 7340032 (numel(shape) * 2 bytes of bfloat16), got 7340031");

    CHECK(ecmeta::expected_nbytes({}, 4) == 4U);  // a scalar has one element
    CHECK(ecmeta::expected_nbytes({0, 5}, 4) == 0U);
    CHECK_FALSE(ecmeta::expected_nbytes({1LL << 62, 8}, 2));
    CHECK(ecmeta::expected_nbytes({1LL << 62, 8, 0}, 2) == 0U);  // an overflow then a zero is still zero
    CHECK_FALSE(ecmeta::expected_nbytes({-1}, 2));

    auto huge = good_load();
    huge.shape = {9223372036854775807LL, 9223372036854775807LL};
    const auto ps = ecmeta::validate(huge);
    REQUIRE(pointers(ps) == std::vector<std::string>{"/nbytes"});
    CHECK(ps[0].message.find("overflowing") != std::string::npos);

    auto negative = good_load();
    negative.shape = {2, -1};
    CHECK(pointers(ecmeta::validate(negative)) == std::vector<std::string>{"/shape/1"});
}

TEST_CASE("mm_hash and transfer_id are not empty", "[validate]") {
    auto p = good_push();
    p.mm_hash.clear();
    p.transfer_id.clear();
    CHECK(pointers(ecmeta::validate(p)) == std::vector<std::string>{"/mm_hash", "/transfer_id"});
}

TEST_CASE("consumer_zmq is a ZeroMQ endpoint", "[validate]") {
    for (const char* ok :
         {"tcp://10.0.0.7:19019", "tcp://[::1]:5555", "tcp://[fe80::1%eth0]:1", "tcp://[::ffff:10.0.0.1]:80",
          "tcp://[2001:db8:0:0:0:0:0:1]:65535", "tcp://encoder-3.cluster.local:19019", "tcp://localhost:1",
          "ipc:///tmp/ec.sock", "inproc://ec"}) {
        INFO(ok);
        CHECK(ecmeta::detail::zmq_endpoint_problem(ok).empty());
    }
    for (const char* bad :
         {"", "10.0.0.7:19019", "tcp://10.0.0.7", "tcp://10.0.0.7:0", "tcp://10.0.0.7:65536", "tcp://10.0.0.7:08",
          "tcp://10.0.0.256:1", "tcp://::1:5555", "tcp://[::1:5555", "tcp://[1:2:3:4:5:6:7:8:9]:1", "tcp://[1::2::3]:1",
          "tcp://-bad-.host:1", "tcp://:1", "udp://h:1", "ipc://", "inproc://", "tcp://h:1x"}) {
        INFO(bad);
        CHECK_FALSE(ecmeta::detail::zmq_endpoint_problem(bad).empty());
    }
    auto p = good_push();
    p.consumer_zmq = "tcp://10.0.0.7";
    CHECK(pointers(ecmeta::validate(p)) == std::vector<std::string>{"/consumer_zmq"});
}

TEST_CASE("within a step no two pushes share a transfer_id: the later one is reported", "[validate]") {
    auto a = good_push();
    auto b = good_push();
    b.request_id = "req-2";
    auto c = good_push();
    c.transfer_id = "t2";
    const auto ps =
        ecmeta::validate(ECMooncakeConnectorMetadata{.loads = {good_load(), good_load()},  // loads may repeat
                                                     .pushes = {a, c, b}});
    REQUIRE(pointers(ps) == std::vector<std::string>{"/pushes/2/transfer_id"});
    CHECK(ps[0].message.find("first at /pushes/0") != std::string::npos);
}

TEST_CASE("a report has no id both loaded and failed", "[validate]") {
    const ECMooncakeWorkerMetadata w{.loaded = {"a", "b"}, .failed_loads = {"0", "b"}};
    CHECK(pointers(ecmeta::validate(w)) == std::vector<std::string>{"/failed_loads/1"});
}

TEST_CASE("findings are pointed relative to the value, in wire order", "[validate]") {
    auto l = good_load();
    l.dtype = "nope";
    l.mm_hash = "\xff";
    const auto ps = ecmeta::validate(ECMooncakeConnectorMetadata{.loads = {good_load(), l}});
    CHECK(pointers(ps) == std::vector<std::string>{"/loads/1/mm_hash", "/loads/1/dtype"});
}

TEST_CASE("findings of every kind, in several places, come in the fields' declared order", "[validate]") {
    auto load = good_load();
    load.transfer_id = "\xfe";  // UTF-8
    load.shape = {-1, 2};       // extent
    load.mm_hash = "";          // empty id
    auto push = good_push();
    push.request_id = "\xc0";          // UTF-8, the last field
    push.consumer_zmq = "tcp://host";  // endpoint
    push.dtype = "nope";               // dtype
    push.mm_hash = "a\xff";            // UTF-8, the first field
    push.transfer_id = "t2";
    auto twin = good_push();  // transfer_id repeated
    twin.nbytes = 9;          // nbytes disagrees with shape and dtype
    const ECMooncakeConnectorMetadata step{.loads = {good_load(), load},
                                           .pushes = {good_push(), push, twin},
                                           .freed = std::vector<std::string>{"ok", "\x80"}};
    CHECK(pointers(ecmeta::validate(step)) == std::vector<std::string>{
                                                  "/loads/1/mm_hash",
                                                  "/loads/1/shape/0",
                                                  "/loads/1/transfer_id",
                                                  "/pushes/1/mm_hash",
                                                  "/pushes/1/dtype",
                                                  "/pushes/1/consumer_zmq",
                                                  "/pushes/1/request_id",
                                                  "/pushes/2/nbytes",
                                                  "/pushes/2/transfer_id",
                                                  "/freed/1",
                                              });
    const ECMooncakeWorkerMetadata report{
        .loaded = {"a", "b"}, .failed_loads = {"b", "\xff"}, .reclaimed = {"\xfe"}, .failed_saves = {"\xfd"}};
    CHECK(pointers(ecmeta::validate(report)) ==
          std::vector<std::string>{"/failed_loads/0", "/failed_loads/1", "/reclaimed/0", "/failed_saves/0"});
}

TEST_CASE("findings at one place come in the order they were found, a string's encoding last", "[validate]") {
    auto first = good_push();
    first.transfer_id = "";
    auto second = good_push();
    second.transfer_id = "";  // empty, and the first's again
    second.dtype = "\xff";    // not a dtype, and not UTF-8
    const auto ps = ecmeta::validate(ECMooncakeConnectorMetadata{.pushes = {first, second}});
    REQUIRE(pointers(ps) == std::vector<std::string>{"/pushes/0/transfer_id", "/pushes/1/dtype", "/pushes/1/dtype",
                                                     "/pushes/1/transfer_id", "/pushes/1/transfer_id"});
    CHECK_THAT(ps[1].message, ContainsSubstring("torch dtype"));
    CHECK(ps[2].message == ecmeta::detail::message::not_utf8);
    CHECK_THAT(ps[3].message, ContainsSubstring("non-empty transfer id"));
    CHECK_THAT(ps[4].message, ContainsSubstring("unique within the step"));
}
