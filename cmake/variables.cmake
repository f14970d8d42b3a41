include(GNUInstallDirs)

option(ECMETA_JSON "The JSON form, ecmeta::ecmeta and ecmeta::testing (need nlohmann_json); OFF: ecmeta::core only" ON)
set(ECMETA_USES_SIMDJSON OFF)
# Tests, examples and developer flags only when ecmeta is the project being built, never when a
# consumer pulls it in with add_subdirectory or FetchContent; they all need the JSON form.
set(ecmeta_develop OFF)
if(PROJECT_IS_TOP_LEVEL AND ECMETA_JSON)
  set(ecmeta_develop ON)
endif()
option(ECMETA_BUILD_TESTS "Build ecmeta's tests" ${ecmeta_develop})
option(ECMETA_BUILD_EXAMPLES "Build the ecmeta command and examples" ${ecmeta_develop})
option(ECMETA_BUILD_BENCHMARKS "Build the benchmarks (needs Google Benchmark)" OFF)
option(ECMETA_BUILD_FUZZERS "Build libFuzzer targets (clang only)" OFF)
option(ECMETA_INSTALL "Generate ecmeta's install rules" ON)
option(ECMETA_WARNINGS_AS_ERRORS "Warnings are errors in ecmeta's own tests and examples" ${PROJECT_IS_TOP_LEVEL})
set(ECMETA_SIMDJSON AUTO CACHE STRING "Decode JSON on simdjson: AUTO (when find_package finds it), ON (required), OFF")
set_property(CACHE ECMETA_SIMDJSON PROPERTY STRINGS AUTO ON OFF)
set(ECMETA_SANITIZE "" CACHE STRING "Sanitizers for ecmeta's own targets, e.g. address,undefined")

# As a subproject, ecmeta's headers are SYSTEM headers: they never trip the consumer's warnings.
set(ecmeta_warning_guard "")
if(NOT PROJECT_IS_TOP_LEVEL)
  set(ecmeta_warning_guard SYSTEM)
endif()
