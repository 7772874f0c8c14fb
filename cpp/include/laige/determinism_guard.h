// laige/determinism_guard.h - refuses to compile under a floating-point mode
// that changes the result of + - * / or sqrt (`docs/sim_math.md#flags`).
//
// Every laige header reaches this file (through fpx16_16.h and
// sim_math.h), so a translation unit that includes any of them and is built
// with one of these modes fails with a message naming the flag. The checks
// are the macros the compilers predefine for those modes:
//
//   macro                      g++ 12 sets it for            clang 14 / em++
//   __FAST_MATH__              -ffast-math, -Ofast           -ffast-math, -Ofast, -ffp-model=fast
//   __ASSOCIATIVE_MATH__       -fassociative-math (with      (never)
//                              -fno-signed-zeros
//                              -fno-trapping-math),
//                              -funsafe-math-optimizations
//   __RECIPROCAL_MATH__        -freciprocal-math,            (never)
//                              -funsafe-math-optimizations
//   __NO_SIGNED_ZEROS__        -fno-signed-zeros,            (never)
//                              -funsafe-math-optimizations
//   __FINITE_MATH_ONLY__ == 1  -ffinite-math-only            -ffinite-math-only
//   __FLT_EVAL_METHOD__ != 0   -mfpmath=387 (x87 excess      (x86-64 and wasm: always 0)
//                              precision)
//
// Deliberately not rejected, because they change no result of + - * / sqrt:
// __NO_TRAPPING_MATH__ (-fno-trapping-math alone: clang's default),
// __NO_MATH_ERRNO__ (-fno-math-errno) and __ROUNDING_MATH__
// (-frounding-math; laige never changes the rounding mode).
//
// What clang does not announce (-fassociative-math, -freciprocal-math,
// -fno-signed-zeros, -fno-honor-nans, ...) cannot be seen here; the CMake
// package and laige_sim.pc pin those modes off with compile options
// instead, and FMA contraction is handled by the fp32 backend itself
// (SimMath<Fp32Pinned> keeps every product from being fused).
#pragma once

#if defined(__FAST_MATH__)
#error "laige: -ffast-math / -Ofast / -ffp-model=fast change float results; build without them (docs/sim_math.md#flags)"
#endif
#if defined(__ASSOCIATIVE_MATH__)
#error "laige: -fassociative-math (or -funsafe-math-optimizations) reorders float sums; build without it (docs/sim_math.md#flags)"
#endif
#if defined(__RECIPROCAL_MATH__)
#error "laige: -freciprocal-math (or -funsafe-math-optimizations) turns x / y into x * (1 / y); build without it (docs/sim_math.md#flags)"
#endif
#if defined(__NO_SIGNED_ZEROS__)
#error "laige: -fno-signed-zeros (or -funsafe-math-optimizations) changes the sign of zero results; build without it (docs/sim_math.md#flags)"
#endif
#if defined(__FINITE_MATH_ONLY__) && __FINITE_MATH_ONLY__ == 1
#error "laige: -ffinite-math-only drops NaN and infinity semantics; build without it (docs/sim_math.md#flags)"
#endif
#if defined(__FLT_EVAL_METHOD__) && __FLT_EVAL_METHOD__ != 0
#error "laige: float expressions are evaluated in excess precision (x87 -mfpmath=387?); build with SSE2 math, e.g. -mfpmath=sse -msse2 (docs/sim_math.md#flags)"
#endif
