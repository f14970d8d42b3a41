// The JSON string kernels (detail/json/scan.hpp), each held to the one predicate of what JSON must
// escape, on whatever processor runs the tests: x86-64's portable, SSE2 and AVX2 kernels, and
// AArch64's portable and NEON ones (cross-compiled and run under qemu in CI).
#include "test.hpp"

#include <string>
#include <vector>

using namespace ecmeta_test;

namespace {

// The kernels this processor has, narrowest first.
std::vector<ecmeta::detail::kernel> kernels_here() {
    using ecmeta::detail::kernel;
    std::vector<kernel> out;
    for (const kernel k : {kernel::portable, kernel::sse2, kernel::avx2, kernel::neon}) {
        if (ecmeta::detail::has_kernel(k)) {
            out.push_back(k);
        }
    }
    return out;
}

}  // namespace

TEST_CASE("every string kernel finds and copies up to the first special byte, wherever it is", "[json_reader]") {
    // In a run of plain 'a's: every byte value at every position of runs up to 40 bytes, and the
    // bytes at each edge of the special set at every position of runs up to 300 (past the inlined
    // head that the AVX2 kernel leaves to SSE2).
    const auto first_special = [](const std::string& s) {
        std::size_t i = 0;
        while (i != s.size() && !ecmeta::detail::json::special_byte(static_cast<unsigned char>(s[i]))) {
            ++i;
        }
        return i;
    };
    std::vector<int> every_byte(256);
    for (int b = 0; b < 256; ++b) {
        every_byte[static_cast<std::size_t>(b)] = b;
    }
    const std::vector<int> edges{0x00, 0x1f, 0x20, 0x21, '"', '\\', 0x7e, 0x7f, 0x80, 0xc3, 0xff};
    for (const auto k : kernels_here()) {
        INFO("kernel " << static_cast<int>(k));
        for (std::size_t size = 0; size <= 300; ++size) {
            std::string run(size, 'a');
            for (std::size_t at = 0; at <= size; ++at) {
                for (const int b : size <= 40 ? every_byte : edges) {
                    if (at < size) {
                        run[at] = static_cast<char>(b);
                    }
                    const std::size_t expected = first_special(run);
                    std::string copy(size, '?');
                    const std::size_t n = ecmeta::detail::json::plain_run(k, run.data(), size, copy.data());
                    REQUIRE(n == expected);
                    REQUIRE(copy.compare(0, n, run, 0, n) == 0);
                    REQUIRE(ecmeta::detail::json::find_special(k, run.data(), run.data() + size) ==
                            run.data() + expected);
                    if (at == size) {
                        break;  // no byte to vary: the whole run is plain
                    }
                }
                if (at < size) {
                    run[at] = 'a';
                }
            }
        }
    }
}

TEST_CASE("every string kernel writes and reads the same messages", "[json_reader]") {
    // Strings long and short, plain, escaped and UTF-8, through each kernel the processor has.
    ECMooncakeConnectorMetadata step;
    for (std::size_t n : {0U, 1U, 15U, 16U, 17U, 31U, 64U, 127U, 128U, 159U, 160U, 161U, 300U, 1000U}) {
        std::string plain(n, 'h');
        std::string escaped = plain + "\"\\\n\x01" + plain;
        std::string utf8 = plain + "\u00e9\u6f22" + plain;
        step.loads.push_back({.mm_hash = plain, .transfer_id = escaped});
        step.pushes.push_back({.mm_hash = utf8, .consumer_zmq = escaped + utf8});
    }
    const auto original = ecmeta::detail::current_kernel();
    std::vector<std::string> written;
    for (const auto k : kernels_here()) {
        ecmeta::detail::use_kernel(k);
        written.push_back(ecmeta::encode(step));
        CHECK(ecmeta::decode<ECMooncakeConnectorMetadata>(written.back()) == step);
        CHECK(written.back() == written.front());
    }
    ecmeta::detail::use_kernel(original);
    CHECK(nlohmann::ordered_json::parse(written.front()).dump() == written.front());
}

TEST_CASE("every processor has the portable kernel and its widest; AArch64's widest is NEON", "[json_reader]") {
    CHECK(ecmeta::detail::has_kernel(ecmeta::detail::widest_kernel()));
    CHECK(ecmeta::detail::has_kernel(ecmeta::detail::kernel::portable));
#if ECMETA_HAS_NEON_KERNEL
    CHECK(ecmeta::detail::widest_kernel() == ecmeta::detail::kernel::neon);
#endif
}
