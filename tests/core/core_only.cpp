// ecmeta::core is standard library only: its headers must not pull in nlohmann_json. Built as part
// of every test build, linked to ecmeta::core alone (the build is the check; the consumers run it).
#include <ecmeta/ecmeta.hpp>
#include <ecmeta/ostream.hpp>

#ifdef NLOHMANN_JSON_VERSION_MAJOR
#error "an ecmeta::core header included nlohmann_json"
#endif
