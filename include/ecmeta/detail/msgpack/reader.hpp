// ecmeta — MessagePack's pull reader, which the decoder generated per type reads through (walker.hpp).
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

#include "../../id_set.hpp"
#include "../messages.hpp"
#include "../utf8.hpp"
#include "../walker.hpp"
#include "tags.hpp"

namespace ecmeta::detail {

// Skips one whole value at in[pos] with a single counter (no recursion, no stack, whatever the
// depth), checking bounds only: a skipped string's bytes are not looked at. fail(at, message) must
// not return.
template <class Fail>
void skip_msgpack_value(std::span<const std::uint8_t> in, std::size_t& pos, Fail&& fail) {
    const auto bytes = [&](std::uint64_t n) {  // n more bytes must be there; returns n
        if (n > in.size() - pos) {
            fail(pos, message::truncated(n, in.size() - pos));
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
        if (b == 0xC1) {
            fail(at, std::string{message::reserved_c1});
        } else if (b <= 0x7F || b >= 0xE0 || (b >= 0xC0 && b <= 0xC3)) {
            // no payload
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
            fail(at, message::fewer_values(pending, in.size() - pos));
        }
    }
}

// A float's text in messages: the shortest that reads back, and "8.0" rather than "8", as in JSON.
[[nodiscard]] inline std::string float_text(double d) {
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf, d);
    std::string text{buf, r.ptr};
    if (text.find_first_of(".eEn") == std::string::npos) {
        text += ".0";
    }
    return text;
}

// MessagePack read in order, for the decoder generated per type (walker.hpp). Naming = false is
// the fast path: anything wrong throws `refused`. Naming = true reads the same way and says what
// is wrong: a value of another type is described whole, as far as a value is read before its type
// could matter (a string's bytes are checked, a container's header), so that an error of syntax
// in it comes first. Lengths are untrusted: a container may not promise more elements than bytes
// remain (each needs at least one), and nothing is reserved from a length alone.
template <bool Naming>
class msgpack_pull {
public:
    static constexpr bool names_errors = Naming;
    struct value {};  // a stream: the next value is the one at the read position
    struct array_cursor {
        std::size_t left;
    };
    using object_cursor = array_cursor;  // key-value pairs left

    explicit msgpack_pull(std::span<const std::uint8_t> in) noexcept : in_(in) {}

    [[nodiscard]] value root() const noexcept { return {}; }
    void finish() const {
        if (pos_ != in_.size()) {
            fail(pos_, "expected end of input, got more bytes");
        }
    }

    std::string_view string(value /*unused*/) {
        const std::size_t at = pos_;
        const std::uint8_t b = byte();
        if (!is_string(b)) {
            mismatch(at);
        }
        return text(string_length(b));
    }

    std::uint64_t u64(value /*unused*/) {
        using namespace msgpack_tag;
        const std::size_t at = pos_;
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
            if ((v >> (8 * n - 1)) == 0) {
                return v;
            }
        }
        mismatch(at);
    }

