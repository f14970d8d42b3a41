// ecmeta — the fast JSON path: simdjson's DOM parser (it checks the whole grammar and the UTF-8),
// read by the decoder generated per type (walker.hpp). Only with
// ECMETA_USE_SIMDJSON=1 (and libsimdjson linked); json.hpp decides.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#if defined(ECMETA_USE_SIMDJSON) && ECMETA_USE_SIMDJSON

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string_view>

#include <simdjson.h>

#include "../error.hpp"
#include "walker.hpp"

namespace ecmeta::detail {

static_assert(json_padding >= simdjson::SIMDJSON_PADDING, "ecmeta::json_padding must cover simdjson's");

// The pull reader of the generated decoder over a parsed document. A value under a key the
// schema does not know is never visited, so the walk follows the schema (a few levels), never the
// input's nesting. Whatever it refuses, the nlohmann path decodes again and names.
class simdjson_pull {
public:
    static constexpr bool names_errors = false;  // what it refuses, the nlohmann path names
    using value = simdjson::dom::element;
    struct array_cursor {
        simdjson::dom::array::iterator at, end;
        std::size_t size;
    };
    struct object_cursor {
        simdjson::dom::object::iterator at, end;
    };

    simdjson_pull(value root, std::size_t input_size) noexcept : root_(root), input_size_(input_size) {}

    [[nodiscard]] value root() const noexcept { return root_; }
    static void finish() noexcept {}

    static std::string_view string(value v) {
        std::string_view s;
        if (v.get_string().get(s) != simdjson::SUCCESS) {
            refuse();
        }
        return s;
    }
    static std::uint64_t u64(value v) {
        switch (v.type()) {
            case simdjson::dom::element_type::UINT64:
                return v.get_uint64().value_unsafe();
            case simdjson::dom::element_type::INT64:
                if (const std::int64_t n = v.get_int64().value_unsafe(); n >= 0) {
                    return static_cast<std::uint64_t>(n);
                }
                break;
            default:
                break;
        }
        refuse();
    }
    static bool boolean(value v) {
        bool b = false;
        if (v.get_bool().get(b) != simdjson::SUCCESS) {
            refuse();
        }
        return b;
    }
    static bool null(value v) noexcept { return v.is_null(); }

    static array_cursor array(value v) {
        simdjson::dom::array a;
        if (v.get_array().get(a) != simdjson::SUCCESS) {
            refuse();
        }
        return {a.begin(), a.end(), a.size()};
    }
    static bool next(array_cursor& c, value& item) noexcept {
        if (c.at == c.end) {
            return false;
        }
        item = *c.at;
        ++c.at;
        return true;
    }
    static object_cursor object(value v) {
        simdjson::dom::object o;
        if (v.get_object().get(o) != simdjson::SUCCESS) {
            refuse();
        }
        return {o.begin(), o.end()};
    }
    static bool next(object_cursor& c, std::string_view& key, value& field) noexcept {
        if (c.at == c.end) {
            return false;
        }
        key = c.at.key();
        field = c.at.value();
        ++c.at;
        return true;
    }
    static void unknown_key(std::string_view /*key*/) noexcept {}  // simdjson checked every string
    // The DOM has seen every element: its count is what is there.
    [[nodiscard]] static std::size_t reservable(const array_cursor& c, std::size_t /*element_size*/) noexcept {
        return c.size;
    }

    // An entry per element, and bytes as if every id were as long as the first (ids are mostly
    // hashes of one length), never more than the input holds.
    void reserve_ids(const array_cursor& c, id_set& set) const {
        std::string_view first;
        if (c.size == 0 || (*c.at).get_string().get(first) != simdjson::SUCCESS) {
            return;
        }
        id_set_access::reserve_guess(set, c.size,
                                     first.size() > input_size_ / c.size ? input_size_ : first.size() * c.size);
    }
    static void skip(value /*unused*/) noexcept {}

private:
    value root_;
    std::size_t input_size_;
};

// One parser per thread, and a padded copy of the input for callers who cannot promise padding;
// both keep the capacity of the largest document they have seen.
struct simdjson_state {
    simdjson::dom::parser parser;
    std::unique_ptr<char[]> copy;
    std::size_t copy_capacity = 0;

    [[nodiscard]] const char* padded(std::string_view json) {
        if (copy_capacity < json.size() + json_padding) {
            copy_capacity = json.size() + json_padding;
            copy = std::make_unique_for_overwrite<char[]>(copy_capacity);
        }
        if (!json.empty()) {
            std::memcpy(copy.get(), json.data(), json.size());
        }
        std::memset(copy.get() + json.size(), 0, json_padding);
        return copy.get();
    }
};

inline simdjson_state& this_thread_simdjson() {
    thread_local simdjson_state state;
    return state;
}

// Decodes `json` into `result` on simdjson. False when simdjson refuses the document or the
// decoder refuses its content: the caller then decodes it again on the nlohmann path, which gives
// the reference verdict and error, so neither ever depends on the backend. `result` is then
// half-written: the nlohmann path decodes over it, as into any reused value.
template <class T>
[[nodiscard]] bool decode_simdjson(std::string_view json, const decode_options& options, T& result) {
    simdjson_state& state = this_thread_simdjson();
    const char* const bytes = options.padding >= json_padding ? json.data() : state.padded(json);
    simdjson::dom::element root;
    if (state.parser.parse(bytes, json.size(), false).get(root) != simdjson::SUCCESS) {
        return false;
    }
    try {
        simdjson_pull reader{root, json.size()};
        walk(reader, result, options.reject_unknown_keys);
    } catch (const refused&) {
        return false;
    }
    return true;
}

}  // namespace ecmeta::detail

#endif
