// ecmeta — the decode driver: a decoder generated per type from schema<T>, the one decoder of every
// source, over a pull reader per source: JSON text (json/reader.hpp), MessagePack
// (msgpack/reader.hpp), nlohmann's DOM (json/dom.hpp) and Python objects (python/reader.hpp). The
// compiler fuses the two: no event dispatch, no member table walked per value, keys matched
// against names known at compile time. A reader either refuses (records only that it failed,
// fault.hpp) or names what it refuses (R::names_errors), and then the walk words the error and
// builds its pointer. The fast paths decode with a refusing reader and, on a refusal, find the
// error with the naming walk: the same walk over the type's description (description.hpp), made
// once per reader rather than per type. No exception is involved: a failed reader makes every
// later read return at once, and the walk unwinds by plain returns.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "../version.hpp"

#include <array>
#include <bit>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "../decode_options.hpp"
#include "../error.hpp"
#include "description.hpp"
#include "exceptions.hpp"
#include "fault.hpp"
#include "form.hpp"
#include "id_order.hpp"
#include "inline.hpp"
#include "key_pattern.hpp"
#include "messages.hpp"
#include "schema.hpp"
#include "storage.hpp"

namespace ecmeta::inline ECMETA_ABI::detail {

// Gives v the default of its member (the value in a fresh T{}), keeping its storage in `keep`
// (storage.hpp). Every container member defaults to empty and every optional to nullopt; scalars
// take T{}'s value.
template <class T, class M, class Keep>
void to_default(M& v, M T::*member, Keep& keep) {
    if constexpr (form_of<M>() == form::nullable) {
        keep.make_null(v);
    } else if constexpr (scalar_form<M>) {
        v = T{}.*member;
    } else if constexpr (form_of<M>() == form::list) {
        keep.shorten(v, 0);
    } else {
        v.clear();
    }
}

// Gives each field of `value` that is not in `seen` (bit i: field i) its default, keeping its
// storage: what a decoded input left out, as T{} has it.
template <class T, class Keep>
void to_defaults(T& value, std::uint32_t seen, Keep& keep) {
    std::size_t i = 0;
    for_each_field<T>([&](const auto& fd) {
        if ((seen & (std::uint32_t{1} << i++)) == 0) {
            to_default(value.*fd.member, fd.member, keep);
        }
    });
}

// Gives every member of a decoded value its default, keeping what storage it can: a decode that
// fails leaves its target equal to T{}, never half-written.
template <class T, class Keep>
void reset_in_place(T& value, Keep& keep) {
    if constexpr (form_of<T>() == form::message) {
        to_defaults(value, 0, keep);
    } else {
        keep.shorten(value, 0);  // a list of messages
    }
}

// A pull reader: what the decoder reads a source through, the protocol a new format implements
// (R::value is the reader's handle on one value: an element of a DOM, or nothing for a stream
// that is read in order):
//   string(v) -> std::string_view      u64(v) -> std::uint64_t      boolean(v) -> bool
//   null(v) -> bool (true: it was null, consumed)
//   array(v) -> R::array_cursor        next(array_cursor&, value&) -> bool (false: no more)
//   object(v) -> R::object_cursor      next(object_cursor&, std::string_view& key, value&) -> bool
//       or, where R::objects_by_name, object_of<S>(v): a reader that looks an object's fields up
//       by name (Python attributes) is told the type read
//   unknown_key(key): checks that a key that names no field is UTF-8 (a key that names one is
//       ASCII, so next() need not check it)
//   reservable(array_cursor, element size) -> std::size_t: room to make before reading the
//       elements (what a DOM has seen; for a length read from the input, no more than would
//       fill the input's bytes left)
//   reserve_ids(array_cursor, id_set&)  skip(v)  finish(): nothing may follow the root
//   stop(): puts the read position at the end, where every read stops
//   optional, for speed: string_into(v, std::string&) -> length, the string read into a string
//       (a stream can copy as it scans); R::pattern_of(name) -> key_pattern and
//       next(object_cursor&, key, value&, const key_pattern&): next() told the key canonical input
//       has next, which it may match without a scan (key is then the pattern's name)
//   failed() -> bool, and the fault_state<names_errors> it comes from (fault.hpp): where the value
//       is not of the type read or the input is not well-formed, the reader records a fault and
//       from then on returns at once from every read, and next() returns false. names_errors: a
//       static bool. False: only that it failed. True: the fault says what and where
//       (recorded()): for a value of another type, what was found (type_unnamed); for input that
//       is not well-formed, the message and offset. The decoder adds the pointer.
// Objects read field by field (object(v)), or looked up by name (object_of<S>(v)).
template <class R>
concept reads_objects = requires(R& r, typename R::value v, std::string_view key) {
    requires requires(std::remove_cvref_t<decltype(r.object(v))> & fields) {
        { r.next(fields, key, v) } -> std::same_as<bool>;
    };
};
template <class R>
concept reads_objects_by_name = R::objects_by_name;

template <class R>
concept pull_reader = (reads_objects<R> || reads_objects_by_name<R>)&&requires(R& r, typename R::value v,
                                                                               std::string_view key, id_set& ids) {
    { R::names_errors } -> std::convertible_to<bool>;
    { r.root() } -> std::same_as<typename R::value>;
    { r.string(v) } -> std::same_as<std::string_view>;
    { r.u64(v) } -> std::same_as<std::uint64_t>;
    { r.boolean(v) } -> std::same_as<bool>;
    { r.null(v) } -> std::same_as<bool>;
    requires requires(std::remove_cvref_t<decltype(r.array(v))> & items) {
        { r.next(items, v) } -> std::same_as<bool>;
        { r.reservable(items, std::size_t{}) } -> std::same_as<std::size_t>;
        r.reserve_ids(items, ids);
    };
    r.unknown_key(key);
    r.skip(v);
    r.finish();
    r.stop();
    // A refusing reader records only that it failed; a naming one records a fault and hands it back.
    r.record([] { return fault{}; });
    requires(!R::names_errors || requires { r.recorded(); });
    { r.failed() } -> std::same_as<bool>;
};

// Keep is where a decode into a kept value keeps what it drops and the marks of each field
// (storage.hpp): storage<T>, or no_storage for a fresh value.
template <pull_reader R, class Keep>
class decoder {
public:
    using value = typename R::value;
    static constexpr bool naming = R::names_errors;

