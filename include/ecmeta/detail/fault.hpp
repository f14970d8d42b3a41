// ecmeta — how a decode fails without throwing: the pull readers (json/reader.hpp,
// msgpack/reader.hpp, json/dom.hpp, python/reader.hpp) and the walks record a fault, the first one
// wins, and from then on every read returns at once with a harmless value and every cursor says it
// is done, so the walk unwinds by plain returns and its caller reads the fault. A refusing reader
// (the fast path) records only that it failed; a naming reader records what and where.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "../version.hpp"

#include <charconv>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "pointer.hpp"

namespace ecmeta::inline ECMETA_ABI::detail {

// What a naming reader found wrong. Each level of the walk it unwinds through puts its own token
// in front of the pointer, so a pointer costs nothing until something fails.
struct fault {
    std::string pointer{};
    // "<what was expected>, got <what was found>"; for a value of another type than the one asked
    // for, only what was found ("string", "integer -3", …) until the decoder names the type.
    std::string message{};
    std::optional<std::size_t> offset{};
    bool type_unnamed = false;

    void enclose(std::string_view token) {
        std::string p;
        append_pointer_token(p, token);
        pointer.insert(0, p);
    }
    void enclose(std::size_t index) {
        char digits[24];
        const char* end = std::to_chars(digits, digits + sizeof digits, index).ptr;
        enclose(std::string_view{digits, static_cast<std::size_t>(end - digits)});
    }
};

// A reader's (or a walk's) failure so far. Naming = false: only whether it failed.
template <bool Naming>
class fault_state {
public:
    [[nodiscard]] bool failed() const noexcept { return failed_; }
    [[nodiscard]] fault& recorded() noexcept requires Naming { return fault_; }
    // The one way to fail: records the fault `make()` gives, unless one came first (make may read
    // on and record one itself: that one stands). A refusing state records only that it failed and
    // never calls make, so what only words an error costs the fast path nothing.
    template <class Make>
    void record(Make&& make) {
        if constexpr (Naming) {
            if (!failed_) {
                fault f = make();
                if (!failed_) {
                    fault_ = std::move(f);
                }
            }
        }
        failed_ = true;
    }

protected:
    struct nothing {};
    bool failed_ = false;
    [[no_unique_address]] std::conditional_t<Naming, fault, nothing> fault_;
};

}  // namespace ecmeta::detail
