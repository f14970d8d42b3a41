// Heap allocations of the whole process (allocations.cpp replaces operator new).
#pragma once

#include <cstddef>

namespace ecmeta_support {
// How many so far.
std::size_t allocations() noexcept;
// The largest size asked for since the last reset_largest_allocation().
std::size_t largest_allocation() noexcept;
void reset_largest_allocation() noexcept;
}  // namespace ecmeta_support
