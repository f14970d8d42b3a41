// Counts every heap allocation of the process, for the bench's `allocs` columns and the tests of
// decode_into. In a translation unit of its own, so that no caller's allocation is inlined against it.
#include "allocations.hpp"

#include <atomic>
#include <cstdlib>
#include <new>

namespace {
std::atomic<std::size_t> count{0};
}  // namespace

std::size_t ecmeta_support::allocations() noexcept {
    return count.load(std::memory_order_relaxed);
}

void* operator new(std::size_t size) {
    count.fetch_add(1, std::memory_order_relaxed);
    if (void* p = std::malloc(size == 0 ? 1 : size)) {
        return p;
    }
    throw std::bad_alloc{};
}

void operator delete(void* p) noexcept {
    std::free(p);
}

void operator delete(void* p, std::size_t /*size*/) noexcept {
    std::free(p);
}
