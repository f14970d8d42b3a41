// The compile-time comparison's nlohmann unit: the same four types through JSON and MessagePack,
// with nlohmann's NLOHMANN_DEFINE_TYPE_* macros.
#include <nlohmann/json.hpp>

#include "types.hpp"

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(LoadSpec, mm_hash, nbytes, shape, dtype, transfer_id, local)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(PushSpec, mm_hash, nbytes, shape, dtype, consumer_zmq, transfer_id,
                                                request_id)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(ConnectorMetadata, loads, pushes, freed)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(WorkerMetadata, loaded, failed_loads, reclaimed, pending_saves,
                                                failed_saves)

template <class T>
bool round_trip(const T& value) {
    const nlohmann::json j = value;
    return nlohmann::json::parse(j.dump()).get<T>() == value &&
           nlohmann::json::from_msgpack(nlohmann::json::to_msgpack(j)).get<T>() == value;
}

int main() {
    return round_trip(LoadSpec{}) && round_trip(PushSpec{}) && round_trip(ConnectorMetadata{}) &&
                   round_trip(WorkerMetadata{})
               ? 0
               : 1;
}
