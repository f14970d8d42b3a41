// ecmeta — the canonical JSON writer: one pass, a sink of visit, into an out_buffer.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "../../version.hpp"

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "../out_buffer.hpp"
#include "../utf8.hpp"
#include "../visit.hpp"
#include "scan.hpp"

namespace ecmeta::inline ECMETA_ABI::detail::json {

// How many decimal digits n has: log10 from its bit length (1233 / 4096 ~ log10(2)), then one
// compare.
[[nodiscard]] ECMETA_INLINE std::size_t decimal_length(std::uint64_t n) noexcept {
    static constexpr std::uint64_t powers[20] = {1U,
                                                 10U,
                                                 100U,
                                                 1000U,
                                                 10000U,
                                                 100000U,
                                                 1000000U,
                                                 10000000U,
                                                 100000000U,
                                                 1000000000U,
                                                 10000000000U,
                                                 100000000000U,
                                                 1000000000000U,
                                                 10000000000000U,
                                                 100000000000000U,
                                                 1000000000000000U,
                                                 10000000000000000U,
                                                 100000000000000000U,
                                                 1000000000000000000U,
                                                 10000000000000000000U};
    const auto guess = static_cast<std::size_t>(((64 - std::countl_zero(n | 1U)) * 1233) >> 12);
    return guess + (n >= powers[guess] ? 1U : 0U) + (n == 0 ? 1U : 0U);
}

// The decimal digits of n at p; returns the end. `p` must have room for 20 bytes. Below 10^8
// (most sizes and extents) all eight digits are found side by side in one word, one a byte, and
// the leading zeros shifted out; above, two digits at a time from the end.
[[nodiscard]] ECMETA_INLINE char* write_decimal(char* p, std::uint64_t n) noexcept {
    static constexpr char pairs[] =
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
        "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
        "8081828384858687888990919293949596979899";
    if constexpr (std::endian::native == std::endian::little) {
        if (n < 100000000U) {
            // n / 10^4 and n % 10^4 in 32-bit lanes; each split by 100 into 16-bit lanes, each of
            // those by 10 into bytes: x / 100 as x * 10486 >> 20 and x / 10 as x * 103 >> 10, exact
            // for these x, and no lane's product reaches the next lane.
            const std::uint64_t halves = (n / 10000) | (n % 10000) << 32U;
            const std::uint64_t hundreds = ((halves * 10486U) >> 20U) & 0x0000007F0000007FU;
            const std::uint64_t two_digits = hundreds | (halves - hundreds * 100U) << 16U;
            const std::uint64_t tens = ((two_digits * 103U) >> 10U) & 0x000F000F000F000FU;
            const std::uint64_t digits = tens | (two_digits - tens * 10U) << 8U;
            // The most significant digit is first in memory, so leading zeros are the low zero
            // bytes; n == 0 keeps one.
            const auto zeros = std::min(static_cast<unsigned>(std::countr_zero(digits)) / 8U, 7U);
            const std::uint64_t word = (digits + 0x3030303030303030U) >> (8U * zeros);
            std::memcpy(p, &word, sizeof word);
            return p + (8 - zeros);
        }
    }
    const std::size_t length = decimal_length(n);
    char* const end = p + length;
    char* q = end;
    while (n >= 100) {
        q -= 2;
        std::memcpy(q, pairs + 2 * (n % 100), 2);
        n /= 100;
    }
    if (n >= 10) {
        std::memcpy(q - 2, pairs + 2 * n, 2);
    } else {
        q[-1] = static_cast<char>('0' + n);
    }
    return end;
}

// Canonical JSON: no spaces, fields in declared order, UTF-8 written as is, and only '"', '\\'
// and control characters escaped — byte for byte Python's
// json.dumps(..., ensure_ascii=False, separators=(",", ":")).
template <class Container>
class writer : public writer_base<Container, char> {
public:
    explicit writer(typename writer_base<Container, char>::buffer& out) noexcept
        : writer_base<Container, char>(out), kernel_(current_kernel()) {}