    decoder(R& reader, Keep& keep, bool strict) noexcept : r_(reader), keep_(keep), strict_(strict) {}

    // Reads v into out, by out's form; m is the mark of the field out is at.
    template <class T>
    void read(value v, T& out, mark& m) {
        as<T>([&] { read_as(v, out, m); });
    }

private:
    // Runs f, which reads a value of type T: a value of another type is an error that names T.
    template <class T, class F>
    decltype(auto) as(F&& f) {
        if constexpr (naming) {
            if constexpr (std::is_void_v<decltype(f())>) {
                f();
                name_type<T>();
            } else {
                decltype(auto) result = f();
                name_type<T>();
                return result;
            }
        } else {
            return f();
        }
    }
    template <class T>
    void name_type() {
        if (r_.failed() && r_.recorded().type_unnamed) {
            fault& f = r_.recorded();
            f.message = message::mismatch(form_text<T>(), f.message);
            f.type_unnamed = false;
        }
    }

    // Runs f: a fault from inside it gets `token` (a key or an index) in front of its pointer.
    template <class Token, class F>
    decltype(auto) within(const Token& token, F&& f) {
        if constexpr (naming) {
            const bool before = r_.failed();
            if constexpr (std::is_void_v<decltype(f())>) {
                f();
                if (!before && r_.failed()) {
                    r_.recorded().enclose(token);
                }
            } else {
                decltype(auto) result = f();
                if (!before && r_.failed()) {
                    r_.recorded().enclose(token);
                }
                return result;
            }
        } else {
            return f();
        }
    }

    // An error of meaning, at the value being read: what() words it (only when naming). The
    // reader stops there, as after a fault of its own.
    template <class What>
    void fail(What&& what) {
        r_.record([&] { return fault{{}, what(), std::nullopt}; });
        r_.stop();
    }

