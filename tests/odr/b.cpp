// The second translation unit of the link test: see a.cpp.
#include "odr.hpp"

std::string odr_encode_b(const ecmeta::ECMooncakeConnectorMetadata& step) {
    return ecmeta::encode(step);
}

ecmeta::ECMooncakeConnectorMetadata odr_decode_b(const std::string& json) {
    return ecmeta::decode<ecmeta::ECMooncakeConnectorMetadata>(json);
}