    bool boolean(value /*unused*/) {
        const std::size_t at = pos_;
        const std::uint8_t b = byte();
        if (b != msgpack_tag::false_ && b != msgpack_tag::true_) {
            mismatch(at);
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
        return {container(fixarray, array16, false)};
    }

    object_cursor object(value /*unused*/) {
        using namespace msgpack_tag;
        return {container(fixmap, map16, true)};
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
        const std::size_t at = pos_;
        const std::uint8_t b = byte();
        if (!is_string(b)) {
            fail(at, "expected a string key");
        }
        const std::size_t n = string_length(b);
        const std::size_t start = pos_;
        advance(n);
        key = {reinterpret_cast<const char*>(in_.data() + start), n};
        return true;
    }
    void unknown_key(std::string_view key) const {
        if (!is_utf8(key)) {
            fail(static_cast<std::size_t>(reinterpret_cast<const std::uint8_t*>(key.data()) - in_.data()),
                 message::not_utf8);
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
        skip_msgpack_value(in_, pos_, [](std::size_t at, const std::string& what) { fail(at, what); });
    }

private:
    // Input that is not well-formed, at byte `at`.
    [[noreturn]] static void fail(std::size_t at, std::string_view what) {
        if constexpr (Naming) {
            throw located{{}, message::at_byte(std::string{what}, at), at};
        } else {
            refuse();
        }
    }

    // n more bytes are wanted than are left (the message is made only by a naming reader).
    [[noreturn]] void truncated(std::uint64_t n) const {
        if constexpr (Naming) {
            fail(pos_, message::truncated(n, in_.size() - pos_));
        } else {
            refuse();
        }
    }

    // The value at `at` is not of the type asked for: says what it is, once it is read as far as
    // its type needs (where that reading fails, that is the error).
    [[noreturn]] void mismatch(std::size_t at) {
        if constexpr (Naming) {
            pos_ = at;
            throw wrong_type{describe()};
        } else {
            refuse();
        }
    }

    std::string describe() {
        using namespace msgpack_tag;
        const std::size_t at = pos_;
        const std::uint8_t b = byte();
        if (b <= positive_fixint_max) {
            return found::integer(std::uint64_t{b});
        }
        if (b >= 0xE0) {  // negative fixint
            return found::integer(std::int64_t{static_cast<std::int8_t>(b)});
        }
        if (b <= fixmap_max) {
            return counted(at, b & 0x0FU, true);
        }
        if (b <= fixarray_max) {
            return counted(at, b & 0x0FU, false);
        }
        if (is_string(b)) {
            text(string_length(b));
            return found::text;
        }
        switch (b) {
            case nil:
                return found::null;
            case false_:
            case true_:
                return found::boolean(b == true_);
            case 0xC4:  // bin 8, 16, 32
            case 0xC5:
            case 0xC6:
                advance(big_endian(std::size_t{1} << (b - 0xC4U)));
                return found::binary;
            case 0xC7:  // ext 8, 16, 32
            case 0xC8:
            case 0xC9:
                advance(big_endian(std::size_t{1} << (b - 0xC7U)) + 1);
                return found::extension;
            case 0xCA: {  // float 32
                const auto bits = static_cast<std::uint32_t>(big_endian(4));
                float f = 0;
                std::memcpy(&f, &bits, sizeof f);
                return found::floating(float_text(f));
            }
            case 0xCB: {  // float 64
                const std::uint64_t bits = big_endian(8);
                double d = 0;
                std::memcpy(&d, &bits, sizeof d);
                return found::floating(float_text(d));
            }
            case 0xD4:  // fixext 1, 2, 4, 8, 16
            case 0xD5:
            case 0xD6:
            case 0xD7:
            case 0xD8:
                advance((std::size_t{1} << (b - 0xD4U)) + 1);
                return found::extension;
            case array16:
            case array32:
                return counted(at, big_endian(b == array16 ? 2 : 4), false);
            case map16:
            case map32:
                return counted(at, big_endian(b == map16 ? 2 : 4), true);
            case 0xC1:
                fail(at, std::string{message::reserved_c1});
            default:
                break;
        }
        if (b >= uint8 && b <= uint64) {
            return found::integer(big_endian(std::size_t{1} << (b - uint8)));
        }
        const std::size_t n = std::size_t{1} << (b - int8);  // int 8, 16, 32, 64
        const auto shift = static_cast<unsigned>(64 - 8 * n);
        return found::integer(static_cast<std::int64_t>(big_endian(n) << shift) >> shift);
    }

    // A container header at `at` that promised n elements (pairs, for a map).
    std::string counted(std::size_t at, std::uint64_t n, bool map) const {
        check_count(at, n, map);
        return map ? found::object : found::array;
    }

    // Each element needs at least one byte (a pair, two), so a longer promise is a lie told up front.
    void check_count(std::size_t at, std::uint64_t n, bool map) const {
        if (n <= (in_.size() - pos_) / (map ? 2 : 1)) {
            return;
        }
        if constexpr (Naming) {
            fail(at, "expected at most " + std::to_string(in_.size() - pos_) + " bytes of elements, got " +
                         (map ? "a map" : "an array") + " header of " + std::to_string(n) + " elements");
        } else {
            refuse();
        }
    }

    // A container header (fix form at `fix`, 16- and 32-bit forms at `bits16` and the next byte):
    // its element count.
    std::size_t container(std::uint8_t fix, std::uint8_t bits16, bool map) {
        const std::size_t at = pos_;
        const std::uint8_t b = byte();
        std::uint64_t n = 0;
        if (b >= fix && b <= fix + 0x0FU) {
            n = b & 0x0FU;
        } else if (b == bits16 || b == bits16 + 1U) {
            n = big_endian(b == bits16 ? 2 : 4);
        } else {
            mismatch(at);
        }
        check_count(at, n, map);
        return static_cast<std::size_t>(n);
    }

    [[nodiscard]] static bool is_string(std::uint8_t b) noexcept {
        return (b >= msgpack_tag::fixstr && b <= msgpack_tag::fixstr_max) ||
               (b >= msgpack_tag::str8 && b <= msgpack_tag::str32);
    }

    // The length of the string whose tag b was (is_string(b)).
    std::size_t string_length(std::uint8_t b) {
        if (b <= msgpack_tag::fixstr_max) {
            return b & 0x1FU;
        }
        return static_cast<std::size_t>(big_endian(std::size_t{1} << (b - msgpack_tag::str8)));
    }

    std::string_view text(std::size_t n) {
        const std::size_t at = pos_;
        advance(n);
        const std::string_view s{reinterpret_cast<const char*>(in_.data() + at), n};
        if (!is_utf8(s)) {
            fail(at, message::not_utf8);
        }
        return s;
    }

    void advance(std::uint64_t n) {
        if (n > in_.size() - pos_) {
            truncated(n);
        }
        pos_ += static_cast<std::size_t>(n);
    }

    std::uint8_t byte() {
        if (pos_ == in_.size()) {
            truncated(1);
        }
        return in_[pos_++];
    }

    std::uint64_t big_endian(std::size_t n) {
        if (n > in_.size() - pos_) {
            truncated(n);
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
