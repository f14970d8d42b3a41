// ecmeta — vLLM Mooncake encoder-cache connector metadata in C++.
// The plain types and their fold; standard library only.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#define ECMETA_VERSION_MAJOR 0
#define ECMETA_VERSION_MINOR 1
#define ECMETA_VERSION_PATCH 0

#include <algorithm>
#include <array>
#include <bit>
#include <concepts>
#include <cstdint>
#include <cstring>
#include <functional>
#include <iterator>
#include <optional>
#include <ranges>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#if defined(_MSC_VER) && !defined(__clang__)
#include <stdlib.h>  // _byteswap_uint64
#endif

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

// Merges compare ids by their first eight bytes, read as one big-endian integer, before anything
// else: distinct 64-hex ids almost always differ there, so a merge step is one integer comparison
// and no call into memcmp. The head of a shorter id is zero-padded, which keeps the order exact.
[[nodiscard]] inline std::uint64_t load_big_endian(const char* bytes) noexcept {
    std::uint64_t value = 0;
    std::memcpy(&value, bytes, sizeof value);
    if constexpr (std::endian::native == std::endian::little) {
#if defined(_MSC_VER) && !defined(__clang__)
        value = _byteswap_uint64(value);
#else
        value = __builtin_bswap64(value);  // std::byteswap is C++23
#endif
    }
    return value;
}

[[nodiscard]] inline std::uint64_t id_head(std::string_view id) noexcept {
    if (id.size() >= 8) {
        return load_big_endian(id.data());
    }
    std::array<char, 8> padded{};
    std::copy(id.begin(), id.end(), padded.begin());
    return load_big_endian(padded.data());
}

// Three-way byte order of two ids given their heads (std::string::compare, but inline).
[[nodiscard]] inline int compare_ids(std::uint64_t head_a, std::string_view a, std::uint64_t head_b,
                                     std::string_view b) noexcept {
    if (head_a != head_b) {
        return head_a < head_b ? -1 : 1;
    }
    // Equal heads: the ids agree on their first min(size, 8) bytes.
    const std::size_t common = std::min(a.size(), b.size());
    std::size_t i = 8;
    for (; i + 8 <= common; i += 8) {
        const std::uint64_t x = load_big_endian(a.data() + i);
        const std::uint64_t y = load_big_endian(b.data() + i);
        if (x != y) {
            return x < y ? -1 : 1;
        }
    }
    for (; i < common; ++i) {
        if (a[i] != b[i]) {
            return static_cast<unsigned char>(a[i]) < static_cast<unsigned char>(b[i]) ? -1 : 1;
        }
    }
    return a.size() == b.size() ? 0 : (a.size() < b.size() ? -1 : 1);
}

// A walk over one sorted set that keeps the current id's head at hand.
class id_cursor {
public:
    explicit id_cursor(const IdSet& set) noexcept : at_(set.begin()), end_(set.end()) { load(); }

    [[nodiscard]] bool done() const noexcept { return at_ == end_; }
    [[nodiscard]] IdSet::const_iterator position() const noexcept { return at_; }
    [[nodiscard]] std::uint64_t head() const noexcept { return head_; }
    [[nodiscard]] const std::string& id() const noexcept { return *at_; }
    void next() noexcept {
        ++at_;
        load();
    }
    // Moves the position past ids below (head, id); returns the order of what it stops on
    // against (head, id), or -1 when the walk has ended.
    int seek(std::uint64_t head, std::string_view id) noexcept {
        while (!done()) {
            const int order = compare_ids(head_, *at_, head, id);
            if (order >= 0) {
                return order;
            }
            next();
        }
        return -1;
    }

private:
    void load() noexcept { head_ = done() ? 0 : id_head(*at_); }

    IdSet::const_iterator at_;
    IdSet::const_iterator end_;
    std::uint64_t head_ = 0;
};

// Linear merges over sorted sets: every insertion is hinted at its final place, so a merge
// costs one walk of both sets, not one tree descent per id.
inline IdSet set_intersection(const IdSet& a, const IdSet& b) {
    IdSet out;
    id_cursor i(a);
    id_cursor j(b);
    while (!i.done() && !j.done()) {
        const int order = compare_ids(i.head(), i.id(), j.head(), j.id());
        if (order <= 0) {
            if (order == 0) {
                out.emplace_hint(out.end(), i.id());
                j.next();
            }
            i.next();
        } else {
            j.next();
        }
    }
    return out;
}

