// ecmeta — nlohmann_json's readers for the walker (walker.hpp): JSON text through nlohmann's
// lexer (the reference JSON path, which words every JSON error), and an nlohmann DOM (from_json).
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "../error.hpp"
#include "../id_set.hpp"
#include "messages.hpp"
#include "walker.hpp"

namespace ecmeta::detail {

// An error of nlohmann's parser (or of the parser's rules, worded as it words them) at `position`
// (the bytes it has read): nlohmann's reason after "column N: ", not its error-code prefix, with
// its echo of the input capped, which may be long.
[[nodiscard]] inline located json_syntax_error(std::size_t position, const nlohmann::detail::exception& e) {
    std::string_view why = e.what();
    if (const auto colon = why.find(": "); colon != std::string_view::npos) {
        why.remove_prefix(colon + 2);
    }
    std::string reason{why.substr(0, 160)};
    if (why.size() > 160) {
        reason += "...";
    }
    const std::size_t offset = position == 0 ? 0 : position - 1;  // nlohmann counts the byte it read
    return {{}, "invalid JSON at byte " + std::to_string(offset) + ": " + reason, offset};
}

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

// The walker's reader of JSON text: nlohmann's own lexer, read by the rules of nlohmann's parser
// (sax_parse_internal), so that a document is accepted or refused, and every syntax error worded
// and placed, exactly as nlohmann's parser does. It reads as the walker asks: a value's first
// token is read when the walker reads that value, so an error in it is at that value's pointer.
class json_text_pull {
    using lexer = nlohmann::detail::lexer<nlohmann::json, nlohmann::detail::iterator_input_adapter<const char*>>;
    using token = lexer::token_type;

public:
    static constexpr bool names_errors = true;
    struct value {};  // a stream: the next value is the one at the read position
    struct array_cursor {
        bool started = false;
    };
    using object_cursor = array_cursor;

    explicit json_text_pull(std::string_view json)
        : lexer_(nlohmann::detail::input_adapter(json.data(), json.data() + json.size())) {
        scan();
    }

    [[nodiscard]] value root() const noexcept { return {}; }
    void finish() {
        if (scan() != token::end_of_input) {
            fail(token::end_of_input, "value");
        }
    }

    std::string_view string(value /*unused*/) {
        if (start() != token::value_string) {
            mismatch();
        }
        return lexer_.get_string();
    }
    std::uint64_t u64(value /*unused*/) {
        if (start() == token::value_unsigned) {
            return lexer_.get_number_unsigned();
        }
        if (last_ == token::value_integer && lexer_.get_number_integer() >= 0) {
            return 0;  // -0: the lexer reads an integer with a '-' as signed
        }
        mismatch();
    }
    bool boolean(value /*unused*/) {
        if (start() != token::literal_true && last_ != token::literal_false) {
            mismatch();
        }
        return last_ == token::literal_true;
    }
    bool null(value /*unused*/) { return start() == token::literal_null; }

    array_cursor array(value /*unused*/) {
        if (start() != token::begin_array) {
            mismatch();
        }
        return {};
    }
    // Leaves the element's first token read.
    bool next(array_cursor& c, value& /*unused*/) {
        if (!c.started) {
            c.started = true;
            return scan() != token::end_array;
        }
        if (scan() == token::value_separator) {
            scan();
            return true;
        }
        if (last_ != token::end_array) {
            fail(token::end_array, "array");
        }
        return false;
    }

    object_cursor object(value /*unused*/) {
        if (start() != token::begin_object) {
            mismatch();
        }
        return {};
    }
    // Reads the key; the ':' and the value's first token are read with the value.
    bool next(object_cursor& c, std::string_view& key, value& /*unused*/) {
        if (!c.started) {
            c.started = true;
            if (scan() == token::end_object) {
                return false;
            }
        } else if (scan() == token::value_separator) {
            scan();
        } else if (last_ == token::end_object) {
            return false;
        } else {
            fail(token::end_object, "object");
        }
        if (last_ != token::value_string) {
            fail(token::value_string, "object key");
        }
        key = lexer_.get_string();
        colon_ = true;
        return true;
    }
    static void unknown_key(std::string_view /*key*/) noexcept {}  // the lexer checked every string
    [[nodiscard]] static std::size_t reservable(const array_cursor& /*unused*/, std::size_t /*size*/) noexcept {
        return 0;  // a stream has not seen the elements
    }
    static void reserve_ids(const array_cursor& /*unused*/, id_set& /*unused*/) noexcept {}

