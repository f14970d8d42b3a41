// ecmeta — MessagePack's readers: the event reader that feeds the decoder (the reference, which
// names every error), and the pull reader the generated decoder reads through (the fast path).
// Standard library only.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <algorithm>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "../id_set.hpp"
#include "decoder.hpp"
#include "utf8.hpp"
#include "walker.hpp"

namespace ecmeta::detail {

// The tag bytes the pull reader reads by name (the fix* forms carry their size in the low bits).
namespace msgpack_tag {
inline constexpr std::uint8_t positive_fixint_max = 0x7F;
inline constexpr std::uint8_t fixmap = 0x80, fixmap_max = 0x8F;
inline constexpr std::uint8_t fixarray = 0x90, fixarray_max = 0x9F;
inline constexpr std::uint8_t fixstr = 0xA0, fixstr_max = 0xBF;
inline constexpr std::uint8_t nil = 0xC0, false_ = 0xC2, true_ = 0xC3;
inline constexpr std::uint8_t uint8 = 0xCC, uint64 = 0xCF;  // uint8, 16, 32, 64
inline constexpr std::uint8_t int8 = 0xD0, int64 = 0xD3;    // int8, 16, 32, 64
inline constexpr std::uint8_t str8 = 0xD9, str32 = 0xDB;    // str8, 16, 32
inline constexpr std::uint8_t array16 = 0xDC, array32 = 0xDD;
inline constexpr std::uint8_t map16 = 0xDE, map32 = 0xDF;
}  // namespace msgpack_tag

// Skips one whole value at in[pos] with a single counter (no recursion, no stack, whatever the
// depth), checking bounds only: a skipped string's bytes are not looked at. For the event reader
// and the pull reader alike, so that both skip exactly the same inputs; fail(at, message) must not
// return.
template <class Fail>
void skip_msgpack_value(std::span<const std::uint8_t> in, std::size_t& pos, Fail&& fail) {
    const auto bytes = [&](std::uint64_t n) {  // n more bytes must be there; returns n
        if (n > in.size() - pos) {
            fail(pos, "expected " + std::to_string(n) + " more bytes, got " + std::to_string(in.size() - pos) +
                          " (truncated input)");
        }
        return static_cast<std::size_t>(n);
    };
    const auto uint = [&](std::size_t n) {  // big-endian unsigned of n bytes
        bytes(n);
        std::uint64_t v = 0;
        for (std::size_t i = 0; i < n; ++i) {
            v = (v << 8U) | in[pos++];
        }
        return v;
    };
    std::uint64_t pending = 1;
    while (pending != 0) {
        --pending;
        const std::size_t at = pos;
        bytes(1);
        const std::uint8_t b = in[pos++];
        std::uint64_t children = 0;
        if (b <= 0x7F || b >= 0xE0 || (b >= 0xC0 && b <= 0xC3)) {
            // no payload (0xC1, never used, is passed over as it always was)
        } else if (b <= 0x8F) {
            children = std::uint64_t{2} * (b & 0x0FU);
        } else if (b <= 0x9F) {
            children = b & 0x0FU;
        } else if (b <= 0xBF) {
            pos += bytes(b & 0x1FU);
        } else if (b >= 0xC4 && b <= 0xC6) {
            pos += bytes(uint(std::size_t{1} << (b - 0xC4U)));
        } else if (b >= 0xC7 && b <= 0xC9) {
            pos += bytes(uint(std::size_t{1} << (b - 0xC7U)) + 1);
        } else if (b == 0xCA || b == 0xCB) {
            pos += bytes(b == 0xCA ? 4 : 8);
        } else if (b >= 0xCC && b <= 0xD3) {
            pos += bytes(std::size_t{1} << ((b - 0xCCU) & 3U));
        } else if (b >= 0xD4 && b <= 0xD8) {
            pos += bytes((std::size_t{1} << (b - 0xD4U)) + 1);
        } else if (b >= 0xD9 && b <= 0xDB) {
            pos += bytes(uint(std::size_t{1} << (b - 0xD9U)));
        } else if (b == 0xDC || b == 0xDD) {
            children = uint(b == 0xDC ? 2 : 4);
        } else {  // 0xDE, 0xDF
            children = 2 * uint(b == 0xDE ? 2 : 4);
        }
        pending += children;
        if (pending > in.size() - pos) {
            fail(at, "expected " + std::to_string(pending) + " more values, got " + std::to_string(in.size() - pos) +
                         " bytes");
        }
    }
}

// Reads MessagePack without recursion. Lengths are untrusted: a container may not promise more
// elements than bytes remain (each needs at least one), and nothing is reserved from a length;
// an id set reserves only for the strings it has found whole in the input.
class msgpack_reader {
public:
    msgpack_reader(std::span<const std::uint8_t> in, decoder& out) noexcept : in_(in), out_(out) {}

