// ecmeta-worker: one tensor-parallel rank of the engine step over ZeroMQ (see README.md).
// SPDX-License-Identifier: Apache-2.0
#include <cstdio>
#include <exception>
#include <iostream>
#include <string>

#include "../command_line.hpp"
#include "worker.hpp"

int main(int argc, char** argv) {
    std::string reply_format = "msgpack";
    std::uint64_t slow_ms = 0;
    std::uint64_t idle_ms = 0;
    zmq_step::worker_options w;
    w.log = [](const std::string& line) { std::cerr << "ecmeta-worker: " << line << '\n'; };
    CLI::App app{
        "ecmeta-worker: one tensor-parallel rank of the engine step over ZeroMQ. Connects a DEALER socket\n"
        "to the scheduler, says hello as rank R on every connection, and answers every step with\n"
        "the report its deterministic rule gives (or \"none\" on an idle step), until the scheduler\n"
        "says stop. Exit status: 0 on stop, 1 after --idle-ms without a message, 2 on error.",
        "ecmeta-worker"};
    command_line::common(app);
    app.add_option("--connect", w.endpoint, "The scheduler's endpoint")->required()->option_text("ENDPOINT");
    app.add_option("--rank", w.rank, "This worker's rank")->required()->check(command_line::digits)->option_text("R");
    command_line::add_choice(app, "--format", reply_format, {"msgpack", "json"},
                             "The reports' encoding (default msgpack); steps are read in whatever they carry");
    app.add_option("--slow-ms", slow_ms, "Wait N ms before each reply")->check(command_line::digits)->option_text("N");
    app.add_flag("--silent", w.silent, "Say hello, then never reply");
    app.add_option("--idle-ms", idle_ms, "Exit with status 1 after N ms without a message (default 0: never)")
        ->check(command_line::digits)
        ->option_text("N");
    if (const std::optional<int> stop = command_line::parse(app, argc, argv)) {
        return *stop;
    }
    try {
        w.reply_format = *zmq_step::parse_format(reply_format);
        w.slow = std::chrono::milliseconds{slow_ms};
        w.idle = std::chrono::milliseconds{idle_ms};
        zmq::context_t context;
        return zmq_step::run_worker(context, w);
    } catch (const std::exception& e) {
        std::cerr << "ecmeta-worker: " << e.what() << '\n';
        return 2;
    }
}
