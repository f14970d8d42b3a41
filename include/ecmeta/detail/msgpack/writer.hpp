// ecmeta — the canonical MessagePack writer: one pass, a sink of visit, into an out_buffer.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "../../version.hpp"

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>

#include "../../error.hpp"
#include "../messages.hpp"
#include "../out_buffer.hpp"
#include "../simd.hpp"  // ECMETA_X86_64
#include "../utf8.hpp"
#include "tags.hpp"

namespace ecmeta::inline ECMETA_ABI::detail::msgpack {

// Canonical MessagePack: the JSON form's data model, every integer and length in its smallest
// form — byte for byte Python's msgpack.packb.
template <class Container>
class writer : public writer_base<Container, std::uint8_t> {
public:
    using writer_base<Container, std::uint8_t>::writer_base;

    // What visit tells a sink.
    ECMETA_INLINE void string(std::string_view s) {
        std::uint8_t* p = str_header(out_.room(5 + s.size()), s.size());
        // Only a byte >= 0x80 can make a string not UTF-8, and most ids are ASCII.
        if (!copy_ascii(s.data(), s.size(), p)) [[unlikely]] {
            ok_ = ok_ && is_utf8(s);
        }
        out_.commit(p + s.size());
    }
    ECMETA_INLINE void u64(std::uint64_t n) {
        std::uint8_t* p = out_.room(9);
        if (n <= msgpack_tag::positive_fixint_max) {
            *p++ = static_cast<std::uint8_t>(n);
        } else if (n <= std::numeric_limits<std::uint8_t>::max()) {
            p = big_endian<1>(p, msgpack_tag::uint8, n);
        } else if (n <= std::numeric_limits<std::uint16_t>::max()) {
            p = big_endian<2>(p, msgpack_tag::uint16, n);
        } else if (n <= std::numeric_limits<std::uint32_t>::max()) {
            p = big_endian<4>(p, msgpack_tag::uint32, n);
        } else {
            p = big_endian<8>(p, msgpack_tag::uint64, n);
        }
        out_.commit(p);
    }
    ECMETA_INLINE void i64(std::int64_t n) {
        if (n >= 0) {
            u64(static_cast<std::uint64_t>(n));
            return;
        }
        std::uint8_t* p = out_.room(9);
        const auto bits = static_cast<std::uint64_t>(n);
        if (n >= -32) {
            *p++ = static_cast<std::uint8_t>(bits);  // negative fixint
        } else if (n >= std::numeric_limits<std::int8_t>::min()) {
            p = big_endian<1>(p, msgpack_tag::int8, bits);
        } else if (n >= std::numeric_limits<std::int16_t>::min()) {
            p = big_endian<2>(p, msgpack_tag::int16, bits);
        } else if (n >= std::numeric_limits<std::int32_t>::min()) {
            p = big_endian<4>(p, msgpack_tag::int32, bits);
        } else {
            p = big_endian<8>(p, msgpack_tag::int64, bits);
        }
        out_.commit(p);
    }
    ECMETA_INLINE void boolean(bool b) { out_.put(b ? msgpack_tag::true_ : msgpack_tag::false_); }
    ECMETA_INLINE void null() { out_.put(msgpack_tag::nil); }
    ECMETA_INLINE void begin_list(std::size_t size) {
        out_.commit(container_header(out_.room(5), size, msgpack_tag::fixarray, msgpack_tag::fixarray_len_max,
                                     msgpack_tag::array16));
    }
    ECMETA_INLINE void item(std::size_t /*index*/) const noexcept {}
    ECMETA_INLINE void end_list() const noexcept {}
    // A set whose bytes are all ASCII, as sets of digests are, is written with one scan of its
    // bytes and one room check, each id copied as it is.
    [[nodiscard]] ECMETA_INLINE bool whole_ids(const id_set& set) {
        const std::string_view bytes = id_set_access::bytes(set);
        if (ascii_length(bytes) != bytes.size()) {
            return false;
        }
        const auto& entries = id_set_access::entries(set);
        begin_list(entries.size());
        std::uint8_t* p = out_.room(bytes.size() + 5 * entries.size());
        for (const auto& e : entries) {
            p = str_header(p, e.size);
            copy_inline(bytes.data() + e.offset, e.size, p);
            p += e.size;
        }
        out_.commit(p);
        return true;
    }
    ECMETA_INLINE void begin_object(std::size_t size) {
        out_.commit(
            container_header(out_.room(5), size, msgpack_tag::fixmap, msgpack_tag::fixmap_len_max, msgpack_tag::map16));
    }
    ECMETA_INLINE void key(std::size_t /*index*/, std::string_view name) {
        std::uint8_t* p = str_header(out_.room(5 + name.size()), name.size());  // a field name: ASCII
        std::memcpy(p, name.data(), name.size());
        out_.commit(p + name.size());
    }
    ECMETA_INLINE void end_object() const noexcept {}

private:
    // The tag, then n's low `Bytes` bytes, most significant first.
    template <std::size_t Bytes>
    [[nodiscard]] static std::uint8_t* big_endian(std::uint8_t* p, std::uint8_t tag, std::uint64_t n) noexcept {
        *p++ = tag;
        for (std::size_t i = Bytes; i-- > 0;) {
            *p++ = static_cast<std::uint8_t>(n >> (8 * i));
        }
        return p;
    }

    // MessagePack's lengths are 32 bits: a longer one is recorded, and what is written after it is
    // dropped.
    void check_length(std::size_t n) noexcept {
        if (n > std::numeric_limits<std::uint32_t>::max()) [[unlikely]] {
            beyond_ = beyond_ != 0 ? beyond_ : n;
        }
    }

