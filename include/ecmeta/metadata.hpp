// ecmeta — vLLM Mooncake encoder-cache connector metadata in C++.
// The plain types and their fold; standard library only.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#define ECMETA_VERSION_MAJOR 0
#define ECMETA_VERSION_MINOR 1
#define ECMETA_VERSION_PATCH 0

#include <algorithm>
#include <array>
#include <concepts>
#include <cstdint>
#include <functional>
#include <iterator>
#include <optional>
#include <ranges>
#include <set>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace ecmeta {

// Ordered so that the wire form is canonical (sorted, unique) and folds are linear merges;
// std::less<> gives lookup by std::string_view without a temporary string.
using IdSet = std::set<std::string, std::less<>>;

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

struct ECMooncakeWorkerMetadata;

namespace detail {

// Linear merges over sorted sets: every insertion is hinted at its final place, so a merge
// costs one walk of both sets, not one tree descent per id.
inline IdSet set_intersection(const IdSet& a, const IdSet& b) {
    IdSet out;
    auto i = a.begin();
    auto j = b.begin();
    while (i != a.end() && j != b.end()) {
        const int c = i->compare(*j);
        if (c < 0) {
            ++i;
        } else if (c > 0) {
            ++j;
        } else {
            out.emplace_hint(out.end(), *i);
            ++i;
            ++j;
        }
    }
    return out;
}

// acc := acc ∩ other, erasing in place (no id is copied).
inline void intersect_into(IdSet& acc, const IdSet& other) {
    auto i = acc.begin();
    auto j = other.begin();
    while (i != acc.end()) {
        int order = -1;
        while (j != other.end() && (order = j->compare(*i)) < 0) {
            ++j;
        }
        if (j == other.end()) {
            acc.erase(i, acc.end());
            return;
        }
        if (order == 0) {
            ++i;
            ++j;
        } else {
            i = acc.erase(i);
        }
    }
}

// acc := acc ∪ other; the insertion hint walks forward with `other`.
inline void unite_into(IdSet& acc, const IdSet& other) {
    auto hint = acc.begin();
    for (const auto& id : other) {
        int order = 1;
        while (hint != acc.end() && (order = hint->compare(id)) < 0) {
            ++hint;
        }
        if (order != 0) {
            acc.emplace_hint(hint, id);
        } else {
            ++hint;
        }
    }
}

inline IdSet set_union(const IdSet& a, const IdSet& b) {
    const bool a_larger = a.size() >= b.size();
    IdSet out = a_larger ? a : b;  // copy the larger tree whole, insert the other's ids by hint
    unite_into(out, a_larger ? b : a);
    return out;
}

// acc := acc ∪ other, moving other's nodes instead of copying ids; other ends empty.
inline void unite_into(IdSet& acc, IdSet&& other) {
    if (acc.empty()) {
        acc.swap(other);
        return;
    }
    auto hint = acc.begin();
    while (!other.empty()) {
        auto node = other.extract(other.begin());
        int order = 1;
        while (hint != acc.end() && (order = hint->compare(node.value())) < 0) {
            ++hint;
        }
        if (order != 0) {
            acc.insert(hint, std::move(node));
        }
    }
}

inline void merge_into(ECMooncakeWorkerMetadata& acc, const ECMooncakeWorkerMetadata& other);
inline void merge_into(ECMooncakeWorkerMetadata& acc, ECMooncakeWorkerMetadata&& other);

}  // namespace detail

// Worker -> scheduler, once per rank per step; ranks are folded with aggregate().
struct ECMooncakeWorkerMetadata {
    IdSet loaded{};
    IdSet failed_loads{};
    IdSet reclaimed{};
    bool pending_saves = false;
    IdSet failed_saves{};  // request ids, not item ids

    // loaded intersected, failure sets united, pending_saves or-ed; both operands untouched.
    [[nodiscard]] ECMooncakeWorkerMetadata aggregate(const ECMooncakeWorkerMetadata& other) const& {
        ECMooncakeWorkerMetadata result;
        result.loaded = detail::set_intersection(loaded, other.loaded);
        result.failed_loads = detail::set_union(failed_loads, other.failed_loads);
        result.reclaimed = detail::set_union(reclaimed, other.reclaimed);
        result.pending_saves = pending_saves || other.pending_saves;
        result.failed_saves = detail::set_union(failed_saves, other.failed_saves);
        return result;
    }
    // The same result, built in this operand's storage.
    [[nodiscard]] ECMooncakeWorkerMetadata aggregate(const ECMooncakeWorkerMetadata& other) && {
        detail::merge_into(*this, other);
        return std::move(*this);
    }
    // The same result; ids only in `other` change owner instead of being copied.
    [[nodiscard]] ECMooncakeWorkerMetadata aggregate(ECMooncakeWorkerMetadata&& other) && {
        detail::merge_into(*this, std::move(other));
        return std::move(*this);
    }

    friend bool operator==(const ECMooncakeWorkerMetadata&, const ECMooncakeWorkerMetadata&) = default;
};

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

