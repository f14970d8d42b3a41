// One engine step over ZeroMQ: the protocol of README § "The engine step over ZeroMQ", the
// worker's deterministic rule, and the two ends (scheduler and worker) that ecmeta-scheduler,
// ecmeta-worker and the bench share. Frames are ASCII words, decimal numbers and encoded bodies.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <charconv>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <optional>
#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include <zmq.hpp>
#include <zmq_addon.hpp>

#include <ecmeta/json.hpp>
#include <ecmeta/msgpack.hpp>

namespace zmq_step {

using clock = std::chrono::steady_clock;
using report = ecmeta::ECMooncakeWorkerMetadata;
using connector = ecmeta::ECMooncakeConnectorMetadata;

enum class format { msgpack, json };

[[nodiscard]] inline std::string_view name(format f) {
    return f == format::json ? "json" : "msgpack";
}

[[nodiscard]] inline std::optional<format> parse_format(std::string_view s) {
    if (s == "msgpack") {
        return format::msgpack;
    }
    if (s == "json") {
        return format::json;
    }
    return std::nullopt;
}

// A decimal number, all of the text and nothing else.
[[nodiscard]] inline std::optional<std::uint64_t> parse_number(std::string_view s) {
    std::uint64_t n = 0;
    const auto [end, error] = std::from_chars(s.data(), s.data() + s.size(), n);
    if (s.empty() || error != std::errc{} || end != s.data() + s.size()) {
        return std::nullopt;
    }
    return n;
}

// Bodies encoded into buffers kept from one step to the next: once warmed on the largest
// message, encoding a body allocates nothing. A written body stays valid until the next write.
class body_writer {
public:
    template <class T>
    std::string_view write(const T& value, format f) {
        if (f == format::json) {
            ecmeta::encode_into(value, json_);
            return json_;
        }
        ecmeta::encode_msgpack_into(value, packed_);
        return {reinterpret_cast<const char*>(packed_.data()), packed_.size()};
    }

private:
    std::string json_;
    std::vector<std::uint8_t> packed_;
};

// One body in a string of its own, for a caller that keeps it.
template <class T>
[[nodiscard]] std::string encode_body(const T& value, format f) {
    return std::string{body_writer{}.write(value, f)};
}

// Bodies come from other processes: a size limit, and decode_error for anything else wrong.
inline constexpr ecmeta::decode_options wire_limits{.max_input_bytes = std::size_t{64} << 20U};

// Into a value that is decoded into every step, so that it keeps its storage.
template <class T>
void decode_body_into(const zmq::message_t& body, format f, T& out) {
    if (f == format::json) {
        ecmeta::decode_into(body.to_string_view(), out, wire_limits);
    } else {
        ecmeta::decode_msgpack_into({body.data<std::uint8_t>(), body.size()}, out, wire_limits);
    }
}

// ---- the worker's part: a rule of the ids alone, so any run is reproducible -----------------

// A hash of the id and the rank, eight bytes at a time (splitmix64's finalizer per word).
[[nodiscard]] inline std::uint64_t mix(std::string_view id, std::uint64_t rank) noexcept {
    const auto finish = [](std::uint64_t h) {
        h = (h ^ (h >> 30U)) * 0xbf58476d1ce4e5b9U;
        h = (h ^ (h >> 27U)) * 0x94d049bb133111ebU;
        return h ^ (h >> 31U);
    };
    std::uint64_t h = (rank + 1) * 0x9e3779b97f4a7c15U ^ id.size();
    std::size_t i = 0;
    for (; i + 8 <= id.size(); i += 8) {
        std::uint64_t word = 0;
        std::memcpy(&word, id.data() + i, sizeof word);
        h = finish(h ^ word);
    }
    std::uint64_t tail = 0;
    std::memcpy(&tail, id.data() + i, id.size() - i);
    return finish(h ^ tail);
}

// What rank `rank` reports for a step: a local load always lands; of the others one in 16 fails
// and one in 16 is still in flight (in neither set); a freed id is reclaimed one time in 4; a
// push is still saving one time in 2 and fails one time in 32 (by its request id). An idle step
// (no loads, no pushes, no freed ids) has nothing to report.
[[nodiscard]] inline std::optional<report> play(const connector& step, std::uint64_t rank) {
    const bool idle = step.loads.empty() && step.pushes.empty() && (!step.freed || step.freed->empty());
    if (idle) {
        return std::nullopt;
    }
    std::vector<std::string_view> loaded;
    std::vector<std::string_view> failed;
    std::vector<std::string_view> reclaimed;
    std::vector<std::string_view> failed_saves;
    loaded.reserve(step.loads.size());
    for (const ecmeta::ECMooncakeLoadSpec& load : step.loads) {
        const std::uint64_t roll = mix(load.mm_hash, rank) % 16;
        if (load.local || roll > 1) {
            loaded.push_back(load.mm_hash);
        } else if (roll == 0) {
            failed.push_back(load.mm_hash);
        }
    }
    for (const std::string& id : step.freed ? std::span{*step.freed} : std::span<const std::string>{}) {
        if (mix(id, rank) % 4 == 0) {
            reclaimed.push_back(id);
        }
    }
    bool pending = false;
    for (const ecmeta::ECMooncakePushSpec& push : step.pushes) {
        const std::uint64_t roll = mix(push.mm_hash, rank);
        pending = pending || roll % 2 == 0;
        if (roll % 32 == 1) {
            failed_saves.push_back(push.request_id);
        }
    }
    return report{.loaded = ecmeta::id_set(loaded),
                  .failed_loads = ecmeta::id_set(failed),
                  .reclaimed = ecmeta::id_set(reclaimed),
                  .pending_saves = pending,
                  .failed_saves = ecmeta::id_set(failed_saves)};
}

// ---- the scheduler's part: one step's metadata from a seed -----------------------------------

[[nodiscard]] inline connector make_step(std::uint64_t seed, std::uint64_t step, std::size_t loads) {
    std::mt19937_64 rng{seed * 0x9e3779b97f4a7c15U + step};
    const auto hex = [&](std::size_t n) {
        std::string s(n, '0');
        for (char& c : s) {
            c = "0123456789abcdef"[rng() % 16];
        }
        return s;
    };
    connector m;
    m.loads.reserve(loads);
    for (std::size_t i = 0; i < loads; ++i) {
        m.loads.push_back({.mm_hash = hex(64),
                           .nbytes = 1024ULL * 3584 * 2,
                           .shape = {1024, 3584},
                           .dtype = "bfloat16",
                           .transfer_id = hex(32),
                           .local = rng() % 4 == 0});
    }
    for (std::size_t i = 0; i < (loads + 3) / 4; ++i) {
        m.pushes.push_back({.mm_hash = hex(64),
                            .nbytes = 1024ULL * 3584 * 2,
                            .shape = {1024, 3584},
                            .dtype = "bfloat16",
                            .consumer_zmq = "tcp://10.0.0." + std::to_string(rng() % 250) + ":19019",
                            .transfer_id = hex(32),
                            .request_id = "req-" + std::to_string(rng() % 100000)});
    }
    m.freed.emplace();
    for (std::size_t i = 0; i < loads / 8; ++i) {
        m.freed->push_back(hex(64));
    }
    return m;
}

// ---- the scheduler ------------------------------------------------------------------------

struct step_result {
    std::uint64_t step = 0;
    std::vector<bool> reported;       // by rank: a valid report came in time
    std::vector<bool> answered;       // by rank: a valid reply came in time ("none" too)
    std::optional<report> aggregate;  // nullopt when no rank reported
    clock::duration round_trip{};     // from the first send to the last reply, or the deadline
    std::vector<std::string> log;     // the lines logged from the step's start to its end
};

// The reports of the ranks that reported, by const reference and in rank order: what
// std::views::filter gives, which clang 14 cannot compile with libstdc++ 12.
struct reported_reports {
    const std::vector<report>* all = nullptr;
    const std::vector<bool>* reported = nullptr;

