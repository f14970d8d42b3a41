// ecmeta — JSON text's pull reader, which the decoder generated per type reads through
// (decode.hpp): the input's bytes read once, in order (again only to word an error), with no DOM,
// no tape and no copy of a string without escapes. It accepts exactly what nlohmann_json's parser
// accepts, but for a NUL byte, which JSON text never holds and nlohmann takes for the end of the
// input. Standard library only.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "../../version.hpp"

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "../../id_set.hpp"
#include "../fault.hpp"
#include "../inline.hpp"
#include "../key_pattern.hpp"
#include "../messages.hpp"
#include "../utf8.hpp"
#include "scan.hpp"

namespace ecmeta::inline ECMETA_ABI::detail::json {

// The decimal digits of 2^1024 - 2^970, the least value that rounds to infinity as a double:
// a number at least this large is refused, as nlohmann's parser refuses it (error 406).
inline constexpr std::string_view overflow_digits =
    "1797693134862315807937289714053034150799341327100378269361737789804449682927647509466490179775872070963302"
    "8641669288791094655554785194040263065748867150582068190890200070838367627385484581771153176447573027006985"
    "5571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497792";
static_assert(overflow_digits.size() == 309);

[[nodiscard]] constexpr bool is_digit(char c) noexcept {
    return c >= '0' && c <= '9';
}

inline constexpr std::array<std::uint64_t, 8> powers_of_ten{1, 10, 100, 1000, 10000, 100000, 1000000, 10000000};

// How many decimal digits begin [p, end), when 8 bytes are there to read at once on a little-endian
// processor (8 meaning 8 or more); else 0, and the caller reads them a digit at a time.
[[nodiscard]] inline std::size_t leading_digits(const char* p, const char* end) noexcept {
    if constexpr (std::endian::native == std::endian::little) {
        if (end - p >= 8) {
            std::uint64_t w = 0;
            std::memcpy(&w, p, sizeof w);
            const std::uint64_t x = w ^ 0x3030303030303030U;  // a digit's byte becomes its value
            // A byte's high bit set where it is not a digit: its value is 10 or more (no carry
            // crosses bytes, as each is at most 0x7F + 0x76), or its own high bit is set.
            const std::uint64_t not_digit =
                (((x & 0x7F7F7F7F7F7F7F7FU) + 0x7676767676767676U) | x) & 0x8080808080808080U;
            return not_digit == 0 ? 8 : static_cast<std::size_t>(std::countr_zero(not_digit)) / 8;
        }
    }
    static_cast<void>(p);
    static_cast<void>(end);
    return 0;
}

// The value of the d (1 to 7) digits at p, which leading_digits counted: they are moved to the top
// of the word, as if led by zeros, and the eight combined in three multiplications.
[[nodiscard]] inline std::uint64_t digits_value(const char* p, std::size_t d) noexcept {
    std::uint64_t w = 0;
    std::memcpy(&w, p, sizeof w);
    w = ((w ^ 0x3030303030303030U) << (8 * (8 - d)));
    w = (w * 10) + (w >> 8);  // pairs of digits
    return (((w & 0x000000FF000000FFU) * 0x000F424000000064U) +
            (((w >> 16) & 0x000000FF000000FFU) * 0x0000271000000001U)) >>
           32;
}

// Whether the number written in [first, last) (by JSON's grammar) is at least overflow_digits'
// value: its digits without leading zeros, compared with the threshold's at the same magnitude.
[[nodiscard]] inline bool overflows_double(const char* first, const char* last) noexcept {
    std::string_view digits;     // integer and fraction digits, the '.' left out below
    std::int64_t magnitude = 0;  // the value is 0.<digits> * 10^magnitude
    const char* p = first + (*first == '-' ? 1 : 0);
    const char* int_begin = p;
    while (p != last && is_digit(*p)) {
        ++p;
    }
    const char* int_end = p;
    const char* frac_begin = p;
    const char* frac_end = p;
    if (p != last && *p == '.') {
        frac_begin = ++p;
        while (p != last && is_digit(*p)) {
            ++p;
        }
        frac_end = p;
    }
    std::int64_t exponent = 0;
    if (p != last) {  // 'e' or 'E'
        ++p;
        const bool negative = *p == '-';
        p += (*p == '-' || *p == '+') ? 1 : 0;
        for (; p != last; ++p) {
            exponent = exponent > 100000 ? exponent : exponent * 10 + (*p - '0');  // saturates: far past any double
        }
        exponent = negative ? -exponent : exponent;
    }
    // Leading zeros of the integer part, then (if it was all zeros) of the fraction.
    const char* lead = int_begin;
    while (lead != int_end && *lead == '0') {
        ++lead;
    }
    std::string joined;
    if (lead != int_end) {
        magnitude = (int_end - lead) + exponent;
        joined.assign(lead, int_end);
        joined.append(frac_begin, frac_end);
    } else {
        const char* f = frac_begin;
        while (f != frac_end && *f == '0') {
            ++f;
        }
        if (f == frac_end) {
            return false;  // zero
        }
        magnitude = -(f - frac_begin) + exponent;
        joined.assign(f, frac_end);
    }
    constexpr auto threshold_magnitude = static_cast<std::int64_t>(overflow_digits.size());
    if (magnitude != threshold_magnitude) {
        return magnitude > threshold_magnitude;
    }
    digits = joined;
    while (!digits.empty() && digits.back() == '0') {
        digits.remove_suffix(1);
    }
    return digits.compare(overflow_digits) >= 0;  // digits of equal magnitude compare as text
}

// Which containers skip() is inside, one bit each (1: an array), without recursion: 256 levels
// inline, deeper ones on the heap.
class nesting {
public:
    void push(bool array) {
        const std::size_t word = depth_ / 64;
        const std::uint64_t bit = std::uint64_t{1} << (depth_ % 64);
        if (word >= inline_.size() && word - inline_.size() >= deep_.size()) {
            deep_.push_back(0);
        }
        std::uint64_t& w = word < inline_.size() ? inline_[word] : deep_[word - inline_.size()];
        w = array ? (w | bit) : (w & ~bit);
        ++depth_;
    }
    void pop() noexcept { --depth_; }
    [[nodiscard]] bool empty() const noexcept { return depth_ == 0; }
    [[nodiscard]] bool in_array() const noexcept {
        const std::size_t at = depth_ - 1;
        const std::size_t word = at / 64;
        const std::uint64_t w = word < inline_.size() ? inline_[word] : deep_[word - inline_.size()];
        return ((w >> (at % 64)) & 1U) != 0;
    }

private:
    std::array<std::uint64_t, 4> inline_{};
    std::vector<std::uint64_t> deep_{};
    std::size_t depth_ = 0;
};

// JSON text read in order, for the decoder generated per type (decode.hpp). Naming = false is the
// fast path: anything wrong is only refused (fault.hpp). Naming = true reads the same way and says
// what is wrong: a value of another type is described (as far as its type needs reading: a string's
// bytes are checked, so an error of syntax in it comes first), and an error of syntax says what
// was expected and what byte was found, at its offset. A string without escapes is a view of the
// input; one with escapes is decoded into the reader's buffer, valid until the next string.
template <bool Naming>
class reader : public fault_state<Naming> {
public:
    static constexpr bool names_errors = Naming;
    struct value {};  // a stream: the next value is the one at the read position
    struct array_cursor {
        bool started = false;
    };
    using object_cursor = array_cursor;