    [[nodiscard]] std::uint8_t* str_header(std::uint8_t* p, std::size_t n) noexcept {
        if (n <= msgpack_tag::fixstr_len_max) {
            *p = static_cast<std::uint8_t>(msgpack_tag::fixstr | n);
            return p + 1;
        }
        if (n <= std::numeric_limits<std::uint8_t>::max()) {
            return big_endian<1>(p, msgpack_tag::str8, n);
        }
        if (n <= std::numeric_limits<std::uint16_t>::max()) {
            return big_endian<2>(p, msgpack_tag::str16, n);
        }
        check_length(n);
        return big_endian<4>(p, msgpack_tag::str32, n);
    }

    // An array's or a map's header: the fix form, else the 16-bit one, else the 32-bit one, whose
    // tag follows it.
    [[nodiscard]] std::uint8_t* container_header(std::uint8_t* p, std::size_t n, std::uint8_t fix, std::uint8_t fix_max,
                                                 std::uint8_t tag16) noexcept {
        if (n <= fix_max) {
            *p = static_cast<std::uint8_t>(fix | n);
            return p + 1;
        }
        if (n <= std::numeric_limits<std::uint16_t>::max()) {
            return big_endian<2>(p, tag16, n);
        }
        check_length(n);
        return big_endian<4>(p, static_cast<std::uint8_t>(tag16 + 1), n);
    }

    // Copies n bytes and says whether all are ASCII, in one pass: 16 bytes at a time (SSE2), or 8,
    // the last block overlapping the one before it; never a byte past either end.
    [[nodiscard]] static bool copy_ascii(const char* in, std::size_t n, std::uint8_t* out) noexcept {
#if ECMETA_X86_64
        if (n >= 16) {
            __m128i any = _mm_setzero_si128();
            const auto block = [&](std::size_t at) {
                const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + at));
                _mm_storeu_si128(reinterpret_cast<__m128i*>(out + at), v);
                any = _mm_or_si128(any, v);
            };
            for (std::size_t at = 0; at + 16 <= n; at += 16) {
                block(at);
            }
            block(n - 16);
            return _mm_movemask_epi8(any) == 0;
        }
#endif
        constexpr std::uint64_t high = 0x8080808080808080U;
        std::uint64_t any = 0;
        if (n >= 8) {
            const auto word = [&](std::size_t at) {
                std::uint64_t w = 0;
                std::memcpy(&w, in + at, sizeof w);
                std::memcpy(out + at, &w, sizeof w);
                any |= w;
            };
            for (std::size_t at = 0; at + 8 <= n; at += 8) {
                word(at);
            }
            word(n - 8);
            return (any & high) == 0;
        }
        for (std::size_t i = 0; i < n; ++i) {
            out[i] = static_cast<std::uint8_t>(in[i]);
            any |= out[i];
        }
        return (any & 0x80U) == 0;
    }

    using writer_base<Container, std::uint8_t>::out_;
    using writer_base<Container, std::uint8_t>::ok_;
    using writer_base<Container, std::uint8_t>::beyond_;
};

// How many bytes a header of a length n takes: 1 for a fix form (fix_max at most), then 8-, 16-
// and 32-bit lengths (an array or a map has no 8-bit one).
[[nodiscard]] constexpr std::size_t length_header_size(std::size_t n, std::size_t fix_max, bool has8) noexcept {
    if (n <= fix_max) {
        return 1;
    }
    if (has8 && n <= std::numeric_limits<std::uint8_t>::max()) {
        return 2;
    }
    return n <= std::numeric_limits<std::uint16_t>::max() ? 3 : 5;
}

// The exact length of value's canonical MessagePack: what encode_msgpack reserves, so that a
// fresh buffer is allocated once. A walk of sizes: no string's bytes are read.
template <class T>
[[nodiscard]] std::size_t encoded_size(const T& value) noexcept {
    struct sizer {
        std::size_t n = 0;
        static constexpr std::size_t unsigned_size(std::uint64_t v) noexcept {
            if (v <= msgpack_tag::positive_fixint_max) {
                return 1;
            }
            return v <= 0xFF ? 2 : v <= 0xFFFF ? 3 : v <= 0xFFFFFFFF ? 5 : 9;
        }
        void string(std::string_view s) noexcept {
            n += length_header_size(s.size(), msgpack_tag::fixstr_len_max, true) + s.size();
        }
        void u64(std::uint64_t v) noexcept { n += unsigned_size(v); }
        void i64(std::int64_t v) noexcept {
            if (v >= 0) {
                n += unsigned_size(static_cast<std::uint64_t>(v));
            } else {
                n += v >= -32                                        ? 1
                     : v >= std::numeric_limits<std::int8_t>::min()  ? 2
                     : v >= std::numeric_limits<std::int16_t>::min() ? 3
                     : v >= std::numeric_limits<std::int32_t>::min() ? 5
                                                                     : 9;
            }
        }
        void boolean(bool /*unused*/) noexcept { ++n; }
        void null() noexcept { ++n; }
        void begin_list(std::size_t size) noexcept {
            n += length_header_size(size, msgpack_tag::fixarray_len_max, false);
        }
        void item(std::size_t /*index*/) const noexcept {}
        void end_list() const noexcept {}
        void begin_object(std::size_t size) noexcept {
            n += length_header_size(size, msgpack_tag::fixmap_len_max, false);
        }
        void key(std::size_t /*index*/, std::string_view name) noexcept { string(name); }
        void end_object() const noexcept {}
    } sizer;
    visit(value, sizer);
    return sizer.n;
}

}  // namespace ecmeta::detail::msgpack
