// ecmeta-scheduler: sends each engine step's connector metadata to every worker, folds their
// reports with ecmeta::aggregate under a per-step deadline, and prints the round-trip latency.
// SPDX-License-Identifier: Apache-2.0
#include <algorithm>
#include <array>
#include <cstdio>
#include <exception>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <ecmeta/nlohmann.hpp>  // the trace lines

#include "../command_line.hpp"
#include "load.hpp"
#include "scheduler.hpp"

namespace {

std::string ranks_where(const std::vector<bool>& flags, bool value) {
    std::string out;
    for (std::size_t r = 0; r < flags.size(); ++r) {
        if (flags[r] == value) {
            out += (out.empty() ? "" : ",") + std::to_string(r);
        }
    }
    return out.empty() ? "-" : out;
}

// FNV-1a, 64 bits: names the step's body in the trace, so a peer that kept the bodies it was
// sent can find it.
std::uint64_t fnv1a(std::string_view bytes) {
    std::uint64_t h = 0xcbf29ce484222325U;
    for (const char c : bytes) {
        h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3U;
    }
    return h;
}

// One step of the trace: what each rank's accepted reply was, who was silent, every line the
// step logged (why a message was dropped), and the aggregate; reports in their canonical JSON, and
// a dropped frame's bytes that are not UTF-8 replaced.
std::string trace_line(const zmq_step::scheduler& s, const zmq_step::step_result& r, std::string_view body) {
    using nlohmann::ordered_json;
    ordered_json reports = ordered_json::object();
    ordered_json none = ordered_json::array();
    ordered_json silent = ordered_json::array();
    for (std::size_t rank = 0; rank < r.answered.size(); ++rank) {
        if (r.reported[rank]) {
            reports[std::to_string(rank)] = s.last_report(rank);
        } else if (r.answered[rank]) {
            none.push_back(rank);
        } else {
            silent.push_back(rank);
        }
    }
    std::array<char, 17> digest{};
    std::snprintf(digest.data(), digest.size(), "%016llx", static_cast<unsigned long long>(fnv1a(body)));
    const ordered_json line{{"step", r.step},
                            {"body_fnv1a", digest.data()},
                            {"reports", std::move(reports)},
                            {"none", std::move(none)},
                            {"silent", std::move(silent)},
                            {"log", r.log},
                            {"aggregate", r.aggregate ? ordered_json(*r.aggregate) : ordered_json(nullptr)}};
    return line.dump(-1, ' ', false, ordered_json::error_handler_t::replace) + "\n";
}

double ms(zmq_step::clock::duration d) {
    return std::chrono::duration<double, std::milli>(d).count();
}

}  // namespace

// The command line: the help is generated from these, and examples/zmq_step/README.md's option list follows it.
struct settings {
    std::string bind = "tcp://127.0.0.1:5555";
    std::size_t workers = 2;
    std::uint64_t steps = 10;
    std::size_t loads = 16;
    std::uint64_t deadline_ms = 1000;
    std::string format = "msgpack";
    std::uint64_t seed = 1;
    std::uint64_t interval_ms = 0;
    std::uint64_t startup_ms = 5000;
    bool quiet = false;
    std::string trace;

    void describe(CLI::App& app) {
        command_line::common(app);
        const auto number = [&](const char* name, auto& value, const char* text, const std::string& description) {
            app.add_option(name, value, description + " (default " + std::to_string(value) + ")")
                ->check(command_line::digits)
                ->option_text(text);
        };
        app.add_option("--bind", bind,
                       "The ROUTER socket's endpoint (default " + bind + "); tcp://127.0.0.1:* picks a free port")
            ->option_text("ENDPOINT");
        number("--workers", workers, "W", "Ranks 0..W-1, 1 to 4096");
        number("--steps", steps, "N", "Steps to run");
        number("--loads", loads, "L", "Loads per step; each step also has L/4 pushes and L/8 freed ids");
        number("--deadline-ms", deadline_ms, "D", "A rank that has not answered within D ms is silent for the step");
        command_line::add_choice(app, "--format", format, {"msgpack", "json"},
                                 "The steps' encoding (default " + format + ")");
        number("--seed", seed, "S", "Draws the steps' metadata");
        number("--interval-ms", interval_ms, "I", "Pause between steps");
        number("--startup-ms", startup_ms, "T", "How long to wait for every rank's hello");
        app.add_flag("--quiet", quiet, "Leave the aggregate out of the step lines");
        app.add_option("--trace", trace,
                       "Append one JSON line per step to FILE (examples/zmq_step/README.md, \"The trace\")")
            ->option_text("FILE");
    }
};

