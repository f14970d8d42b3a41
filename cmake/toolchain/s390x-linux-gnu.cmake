# Debian's g++-s390x-linux-gnu (big-endian), run under qemu-s390x-static: see debian-cross.cmake.
set(ecmeta_cross_arch s390x)
include(${CMAKE_CURRENT_LIST_DIR}/debian-cross.cmake)
