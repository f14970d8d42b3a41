// ecmeta — the wire forms' errors, thrown or returned.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "version.hpp"

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

namespace ecmeta::inline ECMETA_ABI {

// What every ecmeta error is: where (a JSON Pointer) and what was expected; what() reads
// "<pointer>: <message>", with the document itself named "(root)". Catch this to take both errors.
class error : public std::runtime_error {
public:
    // How the document's own pointer, "", is printed, which would read as nothing.
    static constexpr std::string_view root = "(root)";

    // The text is kept here, not in std::runtime_error, which may keep it only up to a NUL byte
    // (libc++ does): what() returns it.
    error(std::string pointer, const std::string& message, std::optional<std::size_t> offset = std::nullopt)
        : std::runtime_error(""),
          text_((pointer.empty() ? std::string{root} : pointer) + ": " + message),
          pointer_(std::move(pointer)),
          message_size_(message.size()),
          offset_(offset) {}

    [[nodiscard]] const char* what() const noexcept override { return text_.c_str(); }

    // RFC 6901 JSON Pointer of the offending value; for a missing key, where it should be. A key
    // may hold a NUL byte, where what(), a C string, stops: pointer() and message() keep every byte.
    [[nodiscard]] const std::string& pointer() const noexcept { return pointer_; }
    // what() without the pointer: "<what was expected>, got <what was found>".
    [[nodiscard]] std::string_view message() const noexcept {
        const std::size_t prefix = (pointer_.empty() ? root.size() : pointer_.size()) + 2;
        return {text_.data() + prefix, message_size_};
    }
    // Byte offset into the input, for errors of syntax rather than of meaning; none for encoding.
    [[nodiscard]] std::optional<std::size_t> offset() const noexcept { return offset_; }

private:
    std::string text_;
    std::string pointer_;
    std::size_t message_size_;
    std::optional<std::size_t> offset_;
};

// Bad input: what() reads "<pointer>: <what was expected>, got <what was found>".
class decode_error : public error {
public:
    using error::error;
};

// A value that has no wire form (a string that is not UTF-8); pointer() says which.
class encode_error : public error {
public:
    encode_error(std::string pointer, const std::string& message) : error(std::move(pointer), message) {}
};

// What the try_ calls return for a fresh value: the value, or T{} and the error. Read it with a
// structured binding, as std::from_chars' result: `auto [step, error] = try_decode<T>(json);`.
template <class T, class Error>
struct result {
    T value{};
    std::optional<Error> error{};

    // True on success.
    [[nodiscard]] explicit operator bool() const noexcept { return !error; }
};

}  // namespace ecmeta