    void run() {
        value();
        while (!open_.empty()) {
            container& c = open_.back();
            if (c.left == 0) {
                const bool map = c.map;
                open_.pop_back();
                map ? out_.end_object() : out_.end_array();
                continue;
            }
            if (c.map && c.want_key) {
                c.want_key = false;
                key();
                continue;
            }
            c.want_key = c.map;
            --c.left;
            value();  // may grow open_: `c` is not used after this
        }
        if (pos_ != in_.size()) {
            out_.syntax_error(pos_, "expected end of input, got more bytes");
        }
    }

private:
    struct container {
        std::uint64_t left;  // elements, or key-value pairs, still to read
        bool map;
        bool want_key;
    };

    void value() {
        if (out_.skipping_next()) {
            skip();
            out_.skipped();
            return;
        }
        const std::size_t at = pos_;
        const std::uint8_t b = byte();
        if (b <= 0x7F) {
            out_.unsigned_integer(b);
        } else if (b >= 0xE0) {
            out_.integer(static_cast<std::int8_t>(b));
        } else if (b <= 0x8F) {
            open(at, b & 0x0FU, true);
        } else if (b <= 0x9F) {
            open(at, b & 0x0FU, false);
        } else if (b <= 0xBF) {
            string(b & 0x1FU);
        } else {
            switch (b) {
                case 0xC0:
                    out_.null();
                    break;
                case 0xC2:
                case 0xC3:
                    out_.boolean(b == 0xC3);
                    break;
                case 0xC4:
                case 0xC5:
                case 0xC6:
                    pos_ += bytes(uint(std::size_t{1} << (b - 0xC4U)));
                    out_.other("binary");
                    break;
                case 0xC7:
                case 0xC8:
                case 0xC9:
                    pos_ += bytes(uint(std::size_t{1} << (b - 0xC7U)) + 1);
                    out_.other("extension");
                    break;
                case 0xCA: {
                    const auto bits = static_cast<std::uint32_t>(uint(4));
                    float f = 0;
                    std::memcpy(&f, &bits, sizeof f);
                    floating(f);
                    break;
                }
                case 0xCB: {
                    const std::uint64_t bits = uint(8);
                    double d = 0;
                    std::memcpy(&d, &bits, sizeof d);
                    floating(d);
                    break;
                }
                case 0xCC:
                case 0xCD:
                case 0xCE:
                case 0xCF:
                    out_.unsigned_integer(uint(std::size_t{1} << (b - 0xCCU)));
                    break;
                case 0xD0:
                case 0xD1:
                case 0xD2:
                case 0xD3:
                    out_.integer(sint(std::size_t{1} << (b - 0xD0U)));
                    break;
                case 0xD4:
                case 0xD5:
                case 0xD6:
                case 0xD7:
                case 0xD8:
                    pos_ += bytes((std::size_t{1} << (b - 0xD4U)) + 1);
                    out_.other("extension");
                    break;
                case 0xD9:
                case 0xDA:
                case 0xDB:
                    string(uint(std::size_t{1} << (b - 0xD9U)));
                    break;
                case 0xDC:
                case 0xDD:
                    open(at, uint(b == 0xDC ? 2 : 4), false);
                    break;
                case 0xDE:
                case 0xDF:
                    open(at, uint(b == 0xDE ? 2 : 4), true);
                    break;
                default:  // 0xC1 is never used
                    out_.syntax_error(at, "expected a MessagePack value, got reserved byte 0xc1");
            }
        }
    }

