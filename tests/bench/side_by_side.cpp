// ecmeta and glaze timed alternately on the bench's inputs, best of several rounds each: steadier
// ratios than the bench's on a noisy machine (docs/performance.md, "Side by side with glaze").
//   ecmeta_bench_side_by_side connector 8 [rounds]     every operation, glaze / ecmeta
//   ecmeta_bench_side_by_side connector 8 decode_json_kept 1000
//                                                      one operation 1000 times (for callgrind)
// Operations: decode_json_fresh, decode_json_kept, decode_msgpack_fresh, decode_msgpack_kept,
// encode_json_fresh, encode_json_kept, encode_msgpack_fresh, encode_msgpack_kept; glaze's are
// the same names with a glaze_ prefix.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <ecmeta/ecmeta.hpp>

#include "glaze_peer.hpp"
#include "scenarios.hpp"

namespace {

template <class T>
void keep(const T& value) {
    asm volatile("" : : "g"(&value) : "memory");  // the result is used
}

using operation = std::pair<std::string, std::function<void()>>;

// Each ecmeta operation, then glaze's.
template <class T>
std::vector<operation> operations(const T& value) {
    using peer = typename glaze_peer::mirror<T>::type;
    const auto json = std::make_shared<const std::string>(ecmeta::encode(value));
    const auto packed = std::make_shared<const std::vector<std::uint8_t>>(ecmeta::encode_msgpack(value));
    const auto packed_text = std::make_shared<const std::string>(packed->begin(), packed->end());
    const auto source = std::make_shared<const T>(value);
    const auto peer_source = std::make_shared<const peer>(glaze_peer::mirror<T>::of(value));
    const auto kept = std::make_shared<T>(value);
    const auto peer_kept = std::make_shared<peer>(glaze_peer::mirror<T>::of(value));
    const auto text = std::make_shared<std::string>();
    const auto bytes = std::make_shared<std::vector<std::uint8_t>>();
    const auto peer_text = std::make_shared<std::string>();
    return {
        {"decode_json_fresh", [=] { keep(ecmeta::decode<T>(*json)); }},
        {"glaze_decode_json_fresh", [=] { keep(glaze_peer::read_fresh<T>(*json)); }},
        {"decode_json_kept", [=] { ecmeta::decode_into(*json, *kept), keep(*kept); }},
        {"glaze_decode_json_kept", [=] { glaze_peer::read(*json, *peer_kept), keep(*peer_kept); }},
        {"decode_msgpack_fresh", [=] { keep(ecmeta::decode_msgpack<T>(*packed)); }},
        {"glaze_decode_msgpack_fresh",
         [=] {
             peer fresh{};
             glaze_peer::read_msgpack(*packed_text, fresh);
             keep(fresh);
         }},
        {"decode_msgpack_kept", [=] { ecmeta::decode_msgpack_into(*packed, *kept), keep(*kept); }},
        {"glaze_decode_msgpack_kept", [=] { glaze_peer::read_msgpack(*packed_text, *peer_kept), keep(*peer_kept); }},
        {"encode_json_fresh", [=] { keep(ecmeta::encode(*source)); }},
        {"glaze_encode_json_fresh",
         [=] {
             std::string fresh;
             glaze_peer::write_json(*peer_source, fresh);
             keep(fresh);
         }},
        {"encode_json_kept", [=] { ecmeta::encode_into(*source, *text), keep(*text); }},
        {"glaze_encode_json_kept", [=] { glaze_peer::write_json(*peer_source, *peer_text), keep(*peer_text); }},
        {"encode_msgpack_fresh", [=] { keep(ecmeta::encode_msgpack(*source)); }},
        {"glaze_encode_msgpack_fresh",
         [=] {
             std::string fresh;
             glaze_peer::write_msgpack(*peer_source, fresh);
             keep(fresh);
         }},
        {"encode_msgpack_kept", [=] { ecmeta::encode_msgpack_into(*source, *bytes), keep(*bytes); }},
        {"glaze_encode_msgpack_kept", [=] { glaze_peer::write_msgpack(*peer_source, *peer_text), keep(*peer_text); }},
    };
}

// Seconds per call of f: as many calls as take 20 ms.
double seconds_per_call(const std::function<void()>& f) {
    for (long calls = 1;; calls *= 2) {
        const auto start = std::chrono::steady_clock::now();
        for (long i = 0; i < calls; ++i) {
            f();
        }
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (seconds > 0.02) {
            return seconds / static_cast<double>(calls);
        }
    }
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: %s connector|worker SIZE [ROUNDS | OPERATION TIMES]\n", argv[0]);
        return 2;
    }
    const std::string kind = argv[1];
    const std::size_t size = std::strtoull(argv[2], nullptr, 10);
    const std::vector<operation> ops =
        kind == "worker" ? operations(ecmeta_bench::worker(size)) : operations(ecmeta_bench::connector(size));
    if (argc == 5) {
        const auto op = std::ranges::find(ops, std::string{argv[3]}, &operation::first);
        if (op == ops.end()) {
            std::fprintf(stderr, "no operation %s\n", argv[3]);
            return 2;
        }
        for (long i = std::strtol(argv[4], nullptr, 10); i > 0; --i) {
            op->second();
        }
        return 0;
    }
    const long rounds = argc == 4 ? std::strtol(argv[3], nullptr, 10) : 7;
    for (std::size_t i = 0; i + 1 < ops.size(); i += 2) {
        double mine = 1e9;
        double theirs = 1e9;
        for (long r = 0; r < rounds; ++r) {
            mine = std::min(mine, seconds_per_call(ops[i].second));
            theirs = std::min(theirs, seconds_per_call(ops[i + 1].second));
        }
        std::printf("%-22s ecmeta %10.1f ns  glaze %10.1f ns  glaze / ecmeta %5.2f\n", ops[i].first.c_str(), mine * 1e9,
                    theirs * 1e9, theirs / mine);
    }
    return 0;
}
