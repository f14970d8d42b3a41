// One body, two uses (after martinus/unordered_dense's test/fuzz/run.h): built with
// ECMETA_LIBFUZZER it is a libFuzzer target; otherwise it is a Catch2 test that replays the
// committed corpus in tests/fuzz/corpus/<name>/, so fuzzing and the tests cannot drift apart, and
// holds each input's outcomes to its golden line (golden.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "golden.hpp"

#ifdef ECMETA_LIBFUZZER

#define ECMETA_FUZZ_CHECK(...) \
    do {                       \
        if (!(__VA_ARGS__)) {  \
            __builtin_trap();  \
        }                      \
    } while (false)

#define ECMETA_FUZZ_TARGET(name)                                                        \
    static void ecmeta_fuzz_##name(std::span<const std::uint8_t> input);                \
    extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) { \
        ecmeta_fuzz_##name(std::span<const std::uint8_t>{data, size});                  \
        return 0;                                                                       \
    }                                                                                   \
    static void ecmeta_fuzz_##name(std::span<const std::uint8_t> input)

#else

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

#include "test.hpp"

#define ECMETA_FUZZ_CHECK(...) REQUIRE(__VA_ARGS__)

#define ECMETA_FUZZ_TARGET(name)                                                                       \
    static void ecmeta_fuzz_##name(std::span<const std::uint8_t> input);                               \
    TEST_CASE("fuzz corpus replays cleanly, as its golden outcomes say: " #name, "[fuzz]") {           \
        const std::filesystem::path dir = std::filesystem::path{ECMETA_FUZZ_CORPUS} / #name;           \
        REQUIRE(std::filesystem::is_directory(dir));                                                   \
        std::vector<std::filesystem::path> inputs{std::filesystem::directory_iterator(dir), {}};       \
        std::sort(inputs.begin(), inputs.end());                                                       \
        REQUIRE(!inputs.empty());                                                                      \
        ecmeta_fuzz::golden_file golden{std::filesystem::path{ECMETA_FUZZ_GOLDEN} / (#name ".jsonl")}; \
        for (const auto& path : inputs) {                                                              \
            std::ifstream in(path, std::ios::binary);                                                  \
            const std::vector<std::uint8_t> bytes{std::istreambuf_iterator<char>(in), {}};             \
            INFO(path.filename().string());                                                            \
            golden.replay(path.filename().string(), [&] { ecmeta_fuzz_##name(bytes); });               \
        }                                                                                              \
        golden.finish();                                                                               \
    }                                                                                                  \
    static void ecmeta_fuzz_##name(std::span<const std::uint8_t> input)

#endif