    // `buffer`: where a string with escapes is decoded (storage<T>::escapes, kept between decodes).
    reader(std::string_view in, std::string& buffer) noexcept
        : begin_(in.data()), p_(in.data()), end_(in.data() + in.size()), kernel_(current_kernel()), buffer_(buffer) {}

    // A UTF-8 byte order mark may lead, as nlohmann's lexer allows.
    [[nodiscard]] value root() noexcept {
        if (end_ - p_ >= 3 && std::memcmp(p_, "\xEF\xBB\xBF", 3) == 0) {
            p_ += 3;
        }
        return {};
    }
    void finish() {
        whitespace();
        if (p_ != end_) {
            fail(p_, message::json_syntax::end);
        }
    }

    ECMETA_INLINE std::string_view string(value /*unused*/) {
        whitespace();
        if (p_ == end_ || *p_ != '"') {
            mismatch();
            return {};
        }
        return read_string<true>();
    }

    // The string at the read position, into out: scanned and copied in one pass when it is no longer
    // than what out holds (a kept value's string, from an earlier message), else read, then copied.
    // Returns its length. out holds anything when the read fails.
    ECMETA_INLINE std::size_t string_into(value v, std::string& out) {
        whitespace();
        if (out.size() >= 8 && p_ != end_ && *p_ == '"') {
            const char* const start = p_ + 1;
            const auto left = static_cast<std::size_t>(end_ - start);
            const std::size_t n = plain_run(kernel_, start, out.size() < left ? out.size() : left, out.data());
            if (n != left && start[n] == '"') [[likely]] {
                out.erase(n);  // no longer than it was: a cut, not resize's call
                p_ = start + n + 1;
                return n;
            }
        }
        const std::string_view s = string(v);
        out.assign(s);
        return s.size();
    }

