// Two versions of ecmeta in one program keep their own behaviour: each unit's decode words its
// error with its own headers' message. Without the versioned inline namespace the linker would
// keep one definition of each inline function for both (the units are built at -O0, so the calls
// stay calls).
#include <ecmeta/version.hpp>

#include <cstdio>
#include <string>

std::string probe_this_version();
std::string probe_other_version();

int main() {
    const std::string self = probe_this_version();
    const std::string other = probe_other_version();
    std::printf("this version:  %s\nother version: %s\n", self.c_str(), other.c_str());
    const std::string version = std::to_string(ECMETA_VERSION_MAJOR) + "." + std::to_string(ECMETA_VERSION_MINOR) +
                                "." + std::to_string(ECMETA_VERSION_PATCH) + " ";
    const bool ok = self.starts_with(version) && self.ends_with("(required key missing)") &&
                    other.starts_with(std::to_string(ECMETA_VERSION_MAJOR) + ".99.") &&
                    other.ends_with("(the other version)");
    return ok ? 0 : 1;
}
