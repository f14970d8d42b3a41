// ecmeta — canonical writers: JSON text and MessagePack, driven by the schema.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <array>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "../error.hpp"
#include "schema.hpp"
#include "utf8.hpp"

namespace ecmeta::detail {

// An upper-bound guess of the encoded size, so that each encode allocates once.
template <class T>
std::size_t size_hint(const T& value) noexcept {
    struct counter {
        std::size_t n = 0;
        void string(std::string_view s) noexcept { n += s.size() + 4; }
        void u64(std::uint64_t /*unused*/) noexcept { n += 21; }
        void i64(std::int64_t /*unused*/) noexcept { n += 21; }
        void boolean(bool /*unused*/) noexcept { n += 5; }
        void null() noexcept { n += 4; }
        void begin_list(std::size_t /*size*/) noexcept { n += 2; }
        void item(std::size_t /*index*/) noexcept { n += 1; }
        void end_list() const noexcept {}
        void begin_object(std::size_t /*size*/) noexcept { n += 2; }
        void key(std::size_t /*index*/, std::string_view name) noexcept { n += name.size() + 4; }
        void end_object() const noexcept {}
    } sink;
    visit(value, sink);
    return sink.n;
}

// Byte classes for JSON strings: 0 copied as is, 1 escaped, 2 starts a multi-byte sequence.
inline constexpr std::array<std::uint8_t, 256> json_byte_class = [] {
    std::array<std::uint8_t, 256> t{};
    for (std::size_t c = 0; c < 0x20; ++c) {
        t[c] = 1;
    }
    t['"'] = 1;
    t['\\'] = 1;
    for (std::size_t c = 0x80; c < 0x100; ++c) {
        t[c] = 2;
    }
    return t;
}();

// Whether the 8 bytes at p go out as they are: ASCII, no control character, no '"' or '\\'.
// (Bit tricks that each ask "is any byte ...?", which they answer exactly.)
[[nodiscard]] inline bool plain_json_word(const char* p) noexcept {
    constexpr std::uint64_t ones = 0x0101010101010101U;
    constexpr std::uint64_t high = 0x8080808080808080U;
    std::uint64_t w = 0;
    std::memcpy(&w, p, sizeof w);
    const auto any_zero = [](std::uint64_t v) { return (v - ones) & ~v & high; };
    const std::uint64_t below_space = (w - ones * 0x20) & ~w & high;
    return ((w & high) | below_space | any_zero(w ^ (ones * 0x22U)) | any_zero(w ^ (ones * 0x5CU))) == 0;
}

// Canonical JSON: no spaces, fields in declared order, UTF-8 written as is, and only '"', '\\'
// and control characters escaped — byte for byte Python's
// json.dumps(..., ensure_ascii=False, separators=(",", ":")).
class json_writer {
public:
    explicit json_writer(std::string& out) noexcept : out_(out) {}

    // False when some string was not UTF-8 (the output is then not JSON and must be dropped).
    [[nodiscard]] bool ok() const noexcept { return ok_; }

    void write(std::string_view s) { write_string(s); }
    template <class T>
    void write(const T& value) {
        visit(value, *this);
    }

    // What visit tells a sink.
    void string(std::string_view s) { write_string(s); }
    void u64(std::uint64_t n) { write_number(n); }
    void i64(std::int64_t n) { write_number(n); }
    void boolean(bool b) { out_.append(b ? "true" : "false"); }
    void null() { out_.append("null"); }
    void begin_list(std::size_t /*size*/) { out_ += '['; }
    void item(std::size_t i) {
        if (i != 0) {
            out_ += ',';
        }
    }
    void end_list() { out_ += ']'; }
    void begin_object(std::size_t /*size*/) { out_ += '{'; }
    void key(std::size_t i, std::string_view name) {
        item(i);
        out_ += '"';
        out_.append(name);
        out_.append("\":");
    }
    void end_object() { out_ += '}'; }

private:
    template <class N>
    void write_number(N n) {
        char buf[24];
        const auto r = std::to_chars(buf, buf + sizeof buf, n);
        out_.append(buf, r.ptr);
    }

    void write_string(std::string_view s) {
        out_ += '"';
        std::size_t run = 0;  // start of the bytes not yet copied
        for (std::size_t i = 0; i < s.size();) {
            if (i + 8 <= s.size() && plain_json_word(s.data() + i)) {
                i += 8;  // ids are mostly plain ASCII
                continue;
            }
            const auto c = static_cast<unsigned char>(s[i]);
            const std::uint8_t cls = json_byte_class[c];
            if (cls == 0) {
                ++i;
                continue;
            }
            if (cls == 2) {
                const std::size_t n = utf8_sequence(s, i);
                ok_ = ok_ && n != 0;
                i += n == 0 ? 1 : n;
                continue;
            }
            out_.append(s.data() + run, i - run);
            escape(c);
            run = ++i;
        }
        out_.append(s.data() + run, s.size() - run);
        out_ += '"';
    }

