// ecmeta::testing — how test output shows a value: its canonical JSON.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "../version.hpp"

#include <string>

#include "../detail/text.hpp"

namespace ecmeta::inline ECMETA_ABI::testing {

// Canonical JSON, or a note saying why there is none (a test may build a string that is not UTF-8).
template <class T>
requires ecmeta::detail::printable<T>
[[nodiscard]] std::string show(const T& value) {
    return ecmeta::detail::canonical_text(value);
}

}  // namespace ecmeta::testing
