// sim_math_trig_range_test.cpp - SimMath<Fp32Pinned>::sin, cos and tan over
// the whole finite float range (docs/sim_math.md#functions): the large and
// edge arguments of support/f32_trig_extremes.h against the correctly
// rounded answers of an outside tool (tests/kat/f32_trig_reference.txt,
// exact-integer Python) and against an exact reduction written here
// (a 128-bit product with the bits of 2/pi, then long double sin and cos),
// natively and in wasm; and, natively, a strided sweep over every positive
// finite float pattern: the results stay in [-1, 1], sin^2 + cos^2 = 1, and
// the error against the exact reduction is at most 1 ulp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "laige/sim_math.h"
#include "support/f32_trig_extremes.h"
#include "support/math_kat_eval.h"

#ifndef LAIGE_SOURCE_DIR
#error "LAIGE_SOURCE_DIR must name the source tree (CMakeLists.txt sets it for laige_tests)"
#endif

namespace {

using F = laige::SimMath<laige::Fp32Pinned>;
using laige::detail::bitCast;
using LD = long double;
using U128 = unsigned __int128;

// 2/pi, bits 1..512 after the point (the test's own copy, longer than the
// library's, read by a different method).
constexpr std::uint32_t kTwoOverPi[16] = {0xA2F9836Eu, 0x4E441529u, 0xFC2757D1u, 0xF534DDC0u, 0xDB629599u, 0x3C439041u,
                                          0xFE5163ABu, 0xDEBBC561u, 0xB7246E3Au, 0x424DD2E0u, 0x06492EEAu, 0x09D1921Cu,
                                          0xFE1DEB1Cu, 0xB129A73Eu, 0xE88235F5u, 0x2EBB4484u};
constexpr LD kHalfPi = 1.570796326794896619231321691639751442098585L;

// Bit j of 2/pi (j = 1 is the first after the point); 0 for j <= 0.
unsigned twoOverPiBit(int j) { return j <= 0 ? 0u : (kTwoOverPi[(j - 1) / 32] >> (31 - (j - 1) % 32)) & 1u; }
// Bits e-1 .. e+126 of 2/pi for the float exponent field be (e = be - 150), built once.
U128 twoOverPiWindow(std::uint32_t be) {
  static const auto windows = [] {
    std::vector<U128> w(255);
    for (int b = 0; b < 255; ++b) {
      for (int j = b - 151; j <= b - 24; ++j) w[b] = (w[b] << 1) | twoOverPiBit(j);
    }
    return w;
  }();
  return windows[be];
}

// x = k pi/2 + r, exactly: for |x| = m 2^e, V = bits e-1 .. e+126 of 2/pi
// gives |x| 2/pi = m V 2^-126 (mod 4), i.e. the product mod 2^128 (the
// bits before e-1 add multiples of 4; those after weigh < 2^-102).
struct Reduced {
  int quadrant;  // k mod 4
  LD r;          // in [-pi/4, pi/4]
};
Reduced exactReduce(float x) {
  const float ax = std::fabs(x);
  Reduced out{0, ax};
  if (ax >= 0.5f) {
    const std::uint32_t bits = bitCast<std::uint32_t>(ax);
    const std::uint64_t m = (bits & 0x7FFFFFu) | 0x800000u;
    const U128 y = m * twoOverPiWindow(bits >> 23);  // mod 2^128 = mod 4 in units of 2^-126
    const U128 k = (y + (U128{1} << 125)) >> 126;
    const auto f = static_cast<__int128>(y - (k << 126));  // y - k, |f| <= 2^125
    out = {static_cast<int>(k & 3u), static_cast<LD>(f) * std::ldexp(1.0L, -126) * kHalfPi};
  }
  if (x < 0) out = {(4 - out.quadrant) & 3, -out.r};
  return out;
}
struct SinCos {
  LD s, c;
};
SinCos exactSinCos(float x) {
  const Reduced red = exactReduce(x);
  const LD s = std::sin(red.r), c = std::cos(red.r);
  switch (red.quadrant) {
    case 0: return {s, c};
    case 1: return {c, -s};
    case 2: return {-s, -c};
    default: return {-c, s};
  }
}

// |got - exact| in units of the binary32 ulp at the exact value.
LD ulpError(float got, LD exact) {
  int e = 0;
  std::frexp(std::fabs(exact), &e);
  return std::fabs(static_cast<LD>(got) - exact) / std::ldexp(1.0L, std::max(e - 24, -149));
}

struct Worst {
  LD sin = 0, cos = 0, tan = 0;
  int checked = 0;
};
// Checks sin, cos and tan of x against the exact reduction (<= 1 ulp, in
// [-1, 1], sin^2 + cos^2 = 1 within the roundings, odd/even symmetry) and
// keeps the largest errors.
void checkAgainstExact(float x, Worst& w) {
  const SinCos ex = exactSinCos(x);
  const float s = F::sin(x), c = F::cos(x), t = F::tan(x);
  const std::uint32_t bits = bitCast<std::uint32_t>(x);
  ASSERT_LE(std::fabs(s), 1.0f) << std::hex << bits;
  ASSERT_LE(std::fabs(c), 1.0f) << std::hex << bits;
  const double norm = static_cast<double>(s) * s + static_cast<double>(c) * c;
  ASSERT_LE(std::fabs(norm - 1.0), 0x1p-22) << std::hex << bits;
  const LD es = ulpError(s, ex.s), ec = ulpError(c, ex.c), et = ulpError(t, ex.s / ex.c);
  ASSERT_LE(es, 1.0L) << "sin " << std::hex << bits;
  ASSERT_LE(ec, 1.0L) << "cos " << std::hex << bits;
  ASSERT_LE(et, 1.0L) << "tan " << std::hex << bits;
  ASSERT_EQ(bitCast<std::uint32_t>(F::sin(-x)), bitCast<std::uint32_t>(s) ^ 0x80000000u) << std::hex << bits;
  ASSERT_EQ(bitCast<std::uint32_t>(F::cos(-x)), bitCast<std::uint32_t>(c)) << std::hex << bits;
  ASSERT_EQ(bitCast<std::uint32_t>(F::tan(-x)), bitCast<std::uint32_t>(t) ^ 0x80000000u) << std::hex << bits;
  w.sin = std::max(w.sin, es);
  w.cos = std::max(w.cos, ec);
  w.tan = std::max(w.tan, et);
  ++w.checked;
}

TEST(SimMathTrigRange, ExtremesMatchTheCorrectlyRoundedReference) {
  std::FILE* f = std::fopen(LAIGE_SOURCE_DIR "/tests/kat/f32_trig_reference.txt", "r");
  ASSERT_NE(f, nullptr);
  char line[128];
  int rows = 0;
  int mismatches = 0;
  while (std::fgets(line, sizeof line, f) != nullptr) {
    if (line[0] == '#') continue;
    char fn[8];
    std::uint32_t a = 0, want = 0, got = 0;
    ASSERT_EQ(std::sscanf(line, "f32 %7s %" SCNx32 " = %" SCNx32, fn, &a, &want), 3) << line;
    ASSERT_TRUE(laige::testing::evalMathKat(false, fn, a, 0, got)) << line;
    if (got != want && ++mismatches <= 10) ADD_FAILURE() << "got " << std::hex << got << " for " << line;
    ++rows;
  }
  std::fclose(f);
  EXPECT_EQ(mismatches, 0);
  EXPECT_EQ(rows, 3 * static_cast<int>(laige::testing::f32TrigExtremeInputs().size()));
}

TEST(SimMathTrigRange, ExtremesAgainstAnExactReduction) {
  Worst w;
  for (std::uint32_t bits : laige::testing::f32TrigExtremeInputs()) {
    checkAgainstExact(bitCast<float>(bits), w);
    if (::testing::Test::HasFatalFailure()) return;
  }
  std::printf("f32 trig extremes (%d inputs): max ulp sin %.4Lf cos %.4Lf tan %.4Lf\n", w.checked, w.sin, w.cos,
              w.tan);
  EXPECT_LE(w.sin, 0.5001L);  // correctly rounded, as the reference file says
  EXPECT_LE(w.cos, 0.5001L);
  EXPECT_LE(w.tan, 0.5001L);
}

// The library's large-argument reduction itself, before any rounding to
// float hides an error: r within 2^-50 relative of the exact one.
TEST(SimMathTrigRange, LargeReductionIsExactToBinary64) {
  for (std::uint32_t bits : laige::testing::f32TrigExtremeInputs()) {
    const float x = bitCast<float>(bits);
    if (!(std::fabs(x) >= 8388608.0f)) continue;
    const auto got = laige::detail::F32FnCore::reduceLarge(x);
    const Reduced ex = exactReduce(x);
    EXPECT_EQ(got.quadrant, ex.quadrant) << std::hex << bits;
    EXPECT_LE(std::fabs(static_cast<LD>(got.r) - ex.r), std::fabs(ex.r) * 0x1p-50L) << std::hex << bits;
  }
}

#if !defined(__EMSCRIPTEN__)

// Every 4096th positive finite float, and every float within 4096 patterns
// of the places where something changes: 2^20, 2^23 (the switch to the
// exact reduction), where the old reduction first left [-1, 1], FLT_MAX.
TEST(SimMathTrigRange, StridedSweepOverEveryFiniteFloat) {
  Worst w;
  for (std::uint32_t bits = 0; bits < 0x7F800000u; bits += 4096) {
    checkAgainstExact(bitCast<float>(bits), w);
    if (::testing::Test::HasFatalFailure()) return;
  }
  for (std::uint32_t mid : {0x49800000u, 0x4B000000u, 0x5AC9104Bu, 0x59C91F40u, 0x7F7FF000u}) {
    for (std::uint32_t bits = mid - 4096; bits < mid + 4096 && bits < 0x7F800000u; ++bits) {
      checkAgainstExact(bitCast<float>(bits), w);
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
  std::printf("f32 trig sweep (%d inputs): max ulp sin %.4Lf cos %.4Lf tan %.4Lf\n", w.checked, w.sin, w.cos, w.tan);
  EXPECT_GT(w.checked, 560000);
}

// From 2^20 to 2^23 the fast Cody-Waite steps stay in use (their bits are
// kept); they give the same sin, cos and tan as the exact reduction there.
TEST(SimMathTrigRange, FastReductionAgreesWithExactBelow2p23) {
  using C = laige::detail::F32FnCore;
  int differ = 0, checked = 0;
  for (std::uint32_t bits = 0x49800000u; bits < 0x4B000000u; bits += 61) {
    const float x = bitCast<float>(bits);
    const auto [q, r] = C::reduceLarge(x);
    const double s = C::sinPoly(r), c = C::cosPoly(r);
    const float sin = static_cast<float>(q == 0 ? s : q == 1 ? c : q == 2 ? -s : -c);
    const float cos = static_cast<float>(q == 0 ? c : q == 1 ? -s : q == 2 ? -c : s);
    const float tan = static_cast<float>((q & 1) == 0 ? s / c : -c / s);
    differ += F::sin(x) != sin || F::cos(x) != cos || F::tan(x) != tan;
    ++checked;
  }
  EXPECT_EQ(differ, 0) << "of " << checked;
}

#endif  // !__EMSCRIPTEN__

}  // namespace
