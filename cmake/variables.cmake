include(GNUInstallDirs)

# The oldest nlohmann_json ecmeta is built and tested against.
set(ecmeta_nlohmann_version 3.10.5)

set(ECMETA_NLOHMANN AUTO CACHE STRING
    "ecmeta::nlohmann, the nlohmann_json DOM integration: AUTO (when find_package finds nlohmann_json), ON (required), OFF")
set_property(CACHE ECMETA_NLOHMANN PROPERTY STRINGS AUTO ON OFF)
# ECMETA_USES_NLOHMANN: what this build has. A consumer without nlohmann_json gets everything else
# by default, also with CMAKE_DISABLE_FIND_PACKAGE_nlohmann_json=ON, which turns REQUIRED into an error.
string(TOUPPER "${ECMETA_NLOHMANN}" ecmeta_nlohmann_mode)
if(ecmeta_nlohmann_mode STREQUAL "AUTO")
  find_package(nlohmann_json ${ecmeta_nlohmann_version} QUIET)
  set(ECMETA_USES_NLOHMANN ${nlohmann_json_FOUND})
  if(NOT nlohmann_json_FOUND)
    message(STATUS "ecmeta: nlohmann_json ${ecmeta_nlohmann_version} not found: no ecmeta::nlohmann (ECMETA_NLOHMANN=ON would require it)")
  endif()
elseif(ecmeta_nlohmann_mode MATCHES "^(ON|TRUE|YES|Y|1)$")
  find_package(nlohmann_json ${ecmeta_nlohmann_version} REQUIRED)
  set(ECMETA_USES_NLOHMANN ON)
elseif(ecmeta_nlohmann_mode MATCHES "^(OFF|FALSE|NO|N|0)$")
  set(ECMETA_USES_NLOHMANN OFF)
  message(STATUS "ecmeta: no ecmeta::nlohmann (ECMETA_NLOHMANN is OFF)")
else()
  message(FATAL_ERROR "ECMETA_NLOHMANN is AUTO, ON or OFF, not '${ECMETA_NLOHMANN}'")
endif()
set(ECMETA_PYTHON AUTO CACHE STRING
    "ecmeta::pybind11 and the Python package ecmeta: AUTO (when pybind11 and Python's headers are found), ON (required), OFF")
set_property(CACHE ECMETA_PYTHON PROPERTY STRINGS AUTO ON OFF)

# Tests, examples and developer flags only when ecmeta is the project being built, never when a
# consumer pulls it in with add_subdirectory or FetchContent; they all need nlohmann_json, the
# tests' reference of verdicts.
set(ecmeta_develop OFF)
if(PROJECT_IS_TOP_LEVEL AND ECMETA_USES_NLOHMANN)
  set(ecmeta_develop ON)
endif()
option(ECMETA_BUILD_TESTS "Build ecmeta's tests" ${ecmeta_develop})
option(ECMETA_BUILD_EXAMPLES "Build the ecmeta command and examples" ${ecmeta_develop})
option(ECMETA_BUILD_BENCHMARKS "Build the benchmarks (needs Google Benchmark)" OFF)
option(ECMETA_BUILD_FUZZERS "Build libFuzzer targets (clang only)" OFF)
option(ECMETA_INSTALL "Generate ecmeta's install rules" ON)
option(ECMETA_WARNINGS_AS_ERRORS "Warnings are errors in ecmeta's own tests and examples" ${PROJECT_IS_TOP_LEVEL})
set(ECMETA_SANITIZE "" CACHE STRING "Sanitizers for ecmeta's own targets, e.g. address,undefined")

# As a subproject, ecmeta's headers are SYSTEM headers: they never trip the consumer's warnings.
set(ecmeta_warning_guard "")
if(NOT PROJECT_IS_TOP_LEVEL)
  set(ecmeta_warning_guard SYSTEM)
endif()
