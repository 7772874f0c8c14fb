// math_fn_timing.cpp - ns per call of the deterministic math functions
// (laige/sim_math_fn.h) next to the C library's (std::sinf, ...), natively
// and, built by the wasm preset, under node. Prints, asserts nothing.
//   build/native-release/laige_math_fn_timing
//   node build/wasm/laige_math_fn_timing.js
// Each row: the best of 7 rounds of 2^16 calls over fixed inputs.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "laige/prng.h"
#include "laige/sim_math.h"

namespace {

using FX = laige::SimMath<laige::Fpx16_16>;
using F = laige::SimMath<laige::Fp32Pinned>;
using Clock = std::chrono::steady_clock;
constexpr int kN = 1 << 16;

volatile std::uint32_t gSink = 0;

template <class Fn>
double best(Fn&& fn) {
  double b = 1e300;
  for (int r = 0; r < 7; ++r) {
    const auto t0 = Clock::now();
    std::uint32_t acc = 0;
    for (int i = 0; i < kN; ++i) acc += fn(i);
    const double ns = std::chrono::duration<double, std::nano>(Clock::now() - t0).count() / kN;
    gSink = gSink + acc;
    b = std::min(b, ns);
  }
  return b;
}
std::uint32_t bits(float f) { return laige::detail::bitCast<std::uint32_t>(f); }

}  // namespace

int main() {
  laige::Prng rng(1);
  std::vector<laige::fpx16_16> xa(kN), xb(kN), xu(kN), xp(kN);
  std::vector<float> fa(kN), fb(kN), fu(kN), fp(kN), fl(kN);
  for (int i = 0; i < kN; ++i) {
    fa[i] = (rng.next_float01() - 0.5f) * 200.0f;  // [-100, 100)
    fb[i] = (rng.next_float01() - 0.5f) * 200.0f;
    fu[i] = rng.next_float01() * 2.0f - 1.0f;       // [-1, 1)
    fp[i] = rng.next_float01() * 10.0f + 0.001f;     // (0, 10]
    xa[i] = laige::fpx16_16::fromFloat(fa[i]);
    xb[i] = laige::fpx16_16::fromFloat(fb[i]);
    xu[i] = laige::fpx16_16::fromFloat(fu[i]);
    xp[i] = laige::fpx16_16::fromFloat(fp[i]);
  }
  std::printf("%-6s %10s %10s %10s   (ns per call; inputs: trig/exp/round [-100,100), asin/acos [-1,1), log/pow (0,10])\n",
              "fn", "fx", "f32", "std::");
#define LAIGE_ROW1(N, IN)                                                                              \
  std::printf("%-6s %10.2f %10.2f %10.2f\n", #N,                                                      \
              best([&](int i) { return static_cast<std::uint32_t>(FX::N(x##IN[i]).raw); }),           \
              best([&](int i) { return bits(F::N(f##IN[i])); }),                                       \
              best([&](int i) { return bits(std::N(f##IN[i])); }))
#define LAIGE_ROW2(N, A, B)                                                                            \
  std::printf("%-6s %10.2f %10.2f %10.2f\n", #N,                                                      \
              best([&](int i) { return static_cast<std::uint32_t>(FX::N(x##A[i], x##B[i]).raw); }),   \
              best([&](int i) { return bits(F::N(f##A[i], f##B[i])); }),                               \
              best([&](int i) { return bits(std::N(f##A[i], f##B[i])); }))
  LAIGE_ROW1(sin, a);
  LAIGE_ROW1(cos, a);
  LAIGE_ROW1(tan, a);
  LAIGE_ROW2(atan2, a, b);
  LAIGE_ROW1(asin, u);
  LAIGE_ROW1(acos, u);
  LAIGE_ROW1(exp, u);
  LAIGE_ROW1(log, p);
  LAIGE_ROW2(pow, p, u);
  LAIGE_ROW2(hypot, a, b);
  LAIGE_ROW1(floor, a);
  LAIGE_ROW1(ceil, a);
  LAIGE_ROW1(round, a);
  // abs(x) in [2^23, 2^127), either sign: the exact argument reduction of
  // sin, cos and tan (its own generator, so the rows above keep their inputs)
  laige::Prng big(2);
  for (float& v : fl) v = laige::detail::bitCast<float>(((150u + big.next_u32() % 104u) << 23) | (big.next_u32() & 0x807FFFFFu));
  std::printf("fp32 sin, cos, tan of abs(x) in [2^23, 2^127) (the exact argument reduction):\n");
#define LAIGE_ROW_BIG(N)                                                                              \
  std::printf("%-6s %10s %10.2f %10.2f\n", #N, "-", best([&](int i) { return bits(F::N(fl[i])); }), \
              best([&](int i) { return bits(std::N(fl[i])); }))
  LAIGE_ROW_BIG(sin);
  LAIGE_ROW_BIG(cos);
  LAIGE_ROW_BIG(tan);
  return 0;
}