// acc := acc ∩ other, erasing in place (no id is copied).
inline void intersect_into(IdSet& acc, const IdSet& other) {
    id_cursor j(other);
    for (auto i = acc.begin(); i != acc.end();) {
        const int order = j.seek(id_head(*i), *i);
        if (j.done()) {
            acc.erase(i, acc.end());
            return;
        }
        i = order == 0 ? std::next(i) : acc.erase(i);
    }
}

// acc := acc ∪ other; the insertion hint walks forward with `other`.
inline void unite_into(IdSet& acc, const IdSet& other) {
    if (acc.empty()) {
        acc = other;
        return;
    }
    id_cursor hint(acc);
    for (const auto& id : other) {
        const int order = hint.seek(id_head(id), id);
        if (order != 0) {
            acc.emplace_hint(hint.position(), id);  // before the hint: the cursor stays valid
        }
    }
}

inline IdSet set_union(const IdSet& a, const IdSet& b) {
    const bool a_larger = a.size() >= b.size();
    IdSet out = a_larger ? a : b;  // copy the larger tree whole, insert the other's ids by hint
    unite_into(out, a_larger ? b : a);
    return out;
}

// acc := acc ∪ other, moving other's nodes instead of copying ids. Ids acc already holds stay
// in `other`: the fold frees nothing, whatever it drops is freed with the moved-from report.
inline void unite_into(IdSet& acc, IdSet&& other) {
    if (acc.empty()) {
        acc.swap(other);
        return;
    }
    id_cursor hint(acc);
    for (auto it = other.begin(); it != other.end();) {
        if (hint.seek(id_head(*it), *it) == 0) {
            ++it;
        } else {
            acc.insert(hint.position(), other.extract(it++));
        }
    }
}

// Up to N elements on the stack, default-initialized (every element is written before it is
// read): folds of a tensor-parallel group allocate nothing but the result.
template <class T, std::size_t N>
class scratch {
public:
    explicit scratch(std::size_t n) {
        if (n > local_.size()) {
            heap_.resize(n);
        }
        items_ = n > local_.size() ? std::span<T>{heap_} : std::span<T>{local_.data(), n};
    }
    scratch(const scratch&) = delete;
    scratch& operator=(const scratch&) = delete;
    [[nodiscard]] std::span<T> get() const noexcept { return items_; }

private:
    std::array<T, N> local_;
    std::vector<T> heap_;
    std::span<T> items_;
};

// One id of the set that drives a k-way intersection, while it may still be in every set.
struct candidate {
    std::uint64_t head;
    IdSet::const_iterator at;
};

inline std::span<candidate> candidates_of(const IdSet& driver, std::span<candidate> out) noexcept {
    std::size_t n = 0;
    for (auto it = driver.begin(); it != driver.end(); ++it) {
        out[n++] = {id_head(*it), it};
    }
    return out.first(n);
}

// Keeps the candidates that `set` holds too, in order. One straight walk of `set` per call: the
// walks of k sets interleaved, one id at a time, measured about three times slower.
inline std::span<candidate> keep_common(std::span<candidate> candidates, const IdSet& set) noexcept {
    std::size_t kept = 0;
    id_cursor other(set);
    for (const candidate& c : candidates) {
        const int order = other.seek(c.head, *c.at);
        if (other.done()) {
            break;
        }
        if (order == 0) {
            candidates[kept++] = c;
            other.next();
        }
    }
    return candidates.first(kept);
}

// The surviving ids, copied into a new set.
inline IdSet copy_ids(std::span<const candidate> survivors) {
    IdSet out;
    for (const candidate& c : survivors) {
        out.emplace_hint(out.end(), *c.at);
    }
    return out;
}

