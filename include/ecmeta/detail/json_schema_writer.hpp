// ecmeta — the JSON Schema's writer: schema keywords for each member type, generated from the
// schema table that the writers and the decoders read. Standard library only.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "../version.hpp"

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "encode.hpp"
#include "form.hpp"
#include "json/writer.hpp"
#include "schema.hpp"

namespace ecmeta::inline ECMETA_ABI::detail {

// How aggregate folds T, member by member in declared order, in the words of its rules table
// (fold_rules<T>): "loaded intersected, failed_loads united, ..., pending_saves or-ed". The JSON
// Schema and the command say it from here, so it cannot drift from the fold.
template <class T>
[[nodiscard]] std::string fold_description() {
    std::string out;
    const auto say = [&](const auto& member, std::string_view how) {
        std::apply(
            [&](const auto&... fd) {
                const auto match = [&](const auto& f) {
                    if constexpr (std::is_same_v<decltype(f.member), std::remove_cvref_t<decltype(member)>>) {
                        if (f.member == member) {
                            out += out.empty() ? "" : ", ";
                            out += f.name;
                            out += ' ';
                            out += how;
                        }
                    }
                };
                (match(fd), ...);
            },
            schema<T>::fields);
    };
    std::apply(
        [&](const auto&... rule) {
            const auto one = [&](const auto& r) {
                using R = std::remove_cvref_t<decltype(r)>;
                if constexpr (std::is_same_v<R, intersected<T>>) {
                    say(r.member, "intersected");
                } else if constexpr (std::is_same_v<R, united<T>>) {
                    say(r.member, "united");
                } else {
                    static_assert(std::is_same_v<R, any_of<T>>, "a fold rule with no words");
                    say(r.member, "or-ed");
                }
            };
            (one(rule), ...);
        },
        fold_rules<T>::fields);
    return out;
}

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
                // A default holds no string that is not UTF-8: it always has a wire form.
                static_cast<void>(encode_at<json::writer>(fresh.*fd.member, out_, out_.size()));
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

}  // namespace ecmeta::detail
