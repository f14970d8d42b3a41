// Two translation units (this and b.cpp) include every header and are linked into ecmeta_tests:
// a definition missing its `inline` fails that link, which is the whole test.
#include <ecmeta/ecmeta.hpp>
#include <ecmeta/nlohmann.hpp>
#include <ecmeta/testing/catch.hpp>
#include <ecmeta/testing/rapidcheck.hpp>