    template <class T>
    void read_as(value v, T& out, mark& m) {
        constexpr form f = form_of<T>();
        if constexpr (f == form::string && requires { r_.string_into(v, out); }) {
            keep_.saw_length(m, r_.string_into(v, out));
        } else if constexpr (f == form::string) {
            const std::string_view s = r_.string(v);
            keep_.saw_length(m, s.size());
            if (s.size() <= out.size()) {
                // In its storage: a copy and a cut, not assign's general replace (the input never
                // lies inside the value decoded into).
                if (!s.empty()) {
                    std::memcpy(out.data(), s.data(), s.size());
                }
                out.erase(s.size());
            } else {
                out.assign(s);
            }
        } else if constexpr (f == form::u64) {
            out = r_.u64(v);
        } else if constexpr (f == form::i64) {
            const std::uint64_t n = r_.u64(v);  // a shape's extent: never negative
            if (n > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
                fail([n] { return message::beyond_int64(n); });
                return;
            }
            out = static_cast<std::int64_t>(n);
        } else if constexpr (f == form::boolean) {
            out = r_.boolean(v);
        } else if constexpr (f == form::ids) {
            read_ids(v, out, m);
        } else if constexpr (f == form::nullable) {
            if (r_.null(v)) {
                keep_.make_null(out);
            } else {
                read_as(v, keep_.make_present(out), m);  // not of E's type: an error that names T's
            }
        } else if constexpr (f == form::list) {
            read_list(v, out, m);
        } else {
            read_object(v, out);
        }
    }

    void read_ids(value v, id_set& out, mark& m) {
        out.clear();
        auto c = r_.array(v);
        r_.reserve_ids(c, out);
        value item{};
        std::size_t i = 0;
        for (; within(i, [&] { return r_.next(c, item); }); ++i) {
            within(i, [&] {  // sorted and deduplicated once, below
                const std::string_view id = as<std::string>([&] { return r_.string(item); });
                keep_.saw_length(m, id.size());
                id_set_access::append(out, id);
            });
        }
        keep_.saw_count(m, i);
        keep_.finish_ids(out);
    }

    // Elements overwritten in place, then the list cut to length: a reused list keeps its storage,
    // and so do its elements' strings and lists, dropped ones included (storage.hpp). Scalars have
    // none to keep: appended afresh.
    template <class E>
    void read_list(value v, std::vector<E>& out, mark& m) {
        auto c = r_.array(v);
        if constexpr (scalar_form<E>) {
            out.clear();
            if (const std::size_t size = r_.reservable(c, sizeof(E)); size > out.capacity()) {
                out.reserve(size);  // a call even for no room (JSON's), were it not for the test
            }
            value item{};
            for (std::size_t i = 0; within(i, [&] { return r_.next(c, item); }); ++i) {
                within(i, [&] { read(item, out.emplace_back(), m); });
            }
            keep_.saw_count(m, out.size());
            return;
        }
        if (const std::size_t size = r_.reservable(c, sizeof(E)); size > out.size()) {
            out.reserve(size);
        }
        std::size_t n = 0;
        value item{};
        for (; within(n, [&] { return r_.next(c, item); }); ++n) {
            within(n, [&] { read(item, n < out.size() ? out[n] : keep_.append(out), m); });
        }
        keep_.saw_count(m, n);
        keep_.shorten(out, n);
    }

    template <class S>
    void read_object(value v, S& out) {
        using indices = std::make_index_sequence<field_count<S>()>;
        auto c = [&] {
            if constexpr (reads_objects_by_name<R>) {
                return r_.template object_of<S>(v);
            } else {
                return r_.object(v);
            }
        }();
        std::uint32_t seen = 0;
        std::size_t expected = 0;  // canonical input: the field declared after the last one read
        std::string_view key;
        value field{};
        const auto next = [&] {  // an error in a key, or in what is skipped, is the object's
            if constexpr (requires { R::pattern_of(key); }) {
                return r_.next(c, key, field, key_patterns<S>[expected]);
            } else {
                return r_.next(c, key, field);
            }
        };
        while (next()) {
            const std::size_t i = key.data() == names<S>[expected].data() ? expected : find_key<S>(key, expected);
            if (i == field_count<S>()) {
                r_.unknown_key(key);  // first, as a key is read whole before it is looked up
                if (strict_) {
                    within(key, [this] { fail([] { return std::string{message::unknown_key}; }); });
                }
                r_.skip(field);
                continue;
            }
            seen |= std::uint32_t{1} << i;
            expected = i + 1 == field_count<S>() ? 0 : i + 1;
            within(names<S>[i], [&] { read_field(field, out, i, indices{}); });
        }
        if (r_.failed()) {
            return;
        }
        if (const std::uint32_t missing = required_fields<S> & ~seen; missing != 0) {
            const auto first = static_cast<std::size_t>(std::countr_zero(missing));
            within(names<S>[first],
                   [this, first] { fail([first] { return message::missing(member_names<S>[first]); }); });
        }
        to_defaults(out, seen, keep_);
    }

