// The JSON reader's helpers against their definitions, on generated input: the number grammar's
// overflow test.
#include "test.hpp"

#include <cmath>
#include <cstdlib>

using namespace ecmeta_test;

TEST_CASE("overflows_double is strtod's overflow", "[json_reader][property]") {
    ECMETA_PROP("overflows_double is strtod's overflow", [] {
        const auto digits = *rc::gen::container<std::string>(rc::gen::inRange('0', static_cast<char>('9' + 1)));
        const auto fraction = *rc::gen::container<std::string>(rc::gen::inRange('0', static_cast<char>('9' + 1)));
        const int exponent = *rc::gen::inRange(-400, 400);
        std::string n = "1" + digits;  // no leading zero, as JSON's grammar wants
        if (!fraction.empty()) {
            n += "." + fraction;
        }
        n += "e" + std::to_string(exponent);
        RC_ASSERT(ecmeta::detail::json::overflows_double(n.data(), n.data() + n.size()) ==
                  std::isinf(std::strtod(n.c_str(), nullptr)));
    });
}
