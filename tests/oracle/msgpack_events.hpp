// The parity oracle of MessagePack decoding: the event reader that fed the event decoder
// (event_decoder.hpp) before the generated decoder named its own errors. The library no longer uses
// it; the fuzz target and its corpus replay hold decode_msgpack to exactly its verdicts, values,
// messages, pointers and offsets.
#pragma once

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include <ecmeta/msgpack.hpp>

#include "event_decoder.hpp"

namespace ecmeta_oracle {

// Reads MessagePack without recursion into the event decoder. Lengths are untrusted: a container
// may not promise more elements than bytes remain (each needs at least one), and nothing is
// reserved from a length; an id set reserves only for the strings it has found whole in the input.
class event_reader {
public:
    event_reader(std::span<const std::uint8_t> in, decoder& out) noexcept : in_(in), out_(out) {}

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

    // One whole value, with a single counter, bounds checked only; written apart from the
    // library's skip, so that a bug in that one shows here.
    void skip() {
        std::uint64_t pending = 1;
        while (pending != 0) {
            --pending;
            const std::size_t at = pos_;
            const std::uint8_t b = byte();
            std::uint64_t children = 0;
            if (b == 0xC1) {
                out_.syntax_error(at, "expected a MessagePack value, got reserved byte 0xc1");
            } else if (b <= 0x7F || b >= 0xE0 || (b >= 0xC0 && b <= 0xC3)) {
                // no payload
            } else if (b <= 0x8F) {
                children = std::uint64_t{2} * (b & 0x0FU);
            } else if (b <= 0x9F) {
                children = b & 0x0FU;
            } else if (b <= 0xBF) {
                pos_ += bytes(b & 0x1FU);
            } else if (b >= 0xC4 && b <= 0xC6) {
                pos_ += bytes(uint(std::size_t{1} << (b - 0xC4U)));
            } else if (b >= 0xC7 && b <= 0xC9) {
                pos_ += bytes(uint(std::size_t{1} << (b - 0xC7U)) + 1);
            } else if (b == 0xCA || b == 0xCB) {
                pos_ += bytes(b == 0xCA ? 4 : 8);
            } else if (b >= 0xCC && b <= 0xD3) {
                pos_ += bytes(std::size_t{1} << ((b - 0xCCU) & 3U));
            } else if (b >= 0xD4 && b <= 0xD8) {
                pos_ += bytes((std::size_t{1} << (b - 0xD4U)) + 1);
            } else if (b >= 0xD9 && b <= 0xDB) {
                pos_ += bytes(uint(std::size_t{1} << (b - 0xD9U)));
            } else if (b == 0xDC || b == 0xDD) {
                children = uint(b == 0xDC ? 2 : 4);
            } else {  // 0xDE, 0xDF
                children = 2 * uint(b == 0xDE ? 2 : 4);
            }
            pending += children;
            if (pending > in_.size() - pos_) {
                out_.syntax_error(at, "expected " + std::to_string(pending) + " more values, got " +
                                          std::to_string(in_.size() - pos_) + " bytes");
            }
        }
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

// Decodes into `out` in place; when it throws, `out` is half-written.
template <class T>
void decode_msgpack_events(std::span<const std::uint8_t> bytes, T& out, const ecmeta::decode_options& options) {
    ecmeta::detail::check_size(bytes.size(), options);
    decoder events{out, options};
    event_reader{bytes, events}.run();
}

}  // namespace ecmeta_oracle