    struct iterator {
        using value_type = report;
        using difference_type = std::ptrdiff_t;
        const reported_reports* in = nullptr;
        std::size_t rank = 0;

        const report& operator*() const { return (*in->all)[rank]; }
        iterator& operator++() {
            ++rank;
            return settle();
        }
        iterator operator++(int) {
            iterator before = *this;
            ++*this;
            return before;
        }
        bool operator==(const iterator& other) const { return rank == other.rank; }
        iterator& settle() {  // on the next rank that reported, or the end
            while (rank < in->all->size() && !(*in->reported)[rank]) {
                ++rank;
            }
            return *this;
        }
    };
    [[nodiscard]] iterator begin() const { return iterator{this, 0}.settle(); }
    [[nodiscard]] iterator end() const { return iterator{this, all->size()}; }
};

// Binds a ROUTER socket; workers connect a DEALER each and say hello with their rank. A step goes
// to every rank that said hello; replies are matched by step number and by the peer that said
// hello for the rank, so nothing late, misdirected or malformed is ever folded.
class scheduler {
public:
    using logger = std::function<void(const std::string&)>;

    scheduler(zmq::context_t& context, const std::string& endpoint, std::size_t workers, logger log)
        : socket_{context, zmq::socket_type::router}, peers_(workers), decoded_(workers), log_{std::move(log)} {
        socket_.set(zmq::sockopt::linger, 0);
        socket_.set(zmq::sockopt::router_mandatory, 1);  // a send to a vanished peer fails, not queues
        socket_.bind(endpoint);
    }

