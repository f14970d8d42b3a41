// ecmeta — the writers' output: the caller's std::string or byte vector, written through a raw
// cursor, grown geometrically, and cut to what was written at the end. Standard library only.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "../version.hpp"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "exceptions.hpp"
#include "inline.hpp"

namespace ecmeta::inline ECMETA_ABI::detail {

// Copies n bytes with no call out of line (a libc memcpy costs more than copying an id):
// 16-byte blocks, the last one overlapping, then 8, 4 and single bytes for shorter runs.
ECMETA_INLINE void copy_inline(const char* in, std::size_t n, void* to) noexcept {
    auto* out = static_cast<unsigned char*>(to);
    const auto block = [&]<std::size_t Width>(std::size_t at) ECMETA_INLINE_LAMBDA {
        unsigned char b[Width];
        std::memcpy(b, in + at, Width);
        std::memcpy(out + at, b, Width);
    };
    if (n >= 16) {
        for (std::size_t at = 0; at + 16 < n; at += 16) {
            block.template operator()<16>(at);
        }
        block.template operator()<16>(n - 16);
    } else if (n >= 8) {
        block.template operator()<8>(0);
        block.template operator()<8>(n - 8);
    } else if (n >= 4) {
        block.template operator()<4>(0);
        block.template operator()<4>(n - 4);
    } else {
        for (std::size_t i = 0; i < n; ++i) {
            out[i] = static_cast<unsigned char>(in[i]);
        }
    }
}

// Writes at a cursor into `out` from byte `start` on, as Byte (the writer's own byte type, which
// may alias any container's bytes). Each write first asks room(n) for an upper bound of what it
// writes, then writes with no check. Storage the container already has is used before any is
// allocated, so a warmed buffer allocates nothing.
template <class Container, class Byte>
class out_buffer {
public:
    using byte = Byte;

    out_buffer(Container& out, std::size_t start)
        : out_(out), base_(reinterpret_cast<byte*>(out.data())), cursor_(base_ + start) {
        // No resize here: the bytes a container already holds are written over without being zeroed.
        limit_ = base_ + out.size();
        if (limit_ < cursor_) {
            grow(0);
        }
    }
    out_buffer(const out_buffer&) = delete;
    out_buffer& operator=(const out_buffer&) = delete;
    ~out_buffer() = default;

    // A cursor with at least n bytes of room after it; the cursor of an earlier call is then stale.
    [[nodiscard]] ECMETA_INLINE byte* room(std::size_t n) {
        if (static_cast<std::size_t>(limit_ - cursor_) < n) [[unlikely]] {
            grow(n);
        }
        return cursor_;
    }
    // Where the room ends.
    [[nodiscard]] ECMETA_INLINE const byte* limit() const noexcept { return limit_; }
    // The bytes up to `to` are written.
    ECMETA_INLINE void commit(byte* to) noexcept { cursor_ = to; }

    ECMETA_INLINE void put(byte b) { *room(1) = b, ++cursor_; }
    ECMETA_INLINE void append(const void* bytes, std::size_t n) {
        std::memcpy(room(n), bytes, n);
        cursor_ += n;
    }

    // Cuts the container to what was written.
    void finish() { out_.resize(written()); }
    [[nodiscard]] std::size_t written() const noexcept { return static_cast<std::size_t>(cursor_ - base_); }

private:
    // Out of line, and given no `this`, which would keep the cursor out of registers: first the
    // storage the container has (only the bytes past its size are zeroed), then twice as much.
    [[gnu::noinline]] static byte* resize_for(Container& out, std::size_t at, std::size_t n) {
        std::size_t size = std::max(out.capacity(), std::size_t{64});
        while (size < at + n) {
            size *= 2;
        }
        out.resize(size);
        return reinterpret_cast<byte*>(out.data());
    }
    ECMETA_INLINE void grow(std::size_t n) {
        const std::size_t at = written();
        base_ = resize_for(out_, at, n);
        cursor_ = base_ + at;
        limit_ = base_ + out_.size();
    }

    Container& out_;
    byte* base_;
    byte* cursor_;
    byte* limit_ = nullptr;
};

// What the JSON and the MessagePack writer share: the buffer, whether every string was UTF-8,
// and a length the format cannot write.
template <class Container, class Byte>
class writer_base {
public:
    using buffer = out_buffer<Container, Byte>;

    explicit writer_base(buffer& out) noexcept : out_(out) {}

    // False when some string was not UTF-8: the output is no wire form and must be dropped.
    [[nodiscard]] bool ok() const noexcept { return ok_; }
    // A length too long for the format (0: none); the output must be dropped.
    [[nodiscard]] std::size_t beyond() const noexcept { return beyond_; }

protected:
    buffer& out_;
    bool ok_ = true;
    std::size_t beyond_ = 0;
};

}  // namespace ecmeta::detail
