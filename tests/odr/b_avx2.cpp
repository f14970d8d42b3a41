// tests/odr/b.cpp again, built with -mavx2 for ecmeta_odr_avx2 (a source file's flags hold for every
// target in its directory, so this copy carries them).
#include "b.cpp"