    void escape(unsigned char c) {
        switch (c) {
            case '"':
                out_.append("\\\"");
                break;
            case '\\':
                out_.append("\\\\");
                break;
            case '\b':
                out_.append("\\b");
                break;
            case '\f':
                out_.append("\\f");
                break;
            case '\n':
                out_.append("\\n");
                break;
            case '\r':
                out_.append("\\r");
                break;
            case '\t':
                out_.append("\\t");
                break;
            default: {
                constexpr std::string_view hex = "0123456789abcdef";
                const char u[] = {'\\', 'u', '0', '0', hex[c >> 4U], hex[c & 0xFU]};
                out_.append(u, sizeof u);
            }
        }
    }

    std::string& out_;
    bool ok_ = true;
};

// Canonical MessagePack: the same data model, every length and integer in its smallest form.
class msgpack_writer {
public:
    explicit msgpack_writer(std::vector<std::uint8_t>& out) noexcept : out_(out) {}

    [[nodiscard]] bool ok() const noexcept { return ok_; }

    template <class T>
    void write(const T& value) {
        visit(value, *this);
    }

    // What visit tells a sink.
    void string(std::string_view s) {
        ok_ = ok_ && is_utf8(s);
        header(s.size(), 0xA0, 31, str_tags);
        out_.insert(out_.end(), s.begin(), s.end());
    }
    void u64(std::uint64_t n) {
        if (n < 0x80) {
            out_.push_back(static_cast<std::uint8_t>(n));
        } else if (n <= 0xFF) {
            put(0xCC, n, 1);
        } else if (n <= 0xFFFF) {
            put(0xCD, n, 2);
        } else if (n <= 0xFFFFFFFF) {
            put(0xCE, n, 4);
        } else {
            put(0xCF, n, 8);
        }
    }
    void i64(std::int64_t n) {
        if (n >= 0) {
            u64(static_cast<std::uint64_t>(n));
        } else if (n >= -32) {
            out_.push_back(static_cast<std::uint8_t>(n));
        } else if (n >= std::numeric_limits<std::int8_t>::min()) {
            put(0xD0, static_cast<std::uint64_t>(n), 1);
        } else if (n >= std::numeric_limits<std::int16_t>::min()) {
            put(0xD1, static_cast<std::uint64_t>(n), 2);
        } else if (n >= std::numeric_limits<std::int32_t>::min()) {
            put(0xD2, static_cast<std::uint64_t>(n), 4);
        } else {
            put(0xD3, static_cast<std::uint64_t>(n), 8);
        }
    }
    void boolean(bool b) { out_.push_back(b ? 0xC3 : 0xC2); }
    void null() { out_.push_back(0xC0); }
    void begin_list(std::size_t size) { header(size, 0x90, 15, array_tags); }
    void item(std::size_t /*index*/) const noexcept {}
    void end_list() const noexcept {}
    void begin_object(std::size_t size) { header(size, 0x80, 15, map_tags); }
    void key(std::size_t /*index*/, std::string_view name) {
        header(name.size(), 0xA0, 31, str_tags);  // a field name: ASCII, no check needed
        out_.insert(out_.end(), name.begin(), name.end());
    }
    void end_object() const noexcept {}

private:
    struct tags {
        std::uint8_t bits8, bits16, bits32;  // 0: no 8-bit length form
    };
    static constexpr tags str_tags{0xD9, 0xDA, 0xDB};
    static constexpr tags array_tags{0, 0xDC, 0xDD};
    static constexpr tags map_tags{0, 0xDE, 0xDF};

    void header(std::size_t n, std::uint8_t fix, std::size_t fix_max, tags t) {
        if (n <= fix_max) {
            out_.push_back(static_cast<std::uint8_t>(fix | n));
        } else if (t.bits8 != 0 && n <= 0xFF) {
            put(t.bits8, n, 1);
        } else if (n <= 0xFFFF) {
            put(t.bits16, n, 2);
        } else if (n <= 0xFFFFFFFF) {
            put(t.bits32, n, 4);
        } else {
            throw encode_error("", "expected a length MessagePack can hold (< 2^32), got " + std::to_string(n));
        }
    }

    void put(std::uint8_t tag, std::uint64_t n, int bytes) {
        out_.push_back(tag);
        for (int shift = (bytes - 1) * 8; shift >= 0; shift -= 8) {
            out_.push_back(static_cast<std::uint8_t>(n >> static_cast<unsigned>(shift)));
        }
    }

    std::vector<std::uint8_t>& out_;
    bool ok_ = true;
};

// The pointer of the first string that has no wire form, for the encoders' error.
template <class T>
[[noreturn]] void throw_not_utf8(const T& value) {
    std::string pointer;
    find_string(value, pointer, [](const std::string&, std::string_view s) { return !is_utf8(s); });
    throw encode_error(std::move(pointer), "expected a UTF-8 string, got invalid UTF-8");
}

}  // namespace ecmeta::detail
