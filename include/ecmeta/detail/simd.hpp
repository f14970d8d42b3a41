// ecmeta — which instruction sets the kernels may use, and which one they do: the widest the
// processor has, chosen once at run time (or a narrower one, asked for by ECMETA_SIMD or a test).
// No compiler flag (-mavx2, -march) changes what an inline function means: each instruction set's
// kernels live in their own namespace, and those beyond the baseline are built for their
// instruction set by a function attribute. Standard library only.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "../version.hpp"

#include <cstdint>
#include <cstdlib>
#include <string_view>
#if !defined(__GNUC__) && !defined(__clang__)
#include <atomic>  // GCC and Clang keep the kernel's choice with their atomic builtins instead
#endif

#if defined(__x86_64__) || defined(_M_X64)
#include <emmintrin.h>
#define ECMETA_X86_64 1
#else
#define ECMETA_X86_64 0
#endif
// AVX2 through a function attribute, with no -m flag, in GCC's and Clang's vector extensions (not
// <immintrin.h>, which would cost every translation unit a tenth of a second): GCC and Clang.
#if ECMETA_X86_64 && (defined(__GNUC__) || defined(__clang__))
#define ECMETA_HAS_AVX2_KERNEL 1
#else
#define ECMETA_HAS_AVX2_KERNEL 0
#endif
// AArch64's Advanced SIMD, which every AArch64 processor has, through GCC's and Clang's vector
// extensions (no <arm_neon.h>), on little-endian ones.
#if defined(__aarch64__) && (defined(__GNUC__) || defined(__clang__)) && defined(__BYTE_ORDER__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define ECMETA_HAS_NEON_KERNEL 1
#else
#define ECMETA_HAS_NEON_KERNEL 0
#endif

namespace ecmeta::inline ECMETA_ABI::detail {

// The kernels, narrowest first.
enum class kernel : std::uint8_t { portable, sse2, avx2, neon };

// The widest kernel this processor has.
[[nodiscard]] inline kernel widest_kernel() noexcept {
#if ECMETA_HAS_AVX2_KERNEL
    if (__builtin_cpu_supports("avx2")) {
        return kernel::avx2;
    }
#endif
#if ECMETA_X86_64
    return kernel::sse2;
#elif ECMETA_HAS_NEON_KERNEL
    return kernel::neon;
#else
    return kernel::portable;
#endif
}

// Whether this processor has kernel k.
[[nodiscard]] inline bool has_kernel(kernel k) noexcept {
    const kernel widest = widest_kernel();
    return k == kernel::portable || k == widest || (k == kernel::sse2 && widest == kernel::avx2);
}

namespace kernel_state {
// kernel + 1 once chosen; 0 before the first call. Read and written through the compilers' atomic
// builtins where they have them: <atomic> would cost every translation unit 7% of the umbrella
// header's compile time for one byte.
#if defined(__GNUC__) || defined(__clang__)
inline std::uint8_t chosen = 0;
inline std::uint8_t load() noexcept {
    return __atomic_load_n(&chosen, __ATOMIC_RELAXED);
}
inline void store(std::uint8_t k) noexcept {
    __atomic_store_n(&chosen, k, __ATOMIC_RELAXED);
}
#else
inline std::atomic<std::uint8_t> chosen{0};
inline std::uint8_t load() noexcept {
    return chosen.load(std::memory_order_relaxed);
}
inline void store(std::uint8_t k) noexcept {
    chosen.store(k, std::memory_order_relaxed);
}
#endif
}  // namespace kernel_state

// The kernel every read and write uses from now on: k, or the widest this processor has if it has
// not k. For tests; ECMETA_SIMD does the same from outside.
inline void use_kernel(kernel k) noexcept {
    const kernel used = has_kernel(k) ? k : widest_kernel();
    kernel_state::store(static_cast<std::uint8_t>(static_cast<std::uint8_t>(used) + 1));
}

// The kernel: at the first call, the widest this processor has, or the one the environment variable
// ECMETA_SIMD names (portable, sse2, avx2, neon) if it has that one. Readers and writers ask once
// per call, not once per string.
[[nodiscard]] inline kernel current_kernel() noexcept {
    std::uint8_t k = kernel_state::load();
    if (k == 0) [[unlikely]] {
        kernel wanted = kernel::avx2;
        if (const char* asked = std::getenv("ECMETA_SIMD")) {  // NOLINT(concurrency-mt-unsafe): only read
            const std::string_view name{asked};
            wanted = name == "portable" ? kernel::portable
                     : name == "sse2"   ? kernel::sse2
                     : name == "neon"   ? kernel::neon
                                        : kernel::avx2;
        }
        use_kernel(wanted);
        k = kernel_state::load();
    }
    return static_cast<kernel>(k - 1);
}

}  // namespace ecmeta::detail