    std::uint64_t u64(value /*unused*/) {
        whitespace();
        const char* const at = p_;
        if (p_ != end_ && is_digit(*p_)) {
            auto n = static_cast<std::uint64_t>(*p_++ - '0');
            if (n != 0) {
                // Up to 7 more digits at once where 8 bytes follow (a size, an extent); the rest,
                // and longer numbers, a digit at a time.
                if (const std::size_t d = leading_digits(p_, end_); d != 0 && d != 8) {
                    n = n * powers_of_ten[d] + digits_value(p_, d);
                    p_ += d;
                }
                // 19 digits always fit; a 20th may, and a 21st never does.
                const char* const most = end_ - at > 19 ? at + 19 : end_;
                while (p_ != most && is_digit(*p_)) {
                    n = n * 10 + static_cast<std::uint64_t>(*p_++ - '0');
                }
                if (p_ != end_ && is_digit(*p_)) {
                    const auto d = static_cast<std::uint64_t>(*p_++ - '0');
                    if (n > (UINT64_MAX - d) / 10 || (p_ != end_ && is_digit(*p_))) {
                        p_ = at;
                        mismatch();  // beyond 64 bits
                        return 0;
                    }
                    n = n * 10 + d;
                }
            }
            if (!continues_number()) {
                return n;
            }
        } else if (end_ - p_ >= 2 && p_[0] == '-' && p_[1] == '0') {
            p_ += 2;  // -0 is 0, as nlohmann reads it
            if (!continues_number()) {
                return 0;
            }
        }
        p_ = at;
        mismatch();
        return 0;
    }

    ECMETA_INLINE bool boolean(value /*unused*/) {
        whitespace();
        if (end_ - p_ >= 4 && std::memcmp(p_, "true", 4) == 0) {
            p_ += 4;
            return true;
        }
        if (end_ - p_ >= 5 && std::memcmp(p_, "false", 5) == 0) {
            p_ += 5;
            return false;
        }
        mismatch();
        return false;
    }

    ECMETA_INLINE bool null(value /*unused*/) {
        whitespace();
        if (end_ - p_ >= 4 && std::memcmp(p_, "null", 4) == 0) {
            p_ += 4;
            return true;
        }
        return false;
    }

    ECMETA_INLINE array_cursor array(value /*unused*/) {
        whitespace();
        if (p_ == end_ || *p_ != '[') {
            mismatch();
            return {};
        }
        ++p_;
        return {};
    }
    // Leaves the read position at the element, which reads its own whitespace.
    // After a fault the read position is at the end, where this says there is no more.
    ECMETA_INLINE bool next(array_cursor& c, value& /*unused*/) {
        whitespace();
        if (p_ != end_) {
            if (*p_ == ']') {
                ++p_;
                return false;
            }
            if (!c.started) {
                c.started = true;
                return true;
            }
            if (*p_ == ',') {
                ++p_;
                return true;
            }
        } else if (!c.started && !this->failed_) {
            return true;  // the element will say what is missing
        }
        fail(p_, message::json_syntax::array_next);
        return false;
    }

    ECMETA_INLINE object_cursor object(value /*unused*/) {
        whitespace();
        if (p_ == end_ || *p_ != '{') {
            mismatch();
            return {};
        }
        ++p_;
        return {};
    }
    // Reads the key and its ':'; the value reads its own whitespace.
    // After a fault the read position is at the end, where this says there is no more.
    // A field's key as canonical input spells it: in its quotes.
    [[nodiscard]] static constexpr key_pattern pattern_of(std::string_view name) noexcept { return {name, "\"", "\""}; }

