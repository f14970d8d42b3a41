// ecmeta — the ZeroMQ endpoint grammar validate holds consumer_zmq to: tcp://host:port (a host
// name, IPv4, or IPv6 in brackets), ipc://path, inproc://name. Standard library only.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "../../version.hpp"

#include <algorithm>
#include <charconv>
#include <string>
#include <string_view>

namespace ecmeta::inline ECMETA_ABI::detail {

inline bool is_port(std::string_view s) {
    unsigned port = 0;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), port);
    return !s.empty() && s[0] != '0' && r.ec == std::errc{} && r.ptr == s.data() + s.size() && port >= 1 &&
           port <= 65535;
}

inline bool is_ipv4(std::string_view s) {
    for (int part = 0; part < 4; ++part) {
        const auto dot = s.find('.');
        const std::string_view octet = part < 3 ? s.substr(0, dot) : s;
        unsigned v = 0;
        const auto r = std::from_chars(octet.data(), octet.data() + octet.size(), v);
        if (octet.empty() || octet.size() > 3 || r.ptr != octet.data() + octet.size() || v > 255 ||
            (octet.size() > 1 && octet[0] == '0') || (part < 3 && dot == std::string_view::npos)) {
            return false;
        }
        if (part < 3) {
            s.remove_prefix(dot + 1);
        }
    }
    return true;
}

// RFC 4291 text form: up to eight groups of 1-4 hex digits, one "::", optional dotted IPv4 tail,
// optional %zone.
inline bool is_ipv6(std::string_view s) {
    if (const auto zone = s.find('%'); zone != std::string_view::npos) {
        if (zone + 1 == s.size()) {
            return false;
        }
        s = s.substr(0, zone);
    }
    int groups = 0;
    bool compressed = false;
    if (s.starts_with("::")) {
        compressed = true;
        s.remove_prefix(2);
    }
    while (!s.empty()) {
        const auto colon = s.find(':');
        const std::string_view g = s.substr(0, colon);
        if (colon == std::string_view::npos && g.find('.') != std::string_view::npos) {
            if (!is_ipv4(g)) {
                return false;
            }
            groups += 2;
            break;
        }
        if (g.empty() || g.size() > 4 || !std::all_of(g.begin(), g.end(), [](char c) {
                return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
            })) {
            return false;
        }
        ++groups;
        if (colon == std::string_view::npos) {
            break;
        }
        s.remove_prefix(colon + 1);
        if (s.starts_with(':')) {
            if (compressed) {
                return false;
            }
            compressed = true;
            s.remove_prefix(1);
        } else if (s.empty()) {
            return false;  // a trailing single ':'
        }
    }
    return compressed ? groups <= 7 : groups == 8;
}

// A DNS name (or an interface name, which ZeroMQ also accepts): labels of letters, digits,
// hyphens and underscores (found in real host names), not starting or ending with a hyphen.
inline bool is_host_name(std::string_view s) {
    if (s.empty() || s.size() > 253) {
        return false;
    }
    while (true) {
        const auto dot = s.find('.');
        const std::string_view label = s.substr(0, dot);
        if (label.empty() || label.size() > 63 || label.front() == '-' || label.back() == '-' ||
            !std::all_of(label.begin(), label.end(), [](char c) {
                return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-' ||
                       c == '_';
            })) {
            return false;
        }
        if (dot == std::string_view::npos) {
            return true;
        }
        s.remove_prefix(dot + 1);
    }
}

// Empty when `endpoint` is a ZeroMQ endpoint a push can be sent to, else what is wrong.
inline std::string zmq_endpoint_problem(std::string_view endpoint) {
    if (endpoint.starts_with("tcp://")) {
        const std::string_view rest = endpoint.substr(6);
        const auto colon = rest.rfind(':');
        if (colon == std::string_view::npos) {
            return "expected tcp://host:port, got no port";
        }
        const std::string_view host = rest.substr(0, colon);
        if (!is_port(rest.substr(colon + 1))) {
            return "expected a port from 1 to 65535, got \"" + std::string{rest.substr(colon + 1)} + "\"";
        }
        if (host.starts_with('[')) {
            if (!host.ends_with(']') || !is_ipv6(host.substr(1, host.size() - 2))) {
                return "expected an IPv6 address in brackets, got \"" + std::string{host} + "\"";
            }
            return {};
        }
        const bool numeric = !host.empty() && std::all_of(host.begin(), host.end(),
                                                          [](char c) { return (c >= '0' && c <= '9') || c == '.'; });
        if (numeric ? !is_ipv4(host) : !is_host_name(host)) {
            return "expected a host name, an IPv4 address or an IPv6 address in brackets, got \"" + std::string{host} +
                   "\"";
        }
        return {};
    }
    if (endpoint.starts_with("ipc://")) {
        return endpoint.size() > 6 ? std::string{} : "expected ipc://path, got an empty path";
    }
    if (endpoint.starts_with("inproc://")) {
        return endpoint.size() > 9 ? std::string{} : "expected inproc://name, got an empty name";
    }
    return "expected a ZeroMQ endpoint (tcp://host:port, ipc://path or inproc://name), got \"" + std::string{endpoint} +
           "\"";
}

}  // namespace ecmeta::detail