    [[nodiscard]] std::string endpoint() const { return socket_.get(zmq::sockopt::last_endpoint); }

    // Waits until every rank said hello, or the deadline; true if all did.
    bool wait_for_workers(clock::time_point deadline) {
        receive_until(deadline, [&] { return all_connected(); });
        return all_connected();
    }

    // One step: `body` (the connector metadata, encoded as `f`) to every connected rank, then
    // replies until each has answered or `deadline` has passed since the first send. `fold`
    // false leaves the reports undecoded (the bench's bare round trip).
    step_result run_step(std::uint64_t step, std::string_view body, format f, clock::duration deadline,
                         bool fold = true) {
        current_ = step_result{};
        current_.step = step;
        drain();  // a hello that came between steps gets this step
        step_ = step;
        fold_ = fold;
        current_.reported.resize(peers_.size());
        current_.answered.resize(peers_.size());
        waiting_ = 0;
        const std::string number = std::to_string(step);
        const clock::time_point start = clock::now();
        for (std::size_t rank = 0; rank < peers_.size(); ++rank) {
            if (peers_[rank].empty()) {
                continue;
            }
            std::array<zmq::const_buffer, 5> frames{zmq::buffer(peers_[rank]), zmq::str_buffer("step"),
                                                    zmq::buffer(number), zmq::buffer(name(f)),
                                                    zmq::buffer(body.data(), body.size())};
            try {
                if (zmq::send_multipart(socket_, frames, zmq::send_flags::dontwait)) {
                    ++waiting_;
                    waiting_for_[rank] = true;
                } else {  // EAGAIN: its queue is full (it is far behind), but it is there
                    note("rank " + std::to_string(rank) + ": its queue is full, step " + number + " not sent");
                }
            } catch (const zmq::error_t&) {  // EHOSTUNREACH: the peer is gone
                note("rank " + std::to_string(rank) + ": unreachable, forgotten until it says hello again");
                peers_[rank].clear();
            }
        }
        const clock::time_point until = start + deadline;
        receive_until(until, [&] { return waiting_ == 0; });
        current_.round_trip = clock::now() - start;
        for (std::size_t rank = 0; rank < peers_.size(); ++rank) {
            waiting_for_[rank] = false;
        }
        if (fold) {  // by const reference: each rank's value stays for its next report
            const reported_reports reports{&decoded_, &current_.reported};
            current_.aggregate = ecmeta::aggregate(reports);
        }
        return std::move(current_);
    }

