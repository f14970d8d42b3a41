// ecmeta — what validate checks, where, and in which order it reports: the checks of each type,
// and validate itself. Included at the end of <ecmeta/validate.hpp>, which declares the API.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "../../version.hpp"

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
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

// The checks of each type are templates (T is always the type named), so that a translation unit
// that never validates never compiles them.
template <std::same_as<ECMooncakeLoadSpec> T>
void check(const T& s, std::string_view base, std::vector<problem>& out) {
    check_tensor(s, base, out);
}

template <std::same_as<ECMooncakePushSpec> T>
void check(const T& s, std::string_view base, std::vector<problem>& out) {
    check_tensor(s, base, out);
    if (std::string why = zmq_endpoint_problem(s.consumer_zmq); !why.empty()) {
        out.push_back({join(base, wire_name(&T::consumer_zmq)), std::move(why)});
    }
}

template <std::same_as<ECMooncakeConnectorMetadata> T>
void check(const T& m, std::string_view base, std::vector<problem>& out) {
    const std::string loads = join(base, wire_name(&ECMooncakeConnectorMetadata::loads));
    for (std::size_t i = 0; i < m.loads.size(); ++i) {
        check(m.loads[i], join(loads, std::to_string(i)), out);
    }
    const std::string pushes = join(base, wire_name(&ECMooncakeConnectorMetadata::pushes));
    // Each push's first push with the same transfer_id: the indices sorted by id (stably, so the
    // first of a run is the earliest), each run pointing at its head.
    std::vector<std::size_t> by_id(m.pushes.size());
    for (std::size_t i = 0; i < by_id.size(); ++i) {
        by_id[i] = i;
    }
    std::stable_sort(by_id.begin(), by_id.end(),
                     [&](std::size_t a, std::size_t b) { return m.pushes[a].transfer_id < m.pushes[b].transfer_id; });
    std::vector<std::size_t> first(m.pushes.size());
    for (std::size_t k = 0; k < by_id.size(); ++k) {
        const bool head = k == 0 || m.pushes[by_id[k]].transfer_id != m.pushes[by_id[k - 1]].transfer_id;
        first[by_id[k]] = head ? by_id[k] : first[by_id[k - 1]];
    }
    for (std::size_t i = 0; i < m.pushes.size(); ++i) {
        const std::string at = join(pushes, std::to_string(i));
        check(m.pushes[i], at, out);
        if (first[i] != i) {
            out.push_back({join(at, wire_name(&ECMooncakePushSpec::transfer_id)),
                           "expected a transfer_id unique within the step, got \"" + m.pushes[i].transfer_id +
                               "\" again (first at " + pushes + "/" + std::to_string(first[i]) + ")"});
        }
    }
}

template <std::same_as<ECMooncakeWorkerMetadata> T>
void check(const T& w, std::string_view base, std::vector<problem>& out) {
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
    // The checks' findings by place (indices sorted by pointer, stably, so each place keeps the
    // order found); a walk of the value in wire order reports them as it reaches each place, then
    // whether a string there is UTF-8.
    std::vector<std::string> places(found.size());  // kept apart: a finding moves out when reported
    std::vector<std::size_t> by_place(found.size());
    for (std::size_t i = 0; i < found.size(); ++i) {
        places[i] = found[i].pointer;
        by_place[i] = i;
    }
    std::stable_sort(by_place.begin(), by_place.end(),
                     [&](std::size_t a, std::size_t b) { return places[a] < places[b]; });
    std::vector<char> placed(found.size(), 0);
    std::vector<problem> out;
    out.reserve(found.size());
    std::string pointer;
    detail::walk_places(
        value, pointer,
        [&](const std::string& place) {
            auto it = std::lower_bound(by_place.begin(), by_place.end(), place,
                                       [&](std::size_t i, const std::string& p) { return places[i] < p; });
            for (; it != by_place.end() && places[*it] == place; ++it) {
                if (placed[*it] == 0) {
                    placed[*it] = 1;
                    out.push_back(std::move(found[*it]));
                }
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
    for (std::size_t i = 0; i < found.size(); ++i) {
        if (placed[i] == 0) {
            out.push_back(std::move(found[i]));
        }
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