    // What visit tells a sink.
    ECMETA_INLINE void string(std::string_view s) { out_.commit(string_at(out_.room(s.size() + 2), s)); }
    ECMETA_INLINE void u64(std::uint64_t n) { number(n); }
    ECMETA_INLINE void i64(std::int64_t n) { number(n); }
    ECMETA_INLINE void boolean(bool b) { out_.commit(boolean_at(out_.room(5), b)); }
    ECMETA_INLINE void null() { literal("null"); }
    ECMETA_INLINE void begin_list(std::size_t /*size*/) { out_.put('['); }
    ECMETA_INLINE void item(std::size_t i) {
        if (i != 0) {
            out_.put(',');
        }
    }
    ECMETA_INLINE void end_list() { out_.put(']'); }
    // A set whose bytes are all plain, as sets of digests are, is written with one scan of its
    // bytes and one room check, each id copied as it is.
    [[nodiscard]] ECMETA_INLINE bool whole_ids(const id_set& set) {
        const std::string_view bytes = id_set_access::bytes(set);
        if (find_special(kernel_, bytes.data(), bytes.data() + bytes.size()) != bytes.data() + bytes.size()) {
            return false;
        }
        const auto& entries = id_set_access::entries(set);
        char* p = out_.room(bytes.size() + 3 * entries.size() + 2);
        *p++ = '[';
        for (const auto& e : entries) {
            *p++ = '"';
            copy_inline(bytes.data() + e.offset, e.size, p);
            p += e.size;
            *p++ = '"';
            *p++ = ',';
        }
        p -= entries.empty() ? 0 : 1;  // the last comma
        *p++ = ']';
        out_.commit(p);
        return true;
    }
    ECMETA_INLINE void begin_object(std::size_t /*size*/) { out_.put('{'); }
    ECMETA_INLINE void key(std::size_t i, std::string_view name) {
        out_.commit(key_at(out_.room(name.size() + 4), i, name));
    }
    // A field whose value's length has a small bound (a number, a flag, a string written as it is):
    // its key and value under one room check. Others are a key, then their value's walk.
    template <std::size_t I, class M>
    ECMETA_INLINE void field(std::integral_constant<std::size_t, I> /*index*/, std::string_view name, const M& value) {
        constexpr form f = form_of<M>();
        if constexpr (f == form::string) {
            char* p = key_at(out_.room(name.size() + 4 + value.size() + 2), I, name);
            out_.commit(string_at(p, value));
        } else if constexpr (f == form::u64 || f == form::i64) {
            out_.commit(number_at(key_at(out_.room(name.size() + 4 + 20), I, name), value));
        } else if constexpr (f == form::boolean) {
            out_.commit(boolean_at(key_at(out_.room(name.size() + 4 + 5), I, name), value));
        } else {
            key(I, name);
            visit(value, *this);
        }
    }
    ECMETA_INLINE void end_object() { out_.put('}'); }

private:
    template <std::size_t N>
    ECMETA_INLINE void literal(const char (&text)[N]) {
        out_.append(text, N - 1);
    }

    ECMETA_INLINE void number(std::uint64_t n) { out_.commit(number_at(out_.room(20), n)); }
    ECMETA_INLINE void number(std::int64_t n) { out_.commit(number_at(out_.room(20), n)); }

    // The writes themselves, at a cursor with room for them; each returns the new cursor.

    // A field name is plain ASCII: the comma, the quoted name and the colon. Needs name + 4.
    [[nodiscard]] ECMETA_INLINE static char* key_at(char* p, std::size_t i, std::string_view name) noexcept {
        *p = ',';
        p += i != 0 ? 1 : 0;
        *p++ = '"';
        std::memcpy(p, name.data(), name.size());
        p += name.size();
        *p++ = '"';
        *p++ = ':';
        return p;
    }
    // 2^64 - 1 has 20 digits; -2^63 a sign and 19. Needs 20.
    [[nodiscard]] ECMETA_INLINE static char* number_at(char* p, std::uint64_t n) noexcept {
        return write_decimal(p, n);
    }
    [[nodiscard]] ECMETA_INLINE static char* number_at(char* p, std::int64_t n) noexcept {
        *p = '-';
        const auto magnitude = n < 0 ? 0 - static_cast<std::uint64_t>(n) : static_cast<std::uint64_t>(n);
        return write_decimal(p + (n < 0 ? 1 : 0), magnitude);
    }
    // Needs 5: "false" is stored whole, "true" as "true" and a byte written over next.
    [[nodiscard]] ECMETA_INLINE static char* boolean_at(char* p, bool b) noexcept {
        std::memcpy(p, b ? "true" : "false", 5);
        return p + (b ? 4 : 5);
    }
    // The string in its quotes. Needs s + 2: the plain run that most strings are whole is inlined;
    // the rest (escapes, UTF-8) goes out of line, asking for room as it grows.
    [[nodiscard]] ECMETA_INLINE char* string_at(char* p, std::string_view s) {
        *p++ = '"';
        const char* in = s.data();
        const char* const end = in + s.size();
        const std::size_t n = plain_run(kernel_, in, s.size(), p);
        in += n;
        p += n;
        while (in != end)
            [[unlikely]] {
                out_.commit(p);
                // Room for the rest byte for byte, the quote, and one escape's 5 more.
                p = out_.room(static_cast<std::size_t>(end - in) + 1 + 5);
                const special_run r = write_special(kernel_, s, in, p, out_.limit());
                in = r.in;
                p = r.out;
                ok_ = ok_ && r.ok;
            }
        *p++ = '"';
        return p;
    }

