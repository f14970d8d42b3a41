// Catch2 2.x has no main library: this is it.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
