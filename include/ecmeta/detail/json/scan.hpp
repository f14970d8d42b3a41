// ecmeta — the JSON string kernels: where a string's plain run ends (the first byte that is '"',
// '\\', a control character or not ASCII), and the copy of that run into the output. One kernel
// per instruction set (simd.hpp), each in its own namespace, so that no compiler flag changes what
// an inline function means. Never a byte past either end. Standard library only.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "../../version.hpp"

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "../inline.hpp"
#include "../simd.hpp"

namespace ecmeta::inline ECMETA_ABI::detail::json {

// The bytes every kernel stops at: the one definition, which the tests hold each kernel to.
[[nodiscard]] constexpr bool special_byte(unsigned char c) noexcept {
    return c < 0x20 || c >= 0x80 || c == '"' || c == '\\';
}

// Walks total bytes in blocks of Width: special(at) (which may also store the block at `at`)
// returns a mask with BitsPerByte bits a byte, the lowest set one at the first special byte. The
// last block is the run's last Width bytes, overlapping bytes already checked, whose bits are
// shifted out; so no byte is read or written past either end. Returns the offset of the first
// special byte, or total. Needs total >= Width.
template <std::size_t Width, unsigned BitsPerByte, class Special>
[[nodiscard]] ECMETA_INLINE std::size_t plain_blocks(std::size_t total, Special&& special) noexcept {
    std::size_t done = 0;
    for (; total - done >= Width; done += Width) {
        if (const auto mask = special(done); mask != 0) {
            return done + static_cast<unsigned>(std::countr_zero(mask)) / BitsPerByte;
        }
    }
    if (done == total) {
        return total;
    }
    const auto mask = special(total - Width) >> (BitsPerByte * (Width - (total - done)));
    return mask != 0 ? done + static_cast<unsigned>(std::countr_zero(mask)) / BitsPerByte : total;
}

// Each kernel: plain_run(in, total, out) is the length of the plain run at `in` (total bytes at
// most); with out != nullptr it also copies it there, and may write up to total bytes (the caller
// has the room).

// Any processor: a byte at a time below 8 bytes, else eight at a time on little-endian ones. Each
// test below ("is any byte < 0x20?") sets a byte's high bit exactly at the first byte that passes
// it; later bytes may be set by a borrow, so only the lowest set bit is read, which on a
// little-endian load is the first byte in memory.
namespace portable {

[[nodiscard]] inline std::size_t plain_bytes(const char* in, std::size_t total, char* out) noexcept {
    std::size_t done = 0;
    for (; done != total && !special_byte(static_cast<unsigned char>(in[done])); ++done) {
        if (out != nullptr) {
            out[done] = in[done];
        }
    }
    return done;
}

[[nodiscard]] ECMETA_INLINE std::size_t plain_run(const char* in, std::size_t total, char* out) noexcept {
    if constexpr (std::endian::native == std::endian::little) {
        if (total >= 8) {
            return plain_blocks<8, 8>(total, [&](std::size_t at) {
                constexpr std::uint64_t ones = 0x0101010101010101U;
                constexpr std::uint64_t high = 0x8080808080808080U;
                std::uint64_t w = 0;
                std::memcpy(&w, in + at, sizeof w);
                if (out != nullptr) {
                    std::memcpy(out + at, &w, sizeof w);
                }
                const auto zero_byte = [](std::uint64_t v) { return (v - ones) & ~v & high; };
                return (w & high) | ((w - ones * 0x20U) & ~w & high) | zero_byte(w ^ (ones * '"')) |
                       zero_byte(w ^ (ones * '\\'));
            });
        }
    }
    return plain_bytes(in, total, out);
}

}  // namespace portable

// The first bytes of a run always go through the inlined kernel, which finds the end of most ids
// (digests of 64 hex digits and the like) before a call to a wider, out-of-line one would pay for
// itself; only a run that goes on past them is handed to AVX2.
inline constexpr std::size_t inline_head = 128;

#if ECMETA_X86_64
// x86-64's baseline: sixteen bytes at a time. A signed compare below 0x20 catches control
// characters and every byte >= 0x80 at once.
namespace sse2 {

[[nodiscard]] ECMETA_INLINE unsigned special_mask(__m128i v) noexcept {
    const __m128i hit =
        _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))),
                     _mm_cmplt_epi8(v, _mm_set1_epi8(0x20)));
    return static_cast<unsigned>(_mm_movemask_epi8(hit));
}

