// ecmeta — what validate checks and where: one walk of the value in wire order, each check made
// at the place it reports, its pointer spelled only for a finding. Included at the end of
// <ecmeta/validate.hpp>, which declares the API.
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
#include "../places.hpp"
#include "../schema.hpp"
#include "../utf8.hpp"
#include "endpoint.hpp"

namespace ecmeta::inline ECMETA_ABI {
namespace detail {

// Whether member pointer A is B (pointers to members of different types never are).
template <auto A, auto B>
inline constexpr bool is_member = same_member(A, B);

template <class T>
concept tensor_spec = std::same_as<T, ECMooncakeLoadSpec> || std::same_as<T, ECMooncakePushSpec>;

// The visitor of walk_places that checks each field and element as the walk reaches it. Findings
// at one place come in the order the checks below make them, a string's UTF-8 last.
class checker {
public:
    static constexpr bool sees_fields = true;

    explicit checker(std::vector<problem>& out) noexcept : out_(out) {}

    template <auto Member, class T>
    bool field(const T& owner, const place& at) {
        if constexpr (tensor_spec<T>) {
            check_tensor_field<Member>(owner, at);
        }
        if constexpr (is_member<Member, &ECMooncakePushSpec::consumer_zmq>) {
            if (std::string why = zmq_endpoint_problem(owner.consumer_zmq); !why.empty()) {
                add(at, std::move(why));
            }
        }
        if constexpr (is_member<Member, &ECMooncakePushSpec::transfer_id>) {
            check_unique_transfer(owner, at);
        }
        if constexpr (is_member<Member, &ECMooncakeConnectorMetadata::pushes>) {
            index_transfers(owner.pushes);
        }
        return false;
    }

    template <auto Member, class T, class E>
    bool element(const T& owner, std::size_t /*i*/, const E& element, const place& at) {
        if constexpr (tensor_spec<T>) {
            if constexpr (is_member<Member, &T::shape>) {
                if (element < 0) {
                    add(at, "expected a non-negative extent, got " + std::to_string(element));
                }
            }
        }
        if constexpr (is_member<Member, &ECMooncakeWorkerMetadata::failed_loads>) {
            if (owner.loaded.contains(element)) {
                add(at, "expected an id not also in loaded, got \"" + std::string{element} + "\" in both");
            }
        }
        return false;
    }

    bool string(std::string_view s, const place& at) {
        if (!is_utf8(s)) {
            add(at, std::string{message::not_utf8});
        }
        return false;
    }

private:
    void add(const place& at, std::string message) { out_.push_back({at.pointer(), std::move(message)}); }

    template <auto Member, class Spec>
    void check_tensor_field(const Spec& s, const place& at) {
        if constexpr (is_member<Member, &Spec::mm_hash>) {
            if (s.mm_hash.empty()) {
                add(at, "expected a non-empty item id, got \"\"");
            }
        } else if constexpr (is_member<Member, &Spec::dtype>) {
            if (!itemsize(s.dtype)) {
                std::string message = R"(expected a torch dtype name such as "bfloat16", got ")" + s.dtype + "\"";
                if (s.dtype.starts_with("torch.") && itemsize(std::string_view{s.dtype}.substr(6))) {
                    message += " (drop the \"torch.\" prefix)";
                }
                add(at, std::move(message));
            }
        } else if constexpr (is_member<Member, &Spec::nbytes>) {
            // Checked only when dtype and every extent are known good: else they are the finding.
            const auto item = itemsize(s.dtype);
            if (!item || std::any_of(s.shape.begin(), s.shape.end(), [](std::int64_t e) { return e < 0; })) {
                return;
            }
            const auto want = expected_nbytes(s.shape, *item);
            if (!want) {
                add(at, "expected numel(shape) * itemsize(" + s.dtype + ") to fit 64 bits, got an overflowing product");
            } else if (*want != s.nbytes) {
                add(at, "expected " + std::to_string(*want) + " (numel(shape) * " + std::to_string(*item) +
                            " bytes of " + s.dtype + "), got " + std::to_string(s.nbytes));
            }
        } else if constexpr (is_member<Member, &Spec::transfer_id>) {
            if (s.transfer_id.empty()) {
                add(at, "expected a non-empty transfer id, got \"\"");
            }
        }
    }

    // Each push's first push with the same transfer_id, for the step whose pushes the walk enters:
    // the indices sorted by id (stably, so the first of a run is the earliest), each run pointing
    // at its head.
    void index_transfers(const std::vector<ECMooncakePushSpec>& pushes) {
        pushes_ = &pushes;
        std::vector<std::size_t> by_id(pushes.size());
        for (std::size_t i = 0; i < by_id.size(); ++i) {
            by_id[i] = i;
        }
        std::stable_sort(by_id.begin(), by_id.end(),
                         [&](std::size_t a, std::size_t b) { return pushes[a].transfer_id < pushes[b].transfer_id; });
        first_.assign(pushes.size(), 0);
        for (std::size_t k = 0; k < by_id.size(); ++k) {
            const bool head = k == 0 || pushes[by_id[k]].transfer_id != pushes[by_id[k - 1]].transfer_id;
            first_[by_id[k]] = head ? by_id[k] : first_[by_id[k - 1]];
        }
    }

    // At a push's transfer_id (at.above is the push, at.above->above the step's pushes): a push
    // validated on its own has no step to be unique in.
    void check_unique_transfer(const ECMooncakePushSpec& push, const place& at) {
        const place* item = at.above;
        if (pushes_ == nullptr || item == nullptr || item->index >= pushes_->size() ||
            &(*pushes_)[item->index] != &push) {
            return;
        }
        if (const std::size_t first = first_[item->index]; first != item->index) {
            add(at, "expected a transfer_id unique within the step, got \"" + push.transfer_id + "\" again (first at " +
                        place{item->above, {}, first}.pointer() + ")");
        }
    }

    std::vector<problem>& out_;
    const std::vector<ECMooncakePushSpec>* pushes_ = nullptr;
    std::vector<std::size_t> first_;
};

}  // namespace detail

template <wire_type T>
std::vector<problem> validate(const T& value) {
    std::vector<problem> out;
    detail::checker checker{out};
    detail::walk_places(value, detail::place{}, checker);
    return out;
}

}  // namespace ecmeta
