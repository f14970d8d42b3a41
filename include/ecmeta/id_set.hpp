// ecmeta — id_set: a sorted set of byte-string ids in one flat buffer; standard library only.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "version.hpp"

#include <algorithm>
#include <bit>
#include <compare>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "detail/exceptions.hpp"
#include "detail/id_order.hpp"
#include "detail/ranges.hpp"

namespace ecmeta::inline ECMETA_ABI {

// Tag: the input is already sorted by bytes and free of duplicates (as C++23 std::sorted_unique).
struct sorted_unique_t {
    explicit sorted_unique_t() = default;
};
inline constexpr sorted_unique_t sorted_unique{};

class id_set;

namespace detail {

struct id_set_access;

// A range of string-like elements an id_set can be built from; never an id_set itself, which
// is copied or moved instead.
template <class R>
concept id_range =
    std::ranges::input_range<R> && std::convertible_to<std::ranges::range_reference_t<R>, std::string_view> &&
    !std::same_as<std::remove_cvref_t<R>, id_set>;

}  // namespace detail

// A set of ids (byte strings, ordered by unsigned bytes as std::set<std::string> orders them),
// modelled on C++23 std::flat_set<std::string>: every character of every id lives in one buffer,
// and a sorted array of 16-byte entries (an id's first eight bytes as an integer, its offset and
// its length) indexes it. A set of n ids costs a constant number of allocations, not n, and a
// walk over it reads one contiguous array.
//
// Costs, as for std::flat_set: lookups are O(log n); one insert or erase moves entries, O(n);
// bulk insertion (the range and initializer-list constructors, insert_range, insert(first, last))
// appends, then sorts and deduplicates once, O(n log n). Erasing an id, or dropping a duplicate,
// leaves its bytes in the buffer: they are reclaimed when they outweigh the live bytes, on copy,
// and by shrink_to_fit. Elements are std::string_views into the set, valid until it is next
// modified (a move or swap included), as are iterators. At most max_bytes() bytes in all
// (4 GiB - 1: offsets are 32-bit); past that, std::length_error.
class id_set {
    struct entry {
        std::uint64_t head;
        std::uint32_t offset;
        std::uint32_t size;
    };

public:
    using key_type = std::string_view;
    using value_type = std::string_view;
    using reference = std::string_view;
    using const_reference = std::string_view;
    using size_type = std::size_t;
    using difference_type = std::ptrdiff_t;

    class const_iterator {
    public:
        using iterator_concept = std::random_access_iterator_tag;
        using iterator_category = std::input_iterator_tag;  // elements are values, not references
        using value_type = std::string_view;
        using difference_type = std::ptrdiff_t;
        using reference = std::string_view;

        const_iterator() = default;

        [[nodiscard]] std::string_view operator*() const noexcept { return {chars_ + at_->offset, at_->size}; }
        [[nodiscard]] std::string_view operator[](difference_type n) const noexcept { return *(*this + n); }

        const_iterator& operator++() noexcept { return ++at_, *this; }
        const_iterator operator++(int) noexcept { return {at_++, chars_}; }
        const_iterator& operator--() noexcept { return --at_, *this; }
        const_iterator operator--(int) noexcept { return {at_--, chars_}; }
        const_iterator& operator+=(difference_type n) noexcept { return at_ += n, *this; }
        const_iterator& operator-=(difference_type n) noexcept { return at_ -= n, *this; }
        [[nodiscard]] friend const_iterator operator+(const_iterator it, difference_type n) noexcept { return it += n; }
        [[nodiscard]] friend const_iterator operator+(difference_type n, const_iterator it) noexcept { return it += n; }
        [[nodiscard]] friend const_iterator operator-(const_iterator it, difference_type n) noexcept { return it -= n; }
        [[nodiscard]] friend difference_type operator-(const const_iterator& a, const const_iterator& b) noexcept {
            return a.at_ - b.at_;
        }
        [[nodiscard]] friend bool operator==(const const_iterator& a, const const_iterator& b) noexcept {
            return a.at_ == b.at_;
        }
        [[nodiscard]] friend std::strong_ordering operator<=>(const const_iterator& a,
                                                              const const_iterator& b) noexcept {
            return std::compare_three_way{}(a.at_, b.at_);
        }

    private:
        friend class id_set;
        const_iterator(const entry* at, const char* chars) noexcept : at_(at), chars_(chars) {}

        const entry* at_ = nullptr;
        const char* chars_ = nullptr;
    };
    using iterator = const_iterator;
    using const_reverse_iterator = std::reverse_iterator<const_iterator>;
    using reverse_iterator = const_reverse_iterator;

