// ecmeta — the JSON Schema (draft 2020-12) of the JSON wire form, generated from the schema
// that the writers and the decoder read: a field added there is in the schema with no second edit.
// Standard library only (ecmeta::core).
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "version.hpp"

#include <string>

#include "detail/json_schema_writer.hpp"
#include "detail/schema.hpp"

namespace ecmeta::inline ECMETA_ABI {

// The JSON Schema (draft 2020-12) of T's JSON wire form, as compact JSON text, for the four types,
// lists of them and the rank-report list (std::vector<std::optional<ECMooncakeWorkerMetadata>>).
// What it cannot say, and decode enforces: docs/wire-format.md, "The JSON Schema".
template <wire_type T>
[[nodiscard]] std::string json_schema() {
    std::string out = R"({"$schema":"https://json-schema.org/draft/2020-12/schema",)";
    detail::json_schema_writer w{out};
    if constexpr (detail::described<T>) {
        w.object<T>();
    } else if constexpr (detail::described<typename detail::is_vector<T>::element>) {
        using S = typename detail::is_vector<T>::element;
        out.append(R"("title":"list of )").append(detail::schema<S>::name).append(R"(","type":"array","items":{)");
        w.object<S>();
        out += '}';
    } else {
        using S = typename detail::report_type<typename detail::is_vector<T>::element>::type;
        out.append(R"("title":")")
            .append(detail::schema<S>::name)
            .append(R"( by rank","description":"The ranks' reports in rank order; null: a rank that reported )"
                    R"(nothing, which the fold skips.","type":"array","items":{"anyOf":[{)");
        w.object<S>();
        out.append(R"(},{"type":"null"}]})");
    }
    out += '}';
    return out;
}

// How aggregate folds a worker report, member by member, in the words its schema's description
// uses: "loaded intersected, failed_loads united, reclaimed united, pending_saves or-ed,
// failed_saves united".
template <connector_worker_metadata W>
requires detail::described<W>
[[nodiscard]] std::string fold_description() {
    return detail::fold_description<W>();
}

}  // namespace ecmeta
