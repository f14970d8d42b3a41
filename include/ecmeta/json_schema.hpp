// ecmeta — the JSON Schema (draft 2020-12) of the JSON wire form, generated from the schema
// that the writers and the decoder read: a field added there is in the schema with no second edit.
// Standard library only (ecmeta::core).
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "detail/json/writer.hpp"
#include "detail/schema.hpp"

namespace ecmeta {

namespace detail {

// Writes schema keywords, without the braces around them, so that a field's description and
// default sit beside its type's keywords.
class json_schema_writer {
public:
    explicit json_schema_writer(std::string& out) noexcept : out_(out) {}

    // title, description, type object, properties (each with its description and, if it may be
    // left out, its default), required, and unknown keys allowed (decode ignores them).
    template <described S>
    void object() {
        key("title");
        text(schema<S>::name);
        out_ += ',';
        key("description");
        if constexpr (foldable<S>) {
            text(std::string{schema<S>::meaning} + " Member by member: " + fold_description<S>() + ".");
        } else {
            text(schema<S>::meaning);
        }
        out_.append(R"(,"type":"object","properties":{)");
        const S fresh{};
        char sep = ' ';
        for_each_field<S>([&](const auto& fd) {
            if (sep != ' ') {
                out_ += sep;
            }
            sep = ',';
            key(fd.name);
            out_ += '{';
            key("description");
            text(fd.meaning);
            out_ += ',';
            value<typename std::remove_cvref_t<decltype(fd)>::member_type>();
            if (!fd.required) {
                out_ += ',';
                key("default");
                encode_at<json::writer>(fresh.*fd.member, out_, out_.size());
            }
            out_ += '}';
        });
        out_.append(R"(},"required":[)");
        sep = ' ';
        for_each_field<S>([&](const auto& fd) {
            if (fd.required) {
                if (sep != ' ') {
                    out_ += sep;
                }
                sep = ',';
                text(fd.name);
            }
        });
        out_.append(R"(],"additionalProperties":true)");
    }

    // The keywords of a member's type, by its form.
    template <class M>
    void value() {
        constexpr form f = form_of<M>();
        if constexpr (f == form::string) {
            out_.append(R"("type":"string")");
        } else if constexpr (f == form::u64) {
            integer(std::numeric_limits<std::uint64_t>::max());
        } else if constexpr (f == form::i64) {
            integer(static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()));
        } else if constexpr (f == form::boolean) {
            out_.append(R"("type":"boolean")");
        } else if constexpr (f == form::ids) {
            out_.append(R"("type":"array","items":{"type":"string"})");
        } else if constexpr (f == form::list) {
            out_.append(R"("type":"array","items":{)");
            value<typename M::value_type>();
            out_ += '}';
        } else if constexpr (f == form::nullable) {
            static_assert(form_of<typename M::value_type>() == form::list, "no JSON Schema for this nullable type");
            out_.append(R"("type":["array","null"],"items":{)");
            value<typename M::value_type::value_type>();
            out_ += '}';
        } else {
            object<M>();
        }
    }

private:
    void integer(std::uint64_t max) {
        out_.append(R"("type":"integer","minimum":0,"maximum":)");
        out_.append(std::to_string(max));
    }
    void key(std::string_view name) {
        text(name);
        out_ += ':';
    }
    void text(std::string_view s) { json::append_string(out_, s); }

    std::string& out_;
};

}  // namespace detail

// The JSON Schema (draft 2020-12) of T's JSON wire form, as compact JSON text, for the four types,
// lists of them and the rank-report list (std::vector<std::optional<ECMooncakeWorkerMetadata>>).
// What it cannot say, and decode enforces: README, "The JSON Schema".
template <class T>
requires detail::wire_type<T>
[[nodiscard]] std::string json_schema() {
    std::string out = R"({"$schema":"https://json-schema.org/draft/2020-12/schema",)";
    detail::json_schema_writer w{out};
    if constexpr (detail::described<T>) {
        w.object<T>();
    } else if constexpr (detail::described<typename detail::is_vector<T>::element>) {
        using S = typename detail::is_vector<T>::element;
        out.append(R"("title":"list of )").append(detail::schema<S>::name).append(R"(","type":"array","items":{)");
        w.object<S>();
        out += '}';
    } else {
        using S = typename detail::report_type<typename detail::is_vector<T>::element>::type;
        out.append(R"("title":")")
            .append(detail::schema<S>::name)
            .append(R"( by rank","description":"The ranks' reports in rank order; null: a rank that reported )"
                    R"(nothing, which the fold skips.","type":"array","items":{"anyOf":[{)");
        w.object<S>();
        out.append(R"(},{"type":"null"}]})");
    }
    out += '}';
    return out;
}

}  // namespace ecmeta
