// ecmeta — errors raised by the wire forms.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

namespace ecmeta {

// Bad input: what() reads "<pointer>: <what was expected>, got <what was found>".
class decode_error : public std::runtime_error {
public:
    decode_error(std::string pointer, const std::string& message, std::optional<std::size_t> offset = std::nullopt)
        : std::runtime_error(pointer + ": " + message), pointer_(std::move(pointer)), offset_(offset) {}

    // RFC 6901 JSON Pointer of the offending value; for a missing key, where it should be.
    [[nodiscard]] const std::string& pointer() const noexcept { return pointer_; }
    // Byte offset into the input, for errors of syntax rather than of meaning.
    [[nodiscard]] std::optional<std::size_t> offset() const noexcept { return offset_; }

private:
    std::string pointer_;
    std::optional<std::size_t> offset_;
};

// A value that has no wire form (a string that is not UTF-8); pointer() says which.
class encode_error : public std::runtime_error {
public:
    encode_error(std::string pointer, const std::string& message)
        : std::runtime_error(pointer + ": " + message), pointer_(std::move(pointer)) {}

    [[nodiscard]] const std::string& pointer() const noexcept { return pointer_; }

private:
    std::string pointer_;
};

}  // namespace ecmeta