    // ---- construction ---------------------------------------------------------------------

    id_set() = default;
    id_set(std::initializer_list<std::string_view> ids) { insert_range(ids); }
    id_set(sorted_unique_t, std::initializer_list<std::string_view> ids)
        : id_set(sorted_unique, ids.begin(), ids.end()) {}

    // Any range of string-like elements: std::set<std::string>, std::vector<std::string_view>, views.
    template <detail::id_range R>
    explicit id_set(R&& ids) {  // NOLINT(bugprone-forwarding-reference-overload): id_range excludes id_set
        insert_range(std::forward<R>(ids));
    }
    template <detail::id_range R>
    id_set(sorted_unique_t, R&& ids) : id_set(sorted_unique, std::ranges::begin(ids), std::ranges::end(ids)) {}

    template <std::input_iterator I, std::sentinel_for<I> S>
    requires std::convertible_to<std::iter_reference_t<I>, std::string_view> id_set(I first, S last) {
        insert(std::move(first), std::move(last));
    }
    // Input known to be sorted and unique: appended as it comes (checked in debug builds).
    template <std::input_iterator I, std::sentinel_for<I> S>
    requires std::convertible_to<std::iter_reference_t<I>, std::string_view> id_set(sorted_unique_t, I first, S last) {
        for (; first != last; ++first) {
            append(*first);
        }
#ifndef NDEBUG
        if (!sorted_from(0)) {
            detail::raise(std::invalid_argument("ecmeta::id_set: input tagged sorted_unique is not sorted and unique"));
        }
#endif
    }

    // Copies hold only the live bytes, in order.
    id_set(const id_set& other) : entries_(other.entries_) {
        if (other.garbage_ == 0) {
            chars_ = other.chars_;
        } else {
            repack(other.chars_);
        }
    }
    id_set(id_set&& other) noexcept
        : entries_(std::move(other.entries_)),
          chars_(std::move(other.chars_)),
          garbage_(std::exchange(other.garbage_, 0)) {
        other.chars_.clear();
    }
    id_set& operator=(const id_set& other) {
        if (this != &other) {
            id_set copy(other);
            swap(copy);
        }
        return *this;
    }
    id_set& operator=(id_set&& other) noexcept {
        id_set moved(std::move(other));
        swap(moved);
        return *this;
    }
    id_set& operator=(std::initializer_list<std::string_view> ids) {
        clear();
        insert_range(ids);
        return *this;
    }
    ~id_set() = default;

    // ---- iteration and capacity -----------------------------------------------------------

    [[nodiscard]] const_iterator begin() const noexcept {
        return {entries_.data(), chars_.data()};
    }
    [[nodiscard]] const_iterator end() const noexcept {
        return {entries_.data() + entries_.size(), chars_.data()};
    }
    [[nodiscard]] const_iterator cbegin() const noexcept {
        return begin();
    }
    [[nodiscard]] const_iterator cend() const noexcept {
        return end();
    }
    [[nodiscard]] const_reverse_iterator rbegin() const noexcept {
        return const_reverse_iterator{end()};
    }
    [[nodiscard]] const_reverse_iterator rend() const noexcept {
        return const_reverse_iterator{begin()};
    }

    [[nodiscard]] bool empty() const noexcept {
        return entries_.empty();
    }
    [[nodiscard]] size_type size() const noexcept {
        return entries_.size();
    }
    [[nodiscard]] size_type max_size() const noexcept {
        return std::min(entries_.max_size(), size_type{max_bytes()});
    }
    // The most bytes all ids together may hold.
    [[nodiscard]] static constexpr size_type max_bytes() noexcept {
        return std::numeric_limits<std::uint32_t>::max();
    }

    // Room for `ids` ids of `bytes` bytes in all without reallocating.
    void reserve(size_type ids, size_type bytes = 0) {
        entries_.reserve(ids);
        chars_.reserve(std::min(bytes, max_bytes()));
    }
    void shrink_to_fit() {
        if (garbage_ != 0) {
            id_set(*this).swap(*this);
        }
        entries_.shrink_to_fit();
        chars_.shrink_to_fit();
    }
    void clear() noexcept {
        entries_.clear();
        chars_.clear();
        garbage_ = 0;
    }

    // ---- lookup ---------------------------------------------------------------------------

