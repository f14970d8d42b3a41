// ecmeta — the words of every decode and encode error, for every decoder, reader and writer, and
// the decoder's error on its way out (validate's findings are worded beside their checks).
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "../version.hpp"

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace ecmeta::inline ECMETA_ABI::detail {

// What a value of another type than the one asked for is called, whichever source it came from:
// "expected <form_text of the type asked for>, got <this>".
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
// What input holds where it is echoed: at most 40 bytes of it, as a long number or key may be huge.
[[nodiscard]] inline std::string echo(std::string_view written) {
    constexpr std::size_t most = 40;
    return written.size() <= most ? std::string{written} : std::string{written.substr(0, most)} + "...";
}
// An integer beyond 64 bits, as its source writes it.
[[nodiscard]] inline std::string integer_out_of_range(std::string_view written) {
    return "integer out of range " + echo(written);
}
// A JSON number that is not an integer of 64 bits: with '.', 'e' or 'E' a float, else an integer
// beyond 64 bits.
[[nodiscard]] inline std::string json_number(std::string_view written) {
    return written.find_first_of(".eE") == std::string_view::npos ? integer_out_of_range(written)
                                                                  : floating(echo(written));
}
// A Python object of none of JSON's kinds, by its type's name ("bytes object").
[[nodiscard]] inline std::string python_object(std::string_view type_name) {
    return std::string{type_name} + " object";
}
// What a read stopped on when the object's own code raised (the exception itself is raised again).
inline constexpr const char* python_exception = "a Python exception";
// The byte of JSON text at p where something else was expected (end: past the input).
[[nodiscard]] inline std::string json_byte(const char* p, const char* end) {
    if (p == end) {
        return "end of input";
    }
    const auto c = static_cast<unsigned char>(*p);
    if (c > 0x20 && c < 0x7F) {
        return std::string{'\'', static_cast<char>(c), '\''};
    }
    constexpr std::string_view hex = "0123456789abcdef";
    return std::string{"byte 0x"} + hex[c >> 4U] + hex[c & 0xFU];
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
// How a Python dataclass differs from its type's schema: in the class's terms ("there") against
// ecmeta's ("here"); parts joined by "; ", after "<class name>: ".
namespace class_differs {
[[nodiscard]] inline std::string has(std::string_view fields) {
    return "the class has " + std::string{fields} + ", which ecmeta's type has not";
}
[[nodiscard]] inline std::string lacks(std::string_view fields) {
    return "the class lacks " + std::string{fields} + ", which ecmeta's type has";
}
[[nodiscard]] inline std::string default_there(std::string_view field) {
    return std::string{field} + " has a default there and is required here";
}
[[nodiscard]] inline std::string default_here(std::string_view field, std::string_view here) {
    return std::string{field} + " is required there and has a default here (" + std::string{here} + ")";
}
[[nodiscard]] inline std::string defaults(std::string_view field, std::string_view there, std::string_view here) {
    return std::string{field} + " defaults to " + std::string{there} + " there and to " + std::string{here} + " here";
}
[[nodiscard]] inline std::string order(std::string_view there, std::string_view here) {
    return "the fields are in another order: " + std::string{there} + " there, " + std::string{here} + " here";
}
}  // namespace class_differs
// Never seen: the fast decode refused what the naming walk found nothing wrong with.
inline constexpr std::string_view walks_disagree = "expected input both decoding walks accept, got a disagreement";
inline constexpr std::string_view not_utf8 = "expected a UTF-8 string, got invalid UTF-8";

// What the MessagePack writer cannot write: a string, list or map of 2^32 or more.
[[nodiscard]] inline std::string beyond_msgpack_length(std::uint64_t n) {
    return mismatch("a length MessagePack can hold (< 2^32)", std::to_string(n));
}

// A shape's extent is an int64 on the Python side.
[[nodiscard]] inline std::string beyond_int64(std::uint64_t n) {
    return mismatch("non-negative integer that fits int64", found::integer(n));
}

// MessagePack's one byte that is never used: refused wherever it appears, skipped values included,
// as msgpack.unpackb and nlohmann's from_msgpack refuse it.
inline constexpr std::string_view reserved_c1 = "expected a MessagePack value, got reserved byte 0xc1";

// decode_options::max_input_bytes, refused before parsing.
[[nodiscard]] inline std::string input_too_long(std::size_t limit, std::size_t size) {
    return "expected at most " + std::to_string(limit) + " bytes, got " + std::to_string(size) + " bytes";
}

// MessagePack bytes after the value, and a map key that is not a string.
inline constexpr std::string_view trailing_bytes = "expected end of input, got more bytes";
inline constexpr std::string_view string_key = "expected a string key";

// A container header that promises more elements than the bytes left could hold (each takes a
// byte at least, a pair two): a lie told up front, refused before anything is reserved.
[[nodiscard]] inline std::string container_too_long(std::size_t left, bool map, std::uint64_t n) {
    return "expected at most " + std::to_string(left) + " bytes of elements, got " + (map ? "a map" : "an array") +
           " header of " + std::to_string(n) + " elements";
}

// Where fewer values may follow than a container's header promised (each takes a byte at least).
[[nodiscard]] inline std::string fewer_values(std::uint64_t promised, std::size_t left) {
    return "expected " + std::to_string(promised) + " more values, got " + std::to_string(left) + " bytes";
}

[[nodiscard]] inline std::string truncated(std::uint64_t wanted, std::size_t left) {
    return "expected " + std::to_string(wanted) + " more bytes, got " + std::to_string(left) + " (truncated input)";
}

// JSON syntax: what was expected where the reader stopped ("expected <this>, got <a byte>").
namespace json_syntax {
inline constexpr std::string_view value = "a JSON value";
inline constexpr std::string_view end = "end of input";
inline constexpr std::string_view array_next = "',' or ']'";
inline constexpr std::string_view object_next = "',' or '}'";
inline constexpr std::string_view first_key = "a string key or '}'";
inline constexpr std::string_view key = "a string key";
inline constexpr std::string_view colon = "':' after an object key";
inline constexpr std::string_view string_end = "'\"' closing the string begun at byte ";  // + its offset
inline constexpr std::string_view control = "a control character escaped as \\u00XX";
inline constexpr std::string_view escape = R"(an escape: \" \\ \/ \b \f \n \r \t or \uXXXX)";
inline constexpr std::string_view hex = "4 hex digits after \\u";
inline constexpr std::string_view low_surrogate = "\\uDC00 to \\uDFFF after a high surrogate";
inline constexpr std::string_view lone_low = "a high surrogate \\uD800 to \\uDBFF before a low one";
inline constexpr std::string_view digit = "a digit";
inline constexpr std::string_view finite = "a number within double's range";
}  // namespace json_syntax

// An error of syntax names the byte where it was found.
[[nodiscard]] inline std::string at_byte(std::string m, std::size_t offset) {
    m += " at byte ";
    m += std::to_string(offset);
    return m;
}

}  // namespace message

}  // namespace ecmeta::detail
