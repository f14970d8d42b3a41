#include <ecmeta/ecmeta.hpp>
#include <ecmeta/nlohmann.hpp>

#include <cstdio>
#include <optional>
#include <vector>

int main() {
    using W = ecmeta::ECMooncakeWorkerMetadata;
    const auto ranks = ecmeta::decode<std::vector<std::optional<W>>>(R"([{"loaded":["a","b"]},null,{"loaded":["b"]}])");
    const auto folded = ecmeta::aggregate(ranks);
    const auto text = ecmeta::encode(*folded);
    std::puts(text.c_str());
    // ecmeta::ecmeta brings ecmeta::nlohmann where nlohmann_json was found.
    const nlohmann::ordered_json dom = *folded;
    return text == R"({"loaded":["b"],"failed_loads":[],"reclaimed":[],"pending_saves":false,"failed_saves":[]})" &&
                   dom.dump() == text
               ? 0
               : 1;
}