    [[nodiscard]] const_iterator lower_bound(std::string_view id) const noexcept {
        return at(bound(detail::id_head(id), id));
    }
    [[nodiscard]] const_iterator upper_bound(std::string_view id) const noexcept {
        const std::size_t i = bound(detail::id_head(id), id);
        return at(i < size() && view(i) == id ? i + 1 : i);
    }
    [[nodiscard]] std::pair<const_iterator, const_iterator> equal_range(std::string_view id) const noexcept {
        const auto first = lower_bound(id);
        return {first, first != end() && *first == id ? first + 1 : first};
    }
    [[nodiscard]] const_iterator find(std::string_view id) const noexcept {
        const std::uint64_t head = detail::id_head(id);
        const std::size_t i = bound(head, id);
        return i < size() && entries_[i].head == head && view(i) == id ? at(i) : end();
    }
    [[nodiscard]] bool contains(std::string_view id) const noexcept {
        return find(id) != end();
    }
    [[nodiscard]] size_type count(std::string_view id) const noexcept {
        return contains(id) ? 1 : 0;
    }

    // ---- modifiers ------------------------------------------------------------------------

    std::pair<iterator, bool> insert(std::string_view id) {
        const std::uint64_t head = detail::id_head(id);
        const std::size_t i = bound(head, id);
        if (i < size() && entries_[i].head == head && view(i) == id) {
            return {at(i), false};
        }
        const entry e = store(head, id);
        entries_.insert(entries_.begin() + static_cast<difference_type>(i), e);
        return {at(i), true};
    }
    // As insert(id); a hint at the id's place (as std::inserter gives in sorted order) spares the search.
    iterator insert(const_iterator hint, std::string_view id) {
        const std::uint64_t head = detail::id_head(id);
        std::size_t i = index(hint);
        if ((i < size() && compare(i, head, id) <= 0) || (i > 0 && compare(i - 1, head, id) >= 0)) {
            return insert(id).first;
        }
        entries_.insert(entries_.begin() + static_cast<difference_type>(i), store(head, id));
        return at(i);
    }
    // Appends everything, then sorts and deduplicates once. Where that moved ids, their bytes are
    // laid out again in order, so that walking the set (an encode, a fold) reads memory in order.
    template <std::input_iterator I, std::sentinel_for<I> S>
    requires std::convertible_to<std::iter_reference_t<I>, std::string_view>
    void insert(I first, S last) {
        const std::size_t sorted = size();
        for (; first != last; ++first) {
            append(*first);
        }
        if (normalize(sorted)) {
            std::string from;
            from.swap(chars_);
            repack(from);
            garbage_ = 0;
        }
    }
    template <std::ranges::input_range R>
    requires std::convertible_to<std::ranges::range_reference_t<R>, std::string_view>
    void insert_range(R&& ids) {
        if constexpr (std::ranges::sized_range<R>) {
            entries_.reserve(size() + std::ranges::size(ids));
        }
        insert(std::ranges::begin(ids), std::ranges::end(ids));
    }
    void insert(std::initializer_list<std::string_view> ids) {
        insert_range(ids);
    }

    size_type erase(std::string_view id) {
        const auto it = find(id);
        if (it == end()) {
            return 0;
        }
        erase(it);
        return 1;
    }
    iterator erase(const_iterator position) {
        return erase(position, position + 1);
    }
    iterator erase(const_iterator first, const_iterator last) {
        const std::size_t from = index(first);
        const auto begin_at = entries_.begin() + static_cast<difference_type>(from);
        const auto end_at = entries_.begin() + static_cast<difference_type>(index(last));
        for (auto e = begin_at; e != end_at; ++e) {
            garbage_ += e->size;
        }
        entries_.erase(begin_at, end_at);
        reclaim_if_mostly_garbage();
        return at(from);
    }
    template <class Predicate>
    friend size_type erase_if(id_set& set, Predicate pred) {
        const std::size_t before = set.size();
        std::size_t kept = 0;
        for (std::size_t i = 0; i < before; ++i) {
            if (pred(set.view(i))) {
                set.garbage_ += set.entries_[i].size;
            } else {
                set.entries_[kept++] = set.entries_[i];
            }
        }
        set.entries_.resize(kept);
        set.reclaim_if_mostly_garbage();
        return before - kept;
    }

    void swap(id_set& other) noexcept {
        entries_.swap(other.entries_);
        chars_.swap(other.chars_);
        std::swap(garbage_, other.garbage_);
    }
    friend void swap(id_set& a, id_set& b) noexcept {
        a.swap(b);
    }

    // ---- comparison, in std::set<std::string>'s order -------------------------------------

