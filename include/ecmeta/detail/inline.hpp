// ecmeta — ECMETA_INLINE: inlined whatever the compiler's size heuristics say. For the writers'
// walk, whose cursor stays in a register only where every step of the walk is inlined.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#if defined(__GNUC__) || defined(__clang__)
#define ECMETA_INLINE [[gnu::always_inline]] inline
#define ECMETA_INLINE_LAMBDA __attribute__((always_inline))
// A failure path: out of line, so that the reads it leaves stay small enough to inline.
#define ECMETA_COLD [[gnu::cold, gnu::noinline]]
#else
#define ECMETA_INLINE inline
#define ECMETA_INLINE_LAMBDA
#define ECMETA_COLD
#endif
