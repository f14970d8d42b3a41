// ecmeta::testing — Catch2 printing of the four types as canonical JSON, so a failing
// REQUIRE(a == b) shows both values. Works with Catch2 2.13 (catch2/catch.hpp) and 3.x.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

// Which Catch2 this is, said once for the kit and for code that includes it: 2 or 3.
#if __has_include(<catch2/catch_tostring.hpp>)
#include <catch2/catch_tostring.hpp>
#define ECMETA_TESTING_CATCH2_MAJOR 3
#else
#include <catch2/catch.hpp>  // Catch2 2: the single header
#define ECMETA_TESTING_CATCH2_MAJOR 2
#endif

#include "../metadata.hpp"
#include "show.hpp"

namespace Catch {

// One constrained partial specialization for every message type (Catch2 2 and 3 declare the
// primary template as StringMaker<T, typename = void>).
template <class T>
requires ecmeta::detail::described<T>
struct StringMaker<T, void> {
    static std::string convert(const T& value) { return ecmeta::testing::show(value); }
};

}  // namespace Catch
