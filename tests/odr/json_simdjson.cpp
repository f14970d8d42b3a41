// Half of a program whose translation units decode JSON differently: this one on simdjson (built
// only when ecmeta::ecmeta carries ECMETA_USE_SIMDJSON=1), json_nlohmann.cpp without it.
#include <cstddef>
#include <string_view>

#include <ecmeta/json.hpp>

std::string_view ecmeta_odr_simdjson_backend() {
    return ecmeta::json_backend();
}

ecmeta::ECMooncakeWorkerMetadata ecmeta_odr_simdjson_decode(std::string_view json) {
    return ecmeta::decode<ecmeta::ECMooncakeWorkerMetadata>(json);
}

// The capacity of this thread's padded copy: only the simdjson decode ever makes one.
std::size_t ecmeta_odr_simdjson_copy_capacity() {
    return ecmeta::detail::this_thread_simdjson().copy_capacity;
}
