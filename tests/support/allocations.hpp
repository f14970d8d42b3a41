// Heap allocations of the whole process so far (allocations.cpp replaces operator new).
#pragma once

#include <cstddef>

namespace ecmeta_support {
std::size_t allocations() noexcept;
}
