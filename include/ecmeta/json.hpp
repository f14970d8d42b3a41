// ecmeta — the wire forms: canonical JSON (on nlohmann_json; decoded on simdjson when
// ECMETA_USE_SIMDJSON=1), plus MessagePack (msgpack.hpp).
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "detail/nlohmann_reader.hpp"
#include "detail/simdjson_reader.hpp"
#include "detail/writer.hpp"
#include "error.hpp"
#include "metadata.hpp"
#include "msgpack.hpp"

namespace ecmeta {
namespace detail {

// Builds value's nlohmann DOM, through the one walk the writers take.
template <class BasicJson, class T>
BasicJson to_dom(const T& value) {
    struct builder {
        BasicJson root{};
        std::vector<BasicJson*> open{};  // the lists and objects being filled, innermost last
        std::string_view name{};         // the key of the next field

        // Where the next value goes. Only the innermost container grows, so the pointers to the
        // ones outside it stay valid.
        BasicJson& slot() {
            if (open.empty()) {
                return root;
            }
            BasicJson& parent = *open.back();
            if (parent.is_array()) {
                parent.push_back(nullptr);
                return parent.back();
            }
            return parent[std::string{name}];
        }
        void string(std::string_view s) { slot() = std::string{s}; }
        void u64(std::uint64_t n) { slot() = n; }
        void i64(std::int64_t n) { slot() = n; }
        void boolean(bool b) { slot() = b; }
        void null() { slot() = nullptr; }
        void begin_list(std::size_t /*size*/) { open.push_back(&(slot() = BasicJson::array())); }
        void item(std::size_t /*index*/) const noexcept {}
        void end_list() { open.pop_back(); }
        void begin_object(std::size_t /*size*/) { open.push_back(&(slot() = BasicJson::object())); }
        void key(std::size_t /*index*/, std::string_view field) noexcept { name = field; }
        void end_object() { open.pop_back(); }
    } sink;
    visit(value, sink);
    return std::move(sink.root);
}

}  // namespace detail

// Canonical JSON text: fields in declared order, sets sorted, no spaces, UTF-8 as is.
// Throws encode_error if a string is not UTF-8.
template <class T>
requires detail::wire_type<T>
[[nodiscard]] std::string encode(const T& value) {
    std::string out;
    out.reserve(detail::size_hint(value));
    detail::json_writer w{out};
    w.write(value);
    if (!w.ok()) {
        detail::throw_not_utf8(value);
    }
    return out;
}

namespace detail {

// The reference path, which words every JSON error: nlohmann's lexer, read by its parser's rules
// (json_text_pull), walked by the decoder generated for T. Decodes into `out` in place; when it
// throws, `out` is half-written and the caller resets it.
template <class T>
void decode_nlohmann_into(std::string_view json, T& out, const decode_options& options) {
    json_text_pull reader{json};
    walk(reader, out, options.reject_unknown_keys);
    // nlohmann's lexer takes a NUL byte for the end of the input, so "{}\0junk" parses. JSON text
    // never holds one, and anywhere but after the value nlohmann has refused it already.
    if (const std::size_t nul = json.find('\0'); nul != std::string_view::npos) {
        throw decode_error("",
                           "invalid JSON at byte " + std::to_string(nul) +
                               ": syntax error while parsing value - unexpected NUL byte; expected end of input",
                           nul);
    }
}

template <class T>
[[nodiscard]] T decode_nlohmann(std::string_view json, const decode_options& options = {}) {
    check_size(json.size(), options);
    T result{};
    decode_nlohmann_into(json, result, options);
    return result;
}

}  // namespace detail

// decode() differs with ECMETA_USE_SIMDJSON, so each build of it lives in its own inline namespace:
// translation units built with and without simdjson can share a program without an ODR violation.
#if defined(ECMETA_USE_SIMDJSON) && ECMETA_USE_SIMDJSON
inline namespace json_simdjson {
#else
inline namespace json_nlohmann {
#endif

// The parser decode() uses in this translation unit: "simdjson" or "nlohmann".
[[nodiscard]] constexpr std::string_view json_backend() noexcept {
#if defined(ECMETA_USE_SIMDJSON) && ECMETA_USE_SIMDJSON
    return "simdjson";
#else
    return "nlohmann";
#endif
}

// Frees what decoding JSON keeps on the calling thread (on simdjson: its parser and padded
// buffer, sized for the largest document the thread has decoded); the next decode makes them
// again. For a long-running process after an outsized message, which would otherwise keep them at
// its size. Nothing to free on nlohmann.
inline void release_thread_buffers() noexcept {
#if defined(ECMETA_USE_SIMDJSON) && ECMETA_USE_SIMDJSON
    detail::simdjson_state& state = detail::this_thread_simdjson();
    state.parser = simdjson::dom::parser{};
    state.copy.reset();
    state.copy_capacity = 0;
#endif
}

// Strict decoding into `out`, an engine's message of every step: its strings, lists and id sets
// keep their storage, and a field the input leaves out takes its default. Throws decode_error
// naming the JSON Pointer, and then leaves `out == T{}` (its storage kept), never half-written.
// On simdjson, whatever it or the schema refuses is decoded again on nlohmann's parser, whose
// value or error is the answer: the verdict never depends on the backend.
template <class T>
requires detail::wire_type<T>
void decode_into(std::string_view json, T& out, const decode_options& options = {}) {
    detail::into(out, [&] {
        detail::check_size(json.size(), options);
#if defined(ECMETA_USE_SIMDJSON) && ECMETA_USE_SIMDJSON
        if (detail::decode_simdjson(json, options, out)) {
            return;
        }
#endif
        detail::decode_nlohmann_into(json, out, options);
    });
}

// Strict decoding into a fresh T: decode_into on T{}.
template <class T>
requires detail::wire_type<T>
[[nodiscard]] T decode(std::string_view json, const decode_options& options = {}) {
    T result{};
    decode_into(json, result, options);
    return result;
}

}  // namespace json_simdjson / json_nlohmann

// ADL hooks: `nlohmann::json j = spec;` and `j.get<ECMooncakeLoadSpec>()`. nlohmann::ordered_json
// keeps the declared field order; nlohmann::json sorts keys. from_json applies decode's rules and
// leaves `value` untouched when it throws.
template <class BasicJson, detail::described T>
requires nlohmann::detail::is_basic_json<BasicJson>::value void to_json(BasicJson& j, const T& value) {
    j = detail::to_dom<BasicJson>(value);
}

template <class BasicJson, detail::described T>
requires nlohmann::detail::is_basic_json<BasicJson>::value void from_json(const BasicJson& j, T& value) {
    T result{};
    detail::nlohmann_pull<BasicJson> reader{j};
    detail::walk(reader, result, false);
    value = std::move(result);
}

}  // namespace ecmeta
