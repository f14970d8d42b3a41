// The worker's end: says hello on every connection, and answers each step by the rule.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <functional>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <zmq.hpp>
#include <zmq_addon.hpp>

#include "protocol.hpp"
#include "rule.hpp"

namespace zmq_step {

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
    connector step;                          // every step is decoded into this one value
    ecmeta::decode_storage<connector> kept;  // with what decoding it keeps
    body_writer replies;                     // and every report encoded into these buffers
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
                    std::array<zmq::const_buffer, messages::hello.frames> hello{zmq::buffer(messages::hello.word),
                                                                                zmq::buffer(rank)};
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
        if (kind == messages::stop.word) {
            return 0;
        }
        if (!messages::step.matches(kind, frames.size()) || o.silent) {
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
                decode_body_into(frames[3], *f, step, kept);
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
            std::array<zmq::const_buffer, messages::report.frames> reply{
                zmq::buffer(messages::report.word), zmq::buffer(frames[1].data(), frames[1].size()), zmq::buffer(rank),
                zmq::buffer(name(o.reply_format)), zmq::buffer(body->data(), body->size())};
            zmq::send_multipart(socket, reply);
        } else {
            std::array<zmq::const_buffer, messages::none.frames> none{
                zmq::buffer(messages::none.word), zmq::buffer(frames[1].data(), frames[1].size()), zmq::buffer(rank)};
            zmq::send_multipart(socket, none);
        }
    }
    return 0;
}

}  // namespace zmq_step
