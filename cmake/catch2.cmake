# Catch2 for ecmeta's tests and examples, in one place. Found (Debian's 2.13, or any installed 3.x),
# or with ECMETA_FETCH_CATCH2 built from a release archive (Catch2 3 is not packaged here).
# Defines ecmeta_catch2: Catch2 and a main, whichever major version it is.
include_guard(GLOBAL)

option(ECMETA_FETCH_CATCH2 "Build Catch2 from ECMETA_CATCH2_URL instead of find_package(Catch2)" OFF)
set(ECMETA_CATCH2_URL "" CACHE STRING
    "The Catch2 v3.7.1 release archive ECMETA_FETCH_CATCH2 builds (a URL or file:// path); unset, nothing is fetched")
set(ECMETA_CATCH2_SHA256 "1a7b0cf2fc4bca1a7f443ad581f2ae327913bb2da41cdc3ed5a3d29d9f29f0ae"
    CACHE STRING "SHA-256 of ECMETA_CATCH2_URL's archive")

if(ECMETA_FETCH_CATCH2)
  if(NOT ECMETA_CATCH2_URL)
    message(FATAL_ERROR "ECMETA_FETCH_CATCH2 builds Catch2 from ECMETA_CATCH2_URL: set it to the v3.7.1 release archive")
  endif()
  include(FetchContent)
  FetchContent_Declare(Catch2 URL "${ECMETA_CATCH2_URL}" URL_HASH "SHA256=${ECMETA_CATCH2_SHA256}"
                              DOWNLOAD_EXTRACT_TIMESTAMP TRUE)
  FetchContent_MakeAvailable(Catch2)
  set(ecmeta_catch2_modules "${catch2_SOURCE_DIR}/extras")
else()
  find_package(Catch2 QUIET)
  set(ecmeta_catch2_modules "${Catch2_DIR}")
endif()

# Catch2 3 is a compiled library with a main library; Catch2 2 is one header, whose main a test
# program defines itself (CATCH_CONFIG_MAIN, as examples/scheduler_test does) or, for ecmeta's
# suite, gets from here. (Debian's 2.13 also ships a main library, compiled for its own standard
# library and processor: the header alone builds with any, libc++ and cross compilers too.)
#   ecmeta_catch2_kit: what a user of the test kit links (Catch2WithMain, or the Catch2 2 header)
#   ecmeta_catch2: the same, with a main on either version
if(TARGET Catch2::Catch2WithMain AND (ECMETA_FETCH_CATCH2 OR NOT Catch2_VERSION VERSION_LESS 3))
  add_library(ecmeta_catch2_kit INTERFACE)
  target_link_libraries(ecmeta_catch2_kit INTERFACE Catch2::Catch2WithMain)
  add_library(ecmeta_catch2 INTERFACE)
  target_link_libraries(ecmeta_catch2 INTERFACE ecmeta_catch2_kit)
elseif(TARGET Catch2::Catch2)
  add_library(ecmeta_catch2_kit INTERFACE)
  target_link_libraries(ecmeta_catch2_kit INTERFACE Catch2::Catch2)
  add_library(ecmeta_catch2_main STATIC "${PROJECT_SOURCE_DIR}/tests/support/main.cpp")
  target_link_libraries(ecmeta_catch2_main PRIVATE Catch2::Catch2)
  target_compile_features(ecmeta_catch2_main PRIVATE cxx_std_20) # as the tests: Catch2 2 adapts to the standard
  add_library(ecmeta_catch2 INTERFACE)
  target_link_libraries(ecmeta_catch2 INTERFACE ecmeta_catch2_kit ecmeta_catch2_main)
endif()
if(TARGET ecmeta_catch2)
  list(APPEND CMAKE_MODULE_PATH "${ecmeta_catch2_modules}") # include(Catch): catch_discover_tests
endif()
