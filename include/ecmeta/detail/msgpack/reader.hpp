// ecmeta — MessagePack's pull reader, which the decoder generated per type reads through (decode.hpp).
// Standard library only.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "../../version.hpp"

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
#include "../fault.hpp"
#include "../inline.hpp"
#include "../key_pattern.hpp"
#include "../messages.hpp"
#include "../utf8.hpp"
#include "tags.hpp"

namespace ecmeta::inline ECMETA_ABI::detail::msgpack {

using msgpack_tag::family;
using msgpack_tag::header_form;
using msgpack_tag::header_forms;

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

// MessagePack read in order, for the decoder generated per type (decode.hpp). Naming = false is
// the fast path: anything wrong is only refused (fault.hpp). Naming = true reads the same way and says what
// is wrong: a value of another type is described whole, as far as a value is read before its type
// could matter (a string's bytes are checked, a container's header), so that an error of syntax
// in it comes first. Lengths are untrusted: a container may not promise more elements than bytes
// remain (each needs at least one), and nothing is reserved from a length alone.
template <bool Naming>
class reader : public fault_state<Naming> {
public:
    static constexpr bool names_errors = Naming;
    struct value {};  // a stream: the next value is the one at the read position
    struct array_cursor {
        std::size_t left;
    };
    using object_cursor = array_cursor;  // key-value pairs left

    // A MessagePack string has no escapes: it needs no buffer, as the JSON reader does.
    reader(std::span<const std::uint8_t> in, std::string& /*unused*/) noexcept : in_(in) {}

    [[nodiscard]] value root() const noexcept { return {}; }
    void finish() {
        if (pos_ != in_.size()) {
            fail(pos_, message::trailing_bytes);
        }
    }

    std::string_view string(value /*unused*/) {
        const std::size_t at = pos_;
        const header_form h = header();
        if (h.kind != family::str) {
            mismatch(at);
            return {};
        }
        return text(number(h));
    }

    // The string at the read position, into out: copied and checked in one pass when it is no
    // longer than what out holds (a kept value's string), else checked, then copied. Returns its
    // length. out holds anything when the read fails.
    std::size_t string_into(value /*unused*/, std::string& out) {
        const std::size_t at = pos_;
        const header_form h = header();
        if (h.kind != family::str) {
            mismatch(at);
            return 0;
        }
        const std::uint64_t n = number(h);
        if (n > out.size() || n > in_.size() - pos_) {
            const std::string_view s = text(n);
            out.assign(s);
            return s.size();
        }
        const auto* const s = reinterpret_cast<const char*>(in_.data() + pos_);
        const auto size = static_cast<std::size_t>(n);
        if (!copy_ascii(s, size, out.data()) && !is_utf8({s, size})) [[unlikely]] {
            fail(pos_, message::not_utf8);
            return 0;
        }
        pos_ += size;
        out.erase(size);
        return size;
    }

    std::uint64_t u64(value /*unused*/) {
        const std::size_t at = pos_;
        const header_form h = header();
        if (h.kind == family::uint) {
            return number(h);
        }
        if (h.kind == family::sint && h.size != 0) {  // a signed form of a non-negative value is that value
            const std::uint64_t v = number(h);
            if ((v >> (8U * h.size - 1)) == 0) {
                return v;
            }
        }
        mismatch(at);
        return 0;
    }

    bool boolean(value /*unused*/) {
        const std::size_t at = pos_;
        const header_form h = header();
        if (h.kind != family::boolean) {
            mismatch(at);
            return false;
        }
        return h.fixed != 0;
    }

    bool null(value /*unused*/) {
        if (pos_ < in_.size() && in_[pos_] == msgpack_tag::nil) {
            ++pos_;
            return true;
        }
        return false;
    }

    array_cursor array(value /*unused*/) { return {container(family::array)}; }

    object_cursor object(value /*unused*/) { return {container(family::map)}; }

    // After a fault, no more: each element left would only fail again.
    bool next(array_cursor& c, value& /*unused*/) const noexcept {
        if (c.left == 0 || this->failed_) {
            return false;
        }
        --c.left;
        return true;
    }

    // A field's key as canonical input spells it: a fixstr (names are short), then the name.
    [[nodiscard]] static constexpr key_pattern pattern_of(std::string_view name) noexcept {
        if (name.size() > 31) {
            return {};
        }
        const char lead[1] = {static_cast<char>(0xA0U | name.size())};
        return {name, {lead, 1}, {}};
    }