[[nodiscard]] ECMETA_INLINE std::size_t plain_run(const char* in, std::size_t total, char* out) noexcept {
    if (total < 16) {
        return portable::plain_run(in, total, out);
    }
    return plain_blocks<16, 1>(total, [&](std::size_t at) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + at));
        if (out != nullptr) {
            _mm_storeu_si128(reinterpret_cast<__m128i*>(out + at), v);
        }
        return special_mask(v);
    });
}

}  // namespace sse2
#endif

#if ECMETA_HAS_AVX2_KERNEL
// Thirty-two bytes at a time, out of line (a function built for AVX2 is not inlined into code that
// is not): the dispatch below sends it only what is left of a long run.
namespace avx2 {

using bytes32 = signed char __attribute__((vector_size(32)));
using chars32 = char __attribute__((vector_size(32)));

// The 32 bytes at `in` (stored at `out` too, unless it is null): a bit a byte, set where it is special.
[[gnu::target("avx2")]] inline std::uint32_t special_mask(const char* in, char* out) noexcept {
    bytes32 v;
    std::memcpy(&v, in, sizeof v);
    if (out != nullptr) {
        std::memcpy(out, &v, sizeof v);
    }
    const bytes32 hit = (v == '"') | (v == '\\') | (v < 0x20);  // signed: catches >= 0x80 too
    // A vector cast, not std::bit_cast: a call returning a 32-byte vector would need AVX outside too.
    return static_cast<std::uint32_t>(__builtin_ia32_pmovmskb256((chars32)hit));
}

// plain_blocks<32, 1>, written out: a lambda would be a function of its own, built without AVX2.
// Needs total >= 32.
[[gnu::target("avx2"), gnu::noinline]] inline std::size_t plain_run(const char* in, std::size_t total,
                                                                    char* out) noexcept {
    std::size_t done = 0;
    for (; total - done >= 32; done += 32) {
        if (const std::uint32_t mask = special_mask(in + done, out == nullptr ? nullptr : out + done); mask != 0) {
            return done + static_cast<unsigned>(std::countr_zero(mask));
        }
    }
    if (done == total) {
        return total;
    }
    const std::size_t last = total - 32;
    const std::uint32_t mask = special_mask(in + last, out == nullptr ? nullptr : out + last) >> (32 - (total - done));
    return mask != 0 ? done + static_cast<unsigned>(std::countr_zero(mask)) : total;
}

}  // namespace avx2
#endif

#if ECMETA_HAS_NEON_KERNEL
// AArch64: sixteen bytes at a time, inlined (every AArch64 processor has it). There is no
// movemask: narrowing each pair of compared bytes by four bits (SHRN) gives four bits a byte.
namespace neon {

using u8x16 = unsigned char __attribute__((vector_size(16)));
using u16x8 = unsigned short __attribute__((vector_size(16)));
using u8x8 = unsigned char __attribute__((vector_size(8)));

// The 16 bytes at `in` (stored at `out` too, unless it is null): four bits a byte, set where it is
// special.
[[nodiscard]] ECMETA_INLINE std::uint64_t special_mask(const char* in, char* out) noexcept {
    u8x16 v;
    std::memcpy(&v, in, sizeof v);
    if (out != nullptr) {
        std::memcpy(out, &v, sizeof v);
    }
    const auto hit = (u16x8)((v == '"') | (v == '\\') | (v < 0x20) | (v >= 0x80));
    const u8x8 nibbles = __builtin_convertvector(hit >> 4, u8x8);
    std::uint64_t mask = 0;
    std::memcpy(&mask, &nibbles, sizeof mask);
    return mask;
}

[[nodiscard]] ECMETA_INLINE std::size_t plain_run(const char* in, std::size_t total, char* out) noexcept {
    if (total < 16) {
        return portable::plain_run(in, total, out);
    }
    return plain_blocks<16, 4>(
        total, [&](std::size_t at) { return special_mask(in + at, out == nullptr ? nullptr : out + at); });
}

}  // namespace neon
#endif

