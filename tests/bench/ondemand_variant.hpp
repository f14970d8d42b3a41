// The variant docs/performance.md's floors name: a decoder generated from schema<T>, as detail/decode.hpp
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

template <ecmeta::detail::described S>
void read_object(od::object object, S& out);

// Reads v into out by out's form, as the decoder does.
template <class T>
void read(od::value v, T& out) {
    using ecmeta::detail::form;
    constexpr form f = ecmeta::detail::form_of<T>();
    if constexpr (f == form::string) {
        out.assign(v.get_string().value());
    } else if constexpr (f == form::u64) {
        out = v.get_uint64().value();
    } else if constexpr (f == form::i64) {
        out = static_cast<std::int64_t>(v.get_uint64().value());
    } else if constexpr (f == form::boolean) {
        out = v.get_bool().value();
    } else if constexpr (f == form::ids) {
        out.clear();
        for (auto item : v.get_array()) {
            id_set_access::append(out, item.get_string().value());
        }
        id_set_access::finish(out);
    } else if constexpr (f == form::nullable) {
        if (v.is_null()) {
            out.reset();
        } else {
            read(v, out ? *out : out.emplace());
        }
    } else if constexpr (f == form::list) {
        std::size_t n = 0;
        for (auto item : v.get_array()) {
            read(item.value(), n < out.size() ? out[n] : out.emplace_back());
            ++n;
        }
        out.resize(n);
    } else {
        read_object(v.get_object().value(), out);
    }
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
    if ((ecmeta::detail::required_fields<S> & ~seen) != 0) {
        throw std::invalid_argument("a required field is missing");
    }
    ecmeta::detail::no_storage keep;  // the bench decodes the same input again: nothing is dropped
    ecmeta::detail::to_defaults(out, seen, keep);
}

// Decodes padded JSON into `out` with `parser`, which keeps its buffers between calls.
template <ecmeta::detail::described T>
void decode_into(od::parser& parser, const simdjson::padded_string& json, T& out) {
    od::document document = parser.iterate(json);
    read_object(document.get_object().value(), out);
}

}  // namespace ondemand_variant