    template <class S>
    static constexpr auto names = std::apply(
        [](const auto&... fs) { return std::array<std::string_view, sizeof...(fs)>{fs.name...}; }, schema<S>::fields);

    // Each field's key as the reader matches it (an optional part of the protocol).
    template <class S>
    static constexpr auto key_patterns = [] {
        std::array<key_pattern, field_count<S>()> patterns{};
        for (std::size_t i = 0; i != patterns.size(); ++i) {
            patterns[i] = R::pattern_of(names<S>[i]);
        }
        return patterns;
    }();

    template <class S>
    static constexpr auto member_names = std::apply(
        [](const auto&... fs) {
            return std::array<std::string_view, sizeof...(fs)>{
                form_text<typename std::remove_cvref_t<decltype(fs)>::member_type>()...};
        },
        schema<S>::fields);

    // The field named `key`, trying field `first` first; field_count<S>() if none.
    template <class S>
    [[nodiscard]] ECMETA_INLINE static std::size_t find_key(std::string_view key, std::size_t first) noexcept {
        constexpr std::size_t n = field_count<S>();
        std::size_t i = first;
        for (std::size_t tried = 0; tried < n; ++tried, i = i + 1 == n ? 0 : i + 1) {
            if (same_bytes(names<S>[i], key)) {
                return i;
            }
        }
        return n;
    }

    template <class S, std::size_t... I>
    void read_field(value v, S& out, std::size_t i, std::index_sequence<I...> /*unused*/) {
        static_cast<void>(
            ((i == I &&
              (read(v, out.*std::get<I>(schema<S>::fields).member, keep_.template field_mark<S, I>()), true)) ||
             ...));
    }

    R& r_;
    Keep& keep_;
    bool strict_;
};

// Decodes the whole input as T through reader `r` (whose root() is the document's value), keeping
// what it drops in `keep`; r.failed() says whether it failed.
template <class T, class R, class Keep>
void read_document(R& r, T& out, Keep& keep, bool strict) {
    decoder<R, Keep> d{r, keep, strict};
    d.read(r.root(), out, keep.root_mark());
    if (!r.failed()) {
        r.finish();
    }
}

// A naming reader's fault as the error the caller gets.
[[nodiscard]] inline decode_error to_error(fault& f) {
    return {std::move(f.pointer), f.message, f.offset};
}

// The walk that words an error, once the fast decode refused: the decoder's walk again, over the
// input, with a naming reader, but reading T's description (description.hpp) instead of generated
// per type, and writing nothing. It runs only after a failure, so it is made once per reader, not
// once per type. Every fault it records, with its pointer and offset, is the one the generated
// decoder would record: it reads in the same order, names a value of another type by the same
// words at the same level, and puts the same tokens in front of the pointer.
template <pull_reader R>
class naming_walk {
public:
    using value = typename R::value;
    static_assert(R::names_errors && reads_objects<R>);

    naming_walk(R& reader, bool strict) noexcept : r_(reader), strict_(strict) {}

    void document(const type_description& type) {
        read(r_.root(), type);
        if (!r_.failed()) {
            r_.finish();
        }
    }

private:
    void read(value v, const type_description& type) {
        read_as(v, type);
        name(type.text);
    }
    // A value of another type than the one read: named by the innermost level that reads it.
    void name(std::string_view text) {
        if (r_.failed() && r_.recorded().type_unnamed) {
            fault& f = r_.recorded();
            f.message = message::mismatch(text, f.message);
            f.type_unnamed = false;
        }
    }
    template <class Token, class F>
    bool within(const Token& token, F&& f) {
        const bool before = r_.failed();
        const bool result = f();
        if (!before && r_.failed()) {
            r_.recorded().enclose(token);
        }
        return result;
    }
    void fail(std::string message) {
        r_.record([&] { return fault{{}, std::move(message), std::nullopt}; });
        r_.stop();
    }

