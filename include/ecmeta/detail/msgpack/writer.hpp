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
#include "../utf8.hpp"
#include "../visit.hpp"
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
        out_.commit(msgpack_tag::unsigned_head(n, [&](auto h) ECMETA_INLINE_LAMBDA { return put_head(p, h, 0, n); }));
    }
    ECMETA_INLINE void i64(std::int64_t n) {
        if (n >= 0) {
            u64(static_cast<std::uint64_t>(n));
            return;
        }
        std::uint8_t* p = out_.room(9);
        const auto bits = static_cast<std::uint64_t>(n);
        out_.commit(
            msgpack_tag::negative_head(n, [&](auto h) ECMETA_INLINE_LAMBDA { return put_head(p, h, 0, bits); }));
    }
    ECMETA_INLINE void boolean(bool b) { out_.put(b ? msgpack_tag::true_ : msgpack_tag::false_); }
    ECMETA_INLINE void null() { out_.put(msgpack_tag::nil); }
    ECMETA_INLINE void begin_list(std::size_t size) {
        std::uint8_t* p = out_.room(5);
        out_.commit(msgpack_tag::array_head(
            size, [&](auto h) ECMETA_INLINE_LAMBDA { return put_length(p, h, msgpack_tag::fixarray, size); }));
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
        std::uint8_t* p = out_.room(5);
        out_.commit(msgpack_tag::map_head(
            size, [&](auto h) ECMETA_INLINE_LAMBDA { return put_length(p, h, msgpack_tag::fixmap, size); }));
    }
    ECMETA_INLINE void key(std::size_t /*index*/, std::string_view name) {
        std::uint8_t* p = str_header(out_.room(5 + name.size()), name.size());  // a field name: ASCII
        std::memcpy(p, name.data(), name.size());
        out_.commit(p + name.size());
    }
    ECMETA_INLINE void end_object() const noexcept {}

private:
    // Head h of the number n: a fix form is `fix` or-ed with n (whose low byte is a negative
    // fixint's tag); else the tag, then n's low h.bytes bytes, most significant first.
    template <class Head>
    [[nodiscard]] ECMETA_INLINE static std::uint8_t* put_head(std::uint8_t* p, Head /*h*/, std::uint8_t fix,
                                                              std::uint64_t n) noexcept {
        if constexpr (Head::bytes == 0) {
            *p = static_cast<std::uint8_t>(fix | n);
            return p + 1;
        } else {
            *p++ = Head::tag;
            for (std::size_t i = Head::bytes; i-- > 0;) {
                *p++ = static_cast<std::uint8_t>(n >> (8 * i));
            }
            return p;
        }
    }

    // A length's head. MessagePack's lengths are 32 bits: a longer one is recorded, and what is
    // written after it is dropped.
    template <class Head>
    [[nodiscard]] ECMETA_INLINE std::uint8_t* put_length(std::uint8_t* p, Head h, std::uint8_t fix,
                                                         std::size_t n) noexcept {
        if constexpr (Head::bytes == 4) {
            if (n > std::numeric_limits<std::uint32_t>::max()) [[unlikely]] {
                beyond_ = beyond_ != 0 ? beyond_ : n;
            }
        }
        return put_head(p, h, fix, n);
    }

    [[nodiscard]] std::uint8_t* str_header(std::uint8_t* p, std::size_t n) noexcept {
        return msgpack_tag::str_head(
            n, [&](auto h) ECMETA_INLINE_LAMBDA { return put_length(p, h, msgpack_tag::fixstr, n); });
    }

    using writer_base<Container, std::uint8_t>::out_;
    using writer_base<Container, std::uint8_t>::ok_;
    using writer_base<Container, std::uint8_t>::beyond_;
};

// The exact length of value's canonical MessagePack: what encode_msgpack reserves, so that a
// fresh buffer is allocated once. A walk of sizes: no string's bytes are read.
template <class T>
[[nodiscard]] std::size_t encoded_size(const T& value) noexcept {
    struct sizer {
        std::size_t n = 0;

        void string(std::string_view s) noexcept {
            n += msgpack_tag::str_head(s.size(), msgpack_tag::head_size) + s.size();
        }
        void u64(std::uint64_t v) noexcept { n += msgpack_tag::unsigned_head(v, msgpack_tag::head_size); }
        void i64(std::int64_t v) noexcept {
            n += v >= 0 ? msgpack_tag::unsigned_head(static_cast<std::uint64_t>(v), msgpack_tag::head_size)
                        : msgpack_tag::negative_head(v, msgpack_tag::head_size);
        }
        void boolean(bool /*unused*/) noexcept { ++n; }
        void null() noexcept { ++n; }
        void begin_list(std::size_t count) noexcept { n += msgpack_tag::array_head(count, msgpack_tag::head_size); }
        void item(std::size_t /*index*/) const noexcept {}
        void end_list() const noexcept {}
        void begin_object(std::size_t count) noexcept { n += msgpack_tag::map_head(count, msgpack_tag::head_size); }
        void key(std::size_t /*index*/, std::string_view name) noexcept { string(name); }
        void end_object() const noexcept {}
    } sizer;
    visit(value, sizer);
    return sizer.n;
}

}  // namespace ecmeta::detail::msgpack
