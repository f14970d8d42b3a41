// ecmeta — the words of every decode error, for every decoder and reader, and the walker's error
// on its way out. Standard library only.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "schema.hpp"

namespace ecmeta::detail {

// What a value of another type than the one asked for is called, whichever source it came from:
// "expected <name_of the type asked for>, got <this>".
namespace found {
inline constexpr const char* null = "null";
inline constexpr const char* text = "string";
inline constexpr const char* object = "object";
inline constexpr const char* array = "array";
inline constexpr const char* binary = "binary";        // MessagePack bin (or an nlohmann DOM's binary)
inline constexpr const char* extension = "extension";  // MessagePack ext
[[nodiscard]] inline std::string boolean(bool b) {
    return b ? "true" : "false";
}
[[nodiscard]] inline std::string integer(std::uint64_t n) {
    return "integer " + std::to_string(n);
}
[[nodiscard]] inline std::string integer(std::int64_t n) {
    return "integer " + std::to_string(n);
}
// A number that is not an integer, as its source writes it.
[[nodiscard]] inline std::string floating(std::string_view written) {
    return "float " + std::string{written};
}
// A JSON number nlohmann's lexer read as a float: without '.', 'e' or 'E' it is an integer
// beyond 64 bits.
[[nodiscard]] inline std::string json_number(std::string_view written) {
    return written.find_first_of(".eE") == std::string_view::npos ? "integer out of range " + std::string{written}
                                                                  : floating(written);
}
}  // namespace found

namespace message {

// "expected <what the schema wants>, got <what the input holds>": every error of meaning.
[[nodiscard]] inline std::string mismatch(std::string_view expected, std::string_view got) {
    std::string m = "expected ";
    m += expected;
    m += ", got ";
    m += got;
    return m;
}

[[nodiscard]] inline std::string missing(std::string_view expected) {
    return mismatch(expected, "nothing (required key missing)");
}

inline constexpr std::string_view unknown_key = "expected a known key, got unknown key";
inline constexpr std::string_view not_utf8 = "expected a UTF-8 string, got invalid UTF-8";

// A shape's extent is an int64 on the Python side.
[[nodiscard]] inline std::string beyond_int64(std::uint64_t n) {
    return mismatch("non-negative integer that fits int64", found::integer(n));
}

[[nodiscard]] inline std::string truncated(std::uint64_t wanted, std::size_t left) {
    return "expected " + std::to_string(wanted) + " more bytes, got " + std::to_string(left) + " (truncated input)";
}

// An error of syntax names the byte where it was found.
[[nodiscard]] inline std::string at_byte(std::string m, std::size_t offset) {
    m += " at byte ";
    m += std::to_string(offset);
    return m;
}

}  // namespace message

// A decode error inside the walker. Each level it unwinds through puts its own token in front of
// the pointer, so a pointer costs nothing until something fails; walk() makes the decode_error.
struct located {
    std::string pointer;
    std::string message;
    std::optional<std::size_t> offset;

    void enclose(std::string_view token) {
        std::string p;
        append_pointer_token(p, token);
        pointer.insert(0, p);
    }
    void enclose(std::size_t index) {
        char digits[24];
        const char* end = std::to_chars(digits, digits + sizeof digits, index).ptr;
        enclose(std::string_view{digits, static_cast<std::size_t>(end - digits)});
    }
};

// A value of another type than the one asked for, as a naming reader describes it ("string",
// "integer -3", "null", ...); the walker, which knows what it asked for, words the error.
struct wrong_type {
    std::string found;
};

}  // namespace ecmeta::detail
