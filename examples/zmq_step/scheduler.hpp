// The scheduler's end: sends each step to every rank that said hello and folds the replies that
// come for it in time.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <zmq.hpp>
#include <zmq_addon.hpp>

#include "protocol.hpp"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace zmq_step {

// Gives the memory a refused report made the process hold back to the system. glibc keeps freed
// heap at the size of the largest block it has freed (its trim threshold rises with it), so one
// 1 MiB garbage report would otherwise leave the scheduler about 10 MiB larger for good.
inline void hand_back_freed_memory() noexcept {
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
}

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
        : socket_{context, zmq::socket_type::router},
          peers_(workers),
          decoded_(workers),
          kept_(workers),
          log_{std::move(log)} {
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
            std::array<zmq::const_buffer, 1 + messages::step.frames> frames{
                zmq::buffer(peers_[rank]), zmq::buffer(messages::step.word), zmq::buffer(number), zmq::buffer(name(f)),
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
                std::array<zmq::const_buffer, 1 + messages::stop.frames> frames{zmq::buffer(peer),
                                                                                zmq::buffer(messages::stop.word)};
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
        // What the peer sent: the frames after its routing id.
        const std::string_view kind = frames.size() > 1 ? frames[1].to_string_view() : "";
        const std::size_t sent = frames.size() - 1;
        if (messages::hello.matches(kind, sent)) {
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
        if (!messages::report.matches(kind, sent) && !messages::none.matches(kind, sent)) {
            const auto has = [](const message_kind& k, std::string_view article) {
                return std::string{article} + std::string{k.word} + " has " + std::to_string(k.frames);
            };
            note(sender + at_step + ": a message of " + std::to_string(sent) + " frames starting \"" +
                 std::string{kind.substr(0, 16)} + "\" (" +
                 (kind == messages::report.word  ? has(messages::report, "a ")
                  : kind == messages::none.word  ? has(messages::none, "")
                  : kind == messages::hello.word ? has(messages::hello, "")
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
        if (kind == messages::none.word) {
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
            decode_body_into(frames[5], *f, decoded_[*rank], kept_[*rank]);
            current_.reported[*rank] = true;
            current_.answered[*rank] = true;
        } catch (const ecmeta::decode_error& e) {
            // A refused report keeps nothing it made this process hold: the rank's value and
            // what its decodes keep would stay at its size until the next restart.
            decoded_[*rank] = report{};
            kept_[*rank].release();
            hand_back_freed_memory();
            note(who + " step " + std::to_string(step_) + ": bad report, decode_error at " +
                 (e.pointer().empty() ? std::string{ecmeta::decode_error::root} : e.pointer()) + ": " +
                 std::string{e.message()} + "; counted silent");
        }
    }

    zmq::socket_t socket_;
    std::vector<std::string> peers_;                    // by rank: the routing id of the peer that said hello, or empty
    std::vector<report> decoded_;                       // by rank: its last report, decoded into again every step
    std::vector<ecmeta::decode_storage<report>> kept_;  // by rank: what decoding its reports keeps
    std::vector<bool> waiting_for_ = std::vector<bool>(peers_.size());
    std::size_t waiting_ = 0;
    std::uint64_t step_ = 0;
    bool fold_ = true;
    step_result current_;
    logger log_;
};

}  // namespace zmq_step
