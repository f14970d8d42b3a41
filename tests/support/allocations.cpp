// Counts every heap allocation of the process, for the bench's `allocs` columns and the tests of
// decode_into. In a translation unit of its own, so that no caller's allocation is inlined against it.
// Every unaligned form is replaced, so that nothing this file allocates is freed by the runtime's
// own operator delete (AddressSanitizer reports that pairing as a mismatch); the aligned forms
// stay the runtime's, in pairs.
#include "allocations.hpp"

#include <atomic>
#include <cstdlib>
#include <new>

namespace {
std::atomic<std::size_t> count{0};
std::atomic<std::size_t> largest{0};

void* counted(std::size_t size) noexcept {
    count.fetch_add(1, std::memory_order_relaxed);
    for (std::size_t seen = largest.load(std::memory_order_relaxed);
         size > seen && !largest.compare_exchange_weak(seen, size, std::memory_order_relaxed);) {
    }
    return std::malloc(size == 0 ? 1 : size);
}
}  // namespace

std::size_t ecmeta_support::allocations() noexcept {
    return count.load(std::memory_order_relaxed);
}

std::size_t ecmeta_support::largest_allocation() noexcept {
    return largest.load(std::memory_order_relaxed);
}

void ecmeta_support::reset_largest_allocation() noexcept {
    largest.store(0, std::memory_order_relaxed);
}

void* operator new(std::size_t size) {
    if (void* p = counted(size)) {
        return p;
    }
    throw std::bad_alloc{};
}
void* operator new[](std::size_t size) {
    if (void* p = counted(size)) {
        return p;
    }
    throw std::bad_alloc{};
}
void* operator new(std::size_t size, const std::nothrow_t& /*tag*/) noexcept {
    return counted(size);
}
void* operator new[](std::size_t size, const std::nothrow_t& /*tag*/) noexcept {
    return counted(size);
}

void operator delete(void* p) noexcept {
    std::free(p);
}
void operator delete[](void* p) noexcept {
    std::free(p);
}
void operator delete(void* p, std::size_t /*size*/) noexcept {
    std::free(p);
}
void operator delete[](void* p, std::size_t /*size*/) noexcept {
    std::free(p);
}
void operator delete(void* p, const std::nothrow_t& /*tag*/) noexcept {
    std::free(p);
}
void operator delete[](void* p, const std::nothrow_t& /*tag*/) noexcept {
    std::free(p);
}
