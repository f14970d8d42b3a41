// ecmeta — the version, and the inline namespace it names. Every declaration of ecmeta lives in
// ecmeta::ECMETA_ABI (for example ecmeta::v0_4_0), so two versions in one program, or one built
// with options that change what a function means, are two sets of symbols rather than one
// definition the linker picks at random. Code names ecmeta::…; the inline namespace is implied.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#define ECMETA_VERSION_MAJOR 0
#define ECMETA_VERSION_MINOR 4
#define ECMETA_VERSION_PATCH 0

// A tag for each build option that changes what a function means: without exceptions, the
// throwing calls stop the program instead.
#if defined(__cpp_exceptions)
#define ECMETA_ABI_TAGS
#else
#define ECMETA_ABI_TAGS _noexceptions
#endif

#define ECMETA_ABI_PASTE_(major, minor, patch, tags) v##major##_##minor##_##patch##tags
#define ECMETA_ABI_NAME_(major, minor, patch, tags) ECMETA_ABI_PASTE_(major, minor, patch, tags)
// The inline namespace's name; every header opens `namespace ecmeta::inline ECMETA_ABI`.
#define ECMETA_ABI ECMETA_ABI_NAME_(ECMETA_VERSION_MAJOR, ECMETA_VERSION_MINOR, ECMETA_VERSION_PATCH, ECMETA_ABI_TAGS)
