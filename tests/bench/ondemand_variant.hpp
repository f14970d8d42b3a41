// The variant the README's floors name: a decoder generated from schema<T>, as detail/walker.hpp
// is (though keys are matched in declared order, not next-declared first), over simdjson's
// On-Demand API, which builds no tape, into a warmed value. Written for the bench only: it does
// not validate what it skips, nor check what follows the root, so its verdicts are not decode's;
// the bench measures what the variant would cost on valid input before anyone pays for parity.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include <simdjson.h>

#include <ecmeta/ecmeta.hpp>

namespace ondemand_variant {

namespace od = simdjson::ondemand;
using ecmeta::detail::id_set_access;
using ecmeta::detail::schema;

inline void read(od::value v, std::string& out) {
    out.assign(v.get_string().value());
}
inline void read(od::value v, std::uint64_t& out) {
    out = v.get_uint64().value();
}
inline void read(od::value v, bool& out) {
    out = v.get_bool().value();
}
inline void read(od::value v, std::vector<std::int64_t>& out) {
    out.clear();
    for (auto item : v.get_array()) {
        out.push_back(static_cast<std::int64_t>(item.get_uint64().value()));
    }
}
inline void read(od::value v, ecmeta::id_set& out) {
    out.clear();
    for (auto item : v.get_array()) {
        id_set_access::append(out, item.get_string().value());
    }
    id_set_access::finish(out);
}

template <class E, class ReadElement>
void read_list(od::value v, std::vector<E>& out, ReadElement&& read_element) {
    std::size_t n = 0;
    for (auto item : v.get_array()) {
        read_element(item.value(), n < out.size() ? out[n] : out.emplace_back());
        ++n;
    }
    out.resize(n);
}

inline void read(od::value v, std::optional<std::vector<std::string>>& out) {
    if (v.is_null()) {
        out.reset();
        return;
    }
    read_list(v, out ? *out : out.emplace(), [](od::value item, std::string& element) { read(item, element); });
}

template <ecmeta::detail::described S>
void read_object(od::object object, S& out);

template <ecmeta::detail::described S>
void read(od::value v, std::vector<S>& out) {
    read_list(v, out, [](od::value item, S& element) { read_object(item.get_object().value(), element); });
}

// Reads the field named `key` into `out` and marks it in `seen`; false if no field is named so.
template <class S, std::size_t... I>
bool read_field(std::string_view key, od::value v, S& out, std::uint32_t& seen, std::index_sequence<I...> /*unused*/) {
    return ((key == std::get<I>(schema<S>::fields).name &&
             (read(v, out.*std::get<I>(schema<S>::fields).member), seen |= std::uint32_t{1} << I, true)) ||
            ...);
}

template <ecmeta::detail::described S>
void read_object(od::object object, S& out) {
    std::uint32_t seen = 0;
    for (auto field : object) {
        // An unknown key's value is skipped, unread and unchecked.
        static_cast<void>(read_field(field.unescaped_key().value(), field.value().value(), out, seen,
                                     std::make_index_sequence<std::tuple_size_v<decltype(schema<S>::fields)>>{}));
    }
    if ((ecmeta::detail::table<S>::info.required & ~seen) != 0) {
        throw std::invalid_argument("a required field is missing");
    }
    ecmeta::detail::table<S>::info.defaults(&out, seen);
}

// Decodes padded JSON into `out` with `parser`, which keeps its buffers between calls.
template <ecmeta::detail::described T>
void decode_into(od::parser& parser, const simdjson::padded_string& json, T& out) {
    od::document document = parser.iterate(json);
    read_object(document.get_object().value(), out);
}

}  // namespace ondemand_variant
