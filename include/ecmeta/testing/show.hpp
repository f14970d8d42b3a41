// ecmeta::testing — how test output shows a value: its canonical JSON.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

#include "../json.hpp"

namespace ecmeta::testing {

// Canonical JSON, or a note saying why there is none (a test may build a string that is not UTF-8).
template <class T>
requires ecmeta::detail::wire_type<T>
[[nodiscard]] std::string show(const T& value) {
    try {
        return ecmeta::encode(value);
    } catch (const ecmeta::encode_error& e) {
        return std::string{"<no wire form: "} + e.what() + ">";
    }
}

}  // namespace ecmeta::testing
