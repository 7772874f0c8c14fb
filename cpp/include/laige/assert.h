// laige/assert.h - the misuse policy: loud in native debug, degrade elsewhere.
//
// Misuse (a stale handle destroyed, an illegal mutation during iteration)
// asserts in a native debug build and degrades in release and wasm builds
// (InvalidArgument + a rate-limited warn, the mutation skipped): the table
// of docs/entity.md#stale-handles.
// LAIGE_DEBUG_ASSERTS is 1 exactly in native builds without NDEBUG.
#pragma once

#if !defined(LAIGE_DEBUG_ASSERTS)
#if defined(NDEBUG) || defined(__EMSCRIPTEN__)
#define LAIGE_DEBUG_ASSERTS 0
#else
#define LAIGE_DEBUG_ASSERTS 1
#endif
#endif

namespace laige::detail {

/// Prints "laige: misuse: <what> (<file>:<line>)" to stderr and aborts.
/// Only reached in builds with LAIGE_DEBUG_ASSERTS.
[[noreturn]] void misuseAbort(const char* what, const char* file, int line) noexcept;

}  // namespace laige::detail

/// In a debug-asserting build, abort with `what` (a loud use-after-free or
/// misuse crash); elsewhere a no-op, and the caller degrades to an error.
#if LAIGE_DEBUG_ASSERTS
#define LAIGE_MISUSE(what) ::laige::detail::misuseAbort((what), __FILE__, __LINE__)
#else
#define LAIGE_MISUSE(what) ((void)0)
#endif
