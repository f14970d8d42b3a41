// ecmeta::testing — Catch2 printing of the four types as canonical JSON, so a failing
// REQUIRE(a == b) shows both values. Works with Catch2 2.13 (catch2/catch.hpp) and 3.x.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

#if __has_include(<catch2/catch_tostring.hpp>)
#include <catch2/catch_tostring.hpp>  // Catch2 3.x
#else
#include <catch2/catch.hpp>  // Catch2 2.x: single header
#endif

#include "../metadata.hpp"
#include "show.hpp"

namespace Catch {

template <>
struct StringMaker<ecmeta::ECMooncakeLoadSpec> {
    static std::string convert(const ecmeta::ECMooncakeLoadSpec& v) { return ecmeta::testing::show(v); }
};

template <>
struct StringMaker<ecmeta::ECMooncakePushSpec> {
    static std::string convert(const ecmeta::ECMooncakePushSpec& v) { return ecmeta::testing::show(v); }
};

template <>
struct StringMaker<ecmeta::ECMooncakeConnectorMetadata> {
    static std::string convert(const ecmeta::ECMooncakeConnectorMetadata& v) { return ecmeta::testing::show(v); }
};

template <>
struct StringMaker<ecmeta::ECMooncakeWorkerMetadata> {
    static std::string convert(const ecmeta::ECMooncakeWorkerMetadata& v) { return ecmeta::testing::show(v); }
};

}  // namespace Catch
