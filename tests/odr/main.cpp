// ecmeta_odr_avx2: a.cpp built without -mavx2, b.cpp with it, in one program. Whichever copy of
// each inline function the linker kept, both units write and read the same bytes, through every
// string kernel. Exits 77 (skipped) on a processor without AVX2, where b.cpp may not run.
#include <cstdio>
#include <string>

#include "odr.hpp"

int main() {
    if (!__builtin_cpu_supports("avx2")) {
        std::puts("no AVX2 here: skipped");
        return 77;
    }
    ecmeta::ECMooncakeConnectorMetadata step;
    for (const std::size_t n : {0U, 17U, 64U, 160U, 161U, 1000U}) {
        const std::string plain(n, 'h');
        step.loads.push_back({.mm_hash = plain, .transfer_id = plain + "\"\\\n" + plain});
        step.pushes.push_back({.mm_hash = plain + "\u00e9" + plain, .consumer_zmq = plain});
    }
    int failures = 0;
    using ecmeta::detail::kernel;
    for (const kernel k : {kernel::portable, kernel::sse2, kernel::avx2}) {
        ecmeta::detail::use_kernel(k);
        const std::string a = odr_encode_a(step);
        const std::string b = odr_encode_b(step);
        if (a != b || odr_decode_a(b) != step || odr_decode_b(a) != step) {
            std::printf("kernel %d: the two units disagree\n", static_cast<int>(k));
            ++failures;
        }
    }
    std::printf("%d failures\n", failures);
    return failures == 0 ? 0 : 1;
}
