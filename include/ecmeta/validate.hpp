// ecmeta — checks of meaning: what a well-formed message must also satisfy. Standard library only.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <algorithm>
#include <array>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include "detail/schema.hpp"
#include "detail/utf8.hpp"
#include "metadata.hpp"

namespace ecmeta {

// One finding: where (an RFC 6901 pointer relative to the value validated) and what is wrong.
struct problem {
    std::string pointer{};
    std::string message{};

    friend bool operator==(const problem&, const problem&) = default;
};

struct dtype_info {
    std::string_view name;
    std::uint64_t itemsize;  // bytes per element as torch counts them (packed kinds: per pack)
};

// Every dtype torch exposes, by the name str(dtype) gives without "torch." and by its aliases
// (torch.half is torch.float16). Sub-byte kinds occupy a whole byte per element, as
// Tensor.element_size() reports; "_x2"/"x4"/"x8" kinds pack several values into one item.
// clang-format off
inline constexpr auto dtypes = std::to_array<dtype_info>({
    {"float32", 4}, {"float", 4}, {"float64", 8}, {"double", 8}, {"float16", 2}, {"half", 2}, {"bfloat16", 2},
    {"complex32", 4}, {"chalf", 4}, {"complex64", 8}, {"cfloat", 8}, {"complex128", 16}, {"cdouble", 16},
    {"uint8", 1}, {"uint16", 2}, {"uint32", 4}, {"uint64", 8},
    {"int8", 1}, {"int16", 2}, {"short", 2}, {"int32", 4}, {"int", 4}, {"int64", 8}, {"long", 8},
    {"bool", 1},
    {"quint8", 1}, {"qint8", 1}, {"qint32", 4}, {"quint4x2", 1}, {"quint2x4", 1},
    {"float8_e4m3fn", 1}, {"float8_e4m3fnuz", 1}, {"float8_e5m2", 1}, {"float8_e5m2fnuz", 1}, {"float8_e8m0fnu", 1},
    {"float4_e2m1fn_x2", 1},
    {"bits1x8", 1}, {"bits2x4", 1}, {"bits4x2", 1}, {"bits8", 1}, {"bits16", 2},
    {"uint1", 1}, {"uint2", 1}, {"uint3", 1}, {"uint4", 1}, {"uint5", 1}, {"uint6", 1}, {"uint7", 1},
    {"int1", 1}, {"int2", 1}, {"int3", 1}, {"int4", 1}, {"int5", 1}, {"int6", 1}, {"int7", 1},
});
// clang-format on

// The item size of a dtype name, or nullopt for a name torch does not know.
[[nodiscard]] constexpr std::optional<std::uint64_t> itemsize(std::string_view dtype) noexcept {
    for (const auto& d : dtypes) {
        if (d.name == dtype) {
            return d.itemsize;
        }
    }
    return std::nullopt;
}

// numel(shape) * itemsize, or nullopt when an extent is negative or the product overflows 64 bits.
[[nodiscard]] constexpr std::optional<std::uint64_t> expected_nbytes(const std::vector<std::int64_t>& shape,
                                                                     std::uint64_t item) noexcept {
    bool empty = false;
    for (const std::int64_t extent : shape) {
        if (extent < 0) {
            return std::nullopt;
        }
        empty = empty || extent == 0;
    }
    if (empty || item == 0) {
        return 0;  // an empty tensor, however large its other extents
    }
    std::uint64_t n = item;  // numel([]) == 1: a scalar
    for (const std::int64_t extent : shape) {
        const auto e = static_cast<std::uint64_t>(extent);
        if (n > std::numeric_limits<std::uint64_t>::max() / e) {
            return std::nullopt;
        }
        n *= e;
    }
    return n;
}

namespace detail {

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

// A DNS name (or an interface name, which ZeroMQ also accepts): labels of letters, digits and
// hyphens, not starting or ending with a hyphen.
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

inline std::string join(std::string_view base, std::string_view token) {
    std::string out{base};
    append_pointer_token(out, token);
    return out;
}

template <class T>
void check_strings(const T& value, std::string_view base, std::vector<problem>& out) {
    std::string pointer{base};
    // find_string stops at the first hit; keep walking by recording and returning false.
    find_string(value, pointer, [&](const std::string& at, std::string_view s) {
        if (!is_utf8(s)) {
            out.push_back({at, "expected a UTF-8 string, got invalid UTF-8"});
        }
        return false;
    });
}

template <class Spec>
void check_tensor(const Spec& s, std::string_view base, std::vector<problem>& out) {
    if (s.mm_hash.empty()) {
        out.push_back({join(base, wire_name(&Spec::mm_hash)), "expected a non-empty item id, got \"\""});
    }
    for (std::size_t i = 0; i < s.shape.size(); ++i) {
        if (s.shape[i] < 0) {
            out.push_back({join(join(base, wire_name(&Spec::shape)), std::to_string(i)),
                           "expected a non-negative extent, got " + std::to_string(s.shape[i])});
        }
    }
    const auto item = itemsize(s.dtype);
    if (!item) {
        std::string message = R"(expected a torch dtype name such as "bfloat16", got ")" + s.dtype + "\"";
        if (s.dtype.starts_with("torch.") && itemsize(std::string_view{s.dtype}.substr(6))) {
            message += " (drop the \"torch.\" prefix)";
        }
        out.push_back({join(base, wire_name(&Spec::dtype)), std::move(message)});
    } else if (std::none_of(s.shape.begin(), s.shape.end(), [](std::int64_t e) { return e < 0; })) {
        const auto want = expected_nbytes(s.shape, *item);
        if (!want) {
            out.push_back({join(base, wire_name(&Spec::nbytes)), "expected numel(shape) * itemsize(" + s.dtype +
                                                                     ") to fit 64 bits, got an overflowing product"});
        } else if (*want != s.nbytes) {
            out.push_back({join(base, wire_name(&Spec::nbytes)),
                           "expected " + std::to_string(*want) + " (numel(shape) * " + std::to_string(*item) +
                               " bytes of " + s.dtype + "), got " + std::to_string(s.nbytes)});
        }
    }
    if (s.transfer_id.empty()) {
        out.push_back({join(base, wire_name(&Spec::transfer_id)), "expected a non-empty transfer id, got \"\""});
    }
}

inline void check(const ECMooncakeLoadSpec& s, std::string_view base, std::vector<problem>& out) {
    check_tensor(s, base, out);
}

inline void check(const ECMooncakePushSpec& s, std::string_view base, std::vector<problem>& out) {
    check_tensor(s, base, out);
    if (std::string why = zmq_endpoint_problem(s.consumer_zmq); !why.empty()) {
        out.push_back({join(base, wire_name(&ECMooncakePushSpec::consumer_zmq)), std::move(why)});
    }
}

inline void check(const ECMooncakeConnectorMetadata& m, std::string_view base, std::vector<problem>& out) {
    const std::string loads = join(base, wire_name(&ECMooncakeConnectorMetadata::loads));
    for (std::size_t i = 0; i < m.loads.size(); ++i) {
        check(m.loads[i], join(loads, std::to_string(i)), out);
    }
    const std::string pushes = join(base, wire_name(&ECMooncakeConnectorMetadata::pushes));
    std::unordered_map<std::string_view, std::size_t> first;  // transfer_id -> index
    for (std::size_t i = 0; i < m.pushes.size(); ++i) {
        const std::string at = join(pushes, std::to_string(i));
        check(m.pushes[i], at, out);
        const auto [it, fresh] = first.emplace(m.pushes[i].transfer_id, i);
        if (!fresh) {
            out.push_back({join(at, wire_name(&ECMooncakePushSpec::transfer_id)),
                           "expected a transfer_id unique within the step, got \"" + m.pushes[i].transfer_id +
                               "\" again (first at " + pushes + "/" + std::to_string(it->second) + ")"});
        }
    }
}

inline void check(const ECMooncakeWorkerMetadata& w, std::string_view base, std::vector<problem>& out) {
    std::size_t i = 0;
    for (const std::string_view id : w.failed_loads) {
        if (w.loaded.contains(id)) {
            out.push_back({join(join(base, wire_name(&ECMooncakeWorkerMetadata::failed_loads)), std::to_string(i)),
                           "expected an id not also in loaded, got \"" + std::string{id} + "\" in both"});
        }
        ++i;
    }
}

// Where a pointer into a T falls in wire order: per level, a field's declared index or an
// element's index. Findings sort by it, so they read in the order the wire form holds them.
template <class T>
void wire_position(std::string_view pointer, std::vector<std::size_t>& position) {
    if (pointer.empty()) {
        return;
    }
    const std::size_t end = pointer.find('/', 1);
    const std::string_view token = pointer.substr(1, end == std::string_view::npos ? end : end - 1);
    const std::string_view rest = end == std::string_view::npos ? std::string_view{} : pointer.substr(end);
    constexpr form f = form_of<T>();
    if constexpr (f == form::nullable) {
        wire_position<typename T::value_type>(pointer, position);
    } else if constexpr (f == form::message) {
        std::size_t i = 0;
        for_each_field<T>([&](const auto& fd) {
            if (fd.name == token) {  // field names need no RFC 6901 escapes
                position.push_back(i);
                wire_position<typename std::remove_cvref_t<decltype(fd)>::member_type>(rest, position);
            }
            ++i;
        });
    } else {
        std::size_t index = 0;
        std::from_chars(token.data(), token.data() + token.size(), index);
        position.push_back(index);
        if constexpr (f == form::list) {
            wire_position<typename T::value_type>(rest, position);
        }
    }
}

}  // namespace detail

// Every finding, in wire order (findings at one place in the order they were found); empty when
// the value means something the running system accepts.
template <detail::described T>
[[nodiscard]] std::vector<problem> validate(const T& value) {
    std::vector<problem> out;
    detail::check(value, "", out);
    detail::check_strings(value, "", out);
    std::vector<std::pair<std::vector<std::size_t>, problem>> placed;
    placed.reserve(out.size());
    for (problem& p : out) {
        std::vector<std::size_t> position;
        detail::wire_position<T>(p.pointer, position);
        placed.emplace_back(std::move(position), std::move(p));
    }
    std::stable_sort(placed.begin(), placed.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (std::size_t i = 0; i < out.size(); ++i) {
        out[i] = std::move(placed[i].second);
    }
    return out;
}

}  // namespace ecmeta
