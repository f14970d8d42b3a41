// Two translation units (this and b.cpp) include every header and are linked into ecmeta_tests (and,
// with the RapidCheck kit, into ecmeta_glue_tests): a definition missing its `inline` fails that
// link. In ecmeta_odr_avx2, b.cpp is built with -mavx2 and this one without, and main.cpp checks
// that both write and read the same bytes: no flag changes what an inline function means.
#include "odr.hpp"

std::string odr_encode_a(const ecmeta::ECMooncakeConnectorMetadata& step) {
    return ecmeta::encode(step);
}

ecmeta::ECMooncakeConnectorMetadata odr_decode_a(const std::string& json) {
    return ecmeta::decode<ecmeta::ECMooncakeConnectorMetadata>(json);
}