    struct special_run {
        const char* in;
        char* out;
        bool ok;  // false: a byte that starts no valid UTF-8 sequence (copied, so the walk goes on)
    };

    // From a special byte at `in` on: escapes, UTF-8 sequences and plain runs, while `limit`
    // leaves room for the rest byte for byte, the quote and one more escape. Out of line and
    // static: the writer's cursor stays in registers on the inlined path.
    [[gnu::noinline]] static special_run write_special(kernel k, std::string_view s, const char* in, char* out,
                                                       const char* limit) noexcept {
        const char* const end = s.data() + s.size();
        bool ok = true;
        while (in != end) {
            const auto c = static_cast<unsigned char>(*in);
            if (c >= 0x80) {
                const std::size_t len = utf8_sequence(s, static_cast<std::size_t>(in - s.data()));
                ok = ok && len != 0;
                const std::size_t copied = len == 0 ? 1 : len;
                std::memcpy(out, in, copied);
                in += copied;
                out += copied;
            } else if (special_byte(c)) {
                if (static_cast<std::size_t>(limit - out) < static_cast<std::size_t>(end - in) + 1 + 5) {
                    break;  // the caller makes room
                }
                out = escape(c, out);
                ++in;
            } else {
                const std::size_t n = plain_run(k, in, static_cast<std::size_t>(end - in), out);
                in += n;
                out += n;
            }
        }
        return {in, out, ok};
    }

    [[nodiscard]] static char* escape(unsigned char c, char* p) noexcept {
        *p++ = '\\';
        switch (c) {
            case '"':
            case '\\':
                *p++ = static_cast<char>(c);
                return p;
            case '\b':
                *p++ = 'b';
                return p;
            case '\f':
                *p++ = 'f';
                return p;
            case '\n':
                *p++ = 'n';
                return p;
            case '\r':
                *p++ = 'r';
                return p;
            case '\t':
                *p++ = 't';
                return p;
            default: {
                constexpr std::string_view hex = "0123456789abcdef";
                const char u[] = {'u', '0', '0', hex[c >> 4U], hex[c & 0xFU]};
                std::memcpy(p, u, sizeof u);
                return p + sizeof u;
            }
        }
    }

    using writer_base<Container, char>::out_;
    using writer_base<Container, char>::ok_;
    kernel kernel_;  // chosen once per write
};

// The length of value's canonical JSON where no string needs an escape, as most do not: what
// encode reserves, so that a fresh buffer is allocated once. A walk of sizes: no string's bytes
// are read.
template <class T>
[[nodiscard]] std::size_t encoded_size(const T& value) noexcept {
    struct sizer {
        std::size_t n = 0;
        void string(std::string_view s) noexcept { n += s.size() + 2; }
        void u64(std::uint64_t v) noexcept { n += decimal_length(v); }
        void i64(std::int64_t v) noexcept {
            n += v < 0 ? 1 + decimal_length(0 - static_cast<std::uint64_t>(v))
                       : decimal_length(static_cast<std::uint64_t>(v));
        }
        void boolean(bool b) noexcept { n += b ? 4 : 5; }
        void null() noexcept { n += 4; }
        void begin_list(std::size_t /*size*/) noexcept { n += 2; }
        void item(std::size_t i) noexcept { n += i != 0 ? 1 : 0; }
        void end_list() const noexcept {}
        void begin_object(std::size_t /*size*/) noexcept { n += 2; }
        void key(std::size_t i, std::string_view name) noexcept { n += name.size() + 3 + (i != 0 ? 1 : 0); }
        void end_object() const noexcept {}
    } sizer;
    visit(value, sizer);
    return sizer.n;
}

// Appends s to out as a JSON string (the JSON Schema's text; its strings are UTF-8 literals).
inline void append_string(std::string& out, std::string_view s) {
    writer<std::string>::buffer buffer{out, out.size()};
    writer<std::string>{buffer}.string(s);
    buffer.finish();
}

}  // namespace ecmeta::detail::json
