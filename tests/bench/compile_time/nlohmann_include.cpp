// The compile-time comparison: nlohmann's header alone.
#include <nlohmann/json.hpp>

int main() {}
