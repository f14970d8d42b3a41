// ecmeta — the fold of rank reports: the rule kinds a report type lists once (fold_rules<T>), and
// the one k-way algorithm that every form of aggregate runs. Standard library only.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "../version.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <span>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "../id_set.hpp"
#include "id_order.hpp"
#include "reflect.hpp"

namespace ecmeta::inline ECMETA_ABI::detail {

// ---- the rules ------------------------------------------------------------------------------

// An id set kept only where every rank has the id.
template <class C>
struct intersected {
    id_set C::*member;
};
// An id set of every id any rank reported.
template <class C>
struct united {
    id_set C::*member;
};
// A flag set when any rank set it.
template <class C>
struct any_of {
    bool C::*member;
};

// fold_rules<T>::fields names the rule of every member of T, in declaration order.
template <class T>
struct fold_rules;

template <class T>
concept foldable = requires {
    fold_rules<T>::fields;
};

// One rank's report: read through `report`; `owned` is the same object when the fold may take
// its storage (it was moved in), else null.
template <class T>
struct source {
    const T* report;
    T* owned;
};

// ---- the machinery --------------------------------------------------------------------------

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

using entry = id_set_access::entry;

[[nodiscard]] inline std::string_view view(const entry& e, const char* chars) noexcept {
    return {chars + e.offset, e.size};
}

// Equality of two ids (with equal heads, so most are equal).
[[nodiscard]] ECMETA_INLINE bool same_id(const entry& a, const char* a_chars, const entry& b,
                                         const char* b_chars) noexcept {
    return a.size == b.size && same_bytes(a_chars + a.offset, b_chars + b.offset, a.size);
}

// Keeps the driver's ids (`survivors`, ascending indices) that `other` holds too: one straight
// walk of both. In a fold most ids match, so the walk branches on equal heads (predictable) and
// steps past a mismatch without a branch.
inline std::span<std::uint32_t> keep_common(std::span<std::uint32_t> survivors, const id_set& driver,
                                            const id_set& other) noexcept {
    const entry* d = id_set_access::entries(driver).data();
    const char* d_chars = id_set_access::chars(driver);
    const entry* o = id_set_access::entries(other).data();
    const std::size_t o_size = id_set_access::entries(other).size();
    const char* o_chars = id_set_access::chars(other);
    std::size_t i = 0;
    std::size_t j = 0;
    std::size_t kept = 0;
    while (i < survivors.size() && j < o_size) {
        const entry& c = d[survivors[i]];
        const entry& x = o[j];
        int order = 0;
        if (x.head == c.head) {
            order =
                same_id(x, o_chars, c, d_chars) ? 0 : compare_ids(x.head, view(x, o_chars), c.head, view(c, d_chars));
            if (order == 0) {
                survivors[kept++] = survivors[i];
                ++i;
                ++j;
                continue;
            }
        } else {
            order = x.head < c.head ? -1 : 1;
        }
        j += order < 0 ? 1 : 0;
        i += order > 0 ? 1 : 0;
    }
    return survivors.first(kept);
}

template <class C>
id_set fold_field(std::span<const source<C>> reports, intersected<C> rule) {
    std::size_t d = 0;
    for (std::size_t r = 1; r < reports.size(); ++r) {
        if ((reports[r].report->*rule.member).size() < (reports[d].report->*rule.member).size()) {
            d = r;
        }
    }
    // The smallest set drives: its ids are narrowed by every other rank's set in turn, so only
    // survivors are ever copied, or, when it was moved in, none at all.
    const id_set& driver = reports[d].report->*rule.member;
    scratch<std::uint32_t, 64> buffer(driver.size());
    std::span<std::uint32_t> survivors = buffer.get();
    std::iota(survivors.begin(), survivors.end(), std::uint32_t{0});
    for (std::size_t r = 0; r < reports.size() && !survivors.empty(); ++r) {
        if (r != d) {
            survivors = keep_common(survivors, driver, reports[r].report->*rule.member);
        }
    }
    if (reports[d].owned != nullptr) {
        id_set out = std::move(reports[d].owned->*rule.member);
        id_set_access::keep_only(out, survivors);  // the dropped ids' bytes stay, as garbage
        return out;
    }
    const auto& entries = id_set_access::entries(driver);
    std::size_t bytes = 0;
    for (const std::uint32_t i : survivors) {
        bytes += entries[i].size;
    }
    id_set out;
    id_set_access::reserve(out, survivors.size(), bytes);
    for (const std::uint32_t i : survivors) {
        id_set_access::push_back(out, entries[i], id_set_access::chars(driver));
    }
    return out;
}

// One id of the sets a union collects, with the set that holds it.
struct id_ref {
    entry e;
    const char* chars;
    const id_set* owner;
};

[[nodiscard]] inline bool id_less(const id_ref& x, const id_ref& y) noexcept {
    return compare_ids(x.e.head, view(x.e, x.chars), y.e.head, view(y.e, y.chars)) < 0;
}

// Sorts `a`, made of sorted runs ending at `ends`, stably (among equal ids the earlier run's comes
// first): a few ids by insertion, more by merging runs pairwise back and forth with `b`, in
// O(n log runs). Returns whichever of the two holds the result.
inline std::span<id_ref> sort_runs(std::span<id_ref> a, std::span<id_ref> b, std::span<std::size_t> ends) {
    if (a.size() <= 32) {
        for (std::size_t i = 1; i < a.size(); ++i) {
            const id_ref r = a[i];
            std::size_t k = i;
            for (; k > 0 && id_less(r, a[k - 1]); --k) {
                a[k] = a[k - 1];
            }
            a[k] = r;
        }
        return a;
    }
    std::size_t runs = ends.size();
    while (runs > 1) {
        std::size_t merged = 0;
        std::size_t start = 0;
        for (std::size_t r = 0; r < runs; r += 2) {
            const std::size_t mid = ends[r];
            const std::size_t stop = r + 1 < runs ? ends[r + 1] : mid;
            std::merge(a.begin() + static_cast<std::ptrdiff_t>(start), a.begin() + static_cast<std::ptrdiff_t>(mid),
                       a.begin() + static_cast<std::ptrdiff_t>(mid), a.begin() + static_cast<std::ptrdiff_t>(stop),
                       b.begin() + static_cast<std::ptrdiff_t>(start), id_less);
            ends[merged++] = stop;
            start = stop;
        }
        runs = merged;
        std::swap(a, b);
    }
    return a;
}

template <class C>
id_set fold_field(std::span<const source<C>> reports, united<C> rule) {
    // The largest moved-in set becomes the result: only the ids it lacks are copied into it.
    const source<C>* base = nullptr;
    std::size_t total = 0;
    std::size_t nonempty = 0;
    for (const source<C>& r : reports) {
        const std::size_t n = (r.report->*rule.member).size();
        total += n;
        nonempty += n != 0 ? 1 : 0;
        if (r.owned != nullptr && (base == nullptr || n > (base->report->*rule.member).size())) {
            base = &r;
        }
    }
    if (total == 0) {
        return {};
    }
    if (nonempty == 1 && base != nullptr && (base->report->*rule.member).size() == total) {
        return std::move(base->owned->*rule.member);  // nothing to unite it with
    }
    scratch<id_ref, 64> refs(total);
    scratch<id_ref, 64> spare(total);
    scratch<std::size_t, 16> ends(nonempty);
    std::size_t n = 0;
    std::size_t runs = 0;
    const auto gather = [&](const id_set& set) {
        if (set.empty()) {
            return;
        }
        const char* chars = id_set_access::chars(set);
        for (const entry& e : id_set_access::entries(set)) {
            refs.get()[n++] = {e, chars, &set};
        }
        ends.get()[runs++] = n;
    };
    if (base != nullptr) {
        gather(base->report->*rule.member);  // first, so that among equal ids its own one is kept
    }
    for (const source<C>& r : reports) {
        if (&r != base) {
            gather(r.report->*rule.member);
        }
    }
    const std::span<id_ref> sorted = sort_runs(refs.get().first(n), spare.get(), ends.get().first(runs));
    std::size_t unique = 0;
    std::size_t bytes = 0;
    for (std::size_t i = 0; i < sorted.size(); ++i) {
        const id_ref& r = sorted[i];
        if (unique != 0) {
            const id_ref& last = sorted[unique - 1];
            if (last.e.head == r.e.head && same_id(last.e, last.chars, r.e, r.chars)) {
                continue;
            }
        }
        bytes += r.e.size;
        sorted[unique++] = r;
    }
    const std::span<const id_ref> merged = sorted.first(unique);
    if (base != nullptr) {
        id_set& out = base->owned->*rule.member;
        id_set_access::assign(out, merged);
        return std::move(out);
    }
    id_set out;
    id_set_access::reserve(out, merged.size(), bytes);
    for (const id_ref& r : merged) {
        id_set_access::push_back(out, r.e, r.chars);
    }
    return out;
}

template <class C>
bool fold_field(std::span<const source<C>> reports, any_of<C> rule) {
    return std::any_of(reports.begin(), reports.end(), [&](const source<C>& r) { return r.report->*rule.member; });
}

// The fold of one or more reports, by T's rules, field by field. Each field is read from every
// report before anything is taken from one, so a report may appear more than once.
template <foldable T>
[[nodiscard]] T fold(std::span<const source<T>> reports) {
    static_assert(std::tuple_size_v<decltype(fold_rules<T>::fields)> == member_count<T>(),
                  "fold_rules<T> must give every member of T a rule");
    static_assert(distinct_members(fold_rules<T>::fields), "fold_rules<T> gives a member of T two rules");
    T out{};
    std::apply([&](const auto&... rule) { ((out.*rule.member = fold_field(reports, rule)), ...); },
               fold_rules<T>::fields);
    return out;
}

}  // namespace ecmeta::detail