    // The report `rank` sent last (what a step that says it reported folded).
    [[nodiscard]] const report& last_report(std::size_t rank) const { return decoded_.at(rank); }

    // Tells every connected worker to exit.
    void stop() {
        for (const std::string& peer : peers_) {
            if (!peer.empty()) {
                std::array<zmq::const_buffer, 2> frames{zmq::buffer(peer), zmq::str_buffer("stop")};
                try {
                    static_cast<void>(zmq::send_multipart(socket_, frames, zmq::send_flags::dontwait));
                } catch (const zmq::error_t&) {
                }
            }
        }
    }

private:
    // Logs the line and keeps it in the step's result.
    void note(std::string line) {
        log_(line);
        current_.log.push_back(std::move(line));
    }

    [[nodiscard]] bool all_connected() const {
        return std::ranges::none_of(peers_, [](const std::string& p) { return p.empty(); });
    }

    // Handles whatever has arrived, without waiting.
    void drain() {
        std::vector<zmq::message_t> frames;
        while (zmq::recv_multipart(socket_, std::back_inserter(frames), zmq::recv_flags::dontwait)) {
            handle(frames);
            frames.clear();
        }
    }

    template <class Done>
    void receive_until(clock::time_point until, Done done) {
        std::vector<zmq::message_t> frames;
        while (!done()) {
            const auto left = std::chrono::ceil<std::chrono::milliseconds>(until - clock::now());
            if (left.count() <= 0) {
                return;
            }
            zmq::pollitem_t item{socket_.handle(), 0, ZMQ_POLLIN, 0};
            if (zmq::poll(&item, 1, left) == 0) {
                continue;
            }
            frames.clear();
            while (zmq::recv_multipart(socket_, std::back_inserter(frames), zmq::recv_flags::dontwait)) {
                handle(frames);
                frames.clear();
            }
        }
    }

    // "rank R" for the peer that said hello as R, or "a peer that did not say hello".
    [[nodiscard]] std::string sender_of(const zmq::message_t& routing_id) const {
        for (std::size_t rank = 0; rank < peers_.size(); ++rank) {
            if (!peers_[rank].empty() && peers_[rank] == routing_id.to_string_view()) {
                return "rank " + std::to_string(rank);
            }
        }
        return "a peer that did not say hello";
    }