    ECMETA_INLINE bool next(object_cursor& c, std::string_view& key, value& v) {
        return next(c, key, v, key_pattern{});
    }
    // The same, told the key canonical input has next: matched, key is expected.name.
    ECMETA_INLINE bool next(object_cursor& c, std::string_view& key, value& /*unused*/, const key_pattern& expected) {
        whitespace();
        if (!c.started) {
            c.started = true;
            if (p_ != end_ && *p_ == '}') {
                ++p_;
                return false;
            }
            if (p_ == end_ || *p_ != '"') {
                fail(p_, message::json_syntax::first_key);
                return false;
            }
        } else if (p_ != end_ && *p_ == ',') {
            ++p_;
            whitespace();
            if (p_ == end_ || *p_ != '"') {
                fail(p_, message::json_syntax::key);
                return false;
            }
        } else if (p_ != end_ && *p_ == '}') {
            ++p_;
            return false;
        } else {
            fail(p_, message::json_syntax::object_next);
            return false;
        }
        if (end_ - p_ >= 16 && expected.matches(p_)) {
            p_ += expected.size;
            key = expected.name;
            colon();
            return !this->failed_;
        }
        key = read_key();
        return !this->failed_;
    }
    static void unknown_key(std::string_view /*key*/) noexcept {}  // every string was checked as it was read
    [[nodiscard]] static std::size_t reservable(const array_cursor& /*unused*/, std::size_t /*size*/) noexcept {
        return 0;  // a stream has not seen the elements
    }
    static void reserve_ids(const array_cursor& /*unused*/, id_set& /*unused*/) noexcept {}

    // Reads a whole value, checked as any other, without recursion.
    void skip(value /*unused*/) {
        nesting open;
        while (!this->failed_) {
            whitespace();
            if (p_ == end_) {
                fail(p_, message::json_syntax::value);
                return;
            }
            switch (*p_) {
                case '{':
                    ++p_;
                    whitespace();
                    if (p_ != end_ && *p_ == '}') {
                        ++p_;
                        break;
                    }
                    if (p_ == end_ || *p_ != '"') {
                        fail(p_, message::json_syntax::first_key);
                        return;
                    }
                    open.push(false);
                    read_key<false>();
                    continue;
                case '[':
                    ++p_;
                    whitespace();
                    if (p_ != end_ && *p_ == ']') {
                        ++p_;
                        break;
                    }
                    open.push(true);
                    continue;
                default:
                    scalar();
            }
            // A value is done: go on in the innermost open container, closing those that end.
            while (!this->failed_) {
                if (open.empty()) {
                    return;
                }
                whitespace();
                const bool array = open.in_array();
                if (p_ != end_ && *p_ == ',') {
                    ++p_;
                    if (!array) {
                        whitespace();
                        if (p_ == end_ || *p_ != '"') {
                            fail(p_, message::json_syntax::key);
                            return;
                        }
                        read_key<false>();
                    }
                    break;
                }
                if (p_ != end_ && *p_ == (array ? ']' : '}')) {
                    ++p_;
                    open.pop();
                    continue;
                }
                fail(p_, array ? message::json_syntax::array_next : message::json_syntax::object_next);
                return;
            }
        }
    }

private:
    // ---- errors -------------------------------------------------------------------------------

