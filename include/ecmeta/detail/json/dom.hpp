// ecmeta — nlohmann_json DOMs, for to_json and from_json: a value built into one through the
// writers' walk, and the decoder's reader over one; any nlohmann::basic_json (json, ordered_json),
// through nlohmann's public interface only.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "../../version.hpp"

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "../../id_set.hpp"
#include "../fault.hpp"
#include "../messages.hpp"
#include "../visit.hpp"

namespace ecmeta::inline ECMETA_ABI::detail::json {

// An nlohmann::basic_json, recognised by its public interface.
template <class J>
concept nlohmann_dom = requires(const J& j) {
    typename J::value_t;
    typename J::object_t;
    typename J::array_t;
    typename J::string_t;
    { j.is_discarded() } -> std::same_as<bool>;
    { j.type() } -> std::same_as<typename J::value_t>;
};

// The decoder's reader over a DOM, for from_json. A DOM has no syntax left to get wrong and no
// byte offsets, so it only ever says what it found. Its strings are taken as they are, not
// checked as UTF-8: a DOM built in code may hold any bytes.
template <nlohmann_dom BasicJson>
class dom_reader : public fault_state<true> {
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

    explicit dom_reader(const BasicJson& root) noexcept : root_(&root) {}

    [[nodiscard]] value root() const noexcept { return root_; }
    static void finish() noexcept {}

    std::string_view string(value v) {
        if (!v->is_string()) {
            mismatch(*v);
            return {};
        }
        return v->template get_ref<const typename BasicJson::string_t&>();
    }
    std::uint64_t u64(value v) {
        if (v->type() == BasicJson::value_t::number_unsigned) {
            return v->template get<std::uint64_t>();
        }
        if (v->type() == BasicJson::value_t::number_integer) {
            if (const auto n = v->template get<std::int64_t>(); n >= 0) {
                return static_cast<std::uint64_t>(n);
            }
        }
        mismatch(*v);
        return 0;
    }
    bool boolean(value v) {
        if (!v->is_boolean()) {
            mismatch(*v);
            return false;
        }
        return v->template get<bool>();
    }
    static bool null(value v) noexcept { return v->is_null(); }

    array_cursor array(value v) {
        if (!v->is_array()) {
            mismatch(*v);
            return {v->cend(), v->cend(), 0};
        }
        return {v->cbegin(), v->cend(), v->size()};
    }
    bool next(array_cursor& c, value& item) const noexcept {
        if (c.at == c.end || failed_) {
            return false;
        }
        item = &*c.at;
        ++c.at;
        return true;
    }
    object_cursor object(value v) {
        if (!v->is_object()) {
            mismatch(*v);
            return {v->cend(), v->cend()};
        }
        return {v->cbegin(), v->cend()};
    }
    bool next(object_cursor& c, std::string_view& key, value& field) const {
        if (c.at == c.end || failed_) {
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
    static void stop() noexcept {}  // a DOM's cursors stop once the reader has failed

private:
    void mismatch(const BasicJson& j) {
        record([&] { return fault{{}, describe(j), std::nullopt, true}; });
    }

    static std::string describe(const BasicJson& j) {
        switch (j.type()) {
            case BasicJson::value_t::null:
                return found::null;
            case BasicJson::value_t::boolean:
                return found::boolean(j.template get<bool>());
            case BasicJson::value_t::number_integer:
                return found::integer(j.template get<std::int64_t>());
            case BasicJson::value_t::number_unsigned:
                return found::integer(j.template get<std::uint64_t>());
            case BasicJson::value_t::number_float:
                return found::floating(j.dump());  // nlohmann writes a float with a '.' or an exponent
            case BasicJson::value_t::string:
                return found::text;
            case BasicJson::value_t::object:
                return found::object;
            case BasicJson::value_t::array:
                return found::array;
            default:  // binary, discarded
                return found::binary;
        }
    }

    value root_;
};

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

}  // namespace ecmeta::detail::json
