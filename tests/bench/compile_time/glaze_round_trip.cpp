// The compile-time comparison's glaze unit (C++23, as glaze 7 needs): the same four types through
// JSON and MessagePack.
#define GLZ_USE_STD_FORMAT_FLOAT 0  // libstdc++ 12 has no <format>
#include <glaze/glaze.hpp>

#include "types.hpp"

template <class T>
bool round_trip(const T& value) {
    std::string json;
    std::string packed;
    T from_json{};
    T from_msgpack{};
    return !glz::write_json(value, json) && !glz::read_json(from_json, json) && from_json == value &&
           !glz::write_msgpack(value, packed) && !glz::read_msgpack(from_msgpack, packed) && from_msgpack == value;
}

int main() {
    return round_trip(LoadSpec{}) && round_trip(PushSpec{}) && round_trip(ConnectorMetadata{}) &&
                   round_trip(WorkerMetadata{})
               ? 0
               : 1;
}
