// ecmeta — a value as text for people: its canonical JSON, never throwing, and the short form a
// log line wants. What operator<<, the fmt and std::format formatters and the test kits print.
// Standard library only.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "../version.hpp"

#include <cstddef>
#include <string>
#include <string_view>
#include <type_traits>

#include "../error.hpp"
#include "../id_set.hpp"
#include "../metadata.hpp"
#include "encode.hpp"
#include "json/writer.hpp"
#include "schema.hpp"

namespace ecmeta::inline ECMETA_ABI {

// An id as log lines show it: its first 16 bytes, then "…" if it is longer (a digest's first 16
// hex digits tell items apart). The short form ({:s}) and the ecmeta command print ids so.
[[nodiscard]] inline std::string short_id(std::string_view id) {
    constexpr std::size_t shown = 16;
    return id.size() > shown ? std::string{id.substr(0, shown)} + "…" : std::string{id};
}

}  // namespace ecmeta

namespace ecmeta::inline ECMETA_ABI::detail {

// What has a text form: the four types, id_set, and the lists the wire carries.
template <class T>
concept printable = wire_type<T> || std::is_same_v<T, id_set>;

// Canonical JSON, or a note saying why there is none: a value built in code may hold a string that
// is not UTF-8, and printing it must not throw.
template <printable T>
[[nodiscard]] std::string canonical_text(const T& value) {
    std::string out;
    if (const auto e = encode_at<json::writer>(value, out, 0)) {
        return std::string{"<no wire form: "} + e->what() + ">";
    }
    return out;
}

// "n things" with the plural a count needs.
inline std::string count_of(std::size_t n, std::string_view one, std::string_view many) {
    return std::to_string(n) + " " + std::string{n == 1 ? one : many};
}

template <class Spec>
void append_tensor(std::string& out, const Spec& s) {
    out += short_id(s.mm_hash);
    out += " " + std::to_string(s.nbytes) + " B " + s.dtype + "[";
    for (std::size_t i = 0; i < s.shape.size(); ++i) {
        out += (i == 0 ? "" : ",") + std::to_string(s.shape[i]);
    }
    out += "]";
}

// The short form, for log lines: counts and a few ids, not the whole value.
//   load 9f2c1a0b3e4d5f60… 7340032 B bfloat16[1024,3584] local
//   push 9f2c1a0b3e4d5f60… 7340032 B bfloat16[1024,3584] to tcp://10.0.0.2:19019
//   3 loads, 1 push, freed null
//   2 loaded, 1 failed load, 0 reclaimed, saves pending, 0 failed saves
//   3 ids
[[nodiscard]] inline std::string short_text(const ECMooncakeLoadSpec& s) {
    std::string out = "load ";
    append_tensor(out, s);
    out += s.local ? " local" : "";
    return out;
}
[[nodiscard]] inline std::string short_text(const ECMooncakePushSpec& s) {
    std::string out = "push ";
    append_tensor(out, s);
    return out + " to " + s.consumer_zmq;
}
[[nodiscard]] inline std::string short_text(const ECMooncakeConnectorMetadata& m) {
    return count_of(m.loads.size(), "load", "loads") + ", " + count_of(m.pushes.size(), "push", "pushes") + ", freed " +
           (m.freed ? std::to_string(m.freed->size()) : std::string{"null"});
}
[[nodiscard]] inline std::string short_text(const ECMooncakeWorkerMetadata& w) {
    return std::to_string(w.loaded.size()) + " loaded, " +
           count_of(w.failed_loads.size(), "failed load", "failed loads") + ", " + std::to_string(w.reclaimed.size()) +
           " reclaimed, " + (w.pending_saves ? "saves pending" : "no saves pending") + ", " +
           count_of(w.failed_saves.size(), "failed save", "failed saves");
}
[[nodiscard]] inline std::string short_text(const id_set& s) {
    return count_of(s.size(), "id", "ids");
}

// What the formatters take: the printable values but lists, which fmt's and std's range
// formatters already format element by element (two formatters of one type would be ambiguous).
template <class T>
concept formattable = printable<T> && !is_vector<T>::value;

// A format spec for those: "" (canonical JSON) or "s" (the short form). Returns where the spec
// ends, and throws Error (fmt::format_error or std::format_error) on anything else.
template <class Error, class Iterator>
constexpr Iterator parse_text_form(Iterator it, Iterator end, bool& short_form) {
    short_form = false;
    if (it != end && *it == 's') {
        short_form = true;
        ++it;
    }
    if (it != end && *it != '}') {
        raise(Error("ecmeta: the format spec is {} (canonical JSON) or {:s} (the short form)"));
    }
    return it;
}

template <formattable T>
[[nodiscard]] std::string formatted_text(const T& value, bool short_form) {
    return short_form ? short_text(value) : canonical_text(value);
}

}  // namespace ecmeta::detail
