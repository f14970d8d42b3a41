#include <ecmeta/ecmeta.hpp>

#include <cstdio>
#include <optional>
#include <vector>

int main() {
    using W = ecmeta::ECMooncakeWorkerMetadata;
    const auto ranks = ecmeta::decode<std::vector<std::optional<W>>>(R"([{"loaded":["a","b"]},null,{"loaded":["b"]}])");
    const auto folded = ecmeta::aggregate(ranks);
    const auto text = ecmeta::encode(*folded);
    std::puts(text.c_str());
    return text == R"({"loaded":["b"],"failed_loads":[],"reclaimed":[],"pending_saves":false,"failed_saves":[]})" ? 0
                                                                                                                  : 1;
}
