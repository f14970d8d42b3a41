// ecmeta — vLLM Mooncake encoder-cache connector metadata in C++.
// The plain types and their fold; standard library only.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "version.hpp"

#include <concepts>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "detail/fold.hpp"
#include "detail/ranges.hpp"
#include "id_set.hpp"

namespace ecmeta::inline ECMETA_ABI {

// On the wire a message must carry its required fields; every other field may be left out and
// takes its default here. Which are required, and what each field means, is said once, in the
// schema table (detail/schema.hpp), and shown in docs/wire-format.md's field table.

// Scheduler -> worker: one encoder-cache item to attach on the consumer side.
struct ECMooncakeLoadSpec {
    std::string mm_hash{};
    std::uint64_t nbytes = 0;
    std::vector<std::int64_t> shape{};
    std::string dtype{};
    std::string transfer_id{};
    bool local = false;  // the receive pool still holds it: a hand-off, no transfer

    friend bool operator==(const ECMooncakeLoadSpec&, const ECMooncakeLoadSpec&) = default;
};

// Scheduler -> worker: one producer-side reservation, started before the tensor exists.
struct ECMooncakePushSpec {
    std::string mm_hash{};
    std::uint64_t nbytes = 0;
    std::vector<std::int64_t> shape{};
    std::string dtype{};
    std::string consumer_zmq{};
    std::string transfer_id{};
    std::string request_id{};

    friend bool operator==(const ECMooncakePushSpec&, const ECMooncakePushSpec&) = default;
};

// Scheduler -> workers, once per engine step.
struct ECMooncakeConnectorMetadata {
    std::vector<ECMooncakeLoadSpec> loads{};
    std::vector<ECMooncakePushSpec> pushes{};
    // nullopt: scan every pinned resident item; an empty list: retire nothing.
    std::optional<std::vector<std::string>> freed{};

    friend bool operator==(const ECMooncakeConnectorMetadata&, const ECMooncakeConnectorMetadata&) = default;
};

// Worker -> scheduler, once per rank per step; ranks are folded with aggregate().
struct ECMooncakeWorkerMetadata {
    id_set loaded{};
    id_set failed_loads{};
    id_set reclaimed{};
    bool pending_saves = false;
    id_set failed_saves{};  // request ids, not item ids

    // W is always ECMooncakeWorkerMetadata: templates only so that a translation unit that never
    // folds never compiles the fold.
    // loaded intersected, failure sets united, pending_saves or-ed; both operands untouched.
    template <std::same_as<ECMooncakeWorkerMetadata> W = ECMooncakeWorkerMetadata>
    [[nodiscard]] W aggregate(const W& other) const&;
    // The same result, built in this operand's storage.
    template <std::same_as<ECMooncakeWorkerMetadata> W = ECMooncakeWorkerMetadata>
    [[nodiscard]] W aggregate(const W& other) &&;
    // The same result, built in both operands' storage.
    template <std::same_as<ECMooncakeWorkerMetadata> W = ECMooncakeWorkerMetadata>
    [[nodiscard]] W aggregate(W&& other) &&;