    [[nodiscard]] friend bool operator==(const id_set& a, const id_set& b) noexcept {
        if (a.size() != b.size()) {
            return false;
        }
        for (std::size_t i = 0; i < a.size(); ++i) {
            const entry& x = a.entries_[i];
            const entry& y = b.entries_[i];
            if (x.head != y.head || x.size != y.size || a.view(i) != b.view(i)) {
                return false;
            }
        }
        return true;
    }
    [[nodiscard]] friend std::strong_ordering operator<=>(const id_set& a, const id_set& b) noexcept {
        const std::size_t common = std::min(a.size(), b.size());
        for (std::size_t i = 0; i < common; ++i) {
            const int order = detail::compare_ids(a.entries_[i].head, a.view(i), b.entries_[i].head, b.view(i));
            if (order != 0) {
                return order < 0 ? std::strong_ordering::less : std::strong_ordering::greater;
            }
        }
        return a.size() <=> b.size();
    }

private:
    friend struct detail::id_set_access;

    [[nodiscard]] std::string_view view(std::size_t i) const noexcept {
        return {chars_.data() + entries_[i].offset, entries_[i].size};
    }
    [[nodiscard]] const_iterator at(std::size_t i) const noexcept {
        return {entries_.data() + i, chars_.data()};
    }
    [[nodiscard]] std::size_t index(const_iterator it) const noexcept {
        return static_cast<std::size_t>(it.at_ - entries_.data());
    }
    [[nodiscard]] int compare(std::size_t i, std::uint64_t head, std::string_view id) const noexcept {
        return detail::compare_ids(entries_[i].head, view(i), head, id);
    }

    // The first index whose id is not below (head, id).
    [[nodiscard]] std::size_t bound(std::uint64_t head, std::string_view id) const noexcept {
        std::size_t lo = 0;
        std::size_t n = size();
        while (n > 0) {
            const std::size_t half = n / 2;
            if (compare(lo + half, head, id) < 0) {
                lo += half + 1;
                n -= half + 1;
            } else {
                n = half;
            }
        }
        return lo;
    }

    // Copies an id's bytes to the end of the buffer; returns its entry.
    entry store(std::uint64_t head, std::string_view id) {
        if (id.size() > max_bytes() - chars_.size()) {
            if (garbage_ != 0) {
                id_set(*this).swap(*this);
            }
            if (id.size() > max_bytes() - chars_.size()) {
                detail::raise(std::length_error("ecmeta::id_set: " + std::to_string(id.size()) +
                                                " more bytes of ids past the " + std::to_string(chars_.size()) +
                                                " held would exceed max_bytes() (" + std::to_string(max_bytes()) +
                                                ")"));
            }
        }
        const entry e{head, static_cast<std::uint32_t>(chars_.size()), static_cast<std::uint32_t>(id.size())};
        chars_.append(id);
        return e;
    }

    // Adds an id at the end, whatever its order; normalize() restores the invariant.
    void append(std::string_view id) {
        entries_.push_back(store(detail::id_head(id), id));
    }

    [[nodiscard]] bool less(const entry& a, const entry& b) const noexcept {
        return detail::compare_ids(a.head, {chars_.data() + a.offset, a.size}, b.head,
                                   {chars_.data() + b.offset, b.size}) < 0;
    }

    [[nodiscard]] bool sorted_from(std::size_t first) const noexcept {
        for (std::size_t i = first == 0 ? 1 : first; i < size(); ++i) {
            if (!less(entries_[i - 1], entries_[i])) {
                return false;
            }
        }
        return true;
    }

    // Entries [0, sorted) are sorted and unique; the rest were appended: sort, merge, deduplicate.
    // False where every id was already in place (canonical input).
    bool normalize(std::size_t sorted, bool reclaim = true) {
        if (sorted_from(sorted)) {
            return false;
        }
        const auto by_bytes = [this](const entry& a, const entry& b) { return less(a, b); };
        const auto middle = entries_.begin() + static_cast<difference_type>(sorted);
        std::sort(middle, entries_.end(), by_bytes);
        std::inplace_merge(entries_.begin(), middle, entries_.end(), by_bytes);
        std::size_t kept = 0;
        for (std::size_t i = 0; i < size(); ++i) {
            if (kept != 0 && !less(entries_[kept - 1], entries_[i])) {
                garbage_ += entries_[i].size;  // a duplicate
            } else {
                entries_[kept++] = entries_[i];
            }
        }
        entries_.resize(kept);
        if (reclaim) {
            reclaim_if_mostly_garbage();
        }
        return true;
    }

    void reclaim_if_mostly_garbage() {
        if (garbage_ > chars_.size() - garbage_) {
            id_set(*this).swap(*this);
        }
    }

    // Rebuilds the buffer from `from` with only the live bytes, in entry order.
    void repack(const std::string& from) {
        std::size_t live = 0;
        for (const entry& e : entries_) {
            live += e.size;
        }
        chars_.reserve(live);
        for (entry& e : entries_) {
            const std::size_t offset = chars_.size();
            chars_.append(from, e.offset, e.size);
            e.offset = static_cast<std::uint32_t>(offset);
        }
    }

