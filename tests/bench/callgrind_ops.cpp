// The operations tests/bench/callgrind_ops.py counts under callgrind: `callgrind_ops NAME N` runs one
// of the bench's scenarios N times (after one run to warm it), so that N and 2N runs differ by N
// operations exactly. The inputs are the bench's (scenarios.hpp); `callgrind_ops` alone lists them.
// SPDX-License-Identifier: Apache-2.0
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <ecmeta/ecmeta.hpp>

#include "scenarios.hpp"

namespace {

using ecmeta::ECMooncakeConnectorMetadata;
using ecmeta::ECMooncakeWorkerMetadata;

volatile std::size_t sink = 0;  // what each run leaves, so that none is optimised away

std::size_t size_of(const ECMooncakeConnectorMetadata& v) {
    return v.loads.size();
}
std::size_t size_of(const ECMooncakeWorkerMetadata& v) {
    return v.loaded.size();
}

using operations = std::map<std::string, std::function<void()>>;

template <class T>
void codec(operations& ops, const std::string& name, const T& value) {
    const std::string json = ecmeta::encode(value);
    const std::vector<std::uint8_t> packed = ecmeta::encode_msgpack(value);
    ops["decode_" + name] = [json] { sink = sink + size_of(ecmeta::decode<T>(json)); };
    ops["decode_msgpack_" + name] = [packed] { sink = sink + size_of(ecmeta::decode_msgpack<T>(packed)); };
    ops["decode_into_" + name] = [json, out = T{}]() mutable {
        ecmeta::decode_into(json, out);
        sink = sink + size_of(out);
    };
    ops["decode_msgpack_into_" + name] = [packed, out = T{}]() mutable {
        ecmeta::decode_msgpack_into(packed, out);
        sink = sink + size_of(out);
    };
    ops["encode_" + name] = [value] { sink = sink + ecmeta::encode(value).size(); };
    ops["encode_into_" + name] = [value, out = std::string{}]() mutable {
        ecmeta::encode_into(value, out);
        sink = sink + out.size();
    };
    ops["encode_msgpack_" + name] = [value] { sink = sink + ecmeta::encode_msgpack(value).size(); };
}

// The bench's error path: a connector step of about 1 KiB whose last nbytes is negative.
void refusal(operations& ops) {
    std::string json;
    for (std::size_t n = 1; json.size() < 1024; ++n) {
        json = ecmeta::encode(ecmeta_bench::connector(n));
    }
    const std::size_t at = json.rfind(R"("nbytes":)") + 9;
    json.replace(at, json.find(',', at) - at, "-1");
    ops["refuse_connector_1KiB"] = [json] {
        sink = sink + ecmeta::try_decode<ECMooncakeConnectorMetadata>(json).error->pointer().size();
    };
}

}  // namespace

int main(int argc, char** argv) {
    operations ops;
    for (const std::size_t n : {8, 1000}) {
        codec(ops, "connector_" + std::to_string(n), ecmeta_bench::connector(n));
    }
    for (const std::size_t m : {16, 10000}) {
        codec(ops, "worker_" + std::to_string(m), ecmeta_bench::worker(m));
    }
    refusal(ops);
    const auto op = argc == 3 ? ops.find(argv[1]) : ops.end();
    if (op == ops.end()) {
        std::fputs("usage: callgrind_ops NAME N, where NAME is one of:\n", stderr);
        for (const auto& [name, f] : ops) {
            std::fprintf(stderr, "  %s\n", name.c_str());
        }
        return 2;
    }
    op->second();
    for (long i = std::strtol(argv[2], nullptr, 10); i > 0; --i) {
        op->second();
    }
    return 0;
}
