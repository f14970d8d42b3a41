# Cross-compiling with Debian's cross compilers (g++-<arch>-linux-gnu), the programs and tests run
# under qemu-user (qemu-user-static): include()d by <arch>-linux-gnu.cmake, which sets
# ecmeta_cross_arch. What the suite takes from the build machine is header-only (Catch2 2,
# nlohmann_json, CLI11, from /usr/include); no library compiled for the build machine is linked.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR ${ecmeta_cross_arch})
set(ecmeta_cross_triple ${ecmeta_cross_arch}-linux-gnu)
set(CMAKE_CXX_COMPILER ${ecmeta_cross_triple}-g++)
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-${ecmeta_cross_arch}-static -L /usr/${ecmeta_cross_triple})
set(CMAKE_FIND_ROOT_PATH /usr/${ecmeta_cross_triple})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH) # the header-only packages' CMake files
# Compiled for the build machine: never found.
foreach(package IN ITEMS rapidcheck GTest fmt cppzmq benchmark simdjson)
  set(CMAKE_DISABLE_FIND_PACKAGE_${package} ON)
endforeach()
