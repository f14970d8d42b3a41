// One body, two uses (after martinus/unordered_dense's test/fuzz/run.h): built with
// ECMETA_LIBFUZZER it is a libFuzzer target; otherwise it is a Catch2 test that replays the
// committed corpus in tests/fuzz/corpus/<name>/, so fuzzing and the tests cannot drift apart.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

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

#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

#include "test.hpp"

#define ECMETA_FUZZ_CHECK(...) REQUIRE(__VA_ARGS__)

#define ECMETA_FUZZ_TARGET(name)                                                             \
    static void ecmeta_fuzz_##name(std::span<const std::uint8_t> input);                     \
    TEST_CASE("fuzz corpus replays cleanly: " #name, "[fuzz]") {                             \
        const std::filesystem::path dir = std::filesystem::path{ECMETA_FUZZ_CORPUS} / #name; \
        REQUIRE(std::filesystem::is_directory(dir));                                         \
        std::size_t replayed = 0;                                                            \
        for (const auto& entry : std::filesystem::directory_iterator(dir)) {                 \
            std::ifstream in(entry.path(), std::ios::binary);                                \
            const std::vector<std::uint8_t> bytes{std::istreambuf_iterator<char>(in), {}};   \
            INFO(entry.path().filename().string());                                          \
            ecmeta_fuzz_##name(bytes);                                                       \
            ++replayed;                                                                      \
        }                                                                                    \
        CHECK(replayed > 0);                                                                 \
    }                                                                                        \
    static void ecmeta_fuzz_##name(std::span<const std::uint8_t> input)

#endif
