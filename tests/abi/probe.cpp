// Built twice into one program: against ecmeta's headers, and against a copy with another version
// number and one other word in an error message (tests/CMakeLists.txt makes it). ECMETA_PROBE names
// this unit's function.
#include <ecmeta/json.hpp>

#include <string>

std::string ECMETA_PROBE() {
    std::string seen = std::to_string(ECMETA_VERSION_MAJOR) + "." + std::to_string(ECMETA_VERSION_MINOR) + "." +
                       std::to_string(ECMETA_VERSION_PATCH);
    try {
        static_cast<void>(ecmeta::decode<ecmeta::ECMooncakeLoadSpec>("{}"));
    } catch (const ecmeta::decode_error& e) {
        seen += " ";
        seen += e.message();
    }
    return seen;
}
