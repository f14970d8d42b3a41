// ecmeta — the encode driver: a writer (a sink of visit) over the caller's buffer, and the error
// when a value has no wire form. Standard library only.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "../version.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "../error.hpp"
#include "exceptions.hpp"
#include "inline.hpp"
#include "messages.hpp"
#include "places.hpp"
#include "utf8.hpp"
#include "visit.hpp"

namespace ecmeta::inline ECMETA_ABI::detail {

// Where the first string that is not UTF-8 sits. Out of line, and one per T for every format.
template <class T>
ECMETA_COLD encode_error not_utf8_error(const T& value) {
    std::string pointer;
    string_visitor first_not_utf8{[&](std::string_view s, const place& at) {
        if (is_utf8(s)) {
            return false;
        }
        pointer = at.pointer();
        return true;
    }};
    walk_places(value, place{}, first_not_utf8);
    return {std::move(pointer), std::string{message::not_utf8}};
}

// Writes value with Writer into out from byte `start` on, out's storage kept, and returns the
// error if there is no wire form: out is then cut back to `start`. A string that is not UTF-8 is
// named by its pointer, which is looked for only then. Only running out of memory throws (out is
// cut back then too).
template <template <class> class Writer, class Container, class T>
[[nodiscard]] std::optional<encode_error> encode_at(const T& value, Container& out, std::size_t start) {
    const auto [ok, beyond] = undo_on_throw(
        [&] {
            typename Writer<Container>::buffer buffer{out, start};
            Writer<Container> writer{buffer};
            visit(value, writer);
            buffer.finish();
            return std::pair{writer.ok(), writer.beyond()};
        },
        [&] { out.resize(start); });  // never half-written
    if (beyond != 0) [[unlikely]] {
        out.resize(start);
        return encode_error("", message::beyond_msgpack_length(beyond));
    }
    if (!ok) [[unlikely]] {
        out.resize(start);
        return not_utf8_error(value);
    }
    return std::nullopt;
}

}  // namespace ecmeta::detail
