// ecmeta — everything: the types and their fold, the wire forms, validation.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "error.hpp"
#include "json.hpp"
#include "json_schema.hpp"
#include "metadata.hpp"
#include "msgpack.hpp"
#include "validate.hpp"