    // Maps still open are schema objects (anything deeper was skipped whole): keys are strings.
    void key() {
        const std::size_t at = pos_;
        const std::uint8_t b = byte();
        std::uint64_t n = 0;
        if (b >= 0xA0 && b <= 0xBF) {
            n = b & 0x1FU;
        } else if (b >= 0xD9 && b <= 0xDB) {
            n = uint(std::size_t{1} << (b - 0xD9U));
        } else {
            out_.syntax_error(at, "expected a string key");
        }
        out_.key(text(n));
    }

    void string(std::uint64_t n) { out_.string(text(n)); }

    std::string_view text(std::uint64_t n) {
        const std::size_t at = pos_;
        const std::size_t len = bytes(n);
        const std::string_view s{reinterpret_cast<const char*>(in_.data() + pos_), len};
        pos_ += len;
        if (!is_utf8(s)) {
            out_.syntax_error(at, "expected a UTF-8 string, got invalid UTF-8");
        }
        return s;
    }

    void floating(double d) {
        char buf[32];
        const auto r = std::to_chars(buf, buf + sizeof buf, d);
        std::string text{buf, r.ptr};
        if (text.find_first_of(".eEn") == std::string::npos) {
            text += ".0";  // 8.0 reads "float 8.0", as in JSON
        }
        out_.floating(text);
    }

    void open(std::size_t at, std::uint64_t n, bool map) {
        // Each element needs at least one byte, so a longer promise is a lie told up front.
        if (n > (in_.size() - pos_) / (map ? 2 : 1)) {
            out_.syntax_error(at, "expected at most " + std::to_string(in_.size() - pos_) + " bytes of elements, got " +
                                      (map ? "a map" : "an array") + " header of " + std::to_string(n) + " elements");
        }
        map ? out_.start_object() : out_.start_array();
        if (!map && out_.filling_ids() != nullptr) {
            ids(n);
            out_.end_array();
            return;
        }
        open_.push_back(container{n, map, map});
    }

    // The string header at `at` (at < input size): how many length bytes follow it, and the
    // string's length; nullopt when that byte starts no string or its length bytes run past the end.
    struct string_header {
        std::size_t width;
        std::size_t length;
    };
    [[nodiscard]] std::optional<string_header> string_at(std::size_t at) const noexcept {
        const std::uint8_t b = in_[at];
        if (b >= 0xA0 && b <= 0xBF) {
            return string_header{0, b & 0x1FU};
        }
        if (b < 0xD9 || b > 0xDB) {
            return std::nullopt;
        }
        const std::size_t width = std::size_t{1} << (b - 0xD9U);
        if (width >= in_.size() - at) {
            return std::nullopt;
        }
        std::size_t length = 0;
        for (std::size_t k = 1; k <= width; ++k) {
            length = (length << 8U) | in_[at + k];
        }
        return string_header{width, length};
    }

    // An id set's n elements in one go. First the run of elements that are whole strings, and
    // their bytes, so that the set allocates once for what is actually present; then that run
    // straight into the set, with no bounds check left to make; then any other element through
    // value(), to fail at its own pointer.
    void ids(std::uint64_t n) {
        id_set& set = *out_.filling_ids();
        std::size_t bytes = 0;
        std::size_t at = pos_;
        std::uint64_t strings = 0;
        for (; strings < n && at < in_.size(); ++strings) {
            const std::optional<string_header> h = string_at(at);
            if (!h || h->length > in_.size() - at - 1 - h->width) {
                break;
            }
            bytes += h->length;
            at += 1 + h->width + h->length;
        }
        id_set_access::reserve(set, static_cast<std::size_t>(strings), bytes);
        for (std::uint64_t i = 0; i < strings; ++i) {
            const string_header h = *string_at(pos_);
            pos_ += 1 + h.width;
            const std::string_view s{reinterpret_cast<const char*>(in_.data() + pos_), h.length};
            if (!is_utf8(s)) {
                out_.syntax_error(pos_, "expected a UTF-8 string, got invalid UTF-8");
            }
            pos_ += h.length;
            out_.id(s);
        }
        for (std::uint64_t i = strings; i < n; ++i) {
            value();
        }
    }

