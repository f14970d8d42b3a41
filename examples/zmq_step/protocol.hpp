// The engine step's protocol over ZeroMQ (examples/zmq_step/README.md): its messages, the
// formats of their bodies, and how a body is written and read.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <charconv>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <zmq.hpp>

#include <ecmeta/json.hpp>
#include <ecmeta/msgpack.hpp>

namespace zmq_step {

// The messages, each a kind word and then its frames, as a worker's DEALER sends and receives them
// (the scheduler's ROUTER sees the peer's routing id in front). Numbers are ASCII decimal with no
// sign or padding; a body is one encoded value, at most max_body_bytes.
struct message_kind {
    std::string_view word;
    std::size_t frames;  // the kind word's included

    // Whether `frames` frames, the first of them `first`, are a message of this kind.
    [[nodiscard]] constexpr bool matches(std::string_view first, std::size_t count) const noexcept {
        return first == word && count == frames;
    }
};
namespace messages {
inline constexpr message_kind hello{"hello", 2};    // worker: hello, rank
inline constexpr message_kind step{"step", 4};      // scheduler: step, number, format, body
inline constexpr message_kind report{"report", 5};  // worker: report, step, rank, format, body
inline constexpr message_kind none{"none", 3};      // worker: none, step, rank (nothing to report)
inline constexpr message_kind stop{"stop", 1};      // scheduler: stop
}  // namespace messages

using clock = std::chrono::steady_clock;
using report = ecmeta::ECMooncakeWorkerMetadata;
using connector = ecmeta::ECMooncakeConnectorMetadata;

enum class format { msgpack, json };

[[nodiscard]] inline std::string_view name(format f) {
    return f == format::json ? "json" : "msgpack";
}

[[nodiscard]] inline std::optional<format> parse_format(std::string_view s) {
    if (s == "msgpack") {
        return format::msgpack;
    }
    if (s == "json") {
        return format::json;
    }
    return std::nullopt;
}

// A decimal number, all of the text and nothing else.
[[nodiscard]] inline std::optional<std::uint64_t> parse_number(std::string_view s) {
    std::uint64_t n = 0;
    const auto [end, error] = std::from_chars(s.data(), s.data() + s.size(), n);
    if (s.empty() || error != std::errc{} || end != s.data() + s.size()) {
        return std::nullopt;
    }
    return n;
}

// Bodies encoded into buffers kept from one step to the next: once warmed on the largest
// message, encoding a body allocates nothing. A written body stays valid until the next write.
class body_writer {
public:
    template <class T>
    std::string_view write(const T& value, format f) {
        if (f == format::json) {
            ecmeta::encode_into(value, json_);
            return json_;
        }
        ecmeta::encode_msgpack_into(value, packed_);
        return {reinterpret_cast<const char*>(packed_.data()), packed_.size()};
    }

private:
    std::string json_;
    std::vector<std::uint8_t> packed_;
};

// One body in a string of its own, for a caller that keeps it.
template <class T>
[[nodiscard]] std::string encode_body(const T& value, format f) {
    return std::string{body_writer{}.write(value, f)};
}

// A body is at most 64 MiB: a receiver refuses a longer one before parsing it, and decode_error
// says what else is wrong.
inline constexpr std::size_t max_body_bytes = std::size_t{64} << 20U;
inline constexpr ecmeta::decode_options wire_limits{.max_input_bytes = max_body_bytes};

// Into a value that is decoded into every step, so that it keeps its storage, with what the decode
// drops kept in `kept` (one per peer: what one peer's messages made it keep is that peer's).
template <class T>
void decode_body_into(const zmq::message_t& body, format f, T& out, ecmeta::decode_storage<T>& kept) {
    if (f == format::json) {
        ecmeta::decode_into(body.to_string_view(), out, kept, wire_limits);
    } else {
        ecmeta::decode_msgpack_into({body.data<std::uint8_t>(), body.size()}, out, kept, wire_limits);
    }
}

}  // namespace zmq_step
