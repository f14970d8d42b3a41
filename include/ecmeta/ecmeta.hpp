// ecmeta — everything but the glue: the types and their fold, both wire forms, validation, the
// JSON Schema and operator<<; standard library only.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "bytes.hpp"
#include "decode_options.hpp"
#include "decode_storage.hpp"
#include "error.hpp"
#include "json.hpp"
#include "json_schema.hpp"
#include "metadata.hpp"
#include "msgpack.hpp"
#include "ostream.hpp"
#include "validate.hpp"