    void skip() {
        skip_msgpack_value(in_, pos_,
                           [&](std::size_t at, const std::string& message) { out_.syntax_error(at, message); });
    }

    // n more bytes must be there; returns n.
    std::size_t bytes(std::uint64_t n) {
        if (n > in_.size() - pos_) {
            out_.syntax_error(pos_, "expected " + std::to_string(n) + " more bytes, got " +
                                        std::to_string(in_.size() - pos_) + " (truncated input)");
        }
        return static_cast<std::size_t>(n);
    }

    std::uint8_t byte() {
        bytes(1);
        return in_[pos_++];
    }

    // Big-endian unsigned of n bytes.
    std::uint64_t uint(std::size_t n) {
        bytes(n);
        std::uint64_t v = 0;
        for (std::size_t i = 0; i < n; ++i) {
            v = (v << 8U) | in_[pos_++];
        }
        return v;
    }

    std::int64_t sint(std::size_t n) {
        const std::uint64_t v = uint(n);
        const auto shift = static_cast<unsigned>(64 - 8 * n);
        return static_cast<std::int64_t>(v << shift) >> shift;  // sign-extend
    }

    std::span<const std::uint8_t> in_;
    decoder& out_;
    std::size_t pos_ = 0;
    // Each open container is one of the decoder's open frames (deeper values are skipped whole).
    fixed_stack<container, decoder::max_depth> open_;
};

// The pull reader of the generated decoder: the same rules as msgpack_reader above, refusing
// (detail::refused) wherever that one would raise an error, so that the caller can let it name it.
// Lengths are untrusted: a container may not promise more elements than bytes remain.
class msgpack_pull {
public:
    struct value {};  // a stream: the next value is the one at the read position
    struct array_cursor {
        std::size_t left;
    };
    using object_cursor = array_cursor;  // key-value pairs left

    explicit msgpack_pull(std::span<const std::uint8_t> in) noexcept : in_(in) {}

    [[nodiscard]] value root() const noexcept { return {}; }
    void finish() const {
        if (pos_ != in_.size()) {
            refuse();
        }
    }

    std::string_view string(value /*unused*/) { return text(string_length(byte())); }

    std::uint64_t u64(value /*unused*/) {
        using namespace msgpack_tag;
        const std::uint8_t b = byte();
        if (b <= positive_fixint_max) {
            return b;
        }
        if (b >= uint8 && b <= uint64) {
            return big_endian(std::size_t{1} << (b - uint8));
        }
        if (b >= int8 && b <= int64) {  // a signed form of a non-negative value is that value
            const std::size_t n = std::size_t{1} << (b - int8);
            const std::uint64_t v = big_endian(n);
            if ((v >> (8 * n - 1)) != 0) {
                refuse();  // negative
            }
            return v;
        }
        refuse();
    }

    bool boolean(value /*unused*/) {
        const std::uint8_t b = byte();
        if (b != msgpack_tag::false_ && b != msgpack_tag::true_) {
            refuse();
        }
        return b == msgpack_tag::true_;
    }

    bool null(value /*unused*/) {
        if (pos_ < in_.size() && in_[pos_] == msgpack_tag::nil) {
            ++pos_;
            return true;
        }
        return false;
    }

    array_cursor array(value /*unused*/) {
        using namespace msgpack_tag;
        return {container(fixarray, array16, 1)};
    }

    object_cursor object(value /*unused*/) {
        using namespace msgpack_tag;
        return {container(fixmap, map16, 2)};
    }

    static bool next(array_cursor& c, value& /*unused*/) noexcept {
        if (c.left == 0) {
            return false;
        }
        --c.left;
        return true;
    }

