// ecmeta — storage a decode lets go of, kept on its thread for the next decode: the elements a
// shortened list drops and the value an optional loses to null. Moved there and back, each keeps
// its strings' and lists' buffers, so a value warmed on its largest message allocates nothing for
// any later message no larger, whatever the sizes in between. Standard library only.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "../version.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "exceptions.hpp"

namespace ecmeta::inline ECMETA_ABI::detail {

// How to empty every pool this thread has made (release_spares).
inline std::vector<void (*)() noexcept>& spare_pools() noexcept {
    thread_local std::vector<void (*)() noexcept> pools;
    return pools;
}

// This thread's spare values of type E. After each decode the pool keeps room for all the E the
// decoded value holds (hold_room in walker.hpp), so dropping them later never allocates; the
// room is never more than the items held plus what one value holds, whatever was decoded before.
template <class E>
struct spare_pool {
    std::vector<E> items;
    std::size_t wanted = 0;  // counted by hold_room's first walk, reserved by its second

    void reserve_wanted() {
        if (const std::size_t need = items.size() + wanted; need > items.capacity()) {
            items.reserve(need > 2 * items.capacity() ? need : 2 * items.capacity());
        }
        wanted = 0;
    }
};

template <class E>
spare_pool<E>& spares() {
    thread_local spare_pool<E> pool = [] {
        spare_pools().push_back([]() noexcept { spares<E>() = spare_pool<E>{}; });
        return spare_pool<E>{};
    }();
    return pool;
}

// Where the JSON reader decodes a string that has escapes, kept for the next decode on this thread
// (at the size of the longest such string so far), so that one allocates nothing for it.
inline std::string& escape_buffer() {
    thread_local std::string buffer = [] {
        spare_pools().push_back([]() noexcept { escape_buffer() = std::string{}; });
        return std::string{};
    }();
    return buffer;
}

// Frees every pool of the calling thread.
inline void release_spares() noexcept {
    for (auto* release : spare_pools()) {
        release();
    }
}

// Scalars have no storage to keep.
template <class E>
inline constexpr bool keeps_storage = !std::is_arithmetic_v<E>;

// Cuts `list` to n elements, keeping the dropped ones for a later grow(). Last first, so that
// growing the list again gives each place back the element it had (and its buffers' sizes).
template <class E>
void shorten(std::vector<E>& list, std::size_t n) {
    if constexpr (keeps_storage<E>) {
        if (n < list.size()) {
            std::vector<E>& pool = spares<E>().items;
            if_memory_allows([&] {  // if not, those left are freed below, as without a pool
                for (std::size_t i = list.size(); i-- > n;) {
                    pool.push_back(std::move(list[i]));
                }
            });
        }
    }
    list.erase(list.begin() + static_cast<std::ptrdiff_t>(n), list.end());
}

// Appends an element, a spare one when there is one (its old value is to be overwritten).
template <class E>
E& grow(std::vector<E>& list) {
    if constexpr (keeps_storage<E>) {
        spare_pool<E>& pool = spares<E>();
        if (!pool.items.empty()) {
            list.push_back(std::move(pool.items.back()));
            pool.items.pop_back();
            return list.back();
        }
    }
    return list.emplace_back();
}

// Makes `o` null, keeping its value for a later fill().
template <class E>
void drop(std::optional<E>& o) noexcept {
    if (o) {
        if_memory_allows([&] { spares<E>().items.push_back(std::move(*o)); });  // if not, it is freed
        o.reset();
    }
}

// The value of `o`, made from a spare one when it is null (its old value is to be overwritten).
template <class E>
E& fill(std::optional<E>& o) {
    if (!o) {
        spare_pool<E>& pool = spares<E>();
        if (pool.items.empty()) {
            return o.emplace();
        }
        o.emplace(std::move(pool.items.back()));
        pool.items.pop_back();
    }
    return *o;
}

}  // namespace ecmeta::detail