// What plain_run leaves: a run long enough for AVX2, or any run through the portable kernel.
[[gnu::noinline]] inline std::size_t plain_run_rest(kernel k, const char* in, std::size_t total, char* out) noexcept {
#if ECMETA_X86_64
    if (k != kernel::portable) {
#if ECMETA_HAS_AVX2_KERNEL
        if (k == kernel::avx2 && total >= inline_head + 32) {
            const std::size_t head = sse2::plain_run(in, inline_head, out);
            if (head < inline_head) {
                return head;
            }
            return head + avx2::plain_run(in + head, total - head, out == nullptr ? nullptr : out + head);
        }
#endif
        return sse2::plain_run(in, total, out);
    }
#else
    static_cast<void>(k);
#endif
    return portable::plain_run(in, total, out);
}

// The length of the plain run at `in` (total bytes at most), through kernel k; with out != nullptr
// it is copied there too, and up to total bytes may be written. Left to the inliner, as
// find_special is.
[[nodiscard]] inline std::size_t plain_run(kernel k, const char* in, std::size_t total, char* out) noexcept {
#if ECMETA_X86_64
    if (k != kernel::portable && total < inline_head + 32) [[likely]] {
        return sse2::plain_run(in, total, out);
    }
#elif ECMETA_HAS_NEON_KERNEL
    if (k == kernel::neon) [[likely]] {
        return neon::plain_run(in, total, out);
    }
#endif
    return plain_run_rest(k, in, total, out);
}

// What find_special leaves: the rest of a run longer than the inlined head, or any run through the
// portable kernel. Out of line, so that the head's loop needs no stack frame.
[[gnu::noinline]] inline const char* find_special_rest(kernel k, const char* p, const char* end) noexcept {
    const auto left = static_cast<std::size_t>(end - p);
#if ECMETA_X86_64
    if (k != kernel::portable) {
#if ECMETA_HAS_AVX2_KERNEL
        if (left >= 32 && k == kernel::avx2) {
            return p + avx2::plain_run(p, left, nullptr);
        }
#endif
        return p + sse2::plain_run(p, left, nullptr);
    }
#else
    static_cast<void>(k);
#endif
    return p + portable::plain_run(p, left, nullptr);
}

// The first special byte in [p, end), or end: the reader's scan, whose end is the input's, far past
// the string's. Sixteen bytes at a time over the first 128 (where most strings end), then AVX2 for
// what is left of a longer one, where the processor has it. Left to the inliner (out of line, as a
// rule): inlined, it would crowd the reader's string read out of the walk.
[[nodiscard]] inline const char* find_special(kernel k, const char* p, const char* end) noexcept {
#if ECMETA_HAS_NEON_KERNEL
    if (k == kernel::neon) [[likely]] {
        return p + neon::plain_run(p, static_cast<std::size_t>(end - p), nullptr);
    }
#endif
#if ECMETA_X86_64
    if (k != kernel::portable) [[likely]] {
        const char* const head_end = end - p > static_cast<std::ptrdiff_t>(inline_head) ? p + inline_head : end;
        for (; head_end - p >= 16; p += 16) {
            if (const unsigned mask = sse2::special_mask(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
                mask != 0) {
                return p + std::countr_zero(mask);
            }
        }
        if (p == end) {
            return end;
        }
    }
#endif
    return find_special_rest(k, p, end);
}

}  // namespace ecmeta::detail::json
