# Debian's g++-aarch64-linux-gnu, run under qemu-aarch64-static: see debian-cross.cmake.
set(ecmeta_cross_arch aarch64)
include(${CMAKE_CURRENT_LIST_DIR}/debian-cross.cmake)