    // The key's bytes, not yet checked: a key that names a field is ASCII, so only a key that
    // names none is checked, by unknown_key.
    // After a fault the read position is at the end, where no key can be read: no more.
    bool next(object_cursor& c, std::string_view& key, value& v) { return next(c, key, v, key_pattern{}); }
    // The same, told the key canonical input has next: matched, key is expected.name.
    ECMETA_INLINE bool next(object_cursor& c, std::string_view& key, value& /*unused*/, const key_pattern& expected) {
        if (c.left == 0) {
            return false;
        }
        --c.left;
        if (in_.size() - pos_ >= 16 && expected.matches(in_.data() + pos_)) {
            pos_ += expected.size;
            key = expected.name;
            return true;
        }
        const std::size_t at = pos_;
        const header_form h = header();
        if (h.kind != family::str) {
            fail(at, message::string_key);
            return false;
        }
        const std::uint64_t n = number(h);
        const std::size_t start = pos_;
        if (!advance(n)) {
            return false;
        }
        key = {reinterpret_cast<const char*>(in_.data() + start), static_cast<std::size_t>(n)};
        return true;
    }
    void unknown_key(std::string_view key) {
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
        const header_form h = header_forms[in_[pos_]];
        std::size_t first = 0;
        if (h.kind == family::str && h.size <= 1) {
            first = h.size == 0 ? h.fixed : in_[pos_ + 1];
        }
        // Only a hint: where memory does not allow it, appending will say so.
        if_memory_allows([&] {
            id_set_access::reserve_guess(set, reservable(c, sizeof(id_set_access::entry)),
                                         first > left / c.left ? left : first * c.left);
        });
    }

    // Skips one whole value with a single counter (no recursion, no stack, whatever the depth),
    // checking bounds only: a skipped string's bytes are not looked at.
    void skip(value /*unused*/) {
        std::uint64_t pending = 1;
        while (pending != 0 && !this->failed_) {
            --pending;
            const std::size_t at = pos_;
            const header_form h = header();
            const std::uint64_t n = number(h);  // a length or count; for a scalar, its value, read past
            if (this->failed_) {
                return;
            }
            switch (h.kind) {
                case family::str:
                case family::bin:
                    advance(n);
                    break;
                case family::ext:
                    advance(n + 1);  // its type byte, then its data
                    break;
                case family::array:
                    pending += n;
                    break;
                case family::map:
                    pending += 2 * n;
                    break;
                case family::unused:
                    fail(at, message::reserved_c1);
                    return;
                default:  // the value was the header
                    break;
            }
            if (pending > in_.size() - pos_ && !this->failed_) {
                if constexpr (Naming) {
                    fail(at, message::fewer_values(pending, in_.size() - pos_));
                } else {
                    fail(at, {});
                }
            }
        }
    }

private:
    // Input that is not well-formed, at byte `at`. Records the fault (the first one stands) and
    // puts the read position at the end, where every read stops.
    ECMETA_COLD void fail(std::size_t at, std::string_view what) {
        this->record([&] { return fault{{}, message::at_byte(std::string{what}, at), at}; });
        stop();
    }

public:
    // Puts the read position at the end, where every read stops: after a fault of meaning the
    // decoder found.
    void stop() noexcept { pos_ = in_.size(); }

private:
    // n more bytes are wanted than are left (the message is made only by a naming reader). Here,
    // in check_count and in skip the message is built in a branch on Naming rather than in
    // record's lambda: the lambda, inlined into the hot reads, costs decoding into a kept value
    // 2-4% more instructions (tests/bench/callgrind_ops.py).
    ECMETA_COLD void truncated(std::uint64_t n) {
        if constexpr (Naming) {
            if (!this->failed_) {
                fail(pos_, message::truncated(n, in_.size() - pos_));
            }
        }
        fail(pos_, {});
    }

    // The value at `at` is not of the type asked for: says what it is, once it is read as far as
    // its type needs (where that reading fails, that is the error).
    ECMETA_COLD void mismatch(std::size_t at) {
        this->record([&] {
            pos_ = at;
            return fault{{}, describe(), std::nullopt, true};
        });
        pos_ = in_.size();
    }