    void read_as(value v, const type_description& type) {
        switch (type.kind) {
            case form::string:
                static_cast<void>(r_.string(v));
                break;
            case form::u64:
                static_cast<void>(r_.u64(v));
                break;
            case form::i64:
                if (const std::uint64_t n = r_.u64(v);
                    n > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
                    fail(message::beyond_int64(n));
                }
                break;
            case form::boolean:
                static_cast<void>(r_.boolean(v));
                break;
            case form::nullable:
                if (!r_.null(v)) {
                    read_as(v, *type.element);  // not of the element's type: an error that names the nullable's
                }
                break;
            case form::ids:
            case form::list:
                read_list(v, type);
                break;
            case form::message:
                read_object(v, type);
                break;
        }
    }

    void read_list(value v, const type_description& type) {
        static constexpr type_description string = description<std::string>::value;
        const type_description& element = type.kind == form::ids ? string : *type.element;
        auto c = r_.array(v);
        value item{};
        for (std::size_t i = 0; within(i, [&] { return r_.next(c, item); }); ++i) {
            within(i, [&] {
                read(item, element);
                return true;
            });
        }
    }

    void read_object(value v, const type_description& type) {
        auto c = r_.object(v);
        std::uint32_t seen = 0;
        std::string_view key;
        value field{};
        while (r_.next(c, key, field)) {  // an error in a key, or in what is skipped, is the object's
            std::size_t i = 0;
            while (i < type.field_count && !same_bytes(type.fields[i].key, key)) {
                ++i;
            }
            if (i == type.field_count) {
                r_.unknown_key(key);
                if (strict_) {
                    within(key, [this] {
                        fail(std::string{message::unknown_key});
                        return true;
                    });
                }
                r_.skip(field);
                continue;
            }
            seen |= std::uint32_t{1} << i;
            const field_description& fd = type.fields[i];
            within(fd.key, [&] {
                read(field, *fd.type);
                return true;
            });
        }
        if (r_.failed()) {
            return;
        }
        if (const std::uint32_t missing = type.required & ~seen; missing != 0) {
            const field_description& fd = type.fields[std::countr_zero(missing)];
            within(fd.key, [&] {
                fail(message::missing(fd.type->text));
                return true;
            });
        }
    }

    R& r_;
    bool strict_;
};

// The error of an input the fast decode refused, worded by the naming walk over `type`. Out of
// line, as it is rare and would crowd the fast decode out of the inliner's budget.
template <template <bool> class Reader, class Input>
ECMETA_COLD decode_error name_fault(Input input, const type_description& type, bool strict) {
    std::string escapes;
    Reader<true> naming{input, escapes};
    naming_walk<Reader<true>>{naming, strict}.document(type);
    if (naming.failed()) {
        return to_error(naming.recorded());
    }
    // The two walks read by the same rules: the fuzz corpus and every error test hold them to it.
    return {"", std::string{message::walks_disagree}};
}

// Decodes `input` into `out` through Reader<false> and, if that refuses, reads it again with the
// naming walk over Reader<true>, which words the error: the fast path spends nothing on messages.
// On failure `out`
// gets T{}'s value (keeping its storage in `keep`) and the error is returned: decode_into never
// leaves a half-written or stale value. Only running out of memory throws (with exceptions on;
// `out` is then T{} too).
template <template <bool> class Reader, class Input, class T, class Keep>
[[nodiscard]] std::optional<decode_error> decode_into(Input input, T& out, Keep& keep, const decode_options& options) {
    if (options.max_input_bytes != 0 && input.size() > options.max_input_bytes) {
        reset_in_place(out, keep);
        return decode_error("", message::input_too_long(options.max_input_bytes, input.size()));
    }
    return undo_on_throw(
        [&]() -> std::optional<decode_error> {
            Reader<false> fast{input, keep.escapes()};
            read_document(fast, out, keep, options.reject_unknown_keys);
            std::optional<decode_error> error;
            if (fast.failed()) [[unlikely]] {
                error = name_fault<Reader>(input, description<T>::value, options.reject_unknown_keys);
                reset_in_place(out, keep);
            }
            keep.settle(out, input.size(), !error);
            return error;
        },
        [&] { reset_in_place(out, keep); });
}

}  // namespace ecmeta::detail
