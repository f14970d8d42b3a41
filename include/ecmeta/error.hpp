// ecmeta — errors raised by the wire forms, and the options of decoding.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

#include "detail/spares.hpp"

namespace ecmeta {

namespace detail {

// What both errors hold: a JSON Pointer and a message; what() reads "<pointer>: <message>". A key
// may hold a NUL byte, where what(), a C string, stops: pointer() and message() keep every byte.
class located_error : public std::runtime_error {
public:
    // How programs print the pointer of the document itself, "", which would read as nothing.
    static constexpr std::string_view root = "(root)";

    located_error(std::string pointer, const std::string& message)
        : std::runtime_error(pointer + ": " + message), pointer_(std::move(pointer)), message_size_(message.size()) {}

    // RFC 6901 JSON Pointer of the offending value; for a missing key, where it should be.
    [[nodiscard]] const std::string& pointer() const noexcept { return pointer_; }
    // what() without the pointer: "<what was expected>, got <what was found>".
    [[nodiscard]] std::string_view message() const noexcept { return {what() + pointer_.size() + 2, message_size_}; }

private:
    std::string pointer_;
    std::size_t message_size_;
};

}  // namespace detail

// Bad input: what() reads "<pointer>: <what was expected>, got <what was found>".
class decode_error : public detail::located_error {
public:
    decode_error(std::string pointer, const std::string& message, std::optional<std::size_t> offset = std::nullopt)
        : located_error(std::move(pointer), message), offset_(offset) {}

    // Byte offset into the input, for errors of syntax rather than of meaning.
    [[nodiscard]] std::optional<std::size_t> offset() const noexcept { return offset_; }

private:
    std::optional<std::size_t> offset_;
};

// A value that has no wire form (a string that is not UTF-8); pointer() says which.
class encode_error : public detail::located_error {
public:
    using located_error::located_error;
};

struct decode_options {
    // Inputs longer than this many bytes are refused before parsing; 0 means no limit.
    std::size_t max_input_bytes = 0;
    // Refuse keys the schema does not know, instead of ignoring them as Python does.
    bool reject_unknown_keys = false;
};

// Frees what decoding keeps on the calling thread for the next decode: the elements shortened
// lists dropped and the values optionals lost to null, with their buffers. For a long-running
// process after an outsized message, which would otherwise keep them at its size.
inline void release_thread_buffers() noexcept {
    detail::release_spares();
}

}  // namespace ecmeta