    friend bool operator==(const ECMooncakeWorkerMetadata&, const ECMooncakeWorkerMetadata&) = default;
};

namespace detail {

// How ranks fold, field by field: the one place that says it. Every form of aggregate reads it.
template <>
struct fold_rules<ECMooncakeWorkerMetadata> {
    using T = ECMooncakeWorkerMetadata;
    static constexpr std::tuple fields{
        intersected<T>{&T::loaded},  // loaded only where every rank holds the item
        united<T>{&T::failed_loads},  united<T>{&T::reclaimed},
        any_of<T>{&T::pending_saves}, united<T>{&T::failed_saves},
    };
};

}  // namespace detail

// The Python abstract bases become concepts, so the structs stay plain aggregates.
// Opt-in, like std::ranges::enable_borrowed_range: the scheduler-side base has no methods to check.
template <class T>
inline constexpr bool enable_connector_metadata = false;
template <>
inline constexpr bool enable_connector_metadata<ECMooncakeConnectorMetadata> = true;

template <class T>
concept connector_metadata = std::regular<T> && enable_connector_metadata<T>;

template <class T>
concept connector_worker_metadata = std::regular<T> && requires(const T& a, const T& b) {
    { a.aggregate(b) } -> std::same_as<T>;
};

template <std::same_as<ECMooncakeWorkerMetadata> W>
W ECMooncakeWorkerMetadata::aggregate(const W& other) const& {
    const detail::source<W> both[] = {{this, nullptr}, {&other, nullptr}};
    return detail::fold<W>(both);
}

template <std::same_as<ECMooncakeWorkerMetadata> W>
W ECMooncakeWorkerMetadata::aggregate(const W& other) && {
    const detail::source<W> both[] = {{this, this}, {&other, nullptr}};
    return detail::fold<W>(both);
}

template <std::same_as<ECMooncakeWorkerMetadata> W>
W ECMooncakeWorkerMetadata::aggregate(W&& other) && {
    const detail::source<W> both[] = {{this, this}, {&other, &other}};
    return detail::fold<W>(both);
}

namespace detail {

template <class T>
struct report_type {
    using type = T;
};
template <class T>
struct report_type<std::optional<T>> {
    using type = T;
};

template <class T>
using report_type_t = typename report_type<std::remove_cvref_t<T>>::type;

template <class T>
inline constexpr bool is_optional_v = false;
template <class T>
inline constexpr bool is_optional_v<std::optional<T>> = true;

}  // namespace detail

// A range of reports (or of std::optional reports) whose element type can be folded.
template <class R>
concept report_range =
    std::ranges::input_range<R> && connector_worker_metadata<detail::report_type_t<std::ranges::range_value_t<R>>>;

// Left fold over ranks in order; nullopt elements are ranks that reported nothing and are
// skipped. No report at all gives nullopt (intersection has no finite identity element).
// Pass an owning container as an rvalue (std::move(reports)) to let the fold reuse its storage.
template <report_range R>
[[nodiscard]] std::optional<detail::report_type_t<std::ranges::range_value_t<R>>> aggregate(R&& reports) {
    using element = std::remove_cvref_t<std::ranges::range_value_t<R>>;
    using W = detail::report_type_t<element>;
    using reference = std::ranges::range_reference_t<R>;
    // Elements may be moved from when they are temporaries, or when the range is an rvalue
    // container that owns them; a view's elements belong to someone else.
    constexpr bool owned = !std::is_lvalue_reference_v<reference> ||
                           (!std::is_lvalue_reference_v<R> && !std::ranges::view<std::remove_cvref_t<R>>);
    auto report_of = [](auto& r) -> auto* {
        if constexpr (detail::is_optional_v<element>) {
            return r ? &*r : nullptr;
        } else {
            return &r;
        }
    };
    if constexpr (detail::foldable<W> && std::ranges::forward_range<R> && std::is_reference_v<reference>) {
        // Elements that stay put: fold all ranks at once, k-way.
        constexpr bool steal = owned && !std::is_const_v<std::remove_reference_t<reference>>;
        std::size_t count = 0;
        for (auto&& r : reports) {
            count += report_of(r) != nullptr ? 1 : 0;
        }
        if (count == 0) {
            return std::nullopt;
        }
        detail::scratch<detail::source<W>, 16> sources(count);
        std::size_t n = 0;
        for (auto&& r : reports) {
            if (auto* p = report_of(r)) {
                if constexpr (steal) {
                    sources.get()[n++] = {p, p};
                } else {
                    sources.get()[n++] = {p, nullptr};
                }
            }
        }
        return detail::fold<W>(sources.get());
    } else {
        std::optional<W> acc;
        for (auto&& r : reports) {
            auto* p = report_of(r);
            if (p == nullptr) {
                continue;
            }
            if constexpr (owned) {
                acc = acc ? std::move(*acc).aggregate(std::move(*p)) : std::move(*p);
            } else {
                acc = acc ? std::move(*acc).aggregate(std::as_const(*p)) : *p;
            }
        }
        return acc;
    }
}

}  // namespace ecmeta