    // The key's bytes, not yet checked: a key that names a field is ASCII, so only a key that
    // names none is checked, by unknown_key.
    bool next(object_cursor& c, std::string_view& key, value& /*unused*/) {
        if (c.left == 0) {
            return false;
        }
        --c.left;
        const std::size_t n = string_length(byte());
        const std::size_t at = pos_;
        advance(n);
        key = {reinterpret_cast<const char*>(in_.data() + at), n};
        return true;
    }
    static void unknown_key(std::string_view key) {
        if (!is_utf8(key)) {
            refuse();
        }
    }

    // A length read from the input could promise anything: room is made for at most as many
    // elements as would fill the bytes left, so a decode never reserves more than its input's size.
    [[nodiscard]] std::size_t reservable(const array_cursor& c, std::size_t element_size) const noexcept {
        return std::min(c.left, (in_.size() - pos_) / element_size);
    }

    // Room for an entry per element and bytes as if every id were as long as the first (ids are
    // mostly hashes of one length), within the bytes left. Only the first header is read: a walk
    // of them all is a chain of dependent loads, a fifth of a decode of 10,000 ids.
    void reserve_ids(const array_cursor& c, id_set& set) const noexcept {
        const std::size_t left = in_.size() - pos_;
        if (c.left == 0 || left < 2) {
            return;
        }
        const std::uint8_t b = in_[pos_];
        std::size_t first = 0;
        if (b >= msgpack_tag::fixstr && b <= msgpack_tag::fixstr_max) {
            first = b & 0x1FU;
        } else if (b == msgpack_tag::str8) {
            first = in_[pos_ + 1];
        }
        try {
            id_set_access::reserve_guess(set, reservable(c, sizeof(id_set_access::entry)),
                                         first > left / c.left ? left : first * c.left);
        } catch (...) {  // only a hint: appending will raise whatever is really wrong
        }
    }

    void skip(value /*unused*/) {
        skip_msgpack_value(in_, pos_, [](std::size_t /*at*/, const std::string& /*message*/) { refuse(); });
    }

private:
    // A container header (fix form at `fix`, 16- and 32-bit forms at `bits16` and the next byte):
    // its element count, which may not promise more than the bytes left allow, `width` each.
    std::size_t container(std::uint8_t fix, std::uint8_t bits16, std::size_t width) {
        const std::uint8_t b = byte();
        std::uint64_t n = 0;
        if (b >= fix && b <= fix + 0x0FU) {
            n = b & 0x0FU;
        } else if (b == bits16 || b == bits16 + 1U) {
            n = big_endian(b == bits16 ? 2 : 4);
        } else {
            refuse();
        }
        if (n > (in_.size() - pos_) / width) {
            refuse();
        }
        return static_cast<std::size_t>(n);
    }

    std::size_t string_length(std::uint8_t b) {
        if (b >= msgpack_tag::fixstr && b <= msgpack_tag::fixstr_max) {
            return b & 0x1FU;
        }
        if (b >= msgpack_tag::str8 && b <= msgpack_tag::str32) {
            return static_cast<std::size_t>(big_endian(std::size_t{1} << (b - msgpack_tag::str8)));
        }
        refuse();
    }

    std::string_view text(std::size_t n) {
        const std::size_t at = pos_;
        advance(n);
        const std::string_view s{reinterpret_cast<const char*>(in_.data() + at), n};
        if (!is_utf8(s)) {
            refuse();
        }
        return s;
    }

    void advance(std::uint64_t n) {
        if (n > in_.size() - pos_) {
            refuse();
        }
        pos_ += static_cast<std::size_t>(n);
    }

    std::uint8_t byte() {
        if (pos_ == in_.size()) {
            refuse();
        }
        return in_[pos_++];
    }

    std::uint64_t big_endian(std::size_t n) {
        if (n > in_.size() - pos_) {
            refuse();
        }
        std::uint64_t v = 0;
        for (std::size_t i = 0; i < n; ++i) {
            v = (v << 8U) | in_[pos_ + i];
        }
        pos_ += n;
        return v;
    }

    std::span<const std::uint8_t> in_;
    std::size_t pos_ = 0;
};

}  // namespace ecmeta::detail
