# Flags for ecmeta's own tests, examples, benchmarks and fuzzers — never for the library targets.
add_library(ecmeta_developer_flags INTERFACE)
target_compile_options(ecmeta_developer_flags INTERFACE -Wall -Wextra -Wpedantic -Wconversion -Wshadow)
if(ECMETA_WARNINGS_AS_ERRORS)
  target_compile_options(ecmeta_developer_flags INTERFACE -Werror)
endif()
if(ECMETA_SANITIZE)
  target_compile_options(ecmeta_developer_flags INTERFACE -fsanitize=${ECMETA_SANITIZE} -fno-omit-frame-pointer
                                                          -fno-sanitize-recover=all)
  target_link_options(ecmeta_developer_flags INTERFACE -fsanitize=${ECMETA_SANITIZE})
endif()

# Catch2 for the tests and the examples, found or fetched once for every directory.
if(ECMETA_BUILD_TESTS OR ECMETA_BUILD_EXAMPLES)
  include(cmake/catch2.cmake)
endif()