    void handle(const std::vector<zmq::message_t>& frames) {
        const std::string_view kind = frames.size() > 1 ? frames[1].to_string_view() : "";
        if (kind == "hello" && frames.size() == 3) {
            const std::optional<std::uint64_t> rank = parse_number(frames[2].to_string_view());
            if (!rank || *rank >= peers_.size()) {
                note("a peer said hello with rank \"" + frames[2].to_string() + "\", not one of 0.." +
                     std::to_string(peers_.size() - 1) + ": ignored");
                return;
            }
            const bool again = !peers_[*rank].empty();
            peers_[*rank] = frames[0].to_string();  // the latest hello wins: a restarted worker takes over
            note("rank " + std::to_string(*rank) + (again ? ": said hello again" : ": connected"));
            return;
        }
        // Log lines name the sender by the rank it said hello as, and the step it names, if any.
        const std::string sender = sender_of(frames[0]);
        const std::string at_step =
            frames.size() > 2 && parse_number(frames[2].to_string_view()) ? " step " + frames[2].to_string() : "";
        const bool reply = (kind == "report" && frames.size() == 6) || (kind == "none" && frames.size() == 4);
        if (!reply) {
            const std::size_t sent = frames.size() - 1;  // the peer never sent the routing frame
            note(sender + at_step + ": a message of " + std::to_string(sent) + " frames starting \"" +
                 std::string{kind.substr(0, 16)} + "\" (" +
                 (kind == "report"  ? "a report has 5"
                  : kind == "none"  ? "none has 3"
                  : kind == "hello" ? "hello has 2"
                                    : "not hello, report or none") +
                 "): dropped");
            return;
        }
        const std::optional<std::uint64_t> step = parse_number(frames[2].to_string_view());
        const std::optional<std::uint64_t> rank = parse_number(frames[3].to_string_view());
        if (!rank || *rank >= peers_.size() || peers_[*rank] != frames[0].to_string_view()) {
            note(sender + at_step + ": a reply claiming rank \"" + frames[3].to_string() +
                 "\", which it did not say hello as: dropped");
            return;
        }
        const std::string who = "rank " + std::to_string(*rank);
        if (!step || *step != step_ || !waiting_for_[*rank]) {
            note(who + ": reply for step " + frames[2].to_string() + " dropped (step " + std::to_string(step_) +
                 (step && *step == step_ ? " already answered or not asked)" : " is running)"));
            return;
        }
        waiting_for_[*rank] = false;
        --waiting_;
        if (kind == "none") {
            current_.answered[*rank] = true;
            return;
        }
        const std::optional<format> f = parse_format(frames[4].to_string_view());
        if (!f) {
            note(who + " step " + std::to_string(step_) + ": format \"" + frames[4].to_string() +
                 "\" is not msgpack or json: counted silent");
            return;
        }
        if (!fold_) {
            current_.answered[*rank] = true;
            return;
        }
        try {
            decode_body_into(frames[5], *f, decoded_[*rank]);
            current_.reported[*rank] = true;
            current_.answered[*rank] = true;
        } catch (const ecmeta::decode_error& e) {
            // A refused report keeps nothing it made this process hold: the rank's value would
            // keep its storage, and the thread's JSON parser its size, until the next restart.
            decoded_[*rank] = report{};
            ecmeta::release_thread_buffers();
            note(who + " step " + std::to_string(step_) + ": bad report, decode_error at " +
                 (e.pointer().empty() ? std::string{ecmeta::decode_error::root} : e.pointer()) + ": " +
                 std::string{e.message()} + "; counted silent");
        }
    }