    std::vector<entry> entries_;
    std::string chars_;
    std::size_t garbage_ = 0;  // bytes in chars_ that no entry refers to
};

namespace detail {

// What the decoders and the fold may do that users may not: break the order for a while, read
// the entries, and build a set from parts of others.
struct id_set_access {
    using entry = id_set::entry;

    [[nodiscard]] static const std::vector<entry>& entries(const id_set& s) noexcept { return s.entries_; }
    [[nodiscard]] static const char* chars(const id_set& s) noexcept { return s.chars_.data(); }
    // Every live id's bytes, in no order, and any that erased ids left behind.
    [[nodiscard]] static std::string_view bytes(const id_set& s) noexcept { return s.chars_; }

    // Decoding: append every id as it comes, then sort and deduplicate once (a no-op for sorted input).
    static void append(id_set& s, std::string_view id) { s.append(id); }
    // Sorted and deduplicated in place: a repeated id's bytes stay as garbage until the next
    // clear, so that decoding into a warm set never allocates.
    static void finish(id_set& s) { static_cast<void>(s.normalize(0, false)); }
    // The same for a fresh set, which may allocate: where sorting moved ids (input out of order, as
    // a Python set gives them), their bytes are laid out again in order, as insert() does.
    static void finish_fresh(id_set& s) {
        if (s.normalize(0, false)) {
            std::string from;
            from.swap(s.chars_);
            s.repack(from);
            s.garbage_ = 0;
        }
    }
    [[nodiscard]] static std::size_t heap_bytes(const id_set& s) noexcept {
        return s.entries_.capacity() * sizeof(entry) + string_heap_bytes(s.chars_.capacity());
    }
    // The heap bytes a std::string of this capacity owns: none while it fits in the string itself.
    [[nodiscard]] static std::size_t string_heap_bytes(std::size_t capacity) noexcept {
        return capacity > std::string{}.capacity() ? capacity + 1 : 0;
    }

    // Building a result whose ids arrive in order, unique: room first, then one append each.
    static void reserve(id_set& s, std::size_t ids, std::size_t bytes) {
        s.entries_.reserve(ids);
        s.chars_.reserve(bytes);
    }
    // Decoding: room for `ids` ids, and for a guess of their bytes. The guess can overshoot, so
    // only a set that has never held an id takes it: a warmed set decoding fewer bytes of ids than
    // it holds room for never allocates, and one decoding more grows as a string does.
    static void reserve_guess(id_set& s, std::size_t ids, std::size_t guessed_bytes) {
        if (s.entries_.capacity() == 0) {
            s.chars_.reserve(guessed_bytes);
        }
        s.entries_.reserve(ids);
    }
    static void push_back(id_set& s, const entry& e, const char* chars) {
        s.entries_.push_back(s.store(e.head, {chars + e.offset, e.size}));
    }

    // Keeps only the entries at the given ascending indices; the others' bytes become garbage.
    template <class Indices>
    static void keep_only(id_set& s, const Indices& indices) {
        std::size_t live = 0;
        std::size_t kept = 0;
        for (const auto i : indices) {
            live += s.entries_[i].size;
            s.entries_[kept++] = s.entries_[i];
        }
        s.entries_.resize(kept);
        s.garbage_ = s.chars_.size() - live;
    }

    // Replaces the entries by `merged` (sorted, unique; each names the set that holds it), copying
    // into the buffer only the ids held by other sets.
    template <class Refs>
    static void assign(id_set& s, const Refs& merged) {
        std::size_t live = 0;
        std::size_t foreign = 0;
        for (const auto& r : merged) {
            live += r.e.size;
            foreign += r.owner == &s ? 0 : r.e.size;
        }
        if (foreign > id_set::max_bytes() - s.chars_.size()) {
            id_set fresh;  // past the limit with this buffer's garbage: start clean (or fail cleanly)
            reserve(fresh, merged.size(), live);
            for (const auto& r : merged) {
                push_back(fresh, r.e, r.chars);
            }
            s.swap(fresh);
            return;
        }
        s.chars_.reserve(s.chars_.size() + foreign);
        std::vector<entry> out;
        out.reserve(merged.size());
        for (const auto& r : merged) {
            out.push_back(r.owner == &s ? r.e : s.store(r.e.head, {r.chars + r.e.offset, r.e.size}));
        }
        s.entries_.swap(out);
        s.garbage_ = s.chars_.size() - live;
    }
};

}  // namespace detail
}  // namespace ecmeta
