// ecmeta-worker: one tensor-parallel rank of the engine step over ZeroMQ (see zmq_step.hpp).
// SPDX-License-Identifier: Apache-2.0
#include <cstdio>
#include <exception>
#include <iostream>
#include <span>
#include <string_view>

#include "zmq_step.hpp"

namespace {

constexpr std::string_view usage =
    R"usage(usage: ecmeta-worker --connect ENDPOINT --rank R [--format msgpack|json]
                     [--slow-ms N] [--silent] [--idle-ms N]

Connects a DEALER socket to the scheduler, says hello as rank R, and answers every step with the
report its deterministic rule gives (or "none" on an idle step), until the scheduler says stop.
  --format     the reports' encoding (default msgpack); steps are read in whatever they carry
  --slow-ms    wait N ms before each reply
  --silent     say hello, then never reply
  --idle-ms    exit with status 1 after N ms without a message (default 0: wait forever)
)usage";

}  // namespace

int main(int argc, char** argv) {
    try {
        const zmq_step::options o{std::span<char* const>{argv + 1, static_cast<std::size_t>(argc - 1)},
                                  {"--connect", "--rank", "--format", "--slow-ms", "--idle-ms"},
                                  {"--silent", "--help"}};
        if (o.has("--help")) {
            std::cout << usage;
            return 0;
        }
        if (!o.has("--connect") || !o.has("--rank")) {
            throw std::invalid_argument("--connect and --rank are required");
        }
        const zmq_step::worker_options w{
            .endpoint = o.text("--connect", ""),
            .rank = o.number("--rank", 0),
            .reply_format = o.wire_format("--format"),
            .slow = std::chrono::milliseconds{o.number("--slow-ms", 0)},
            .silent = o.has("--silent"),
            .idle = std::chrono::milliseconds{o.number("--idle-ms", 0)},
            .bare_reply = std::nullopt,
            .log = [](const std::string& line) { std::cerr << "ecmeta-worker: " << line << '\n'; }};
        zmq::context_t context;
        return zmq_step::run_worker(context, w);
    } catch (const std::invalid_argument& e) {
        std::cerr << "ecmeta-worker: " << e.what() << " (see --help)\n";
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "ecmeta-worker: " << e.what() << '\n';
        return 2;
    }
}