// The surviving ids as a set made of `from`'s own nodes. Nodes that do not survive stay in
// `from` (the fold frees nothing); whichever group is smaller is the one that changes tree.
inline IdSet take_ids(IdSet& from, std::span<const candidate> survivors) {
    IdSet out;
    if (survivors.size() * 2 <= from.size()) {
        for (const candidate& c : survivors) {
            out.insert(out.end(), from.extract(c.at));
        }
        return out;
    }
    out.swap(from);  // iterators stay valid and now point into `out`
    auto keep = survivors.begin();
    for (auto it = out.begin(); it != out.end();) {
        if (keep != survivors.end() && it == keep->at) {
            ++keep;
            ++it;
        } else {
            from.insert(from.end(), out.extract(it++));
        }
    }
    return out;
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

// One id of the sets a k-way union collects, with the set that holds it (const unless the
// fold owns the set and may move its nodes).
template <class Set>
struct sourced_id {
    std::uint64_t head;
    IdSet::const_iterator at;
    Set* owner;
};

// The union of every collected set at once: sort the ids (mostly integer comparisons of heads,
// in cache), then take each once. Merging set after set walks the growing result once per rank,
// and on a churned heap every step of that walk is a cache miss. Nodes move when Set is not
// const; then the duplicates stay where they were, to be freed with the moved-from reports.
template <class Set>
inline IdSet unite_all(std::span<sourced_id<Set>> ids) {
    std::sort(ids.begin(), ids.end(), [](const sourced_id<Set>& a, const sourced_id<Set>& b) noexcept {
        return compare_ids(a.head, *a.at, b.head, *b.at) < 0;
    });
    IdSet out;
    const std::string* last = nullptr;
    std::uint64_t last_head = 0;
    for (const auto& id : ids) {
        if (last != nullptr && compare_ids(last_head, *last, id.head, *id.at) == 0) {
            continue;
        }
        IdSet::iterator added;
        if constexpr (std::is_const_v<Set>) {
            added = out.emplace_hint(out.end(), *id.at);
        } else {
            added = out.insert(out.end(), id.owner->extract(id.at));
        }
        last = &*added;
        last_head = id.head;
    }
    return out;
}

// Gathers the ids of several sets (`capacity` ids in all) for one unite_all at the end.
template <class Set, std::size_t N>
class id_union {
public:
    explicit id_union(std::size_t capacity) : ids_(capacity) {}
    void add(Set& set) {
        const std::span<sourced_id<Set>> out = ids_.get();
        for (auto it = set.cbegin(); it != set.cend(); ++it) {
            out[size_++] = {id_head(*it), it, &set};
        }
    }
    [[nodiscard]] IdSet unite() { return unite_all(ids_.get().first(size_)); }

private:
    scratch<sourced_id<Set>, N> ids_;
    std::size_t size_ = 0;
};

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
        // Two passes over the ranks. The first finds the smallest `loaded` and counts the failure
        // ids; the second narrows the smallest set's ids by every other rank's set in turn (so only
        // survivors are ever copied or moved) and collects the failure ids for one k-way union each.
        const W* driver = nullptr;
        std::array<std::size_t, 3> failure_ids{};
        for (auto&& r : reports) {
            if (const W* p = report_of(r)) {
                driver = driver == nullptr || p->loaded.size() < driver->loaded.size() ? p : driver;
                failure_ids[0] += p->failed_loads.size();
                failure_ids[1] += p->reclaimed.size();
                failure_ids[2] += p->failed_saves.size();
            }
        }
        if (driver == nullptr) {
            return std::nullopt;
        }
        using set_type = std::conditional_t<steal, IdSet, const IdSet>;
        detail::scratch<detail::candidate, 64> loaded_buffer(driver->loaded.size());
        detail::id_union<set_type, 64> failed_loads(failure_ids[0]);
        detail::id_union<set_type, 64> reclaimed(failure_ids[1]);
        detail::id_union<set_type, 16> failed_saves(failure_ids[2]);
        std::span<detail::candidate> survivors = detail::candidates_of(driver->loaded, loaded_buffer.get());
        W out{};
        for (auto&& r : reports) {
            auto* p = report_of(r);
            if (p == nullptr) {
                continue;
            }
            if (p != driver && !survivors.empty()) {
                survivors = detail::keep_common(survivors, p->loaded);
            }
            failed_loads.add(p->failed_loads);
            reclaimed.add(p->reclaimed);
            failed_saves.add(p->failed_saves);
            out.pending_saves = out.pending_saves || p->pending_saves;
        }
        if constexpr (steal) {
            // Dropped ids stay in the moved-from reports, to be freed with them.
            out.loaded = detail::take_ids(const_cast<W*>(driver)->loaded, survivors);  // owned, not const
        } else {
            out.loaded = detail::copy_ids(survivors);
        }
        out.failed_loads = failed_loads.unite();
        out.reclaimed = reclaimed.unite();
        out.failed_saves = failed_saves.unite();
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