    // Input that is not JSON, at `at`: expected `what`, got the byte there (or `got`). Records the
    // fault (the first one stands) and, always, puts the read position at the end, where every
    // read stops. The message is made only by a naming reader (fault_state::record).
    ECMETA_COLD void fail(const char* at, std::string_view what) {
        fail_with(at, [&] { return message::mismatch(what, found::json_byte(at, end_)); });
    }
    ECMETA_COLD void fail(const char* at, std::string_view what, const std::string& got) {
        fail_with(at, [&] { return message::mismatch(what, got); });
    }
    // ... got the bytes from `from` to `to`, quoted.
    ECMETA_COLD void fail_quoting(const char* at, std::string_view what, const char* from, const char* to) {
        fail_with(at, [&] {
            return message::mismatch(what, "'" + found::echo({from, static_cast<std::size_t>(to - from)}) + "'");
        });
    }
    // ... with the message words() gives.
    template <class Words>
    ECMETA_COLD void fail_with(const char* at, Words&& words) {
        this->record([&] {
            const auto offset = static_cast<std::size_t>(at - begin_);
            return fault{{}, message::at_byte(words(), offset), offset};
        });
        stop();
    }

public:
    // Puts the read position at the end, where every read stops: after a fault of meaning the
    // decoder found.
    void stop() noexcept { p_ = end_; }

private:
    // The value at the read position is not of the type asked for: says what it is (reading it as
    // far as its type needs, where an error of syntax comes first).
    ECMETA_COLD void mismatch() {
        this->record([&] { return fault{{}, describe(), std::nullopt, true}; });
        p_ = end_;
    }

    std::string describe() {
        if (p_ != end_) {
            switch (*p_) {
                case '{':
                    return found::object;
                case '[':
                    return found::array;
                case '"':
                    read_string<false>();
                    return found::text;
                case 't':
                    literal("true");
                    return found::boolean(true);
                case 'f':
                    literal("false");
                    return found::boolean(false);
                case 'n':
                    literal("null");
                    return found::null;
                default:
                    break;
            }
        }
        const char* const at = p_;
        if (!number()) {
            return found::json_number({at, static_cast<std::size_t>(p_ - at)});
        }
        // An integer that 64 bits hold: int64 if negative, else uint64.
        if (*at == '-') {
            std::int64_t n = 0;
            for (const char* d = at + 1; d != p_; ++d) {
                n = n * 10 - (*d - '0');
            }
            return found::integer(n);
        }
        std::uint64_t n = 0;
        for (const char* d = at; d != p_; ++d) {
            n = n * 10 + static_cast<std::uint64_t>(*d - '0');
        }
        return found::integer(n);
    }

    // ---- tokens -------------------------------------------------------------------------------

    ECMETA_INLINE void whitespace() noexcept {
        // One compare where there is none, as in canonical input.
        while (p_ != end_ && static_cast<unsigned char>(*p_) <= ' ' &&
               (*p_ == ' ' || *p_ == '\n' || *p_ == '\r' || *p_ == '\t')) {
            ++p_;
        }
    }

    // After an integer's digits: whether a fraction or an exponent follows (then it is a float).
    [[nodiscard]] bool continues_number() const noexcept {
        return p_ != end_ && (*p_ == '.' || *p_ == 'e' || *p_ == 'E');
    }

    void literal(std::string_view word) {
        if (static_cast<std::size_t>(end_ - p_) < word.size() || std::memcmp(p_, word.data(), word.size()) != 0) {
            fail_with(p_, [&] {
                const std::size_t n = std::min(word.size(), static_cast<std::size_t>(end_ - p_));
                return message::mismatch("'" + std::string{word} + "'",
                                         n == 0 ? std::string{"end of input"} : "'" + found::echo({p_, n}) + "'");
            });
            return;
        }
        p_ += word.size();
    }

    // A scalar where a value starts (skip): a string, a literal or a number.
    void scalar() {
        switch (*p_) {
            case '"':
                read_string<false>();
                return;
            case 't':
                literal("true");
                return;
            case 'f':
                literal("false");
                return;
            case 'n':
                literal("null");
                return;
            default:
                static_cast<void>(number());
        }
    }

