// ecmeta — how strictly decode reads: the options every decode call takes. Standard library only.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "version.hpp"

#include <cstddef>

namespace ecmeta::inline ECMETA_ABI {

struct decode_options {
    // Inputs longer than this many bytes are refused before parsing; 0 means no limit.
    std::size_t max_input_bytes = 0;
    // Refuse keys the schema does not know, instead of ignoring them as Python does.
    bool reject_unknown_keys = false;
};

}  // namespace ecmeta