    // Reads a whole value as nlohmann's parser does, with a stack of one bit per open container.
    void skip(value /*unused*/) {
        start();
        std::vector<bool> in_array;
        while (true) {
            switch (last_) {
                case token::begin_object:
                    if (scan() != token::end_object) {
                        if (last_ != token::value_string) {
                            fail(token::value_string, "object key");
                        }
                        if (scan() != token::name_separator) {
                            fail(token::name_separator, "object separator");
                        }
                        in_array.push_back(false);
                        scan();
                        continue;
                    }
                    break;
                case token::begin_array:
                    if (scan() != token::end_array) {
                        in_array.push_back(true);
                        continue;
                    }
                    break;
                default:
                    scalar();
            }
            // a value is done: go on in the innermost open container
            while (true) {
                if (in_array.empty()) {
                    return;
                }
                if (in_array.back()) {
                    if (scan() == token::value_separator) {
                        scan();
                        break;
                    }
                    if (last_ != token::end_array) {
                        fail(token::end_array, "array");
                    }
                } else {
                    if (scan() == token::value_separator) {
                        if (scan() != token::value_string) {
                            fail(token::value_string, "object key");
                        }
                        if (scan() != token::name_separator) {
                            fail(token::name_separator, "object separator");
                        }
                        scan();
                        break;
                    }
                    if (last_ != token::end_object) {
                        fail(token::end_object, "object");
                    }
                }
                in_array.pop_back();
            }
        }
    }

private:
    token scan() { return last_ = lexer_.scan(); }

    // The current token starts the value to read: after a key, once its ':' is read.
    token start() {
        if (colon_) {
            colon_ = false;
            if (scan() != token::name_separator) {
                fail(token::name_separator, "object separator");
            }
            scan();
        }
        return last_;
    }

    // A scalar token where a value starts: what the parser refuses there, or nothing.
    void scalar() {
        switch (last_) {
            case token::value_float:
                if (!std::isfinite(lexer_.get_number_float())) {
                    throw json_syntax_error(
                        lexer_.get_position(),
                        nlohmann::detail::out_of_range::create(
                            406, "number overflow parsing '" + lexer_.get_token_string() + "'", nullptr));
                }
                return;
            case token::literal_false:
            case token::literal_null:
            case token::literal_true:
            case token::value_integer:
            case token::value_string:
            case token::value_unsigned:
                return;
            case token::parse_error:
                fail(token::uninitialized, "value");
            default:
                fail(token::literal_or_value, "value");
        }
    }

    // The value at the current token is not of the type asked for: says what it is.
    [[noreturn]] void mismatch() {
        if (last_ != token::begin_object && last_ != token::begin_array) {
            scalar();  // a scalar the parser refuses is that error
        }
        switch (last_) {
            case token::begin_object:
                throw wrong_type{found::object};
            case token::begin_array:
                throw wrong_type{found::array};
            case token::literal_false:
            case token::literal_true:
                throw wrong_type{found::boolean(last_ == token::literal_true)};
            case token::literal_null:
                throw wrong_type{found::null};
            case token::value_integer:
                throw wrong_type{found::integer(lexer_.get_number_integer())};
            case token::value_unsigned:
                throw wrong_type{found::integer(lexer_.get_number_unsigned())};
            case token::value_string:
                throw wrong_type{found::text};
            default:  // value_float
                throw wrong_type{found::json_number(lexer_.get_string())};
        }
    }

    // A syntax error where `expected` (or, with uninitialized, anything) was wanted, in `context`,
    // worded as nlohmann's parser words it (parser::exception_message).
    [[noreturn]] void fail(token expected, const char* context) {
        std::string what = "syntax error while parsing ";
        what += context;
        what += " - ";
        if (last_ == token::parse_error) {
            what += lexer_.get_error_message();
            what += "; last read: '";
            what += lexer_.get_token_string();
            what += '\'';
        } else {
            what += "unexpected ";
            what += lexer::token_type_name(last_);
        }
        if (expected != token::uninitialized) {
            what += "; expected ";
            what += lexer::token_type_name(expected);
        }
        throw json_syntax_error(lexer_.get_position(),
                                nlohmann::detail::parse_error::create(101, lexer_.get_position(), what, nullptr));
    }

    lexer lexer_;
    token last_ = token::uninitialized;
    bool colon_ = false;  // a key was read: its ':' comes before its value
};

}  // namespace ecmeta::detail