    // Reads a number by JSON's grammar, refusing one beyond double's range as nlohmann does
    // (an integer too, which nlohmann reads as a double when 64 bits cannot hold it). True when
    // it is an integer that 64 bits hold (int64 if negative, else uint64).
    bool number() {
        const char* const at = p_;
        const bool negative = p_ != end_ && *p_ == '-';
        p_ += negative ? 1 : 0;
        if (p_ == end_ || !is_digit(*p_)) {
            fail(p_, at == p_ ? message::json_syntax::value : message::json_syntax::digit);
            return false;
        }
        const char* const digits = p_;
        if (*p_ == '0') {
            ++p_;
        } else {
            while (p_ != end_ && is_digit(*p_)) {
                ++p_;
            }
        }
        bool integer = true;
        if (p_ != end_ && *p_ == '.') {
            integer = false;
            ++p_;
            digit_run();
        }
        if (this->failed_) {
            return false;
        }
        if (p_ != end_ && (*p_ == 'e' || *p_ == 'E')) {
            integer = false;
            ++p_;
            if (p_ != end_ && (*p_ == '+' || *p_ == '-')) {
                ++p_;
            }
            digit_run();
            if (this->failed_) {
                return false;
            }
        }
        if (integer) {
            // Fits when shorter than the limit, or as long and not above it, digit by digit.
            const std::string_view limit = negative ? "9223372036854775808" : "18446744073709551615";
            const std::string_view written{digits, static_cast<std::size_t>(p_ - digits)};
            if (written.size() < limit.size() || (written.size() == limit.size() && written <= limit)) {
                return true;
            }
        }
        if (overflows_double(at, p_)) {
            fail_with(at, [&] {
                return message::mismatch(message::json_syntax::finite,
                                         found::echo({at, static_cast<std::size_t>(p_ - at)}));
            });
        }
        return false;
    }

    void digit_run() {
        if (p_ == end_ || !is_digit(*p_)) {
            fail(p_, message::json_syntax::digit);
            return;
        }
        while (p_ != end_ && is_digit(*p_)) {
            ++p_;
        }
    }

    // A key (the read position is at its '"'), then ':'.
    template <bool Keep = true>
    std::string_view read_key() {
        const std::string_view key = read_string<Keep>();
        colon();
        return this->failed_ ? std::string_view{} : key;
    }
    // The ':' after a key.
    ECMETA_INLINE void colon() {
        whitespace();
        if (p_ == end_ || *p_ != ':') {
            fail(p_, message::json_syntax::colon);
            return;
        }
        ++p_;
    }

    // The string at the read position (its '"'), checked: escapes, control characters, UTF-8.
    // Keep = false only checks it.
    template <bool Keep>
    std::string_view read_string() {
        const char* const open = p_++;
        p_ = find_special(kernel_, p_, end_);
        if (p_ != end_ && *p_ == '"') [[likely]] {  // plain ASCII, the common id
            ++p_;
            return {open + 1, static_cast<std::size_t>(p_ - 2 - open)};
        }
        return read_string_rest<Keep>(open);
    }

    // The rest of a string whose first special byte (at the read position) is not its closing
    // quote: an escape, a control character, a byte >= 0x80, or the end of the input. Out of line,
    // so that read_string keeps few registers to save.
    template <bool Keep>
    [[gnu::noinline]] std::string_view read_string_rest(const char* open) {
        const char* const start = open + 1;
        while (true) {
            if (p_ == end_) {
                unterminated(open);
                return {};
            }
            const auto c = static_cast<unsigned char>(*p_);
            if (c == '"') {
                ++p_;
                return {start, static_cast<std::size_t>(p_ - 1 - start)};
            }
            if (c == '\\') {
                if constexpr (Keep) {
                    buffer_.assign(start, p_);
                }
                escaped<Keep>(open);
                return {buffer_.data(), Keep ? buffer_.size() : 0};
            }
            plain_special(c);
            p_ = find_special(kernel_, p_, end_);
        }
    }

    // Reads the rest of a string from its first escape, decoding it into buffer_ (Keep).
    template <bool Keep>
    void escaped(const char* open) {
        while (true) {
            if (p_ == end_) {
                unterminated(open);
                return;
            }
            if (*p_ == '\\') {
                escape<Keep>(open);
            } else {
                const char* const run = p_;
                p_ = find_special(kernel_, p_, end_);
                if constexpr (Keep) {
                    buffer_.append(run, p_);
                }
                if (p_ == end_) {
                    unterminated(open);
                    return;
                }
                const auto c = static_cast<unsigned char>(*p_);
                if (c == '"') {
                    ++p_;
                    return;
                }
                if (c != '\\') {
                    const char* const at = p_;
                    plain_special(c);
                    if (this->failed_) {
                        return;
                    }
                    if constexpr (Keep) {
                        buffer_.append(at, p_);
                    }
                }
            }
        }
    }

