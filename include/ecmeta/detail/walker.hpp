// ecmeta — the decoder generated per type from schema<T>, read through a small pull reader per
// format (detail/msgpack_reader.hpp, detail/simdjson_reader.hpp). The compiler fuses the two: no
// event dispatch, no member table walked per value, keys matched against names known at compile
// time. It is the fast path: it decides, and on anything it refuses it throws `refused`, and the
// caller decodes the input again on the event decoder (decoder.hpp), whose error is the answer.
// So every message still comes from one place, and a differential test holds the verdicts equal.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "decoder.hpp"
#include "schema.hpp"

namespace ecmeta::detail {

// The input is not what the schema wants (or not well-formed): decode it on the event decoder.
struct refused {};

[[noreturn]] inline void refuse() {
    throw refused{};
}

// What a pull reader offers (R::value is the reader's handle on one value: an element of a DOM,
// or nothing for a stream that is read in order):
//   string(v) -> std::string_view      u64(v) -> std::uint64_t      boolean(v) -> bool
//   null(v) -> bool (true: it was null, consumed)
//   array(v) -> R::array_cursor        next(array_cursor&, value&) -> bool (false: no more)
//   object(v) -> R::object_cursor      next(object_cursor&, std::string_view& key, value&) -> bool
//   unknown_key(key): throws `refused` if a key that names no field is not UTF-8 (a key that
//       names one is ASCII, so next() need not check it)
//   reservable(array_cursor, element size) -> std::size_t: room to make before reading the
//       elements (what a DOM has seen; for a length read from the input, no more than would
//       fill the input's bytes left)
//   reserve_ids(array_cursor, id_set&)  skip(v)
// Each throws `refused` where the value is not of that type.
template <class R>
class walker {
public:
    using value = typename R::value;

    walker(R& reader, bool strict) noexcept : r_(reader), strict_(strict) {}

    // Reads v into out, by out's form.
    template <class T>
    void read(value v, T& out) {
        constexpr form f = form_of<T>();
        if constexpr (f == form::string) {
            out.assign(r_.string(v));
        } else if constexpr (f == form::u64) {
            out = r_.u64(v);
        } else if constexpr (f == form::i64) {
            const std::uint64_t n = r_.u64(v);  // a shape's extent: never negative
            if (n > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
                refuse();
            }
            out = static_cast<std::int64_t>(n);
        } else if constexpr (f == form::boolean) {
            out = r_.boolean(v);
        } else if constexpr (f == form::ids) {
            read_ids(v, out);
        } else if constexpr (f == form::nullable) {
            if (r_.null(v)) {
                out.reset();
            } else {
                read(v, out ? *out : out.emplace());
            }
        } else if constexpr (f == form::list) {
            read_list(v, out);
        } else {
            read_object(v, out);
        }
    }

private:
    void read_ids(value v, id_set& out) {
        out.clear();
        auto c = r_.array(v);
        r_.reserve_ids(c, out);
        value item{};
        while (r_.next(c, item)) {
            id_set_access::append(out, r_.string(item));  // sorted and deduplicated once, below
        }
        id_set_access::finish(out);
    }

    // Elements overwritten in place, then the list cut to length: a reused list keeps its storage,
    // and so do its elements' strings and lists. Scalars have none to keep: appended afresh.
    template <class E>
    void read_list(value v, std::vector<E>& out) {
        auto c = r_.array(v);
        if constexpr (scalar_form<E>) {
            out.clear();
            out.reserve(r_.reservable(c, sizeof(E)));
            value item{};
            while (r_.next(c, item)) {
                read(item, out.emplace_back());
            }
            return;
        }
        if (const std::size_t size = r_.reservable(c, sizeof(E)); size > out.size()) {
            out.reserve(size);
        }
        std::size_t n = 0;
        value item{};
        while (r_.next(c, item)) {
            read(item, n < out.size() ? out[n] : out.emplace_back());
            ++n;
        }
        out.resize(n);
    }

    template <class S>
    void read_object(value v, S& out) {
        using indices = std::make_index_sequence<field_count<S>>;
        auto c = r_.object(v);
        std::uint32_t seen = 0;
        std::size_t last = field_count<S> - 1;  // canonical input: the next declared key comes next
        std::string_view key;
        value field{};
        while (r_.next(c, key, field)) {
            const std::size_t i = find_key<S>(key, last);
            if (i == field_count<S>) {
                if (strict_) {
                    refuse();
                }
                r_.unknown_key(key);
                r_.skip(field);
                continue;
            }
            seen |= std::uint32_t{1} << i;
            last = i;
            read_field(field, out, i, indices{});
        }
        if ((table<S>::info.required & ~seen) != 0) {
            refuse();
        }
        table<S>::info.defaults(&out, seen);
    }

    template <class S>
    static constexpr std::size_t field_count = std::tuple_size_v<decltype(schema<S>::fields)>;

    template <class S>
    static constexpr auto names = std::apply(
        [](const auto&... fs) { return std::array<std::string_view, sizeof...(fs)>{fs.name...}; }, schema<S>::fields);

    // The field named `key`, trying the one declared after `last` first; field_count<S> if none.
    template <class S>
    [[nodiscard]] static std::size_t find_key(std::string_view key, std::size_t last) noexcept {
        constexpr std::size_t n = field_count<S>;
        std::size_t i = last + 1 == n ? 0 : last + 1;
        for (std::size_t tried = 0; tried < n; ++tried, i = i + 1 == n ? 0 : i + 1) {
            if (same_name(names<S>[i], key)) {
                return i;
            }
        }
        return n;
    }

    template <class S, std::size_t... I>
    void read_field(value v, S& out, std::size_t i, std::index_sequence<I...> /*unused*/) {
        static_cast<void>(((i == I && (read(v, out.*std::get<I>(schema<S>::fields).member), true)) || ...));
    }

    R& r_;
    bool strict_;
};

// Decodes the whole input as T through reader `r` (whose value() is the document's root).
template <class T, class R>
void walk(R& r, T& out, bool strict) {
    walker<R> w{r, strict};
    w.read(r.root(), out);
    r.finish();
}

}  // namespace ecmeta::detail
