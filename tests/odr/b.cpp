// The second translation unit of the link test: see a.cpp.
#include <ecmeta/ecmeta.hpp>
#include <ecmeta/nlohmann.hpp>
#include <ecmeta/testing/catch.hpp>
#include <ecmeta/testing/rapidcheck.hpp>