    // A byte >= 0x80 starts a UTF-8 sequence, which is stepped over; a control character is an error.
    void plain_special(unsigned char c) {
        if (c < 0x20) {
            fail(p_, message::json_syntax::control);
            return;
        }
        const std::size_t n = utf8_sequence({p_, static_cast<std::size_t>(end_ - p_)}, 0);
        if (n == 0) {
            fail_with(p_, [] { return std::string{message::not_utf8}; });
            return;
        }
        p_ += n;
    }

    ECMETA_COLD void unterminated(const char* open) {
        fail_with(p_, [&] {
            return message::mismatch(std::string{message::json_syntax::string_end} + std::to_string(open - begin_),
                                     found::json_byte(p_, end_));
        });
    }

    // One escape at the read position (its '\\').
    template <bool Keep>
    void escape(const char* open) {
        const char* const at = p_++;
        if (p_ == end_) {
            unterminated(open);
            return;
        }
        char c = 0;
        switch (*p_) {
            case '"':
            case '\\':
            case '/':
                c = *p_;
                break;
            case 'b':
                c = '\b';
                break;
            case 'f':
                c = '\f';
                break;
            case 'n':
                c = '\n';
                break;
            case 'r':
                c = '\r';
                break;
            case 't':
                c = '\t';
                break;
            case 'u': {
                ++p_;
                std::uint32_t cp = hex4();
                if (this->failed_) {
                    return;
                }
                if (cp >= 0xDC00 && cp <= 0xDFFF) {
                    fail_quoting(at, message::json_syntax::lone_low, at, p_);
                    return;
                }
                if (cp >= 0xD800 && cp <= 0xDBFF) {
                    const char* const low_at = p_;
                    if (end_ - p_ < 2 || p_[0] != '\\' || p_[1] != 'u') {
                        fail(p_, message::json_syntax::low_surrogate);
                        return;
                    }
                    p_ += 2;
                    const std::uint32_t low = hex4();
                    if (this->failed_) {
                        return;
                    }
                    if (low < 0xDC00 || low > 0xDFFF) {
                        fail_quoting(low_at, message::json_syntax::low_surrogate, low_at, p_);
                        return;
                    }
                    cp = 0x10000 + ((cp - 0xD800) << 10U) + (low - 0xDC00);
                }
                if constexpr (Keep) {
                    append_utf8(cp);
                }
                return;
            }
            default:
                fail_quoting(at, message::json_syntax::escape, at, at + 2);
                return;
        }
        ++p_;
        if constexpr (Keep) {
            buffer_ += c;
        }
    }

    // The four hex digits after "\u" (the read position).
    std::uint32_t hex4() {
        std::uint32_t v = 0;
        for (int i = 0; i < 4; ++i, ++p_) {
            const char c = p_ == end_ ? '\0' : *p_;
            std::uint32_t d = 0;
            if (c >= '0' && c <= '9') {
                d = static_cast<std::uint32_t>(c - '0');
            } else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f') {
                d = static_cast<std::uint32_t>((c | 0x20) - 'a' + 10);
            } else {
                fail(p_, message::json_syntax::hex);
                return 0;
            }
            v = (v << 4U) | d;
        }
        return v;
    }

    void append_utf8(std::uint32_t cp) {
        if (cp < 0x80) {
            buffer_ += static_cast<char>(cp);
        } else if (cp < 0x800) {
            buffer_ += static_cast<char>(0xC0U | (cp >> 6U));
            buffer_ += static_cast<char>(0x80U | (cp & 0x3FU));
        } else if (cp < 0x10000) {
            buffer_ += static_cast<char>(0xE0U | (cp >> 12U));
            buffer_ += static_cast<char>(0x80U | ((cp >> 6U) & 0x3FU));
            buffer_ += static_cast<char>(0x80U | (cp & 0x3FU));
        } else {
            buffer_ += static_cast<char>(0xF0U | (cp >> 18U));
            buffer_ += static_cast<char>(0x80U | ((cp >> 12U) & 0x3FU));
            buffer_ += static_cast<char>(0x80U | ((cp >> 6U) & 0x3FU));
            buffer_ += static_cast<char>(0x80U | (cp & 0x3FU));
        }
    }

    const char* begin_;
    const char* p_;
    const char* end_;
    kernel kernel_;        // chosen once per read
    std::string& buffer_;  // the last string that had escapes, decoded
};

}  // namespace ecmeta::detail::json
