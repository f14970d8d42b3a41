// ecmeta — the fast JSON path: simdjson's DOM parser (it checks the whole grammar and the UTF-8),
// walked into the same decoder the nlohmann and MessagePack readers feed. Only with
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
#include "decoder.hpp"

namespace ecmeta::detail {

static_assert(json_padding >= simdjson::SIMDJSON_PADDING, "ecmeta::json_padding must cover simdjson's");

// Walks a parsed document into the decoder. A value under a key the schema does not know is
// handed back whole, so the recursion follows the schema (a few levels), never the input's nesting.
struct simdjson_walk {
    decoder& out;
    std::size_t input_size;  // bounds what an id set reserves

    void value(const simdjson::dom::element v) {
        using simdjson::dom::element_type;
        if (out.skipping_next()) {
            out.skipped();
            return;
        }
        switch (v.type()) {
            case element_type::OBJECT: {
                // A copy, not the reference value_unsafe() returns into its temporary result.
                const simdjson::dom::object fields = v.get_object().value_unsafe();
                out.start_object();
                for (const simdjson::dom::key_value_pair field : fields) {
                    out.key(field.key);
                    value(field.value);
                }
                out.end_object();
                return;
            }
            case element_type::ARRAY: {
                const simdjson::dom::array items = v.get_array().value_unsafe();
                out.start_array();
                if (id_set* set = out.filling_ids()) {
                    ids(*set, items);
                } else {
                    out.expect_elements(items.size());
                    for (const simdjson::dom::element item : items) {
                        value(item);
                    }
                }
                out.end_array();
                return;
            }
            case element_type::STRING:
                out.string(v.get_string().value_unsafe());
                return;
            case element_type::INT64:
                out.integer(v.get_int64().value_unsafe());
                return;
            case element_type::UINT64:
                out.unsigned_integer(v.get_uint64().value_unsafe());
                return;
            case element_type::BOOL:
                out.boolean(v.get_bool().value_unsafe());
                return;
            case element_type::NULL_VALUE:
                out.null();
                return;
            case element_type::DOUBLE:
                // Never accepted where a value is read; the message is never seen (see decode_simdjson).
                out.floating({});
                return;
        }
    }

    // One append per id. Room first: an entry per element, and bytes as if every id were as long
    // as the first (ids are mostly hashes of one length), never more than the input holds.
    void ids(id_set& set, const simdjson::dom::array items) {
        bool reserved = false;
        for (const simdjson::dom::element item : items) {
            std::string_view id;
            if (item.get_string().get(id) != simdjson::SUCCESS) {
                value(item);  // not a string: the decoder says so
                continue;
            }
            if (!reserved) {
                const std::size_t n = items.size();
                id_set_access::reserve(set, n, id.size() > input_size / n ? input_size : id.size() * n);
                reserved = true;
            }
            out.id(id);
        }
    }
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
        decoder events{result, options};
        simdjson_walk{events, json.size()}.value(root);
    } catch (const decode_error&) {
        return false;
    }
    return true;
}

}  // namespace ecmeta::detail

#endif
