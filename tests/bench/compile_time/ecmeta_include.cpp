// The compile-time comparison: ecmeta's umbrella header alone.
#include <ecmeta/ecmeta.hpp>

int main() {}