namespace detail {

inline void merge_into(ECMooncakeWorkerMetadata& acc, const ECMooncakeWorkerMetadata& other) {
    if (&acc == &other) {
        return;  // idempotent: a.aggregate(a) == a
    }
    intersect_into(acc.loaded, other.loaded);
    unite_into(acc.failed_loads, other.failed_loads);
    unite_into(acc.reclaimed, other.reclaimed);
    acc.pending_saves = acc.pending_saves || other.pending_saves;
    unite_into(acc.failed_saves, other.failed_saves);
}

inline void merge_into(ECMooncakeWorkerMetadata& acc, ECMooncakeWorkerMetadata&& other) {
    if (&acc == &other) {
        return;  // idempotent; the node moves below would extract under their own hint and lose ids
    }
    intersect_into(acc.loaded, other.loaded);
    unite_into(acc.failed_loads, std::move(other.failed_loads));
    unite_into(acc.reclaimed, std::move(other.reclaimed));
    acc.pending_saves = acc.pending_saves || other.pending_saves;
    unite_into(acc.failed_saves, std::move(other.failed_saves));
}

// A position in one rank's `loaded` set during a k-way walk.
struct cursor {
    IdSet::const_iterator at;
    IdSet::const_iterator end;
};

// Advances every cursor to the first id not below `id`. Returns whether all of them stand on
// `id`; sets `exhausted` when one has run out, after which nothing later can be everywhere.
inline bool advance_all(std::span<cursor> cursors, const std::string& id, bool& exhausted) {
    bool everywhere = true;
    for (cursor& c : cursors) {
        int order = -1;  // one three-way comparison per step: ids are long, comparisons dominate
        while (c.at != c.end && (order = c.at->compare(id)) < 0) {
            ++c.at;
        }
        if (c.at == c.end) {
            exhausted = true;
            return false;
        }
        everywhere = everywhere && order == 0;
    }
    return everywhere;
}

// Up to 16 ranks keep their cursors on the stack: folds of a tensor-parallel group allocate
// nothing but the result.
class cursor_buffer {
public:
    explicit cursor_buffer(std::size_t n) {
        if (n > local_.size()) {
            heap_.resize(n);
        }
        cursors_ = n > local_.size() ? std::span<cursor>{heap_} : std::span<cursor>{local_.data(), n};
    }
    [[nodiscard]] std::span<cursor> get() const noexcept { return cursors_; }

private:
    std::array<cursor, 16> local_{};
    std::vector<cursor> heap_;
    std::span<cursor> cursors_;
};

// acc := acc ∩ every set behind `cursors`, erasing in place: one walk of all sets together.
inline void intersect_all(IdSet& acc, std::span<cursor> cursors) {
    bool exhausted = false;
    for (auto it = acc.begin(); it != acc.end();) {
        if (advance_all(cursors, *it, exhausted)) {
            ++it;
        } else if (exhausted) {
            acc.erase(it, acc.end());
            return;
        } else {
            it = acc.erase(it);
        }
    }
}

// The ids of `driver` found behind every cursor, copied: only survivors are ever copied.
inline IdSet common_ids(const IdSet& driver, std::span<cursor> cursors) {
    IdSet out;
    bool exhausted = false;
    for (const auto& id : driver) {
        if (advance_all(cursors, id, exhausted)) {
            out.emplace_hint(out.end(), id);
        } else if (exhausted) {
            break;
        }
    }
    return out;
}

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

    // The two-pass walk keeps pointers to elements, so they must not be temporaries; it steals
    // from them only when they are owned and not const.
    constexpr bool steal = owned && !std::is_const_v<std::remove_reference_t<reference>>;
    if constexpr (std::same_as<W, ECMooncakeWorkerMetadata> && std::ranges::forward_range<R> &&
                  std::is_reference_v<reference>) {
        // Two passes over the ranks: count them, then one k-way walk of every `loaded` set.
        std::size_t count = 0;
        const W* first = nullptr;
        const W* smallest = nullptr;
        for (auto&& r : reports) {
            if (const W* p = report_of(r)) {
                first = first != nullptr ? first : p;
                smallest = smallest == nullptr || p->loaded.size() < smallest->loaded.size() ? p : smallest;
                ++count;
            }
        }
        if (count == 0) {
            return std::nullopt;
        }
        // Owned reports: the first becomes the result (nothing surviving is copied) and the others
        // hand over their failure nodes. Borrowed ones: the smallest `loaded` drives, survivors are copied.
        W out{};
        const W* driver = steal ? first : smallest;
        detail::cursor_buffer buffer(count - 1);
        std::size_t k = 0;
        for (auto&& r : reports) {
            const W* p = report_of(r);
            if (p != nullptr && p != driver) {
                buffer.get()[k++] = {p->loaded.begin(), p->loaded.end()};
            }
        }
        if constexpr (steal) {
            out = std::move(*const_cast<W*>(first));  // a non-const element the fold owns
            detail::intersect_all(out.loaded, buffer.get());
        } else {
            out.loaded = detail::common_ids(driver->loaded, buffer.get());
        }
        for (auto&& r : reports) {
            auto* p = report_of(r);
            if (p == nullptr || (steal && p == first)) {
                continue;
            }
            if constexpr (steal) {
                detail::unite_into(out.failed_loads, std::move(p->failed_loads));
                detail::unite_into(out.reclaimed, std::move(p->reclaimed));
                detail::unite_into(out.failed_saves, std::move(p->failed_saves));
            } else {
                detail::unite_into(out.failed_loads, p->failed_loads);
                detail::unite_into(out.reclaimed, p->reclaimed);
                detail::unite_into(out.failed_saves, p->failed_saves);
            }
            out.pending_saves = out.pending_saves || p->pending_saves;
        }
        return out;
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
