// laige/detail/fp_barrier.h - the anti-FMA barrier of the pinned fp32
// backend (sim_math.h) and of the fp32 functions (sim_math_fn.h):
// `docs/sim_math.md#flags`.
#pragma once

#include <type_traits>

#include "laige/determinism_guard.h"

namespace laige::detail {

// Whether the target can fuse a multiply and an add into one instruction
// (FMA). x86 without FMA/FMA4/AVX-512 (the x86-64 baseline every laige
// preset builds for) has none, and neither has wasm, so there no compiler
// can contract and the barrier below compiles to nothing. Every other
// target (x86 with -march=haswell or native, AArch64, ...) has one.
// LAIGE_FP_CONTRACT_PINNED is defined by the CMake package's interface
// options, which also put -ffp-contract=off last on the command line: there
// contraction is already off and the barrier is skipped (no cost). Hand
// builds and pkg-config builds do not define it and keep the barrier.
#if defined(LAIGE_FP_CONTRACT_PINNED) || defined(__wasm__) || defined(__EMSCRIPTEN__) || \
    ((defined(__x86_64__) || defined(__i386__)) && !defined(__FMA__) && !defined(__FMA4__) && !defined(__AVX512F__))
#define LAIGE_DETAIL_TARGET_HAS_FMA 0
#else
#define LAIGE_DETAIL_TARGET_HAS_FMA 1
#endif

/// A floating-point value (float or double) the optimiser cannot see
/// through: the empty asm claims to rewrite it in its register, so a product
/// passed through here is rounded and cannot be fused with a following add
/// into an FMA, under any -ffp-contract (g++ fuses across inlined calls by
/// default). No instruction; it only pins the value to a register (x86: an
/// SSE register, AArch64: a SIMD register, elsewhere: memory), which stops
/// the compiler from packing the x and y products of a vector into one SIMD
/// multiply (about +15 % on the float scenario at -O2 -march=native without
/// the CMake package's flags; `docs/sim_math.md#cost`).
/// The identity where the target has no FMA (LAIGE_DETAIL_TARGET_HAS_FMA).
/// Not usable in constant evaluation (callers test std::is_constant_evaluated()).
template <class F>
inline F opaque(F v) noexcept {
  static_assert(std::is_same_v<F, float> || std::is_same_v<F, double>, "opaque: float or double");
#if !LAIGE_DETAIL_TARGET_HAS_FMA
  return v;
#elif defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
  __asm__("" : "+x"(v));
  return v;
#elif defined(__GNUC__) && defined(__aarch64__)
  __asm__("" : "+w"(v));
  return v;
#elif defined(__GNUC__)
  __asm__("" : "+m"(v));
  return v;
#else
  // MSVC contracts only under /fp:contract or /fp:fast; a volatile round
  // trip is the portable barrier.
  volatile F t = v;
  return t;
#endif
}

}  // namespace laige::detail
