// What a.cpp and b.cpp each include (every header) and define.
#pragma once

#include <ecmeta/ecmeta.hpp>
#include <ecmeta/nlohmann.hpp>
#include <ecmeta/testing/catch.hpp>
#if ECMETA_TEST_PROPERTIES
#include <ecmeta/testing/rapidcheck.hpp>
#endif

#include <string>

std::string odr_encode_a(const ecmeta::ECMooncakeConnectorMetadata& step);
std::string odr_encode_b(const ecmeta::ECMooncakeConnectorMetadata& step);
ecmeta::ECMooncakeConnectorMetadata odr_decode_a(const std::string& json);
ecmeta::ECMooncakeConnectorMetadata odr_decode_b(const std::string& json);