    zmq::socket_t socket_;
    std::vector<std::string> peers_;  // by rank: the routing id of the peer that said hello, or empty
    std::vector<report> decoded_;     // by rank: its last report, decoded into again every step
    std::vector<bool> waiting_for_ = std::vector<bool>(peers_.size());
    std::size_t waiting_ = 0;
    std::uint64_t step_ = 0;
    bool fold_ = true;
    step_result current_;
    logger log_;
};

// ---- the worker ---------------------------------------------------------------------------

struct worker_options {
    std::string endpoint;
    std::uint64_t rank = 0;
    format reply_format = format::msgpack;
    std::chrono::milliseconds slow{0};      // wait this long before each reply
    bool silent = false;                    // say hello, then never reply
    std::chrono::milliseconds idle{0};      // exit after this long without a message (0: never)
    std::optional<std::string> bare_reply;  // the bench's bare round trip: this body, no decoding
    std::function<void(const std::string&)> log = [](const std::string&) {};  // one line per step not answered
};

// Connects, says hello, then answers every step until "stop" (returns 0), the idle limit
// (returns 1), or `quit` turns true.
inline int run_worker(zmq::context_t& context, const worker_options& o, const std::atomic<bool>* quit = nullptr) {
    zmq::socket_t socket{context, zmq::socket_type::dealer};
    socket.set(zmq::sockopt::linger, 0);
    // Hello goes out on every connection the socket makes, the first and each reconnect: a
    // scheduler that restarts on the same endpoint gets this worker back, and the latest hello
    // wins. The socket's monitor reports the connections (tcp:// and ipc://).
    static std::atomic<std::uint64_t> monitors{0};
    const std::string monitor_endpoint = "inproc://ecmeta-worker-monitor-" + std::to_string(monitors++);
    if (zmq_socket_monitor(socket.handle(), monitor_endpoint.c_str(), ZMQ_EVENT_CONNECTED) != 0) {
        throw zmq::error_t{};
    }
    zmq::socket_t monitor{context, zmq::socket_type::pair};
    monitor.set(zmq::sockopt::linger, 0);
    monitor.connect(monitor_endpoint);
    socket.connect(o.endpoint);
    const std::string rank = std::to_string(o.rank);
    clock::time_point heard = clock::now();
    std::vector<zmq::message_t> frames;
    connector step;       // every step is decoded into this one value
    body_writer replies;  // and every report encoded into these buffers
    while (quit == nullptr || !quit->load()) {
        std::array<zmq::pollitem_t, 2> items{
            {{socket.handle(), 0, ZMQ_POLLIN, 0}, {monitor.handle(), 0, ZMQ_POLLIN, 0}}};
        if (zmq::poll(items.data(), items.size(), std::chrono::milliseconds{50}) == 0) {
            if (o.idle.count() > 0 && clock::now() - heard > o.idle) {
                return 1;
            }
            continue;
        }
        if ((items[1].revents & ZMQ_POLLIN) != 0) {  // an event: 2 bytes of kind, 4 of value; then an address
            frames.clear();
            if (zmq::recv_multipart(monitor, std::back_inserter(frames), zmq::recv_flags::dontwait) &&
                !frames.empty() && frames[0].size() >= 2) {
                std::uint16_t event = 0;
                std::memcpy(&event, frames[0].data(), sizeof event);
                if (event == ZMQ_EVENT_CONNECTED) {
                    std::array<zmq::const_buffer, 2> hello{zmq::str_buffer("hello"), zmq::buffer(rank)};
                    zmq::send_multipart(socket, hello);
                }
            }
        }
        if ((items[0].revents & ZMQ_POLLIN) == 0) {
            continue;
        }
        frames.clear();
        if (!zmq::recv_multipart(socket, std::back_inserter(frames))) {
            continue;
        }
        heard = clock::now();
        const std::string_view kind = frames.empty() ? "" : frames[0].to_string_view();
        if (kind == "stop") {
            return 0;
        }
        if (kind != "step" || frames.size() != 4 || o.silent) {
            continue;
        }
        // A step this worker cannot read gets no answer: it stays silent, as a crashed rank would.
        const std::optional<format> f = parse_format(frames[2].to_string_view());
        std::optional<std::string_view> body;
        if (o.bare_reply) {
            body = *o.bare_reply;
        }
        if (!body) {
            if (!f) {
                o.log("step " + frames[1].to_string() + ": format \"" + frames[2].to_string() +
                      "\" is not msgpack or json; not answered");
                continue;
            }
            try {
                decode_body_into(frames[3], *f, step);
                if (const std::optional<report> mine = play(step, o.rank)) {
                    body = replies.write(*mine, o.reply_format);
                }
            } catch (const ecmeta::decode_error& e) {
                o.log("step " + frames[1].to_string() + ": " + e.what() + "; not answered");
                continue;
            }
        }
        if (o.slow.count() > 0) {
            std::this_thread::sleep_for(o.slow);
        }
        if (body) {
            std::array<zmq::const_buffer, 5> reply{
                zmq::str_buffer("report"), zmq::buffer(frames[1].data(), frames[1].size()), zmq::buffer(rank),
                zmq::buffer(name(o.reply_format)), zmq::buffer(body->data(), body->size())};
            zmq::send_multipart(socket, reply);
        } else {
            std::array<zmq::const_buffer, 3> none{zmq::str_buffer("none"),
                                                  zmq::buffer(frames[1].data(), frames[1].size()), zmq::buffer(rank)};
            zmq::send_multipart(socket, none);
        }
    }
    return 0;
}

}  // namespace zmq_step
