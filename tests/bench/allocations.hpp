// Heap allocations of the whole bench process so far (allocations.cpp replaces operator new).
#pragma once

#include <cstddef>

namespace ecmeta_bench {
std::size_t allocations() noexcept;
}
