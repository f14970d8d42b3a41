// ecmeta — the encoding walk: visit tells a sink what a value holds, in wire order. The writers,
// their size walks and the DOM hook are sinks. Standard library only.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "../version.hpp"

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

#include "../id_set.hpp"
#include "form.hpp"
#include "inline.hpp"
#include "schema.hpp"

namespace ecmeta::inline ECMETA_ABI::detail {

// A sink of visit: what it is told, in wire order. The writers, their size walks and the DOM hook
// are sinks:
//   string(std::string_view)  u64(std::uint64_t)  i64(std::int64_t)  boolean(bool)  null()
//   begin_list(size)  item(index)  end_list()       item(i) comes before element i
//   begin_object(size)  key(index, name)  end_object()   key(i, name) comes before field i
//   whole_ids(const id_set&), optional: true if the sink took the whole set at once; if false,
//   the set is walked as a list of strings
//   field(index, name, const M& member), optional: a field whole, in place of key(i, name) and
//   the member's walk (a writer that can check room once for both)
template <class S>
concept visit_sink = requires(S& s, std::string_view text, std::size_t n) {
    s.string(text);
    s.u64(std::uint64_t{});
    s.i64(std::int64_t{});
    s.boolean(true);
    s.null();
    s.begin_list(n);
    s.item(n);
    s.end_list();
    s.begin_object(n);
    s.key(n, text);
    s.end_object();
};

template <class T, visit_sink Sink>
void visit(const T& value, Sink& sink);

template <class T, class Sink, std::size_t... I>
ECMETA_INLINE void visit_fields(const T& value, Sink& sink, std::index_sequence<I...> /*unused*/) {
    // By index, so that a sink that inlines key() sees its index and name as constants.
    const auto field = [&](const auto index, const auto& fd) ECMETA_INLINE_LAMBDA {
        if constexpr (requires { sink.field(index, fd.name, value.*fd.member); }) {
            sink.field(index, fd.name, value.*fd.member);
        } else {
            sink.key(decltype(index)::value, fd.name);
            visit(value.*fd.member, sink);
        }
    };
    (field(std::integral_constant<std::size_t, I>{}, std::get<I>(schema<T>::fields)), ...);
}

// Walks a value in wire order and tells `sink` what it meets. The whole walk is inlined into its
// caller, so that a sink's state (the writers' cursor) can live in registers rather than be
// stored and reloaded at every step.
template <class T, visit_sink Sink>
ECMETA_INLINE void visit(const T& value, Sink& sink) {
    constexpr form f = form_of<T>();
    if constexpr (f == form::string) {
        sink.string(std::string_view{value});
    } else if constexpr (f == form::u64) {
        sink.u64(value);
    } else if constexpr (f == form::i64) {
        sink.i64(value);
    } else if constexpr (f == form::boolean) {
        sink.boolean(value);
    } else if constexpr (f == form::nullable) {
        if (value) {
            visit(*value, sink);
        } else {
            sink.null();
        }
    } else if constexpr (f == form::ids || f == form::list) {
        if constexpr (f == form::ids && requires { sink.whole_ids(value); }) {
            if (sink.whole_ids(value)) {
                return;
            }
        }
        sink.begin_list(value.size());
        std::size_t i = 0;
        for (const auto& item : value) {
            sink.item(i++);
            if constexpr (f == form::ids) {
                sink.string(item);
            } else {
                visit(item, sink);
            }
        }
        sink.end_list();
    } else {
        constexpr std::size_t n = std::tuple_size_v<decltype(schema<T>::fields)>;
        sink.begin_object(n);
        visit_fields(value, sink, std::make_index_sequence<n>{});
        sink.end_object();
    }
}
}  // namespace ecmeta::detail
