// ecmeta — operator<< for the four types and id_set: their canonical JSON. In the types' own
// namespace, so that any framework that prints through operator<< (doctest, Boost.Test, gtest
// without the kit) finds it by ADL with no adapter. <ecmeta/json.hpp> includes it. Standard
// library only.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "version.hpp"

#include <ostream>

#include "detail/text.hpp"

namespace ecmeta::inline ECMETA_ABI {

// A value as canonical JSON (a note, never a throw, for a string that is not UTF-8).
template <class T>
requires detail::printable<T> std::ostream& operator<<(std::ostream& os, const T& value) {
    return os << detail::canonical_text(value);
}

}  // namespace ecmeta
