// ecmeta — what validate checks, where, and in which order it reports: the checks of each type,
// and validate itself. Included at the end of <ecmeta/validate.hpp>, which declares the API.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "../../version.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "../../validate.hpp"
#include "../messages.hpp"
#include "../schema.hpp"
#include "../utf8.hpp"
#include "endpoint.hpp"

namespace ecmeta::inline ECMETA_ABI {
namespace detail {

inline std::string join(std::string_view base, std::string_view token) {
    std::string out{base};
    append_pointer_token(out, token);
    return out;
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

// One message's findings, in wire order.
template <described T>
std::vector<problem> validate_message(const T& value) {
    std::vector<problem> found;
    detail::check(value, "", found);
    // The checks' findings by place; a walk of the value in wire order reports them as it reaches
    // each place, then whether a string there is UTF-8.
    std::unordered_map<std::string, std::vector<std::size_t>> at_place;
    for (std::size_t i = 0; i < found.size(); ++i) {
        at_place[found[i].pointer].push_back(i);
    }
    std::vector<problem> out;
    out.reserve(found.size());
    std::string pointer;
    detail::walk_places(
        value, pointer,
        [&](const std::string& place) {
            if (const auto it = at_place.find(place); it != at_place.end()) {
                for (const std::size_t i : it->second) {
                    out.push_back(std::move(found[i]));
                }
                at_place.erase(it);
            }
            return false;
        },
        [&](const std::string& place, std::string_view s) {
            if (!detail::is_utf8(s)) {
                out.push_back({place, std::string{detail::message::not_utf8}});
            }
            return false;
        });
    // Every check reports at a place the walk reaches; were one not to, its finding still shows,
    // in the order found.
    std::vector<std::size_t> unplaced;
    for (const auto& [place, indices] : at_place) {
        unplaced.insert(unplaced.end(), indices.begin(), indices.end());
    }
    std::sort(unplaced.begin(), unplaced.end());
    for (const std::size_t i : unplaced) {
        out.push_back(std::move(found[i]));
    }
    return out;
}

}  // namespace detail

template <wire_type T>
std::vector<problem> validate(const T& value) {
    if constexpr (detail::described<T>) {
        return detail::validate_message(value);
    } else {
        std::vector<problem> out;
        for (std::size_t i = 0; i < value.size(); ++i) {
            std::vector<problem> found;
            if constexpr (detail::is_optional_v<typename T::value_type>) {
                if (value[i]) {
                    found = detail::validate_message(*value[i]);
                }
            } else {
                found = detail::validate_message(value[i]);
            }
            for (problem& p : found) {
                p.pointer.insert(0, "/" + std::to_string(i));
                out.push_back(std::move(p));
            }
        }
        return out;
    }
}

}  // namespace ecmeta
