// ecmeta — nlohmann_json's readers: the SAX handler that feeds the event decoder (decoder.hpp;
// the reference JSON path, which words every JSON error), and the pull reader over an nlohmann DOM
// that the walker (walker.hpp) reads for from_json.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "../error.hpp"
#include "../id_set.hpp"
#include "decoder.hpp"
#include "messages.hpp"
#include "walker.hpp"

namespace ecmeta::detail {

// nlohmann's SAX interface, forwarded to the decoder; every failure is thrown from there.
struct json_events {
    decoder& out;

    bool null() { return out.null(), true; }
    bool boolean(bool v) { return out.boolean(v), true; }
    bool number_integer(std::int64_t v) { return out.integer(v), true; }
    bool number_unsigned(std::uint64_t v) { return out.unsigned_integer(v), true; }
    bool number_float(double /*value*/, const std::string& text) {
        // nlohmann hands integers beyond 64 bits over as floats; the text tells them apart.
        if (text.find_first_of(".eE") == std::string::npos) {
            return out.out_of_range(text), true;
        }
        return out.floating(text), true;
    }
    bool string(std::string& v) { return out.string(v), true; }
    bool binary(std::vector<std::uint8_t>& /*value*/) { return out.other("binary"), true; }
    bool start_object(std::size_t /*size*/) { return out.start_object(), true; }
    bool key(std::string& k) { return out.key(k), true; }
    bool end_object() { return out.end_object(), true; }
    bool start_array(std::size_t /*size*/) { return out.start_array(), true; }
    bool end_array() { return out.end_array(), true; }

    bool parse_error(std::size_t position, const std::string& /*last_token*/, const nlohmann::detail::exception& e) {
        // Keep nlohmann's reason (after "column N: "), not its error-code prefix; cap its echo
        // of the input, which may be long.
        std::string_view why = e.what();
        if (const auto colon = why.find(": "); colon != std::string_view::npos) {
            why.remove_prefix(colon + 2);
        }
        std::string reason{why.substr(0, 160)};
        if (why.size() > 160) {
            reason += "...";
        }
        const std::size_t offset = position == 0 ? 0 : position - 1;  // nlohmann counts the byte it read
        throw decode_error(out.pointer(), "invalid JSON at byte " + std::to_string(offset) + ": " + reason, offset);
    }
};

// The walker's reader over a DOM, for from_json. A DOM has no syntax left to get wrong and no
// byte offsets, so it only ever says what it found. Its strings are taken as they are, not
// checked as UTF-8: a DOM built in code may hold any bytes.
template <class BasicJson>
class nlohmann_pull {
public:
    static constexpr bool names_errors = true;
    using value = const BasicJson*;
    struct array_cursor {
        typename BasicJson::const_iterator at, end;
        std::size_t size;
    };
    struct object_cursor {
        typename BasicJson::const_iterator at, end;
    };

    explicit nlohmann_pull(const BasicJson& root) noexcept : root_(&root) {}

    [[nodiscard]] value root() const noexcept { return root_; }
    static void finish() noexcept {}

    static std::string_view string(value v) {
        if (!v->is_string()) {
            mismatch(*v);
        }
        return v->template get_ref<const typename BasicJson::string_t&>();
    }
    static std::uint64_t u64(value v) {
        if (v->type() == BasicJson::value_t::number_unsigned) {
            return v->template get<std::uint64_t>();
        }
        if (v->type() == BasicJson::value_t::number_integer) {
            if (const auto n = v->template get<std::int64_t>(); n >= 0) {
                return static_cast<std::uint64_t>(n);
            }
        }
        mismatch(*v);
    }
    static bool boolean(value v) {
        if (!v->is_boolean()) {
            mismatch(*v);
        }
        return v->template get<bool>();
    }
    static bool null(value v) noexcept { return v->is_null(); }

    static array_cursor array(value v) {
        if (!v->is_array()) {
            mismatch(*v);
        }
        return {v->cbegin(), v->cend(), v->size()};
    }
    static bool next(array_cursor& c, value& item) noexcept {
        if (c.at == c.end) {
            return false;
        }
        item = &*c.at;
        ++c.at;
        return true;
    }
    static object_cursor object(value v) {
        if (!v->is_object()) {
            mismatch(*v);
        }
        return {v->cbegin(), v->cend()};
    }
    static bool next(object_cursor& c, std::string_view& key, value& field) {
        if (c.at == c.end) {
            return false;
        }
        key = c.at.key();
        field = &c.at.value();
        ++c.at;
        return true;
    }
    static void unknown_key(std::string_view /*key*/) noexcept {}
    [[nodiscard]] static std::size_t reservable(const array_cursor& c, std::size_t /*element_size*/) noexcept {
        return c.size;
    }
    static void reserve_ids(const array_cursor& c, id_set& set) {
        std::size_t bytes = 0;
        for (auto it = c.at; it != c.end; ++it) {
            bytes += it->is_string() ? it->template get_ref<const typename BasicJson::string_t&>().size() : 0;
        }
        id_set_access::reserve_guess(set, c.size, bytes);
    }
    static void skip(value /*unused*/) noexcept {}

private:
    [[noreturn]] static void mismatch(const BasicJson& j) { throw wrong_type{describe(j)}; }

    static std::string describe(const BasicJson& j) {
        switch (j.type()) {
            case BasicJson::value_t::null:
                return "null";
            case BasicJson::value_t::boolean:
                return j.template get<bool>() ? "true" : "false";
            case BasicJson::value_t::number_integer:
                return message::integer(j.template get<std::int64_t>());
            case BasicJson::value_t::number_unsigned:
                return message::integer(j.template get<std::uint64_t>());
            case BasicJson::value_t::number_float:
                return "float " + j.dump();  // nlohmann writes a float with a '.' or an exponent
            case BasicJson::value_t::string:
                return "string";
            case BasicJson::value_t::object:
                return "object";
            case BasicJson::value_t::array:
                return "array";
            default:  // binary, discarded
                return "binary";
        }
    }

    value root_;
};

}  // namespace ecmeta::detail
