// ecmeta — the storage a decode into a kept value keeps for the next one, owned by the engine.
// Standard library only.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "version.hpp"

#include <cstddef>
#include <limits>

#include "detail/schema.hpp"
#include "detail/storage.hpp"

namespace ecmeta::inline ECMETA_ABI {

namespace detail {
struct storage_access;
}  // namespace detail

// What decode_into and decode_msgpack_into keep between decodes into values of type T: the
// elements a shortened list dropped and the value an optional lost to null, with their buffers;
// for each field, the most elements and the longest string it has held, which every list and
// string decoded there is given room for; and the buffer a JSON string with escapes is decoded
// into. With it, a value warmed on a message allocates nothing for any later message whose every
// list and string is no longer than the longest its field held (docs/decoding.md).
//
// The calls without one use one per thread and type; pass your own to give each connection or
// thread its own, to see what it keeps and to bound it. One decode at a time may use it: like a
// std::string, it may move between threads but is not shared by them. Any number of values of
// type T may be decoded into through one storage.
//
// What it keeps is what the values decoded through it have dropped, values for the nulls of a list
// of reports (no more than that list's longest length), each list and string at its field's mark,
// and a buffer of the longest string. The room the marks give, in the values and here, is given
// only while it stays within four times the largest input decoded (at least 1 MiB); a limit, when
// set, bounds what is kept here: a decode after which it would hold more frees it all.
template <wire_type T>
class decode_storage {
public:
    decode_storage() = default;
    // Keeps at most `limit` bytes between decodes. With a limit, each decode ends by measuring what
    // is kept: a walk of the elements kept in it.
    explicit decode_storage(std::size_t limit) noexcept { kept_.set_limit(limit); }

    // Heap bytes it holds now (not counting the values decoded into).
    [[nodiscard]] std::size_t bytes() const noexcept { return kept_.bytes(); }

    [[nodiscard]] std::size_t limit() const noexcept { return kept_.limit(); }
    void set_limit(std::size_t limit) noexcept { kept_.set_limit(limit); }
    void remove_limit() noexcept { kept_.set_limit(std::numeric_limits<std::size_t>::max()); }

    // Frees all it holds and forgets the marks: the next decodes start over, as with a new one.
    void release() noexcept { kept_.release(); }

private:
    friend struct detail::storage_access;
    detail::storage<T> kept_{};
};

// Frees what the calls without a decode_storage keep on the calling thread, for every type. For a
// long-running process after an outsized message, which would otherwise keep them at its size.
inline void release_thread_buffers() noexcept {
    for (auto* release : detail::thread_storages()) {
        release();
    }
}

namespace detail {

struct storage_access {
    template <class T>
    static storage<T>& of(decode_storage<T>& s) noexcept {
        return s.kept_;
    }
};

}  // namespace detail
}  // namespace ecmeta
