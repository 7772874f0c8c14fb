// fx_math_wasm.cpp - the Q16.16 and fp32 math functions (laige/sim_math_fn.h)
// as a small wasm module for bench/js/fx_math_bench.mjs, which times them next
// to the TypeScript twins in the same node process: the loop runs inside wasm
// (one call per 2^16 inputs), so the figure is the function's cost in wasm,
// not a JS -> wasm crossing. Built by the wasm preset only; prints nothing.
#include <cstdint>

#include "laige/sim_math.h"

namespace {

using FX = laige::SimMath<laige::Fpx16_16>;
using F = laige::SimMath<laige::Fp32Pinned>;
using laige::fpx16_16;

fpx16_16 R(std::int32_t r) { return fpx16_16::fromRaw(r); }
std::uint32_t bits(float f) { return laige::detail::bitCast<std::uint32_t>(f); }

template <class Fn>
std::uint32_t loop(int n, Fn&& fn) {
  std::uint32_t acc = 0;
  for (int i = 0; i < n; ++i) acc += fn(i);
  return acc;
}

}  // namespace

extern "C" {

/// Runs function `fn` (the order of kFunctions in the bench) over a[i] (and
/// b[i]) for i < n: Q16.16 raws when `fixed`, else floats. Returns a checksum.
std::uint32_t fxBenchRun(int fn, int fixed, int n, const std::int32_t* a, const std::int32_t* b) {
  const float* fa = reinterpret_cast<const float*>(a);
  const float* fb = reinterpret_cast<const float*>(b);
#define LAIGE_FN1(N)                                                                          \
  return fixed ? loop(n, [&](int i) { return static_cast<std::uint32_t>(FX::N(R(a[i])).raw); }) \
               : loop(n, [&](int i) { return bits(F::N(fa[i])); })
#define LAIGE_FN2(N)                                                                                  \
  return fixed ? loop(n, [&](int i) { return static_cast<std::uint32_t>(FX::N(R(a[i]), R(b[i])).raw); }) \
               : loop(n, [&](int i) { return bits(F::N(fa[i], fb[i])); })
  switch (fn) {
    case 0: LAIGE_FN1(sin);
    case 1: LAIGE_FN1(cos);
    case 2: LAIGE_FN1(tan);
    case 3: LAIGE_FN2(atan2);
    case 4: LAIGE_FN1(asin);
    case 5: LAIGE_FN1(acos);
    case 6: LAIGE_FN1(exp);
    case 7: LAIGE_FN1(log);
    case 8: LAIGE_FN2(pow);
    case 9: LAIGE_FN2(hypot);
    case 10: LAIGE_FN1(floor);
    case 11: LAIGE_FN1(ceil);
    case 12: LAIGE_FN1(round);
    default: return loop(n, [&](int i) { return static_cast<std::uint32_t>(a[i]); });  // the empty loop
  }
#undef LAIGE_FN1
#undef LAIGE_FN2
}

}  // extern "C"
