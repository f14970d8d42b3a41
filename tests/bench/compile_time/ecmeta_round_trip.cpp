// The compile-time comparison's ecmeta unit: the four types through JSON and MessagePack.
#include <ecmeta/ecmeta.hpp>

template <class T>
bool round_trip(const T& value) {
    return ecmeta::decode<T>(ecmeta::encode(value)) == value &&
           ecmeta::decode_msgpack<T>(ecmeta::encode_msgpack(value)) == value;
}

int main() {
    return round_trip(ecmeta::ECMooncakeLoadSpec{}) && round_trip(ecmeta::ECMooncakePushSpec{}) &&
                   round_trip(ecmeta::ECMooncakeConnectorMetadata{}) && round_trip(ecmeta::ECMooncakeWorkerMetadata{})
               ? 0
               : 1;
}
