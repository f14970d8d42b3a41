// ecmeta — operator<< for the four types and id_set: their canonical JSON. In the types' own
// namespace, so that any framework that prints through operator<< (doctest, Boost.Test, gtest
// without the kit) finds it by ADL with no adapter. <ecmeta/json.hpp> includes it. Standard
// library only.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "version.hpp"

#include <iosfwd>
#include <string>

#include "detail/text.hpp"

namespace ecmeta::inline ECMETA_ABI {

// A value as canonical JSON (a note, never a throw, for a string that is not UTF-8). A template on
// the stream, so that only <iosfwd> is needed here: the stream is complete wherever it is used.
template <class Traits, class T>
requires detail::printable<T>
auto& operator<<(std::basic_ostream<char, Traits>& os, const T& value) {
    return os << detail::canonical_text(value);
}

}  // namespace ecmeta