int main(int argc, char** argv) {
    settings o;
    CLI::App app{
        "ecmeta-scheduler: sends each engine step's connector metadata to every worker over ZeroMQ,\n"
        "folds their reports with ecmeta::aggregate under a per-step deadline, and prints one line\n"
        "per step and the round-trip latency; what it drops goes to stderr, one line each.\n"
        "Exit status: 0 after every step, whatever the ranks did; 2 on a usage error or a failure.",
        "ecmeta-scheduler"};
    o.describe(app);
    if (const std::optional<int> stop = command_line::parse(app, argc, argv)) {
        return *stop;
    }
    try {
        const std::size_t workers = o.workers;
        const std::uint64_t steps = o.steps;
        const std::size_t loads = o.loads;
        const std::chrono::milliseconds deadline{o.deadline_ms};
        const std::chrono::milliseconds interval{o.interval_ms};
        const std::chrono::milliseconds startup{o.startup_ms};
        const zmq_step::format f = *zmq_step::parse_format(o.format);
        const std::uint64_t seed = o.seed;
        const bool quiet = o.quiet;
        if (workers == 0 || workers > 4096) {
            std::cerr << "ecmeta-scheduler: --workers takes 1 to 4096 (see --help)\n";
            return 2;
        }

        std::ofstream trace;
        if (!o.trace.empty()) {
            trace.open(o.trace, std::ios::app);
            if (!trace) {
                throw std::runtime_error("cannot open the trace file " + o.trace);
            }
        }

        zmq::context_t context;
        zmq_step::scheduler s{context, o.bind, workers,
                              [](const std::string& line) { std::cerr << "ecmeta-scheduler: " << line << '\n'; }};
        std::cout << "listening on " << s.endpoint() << std::endl;  // flushed: a test waits for it
        if (!s.wait_for_workers(zmq_step::clock::now() + startup)) {
            std::cerr << "ecmeta-scheduler: not every rank said hello within " << startup.count()
                      << " ms; starting without the others\n";
        }

        std::vector<double> latencies;
        std::vector<std::vector<std::uint64_t>> silent_steps(workers);
        zmq_step::body_writer bodies;  // every step is encoded into the same buffers
        for (std::uint64_t step = 1; step <= steps; ++step) {
            const std::string_view body = bodies.write(zmq_step::make_step(seed, step, loads), f);
            const zmq_step::step_result r = s.run_step(step, body, f, deadline);
            latencies.push_back(ms(r.round_trip));
            if (trace.is_open()) {  // flushed per step: a scheduler killed mid-run leaves whole lines
                trace << trace_line(s, r, body) << std::flush;
            }
            std::vector<bool> reported(workers);
            std::vector<bool> none(workers);
            for (std::size_t rank = 0; rank < workers; ++rank) {
                reported[rank] = r.reported[rank];
                none[rank] = r.answered[rank] && !reported[rank];
                if (!r.answered[rank]) {
                    silent_steps[rank].push_back(step);
                }
            }
            std::cout << "step " << step << " reported " << ranks_where(reported, true) << " none "
                      << ranks_where(none, true) << " silent " << ranks_where(r.answered, false) << " round_trip_ms "
                      << std::fixed << std::setprecision(3) << ms(r.round_trip);
            if (!quiet) {
                std::cout << " aggregate " << (r.aggregate ? ecmeta::encode(*r.aggregate) : "null");
            }
            std::cout << std::endl;
            if (interval.count() > 0 && step < steps) {
                std::this_thread::sleep_for(interval);
            }
        }
        s.stop();

        std::ranges::sort(latencies);
        const auto at = [&](double q) {
            return latencies.empty()
                       ? 0.0
                       : latencies[static_cast<std::size_t>(q * static_cast<double>(latencies.size() - 1))];
        };
        std::cout << "round trip over " << steps << " steps of " << workers << " workers x " << loads << " loads: p50 "
                  << at(0.5) << " ms, p99 " << at(0.99) << " ms, max " << at(1.0) << " ms\n";
        for (std::size_t rank = 0; rank < workers; ++rank) {
            if (const auto& silent = silent_steps[rank]; !silent.empty()) {
                std::cout << "rank " << rank << " silent in " << silent.size() << " of " << steps << " steps (first "
                          << silent.front() << ", last " << silent.back() << ")\n";
            }
        }
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "ecmeta-scheduler: " << e.what() << '\n';
        return 2;
    }
}
