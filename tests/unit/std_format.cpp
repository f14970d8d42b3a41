// std::format of the four types and id_set (<ecmeta/format.hpp>): `{}` is the canonical JSON, `{:s}`
// the short form, any other spec a format_error. Built where the standard library has <format>.
#include <ecmeta/format.hpp>

#include "test.hpp"

#include <format>

#if !defined(__cpp_lib_format)
#error "built only where the standard library has <format>"
#endif

using namespace ecmeta_test;

TEST_CASE("std::format: braces give the canonical JSON, s the short form", "[format]") {
    const ECMooncakeConnectorMetadata step{
        .loads = {{.mm_hash = "0123456789abcdef0123", .nbytes = 8, .shape = {2, 2}, .dtype = "int16"},
                  {.mm_hash = "x", .local = true}},
        .pushes = {{.mm_hash = "p", .nbytes = 2, .shape = {1}, .dtype = "int16", .consumer_zmq = "ipc:///c"}}};
    const ECMooncakeWorkerMetadata rank{.loaded = {"a", "b"}, .failed_loads = {"c"}, .failed_saves = {"r"}};
    CHECK(std::format("{}", step) == ecmeta::encode(step));
    CHECK(std::format("{:s}", step) == "2 loads, 1 push, freed null");
    CHECK(std::format("{:s}", step.loads[0]) == "load 0123456789abcdef… 8 B int16[2,2]");
    CHECK(std::format("{:s}", step.pushes[0]) == "push p 2 B int16[1] to ipc:///c");
    CHECK(std::format("{}", rank) == ecmeta::encode(rank));
    CHECK(std::format("{:s}", rank) == "2 loaded, 1 failed load, 0 reclaimed, no saves pending, 1 failed save");
    CHECK(std::format("{} {:s}", rank.loaded, rank.loaded) == R"(["a","b"] 2 ids)");
}

TEST_CASE("std::format: another spec is a format_error", "[format]") {
    const ECMooncakeWorkerMetadata rank{};
    CHECK_THROWS_AS(static_cast<void>(std::vformat("{:x}", std::make_format_args(rank))), std::format_error);
}