    std::string describe() {
        const std::size_t at = pos_;
        const std::uint8_t b = byte();
        const header_form h = header_forms[b];
        switch (h.kind) {
            case family::uint:
                return found::integer(number(h));
            case family::sint: {
                if (h.size == 0) {
                    return found::integer(std::int64_t{static_cast<std::int8_t>(b)});  // negative fixint
                }
                const auto shift = 64U - 8U * h.size;
                return found::integer(static_cast<std::int64_t>(number(h) << shift) >> shift);
            }
            case family::null:
                return found::null;
            case family::boolean:
                return found::boolean(h.fixed != 0);
            case family::floating: {
                const std::uint64_t bits = number(h);
                if (h.size == 4) {
                    float f = 0;
                    const auto narrow = static_cast<std::uint32_t>(bits);
                    std::memcpy(&f, &narrow, sizeof f);
                    return found::floating(float_text(f));
                }
                double d = 0;
                std::memcpy(&d, &bits, sizeof d);
                return found::floating(float_text(d));
            }
            case family::str:
                text(number(h));
                return found::text;
            case family::bin:
                advance(number(h));
                return found::binary;
            case family::ext:
                advance(number(h) + 1);
                return found::extension;
            case family::array:
                return counted(at, number(h), false);
            case family::map:
                return counted(at, number(h), true);
            case family::unused:
                break;
        }
        fail(at, message::reserved_c1);
        return {};
    }

    // A container header at `at` that promised n elements (pairs, for a map).
    std::string counted(std::size_t at, std::uint64_t n, bool map) {
        check_count(at, n, map);
        return map ? found::object : found::array;
    }

    // Each element needs at least one byte (a pair, two), so a longer promise is a lie told up front.
    void check_count(std::size_t at, std::uint64_t n, bool map) {
        if (n <= (in_.size() - pos_) / (map ? 2 : 1)) {
            return;
        }
        if constexpr (Naming) {
            if (!this->failed_) {
                fail(at, message::container_too_long(in_.size() - pos_, map, n));
            }
        }
        fail(at, {});
    }

    // A container header of the family asked for: its element count.
    std::size_t container(family kind) {
        const std::size_t at = pos_;
        const header_form h = header();
        if (h.kind != kind) {
            mismatch(at);
            return 0;
        }
        const std::uint64_t n = number(h);
        check_count(at, n, kind == family::map);
        return this->failed_ ? 0 : static_cast<std::size_t>(n);
    }

    // The tag at the read position, read.
    header_form header() { return header_forms[byte()]; }

    // The value, length or count a header holds: in the tag, or in the bytes after it, read.
    std::uint64_t number(const header_form& h) { return h.size == 0 ? h.fixed : big_endian(h.size); }

    std::string_view text(std::uint64_t n) {
        const std::size_t at = pos_;
        if (!advance(n)) {
            return {};
        }
        const std::string_view s{reinterpret_cast<const char*>(in_.data() + at), static_cast<std::size_t>(n)};
        if (!all_ascii(s) && !is_utf8(s)) {
            fail(at, message::not_utf8);
            return {};
        }
        return s;
    }

    // False (the input is truncated) when fewer than n bytes are left.
    bool advance(std::uint64_t n) {
        if (n > in_.size() - pos_) [[unlikely]] {
            truncated(n);
            return false;
        }
        pos_ += static_cast<std::size_t>(n);
        return true;
    }

    std::uint8_t byte() {
        if (pos_ == in_.size()) {
            truncated(1);
            return 0;
        }
        return in_[pos_++];
    }

    std::uint64_t big_endian(std::size_t n) {
        if (n > in_.size() - pos_) {
            truncated(n);
            return 0;
        }
        const std::uint8_t* const b = in_.data() + pos_;
        pos_ += n;
        // Each width spelled out: the compiler makes one load (and a byte swap) of each.
        const auto be = [b]<std::size_t Width>() ECMETA_INLINE_LAMBDA {
            std::uint64_t v = 0;
            for (std::size_t i = 0; i < Width; ++i) {
                v = (v << 8U) | b[i];
            }
            return v;
        };
        static_assert(std::ranges::all_of(header_forms, [](const header_form& h) {
            return h.size == 0 || h.size == 1 || h.size == 2 || h.size == 4 || h.size == 8;
        }));
        switch (n) {
            case 1:
                return b[0];
            case 2:
                return be.template operator()<2>();
            case 4:
                return be.template operator()<4>();
            default:
                return be.template operator()<8>();  // the only other width a header has
        }
    }

    std::span<const std::uint8_t> in_;
    std::size_t pos_ = 0;
};

}  // namespace ecmeta::detail::msgpack
