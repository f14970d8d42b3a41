// ecmeta — where ecmeta throws, and what it does without exceptions (-fno-exceptions): the
// throwing calls print the error's message and stop the program, never going on silently, and
// running out of memory ends the program as the standard library's own allocation does. Bad input
// never throws: decoding reports it as a value (fault.hpp), and the throwing calls raise it.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "../version.hpp"

#include <cstdio>
#include <cstdlib>
#include <utility>

namespace ecmeta::inline ECMETA_ABI::detail {

// Throws e; without exceptions, prints its message and aborts.
template <class E>
[[noreturn]] void raise(E&& e) {
#if defined(__cpp_exceptions)
    throw std::forward<E>(e);
#else
    std::fputs("ecmeta: ", stderr);
    std::fputs(e.what(), stderr);
    std::fputc('\n', stderr);
    std::abort();
#endif
}

// Runs f; if it throws (memory ran out), runs undo first and lets the exception go on.
template <class F, class Undo>
decltype(auto) undo_on_throw(F&& f, Undo&& undo) {
#if defined(__cpp_exceptions)
    try {
        return std::forward<F>(f)();
    } catch (...) {
        std::forward<Undo>(undo)();
        throw;
    }
#else
    static_cast<void>(undo);
    return std::forward<F>(f)();
#endif
}

// Runs f, for what is only worth doing if memory allows (keeping storage for later): if it throws,
// nothing more is done.
template <class F>
void if_memory_allows(F&& f) noexcept {
#if defined(__cpp_exceptions)
    try {
        std::forward<F>(f)();
    } catch (...) {  // NOLINT(bugprone-empty-catch): the storage is simply not kept
    }
#else
    std::forward<F>(f)();
#endif
}

}  // namespace ecmeta::detail
