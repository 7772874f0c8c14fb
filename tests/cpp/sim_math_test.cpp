// Tests for laige/sim_math.h: the known answers (docs/sim_math.md) for the
// fixed-point backend, our true-sign div policy, independent oracles for
// mul/div/sqrt, the composite ops, and the IEEE rules of the fp32 backend.
#include "laige/sim_math.h"

#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <ostream>
#include <type_traits>

#include "laige/prng.h"

// Readable failure messages: print the raw value and the real value.
namespace laige {
inline void PrintTo(const fpx16_16& v, std::ostream* os) {
  *os << "raw " << v.raw << " (" << fpx16_16::toDouble(v) << ")";
}
}  // namespace laige

namespace {

using laige::fpx16_16;
using laige::SimMathFp32;
using laige::SimMathFpx16;
using Fx = SimMathFpx16;
using F32 = SimMathFp32;

// std::bit_cast stand-in: emscripten 3.1.6's libc++ has no <bit> bit_cast.
template <class To, class From>
To bitCast(const From& from) {
  static_assert(sizeof(To) == sizeof(From));
  To to;
  std::memcpy(&to, &from, sizeof to);
  return to;
}

fpx16_16 R(std::int32_t raw) { return fpx16_16::fromRaw(raw); }
fpx16_16 S(float v) { return fpx16_16::fromFloat(v); }
fpx16_16 I(std::int32_t v) { return fpx16_16::fromInt32(v); }
Fx::Vec2 V(std::int32_t x, std::int32_t y) { return {I(x), I(y)}; }

std::int32_t sat(std::int64_t v) {
  return v > INT32_MAX ? INT32_MAX : (v < INT32_MIN ? INT32_MIN : static_cast<std::int32_t>(v));
}
// Oracle: num/den rounded half-even, from FLOOR division (the code uses
// truncation), then saturated. The true sign is implicit in floor.
std::int32_t divOracle(std::int64_t num, std::int64_t den) {
  if (den < 0) { num = -num; den = -den; }
  std::int64_t q = num / den;
  std::int64_t r = num % den;
  if (r < 0) { q -= 1; r += den; }          // now q = floor, 0 <= r < den
  if (2 * r > den || (2 * r == den && (q & 1) != 0)) q += 1;
  return sat(q);
}
// Oracle: p / 65536 rounded half-even, from truncation (the code floors).
std::int32_t mulOracle(std::int32_t a, std::int32_t b) {
  const std::int64_t p = std::int64_t{a} * b;
  std::int64_t q = p / 65536;
  const std::int64_t r = p % 65536;               // same sign as p
  const std::int64_t twice = 2 * (r < 0 ? -r : r);
  if (twice > 65536 || (twice == 65536 && (q & 1) != 0)) q += (p < 0 ? -1 : 1);
  return sat(q);
}

TEST(SimMath, BackendIdsLayoutAndCreate) {
  EXPECT_EQ(Fx::kBackendId, "fixed_point_16_16");
  EXPECT_EQ(F32::kBackendId, "float_pinned_32");
  static_assert(std::is_same_v<Fx::Scalar, fpx16_16>);
  static_assert(std::is_same_v<F32::Scalar, float>);
  static_assert(sizeof(Fx) == 1 && sizeof(F32) == 1);
  static_assert(sizeof(Fx::Vec2) == 8 && sizeof(Fx::Vec3) == 12);
  static_assert(sizeof(F32::Vec2) == 8 && sizeof(F32::Vec3) == 12);
  static_assert(std::is_trivially_copyable_v<F32::Vec3> && std::is_standard_layout_v<Fx::Vec3>);
  const auto m = Fx::create();
  EXPECT_EQ(m.add(I(1), I(2)), I(3));  // instance calls work like static ones
  const auto f = F32::create();
  EXPECT_EQ(f.add(1.0f, 2.0f), 3.0f);
  EXPECT_EQ(Fx::Vec2{}.x.raw, 0);
}

TEST(SimMathFixed, DivKats) {
  EXPECT_EQ(Fx::div(S(3), S(5)).raw, 39322);
  EXPECT_EQ(Fx::div(R(1), R(3)).raw, 21845);
  EXPECT_EQ(Fx::div(R(1), R(6)).raw, 10923);
  EXPECT_EQ(Fx::div(R(1), R(131072)).raw, 0);  // 0.5 raw: tie to even 0
  EXPECT_EQ(Fx::div(R(1), R(0)), fpx16_16::max());
  EXPECT_EQ(Fx::div(R(-1), R(0)), fpx16_16::min());
  EXPECT_EQ(Fx::div(R(0), R(0)).raw, 0);
  EXPECT_EQ(Fx::div(fpx16_16::min(), R(0)), fpx16_16::min());
  EXPECT_EQ(Fx::div(fpx16_16::max(), R(1)), fpx16_16::max());   // saturates
  EXPECT_EQ(Fx::div(fpx16_16::min(), R(-1)), fpx16_16::max());  // saturates
  EXPECT_EQ(Fx::div(fpx16_16::min(), R(1)), fpx16_16::min());
  EXPECT_EQ(Fx::div(I(-3), I(5)).raw, -39322);
  EXPECT_EQ(Fx::div(I(7), I(-2)), S(-3.5f));
}

// Upstream chooses the rounding step from `q >= 0`, so a NEGATIVE true
// quotient whose truncated q is 0 rounds to +1 raw. Laige
// (docs/sim_math.md) steps by the true sign: such quotients round to -1, making div
// odd-symmetric, div(-a, b) == -div(a, b). Only raw quotients in (-1, -0.5)
// (and the ties at -0.5 that stay 0 either way) are affected.
TEST(SimMathFixed, DivTrueSignPolicy) {
  EXPECT_EQ(Fx::div(R(-1), R(3)).raw, -21845);       // -21845.33: same for both policies
  EXPECT_EQ(Fx::div(R(1), R(-3)).raw, -21845);
  EXPECT_EQ(Fx::div(R(-1), R(100000)).raw, -1);      // -0.655 raw: upstream gives +1
  EXPECT_EQ(Fx::div(R(1), R(-100000)).raw, -1);      // upstream gives +1
  EXPECT_EQ(Fx::div(R(-1), R(-100000)).raw, 1);      // positive: both policies
  EXPECT_EQ(Fx::div(R(-1), R(65537)).raw, -1);       // -0.99998 raw
  EXPECT_EQ(Fx::div(R(-1), R(131072)).raw, 0);       // -0.5 tie: even is 0
  EXPECT_EQ(Fx::div(R(-1), R(131073)).raw, 0);       // just under half
  EXPECT_EQ(Fx::div(R(-3), R(131072)).raw, -2);      // -1.5 tie: even is -2
  EXPECT_EQ(Fx::div(R(-5), R(131072)).raw, -2);      // -2.5 tie: even is -2
  EXPECT_EQ(Fx::div(R(-1), S(1.5f)).raw, -1);         // -0.667 raw: upstream gives +1
  laige::Prng rng(17);
  for (int i = 0; i < 20000; ++i) {
    const auto a = static_cast<std::int32_t>(rng.next_u32() >> rng.next_range(0, 31));
    const auto b = static_cast<std::int32_t>(rng.next_u32() >> rng.next_range(0, 31));
    if (a == INT32_MIN || b == 0) continue;
    if (Fx::div(R(a), R(b)) == fpx16_16::max() || Fx::div(R(a), R(b)) == fpx16_16::min()) {
      continue;  // saturation is asymmetric (min = -max - 1 raw), not rounding
    }
    ASSERT_EQ(Fx::div(R(-a), R(b)), Fx::negate(Fx::div(R(a), R(b)))) << a << "/" << b;
  }
}

TEST(SimMathFixed, DivMatchesFloorOracle) {
  laige::Prng rng(0xD1D1D1ULL);
  for (int i = 0; i < 200000; ++i) {
    // Varying magnitudes so small, tie-prone and saturating quotients occur.
    const auto a = static_cast<std::int32_t>(rng.next_u32()) >> rng.next_range(0, 31);
    const auto b = static_cast<std::int32_t>(rng.next_u32()) >> rng.next_range(0, 31);
    if (b == 0) continue;
    ASSERT_EQ(Fx::div(R(a), R(b)).raw, divOracle(std::int64_t{a} * 65536, b)) << a << "/" << b;
  }
  for (std::int32_t a = -300; a <= 300; ++a) {
    for (std::int32_t b = -70; b <= 70; ++b) {
      if (b == 0) continue;
      ASSERT_EQ(Fx::div(R(a), R(b * 4096)).raw, divOracle(std::int64_t{a} * 65536, b * 4096));
    }
  }
}

TEST(SimMathFixed, MulKats) {
  EXPECT_EQ(Fx::mul(R(1), R(0x8000)).raw, 0);
  EXPECT_EQ(Fx::mul(R(1), R(0x18000)).raw, 2);
  EXPECT_EQ(Fx::mul(R(-1), R(0x18000)).raw, -2);
  EXPECT_EQ(Fx::mul(R(3), R(0x4000)).raw, 1);
  EXPECT_EQ(Fx::mul(R(-3), R(0x4000)).raw, -1);
  EXPECT_EQ(Fx::mul(fpx16_16::min(), R(1)).raw, -32768);
  EXPECT_EQ(Fx::mul(fpx16_16::min(), fpx16_16::min()), fpx16_16::max());
  EXPECT_EQ(Fx::mul(S(181), S(181)), S(32761));
  EXPECT_EQ(Fx::mul(fpx16_16::max(), R(-65536)).raw, -INT32_MAX);
  EXPECT_EQ(Fx::mul(fpx16_16::max(), I(2)), fpx16_16::max());
  EXPECT_EQ(Fx::mul(fpx16_16::min(), I(2)), fpx16_16::min());
  EXPECT_EQ(Fx::mul(R(-1), R(0x8000)).raw, 0);   // -0.5 tie -> 0
  EXPECT_EQ(Fx::mul(R(-3), R(0x8000)).raw, -2);  // -1.5 tie -> -2
}

TEST(SimMathFixed, MulMatchesTruncationOracle) {
  laige::Prng rng(0x3131ULL);
  for (int i = 0; i < 200000; ++i) {
    const auto a = static_cast<std::int32_t>(rng.next_u32()) >> rng.next_range(0, 31);
    const auto b = static_cast<std::int32_t>(rng.next_u32()) >> rng.next_range(0, 31);
    ASSERT_EQ(Fx::mul(R(a), R(b)).raw, mulOracle(a, b)) << a << "*" << b;
  }
}

TEST(SimMathFixed, AddSubNegateSaturate) {
  EXPECT_EQ(Fx::add(fpx16_16::max(), fpx16_16::min()).raw, -1);
  EXPECT_EQ(Fx::negate(fpx16_16::max()).raw, -2147483647);
  EXPECT_EQ(Fx::negate(fpx16_16::min()), fpx16_16::max());
  EXPECT_EQ(Fx::negate(R(0)).raw, 0);
  EXPECT_EQ(Fx::add(fpx16_16::max(), R(1)), fpx16_16::max());
  EXPECT_EQ(Fx::add(fpx16_16::min(), R(-1)), fpx16_16::min());
  EXPECT_EQ(Fx::sub(fpx16_16::min(), R(1)), fpx16_16::min());
  EXPECT_EQ(Fx::sub(fpx16_16::max(), R(-1)), fpx16_16::max());
  EXPECT_EQ(Fx::sub(R(0), fpx16_16::min()), fpx16_16::max());
  EXPECT_EQ(Fx::add(S(1.5f), S(-2.25f)), S(-0.75f));
}

TEST(SimMathFixed, SqrtKatsAndEdges) {
  EXPECT_EQ(Fx::sqrt(S(2)).raw, 92682);
  EXPECT_EQ(Fx::sqrt(S(25)), S(5));
  EXPECT_EQ(Fx::sqrt(S(0.25f)), S(0.5f));
  EXPECT_EQ(Fx::sqrt(R(0)).raw, 0);
  EXPECT_EQ(Fx::sqrt(R(-1)).raw, 0);  // negative is defined as +0
  EXPECT_EQ(Fx::sqrt(fpx16_16::min()).raw, 0);
  EXPECT_EQ(Fx::sqrt(R(1)).raw, 256);  // sqrt(2^-16) = 2^-8 exactly
  EXPECT_EQ(Fx::sqrt(fpx16_16::max()).raw, 11863283);  // ~181.0193
  static_assert(Fx::sqrt(fpx16_16::fromInt32(49)).raw == 7 * 65536);
}

TEST(SimMathFixed, SqrtIsExactlyRoundedEverywhereSampled) {
  // r is round(sqrt(n)) iff (2r-1)^2 <= 4n < (2r+1)^2 (no ties: 4n is even,
  // (2r+1)^2 is odd). All integer, so this is an exact check.
  auto check = [](std::int32_t raw) {
    const std::uint64_t n = static_cast<std::uint64_t>(raw) << 16;
    const auto r = static_cast<std::uint64_t>(Fx::sqrt(R(raw)).raw);
    ASSERT_LE((2 * r - 1) * (2 * r - 1), 4 * n) << raw;
    ASSERT_LT(4 * n, (2 * r + 1) * (2 * r + 1)) << raw;
  };
  for (std::int32_t raw = 1; raw < 200000; ++raw) check(raw);
  for (std::int32_t raw = INT32_MAX; raw > INT32_MAX - 100000; --raw) check(raw);
  laige::Prng rng(5);
  for (int i = 0; i < 200000; ++i) check(static_cast<std::int32_t>(rng.next_u32() >> 1) | 1);
  for (std::int64_t k = 1; k * k < (std::int64_t{1} << 31); k += 7) {
    for (std::int64_t d = -2; d <= 2; ++d) {
      const std::int64_t raw = k * k + d;
      if (raw > 0 && raw <= INT32_MAX) check(static_cast<std::int32_t>(raw));
    }
  }
  std::uint64_t rem = 0;
  for (std::uint64_t n = 0; n < 70000; ++n) {
    const std::uint64_t s = laige::detail::isqrt64(n, rem);
    ASSERT_TRUE(s * s <= n && n < (s + 1) * (s + 1) && rem == n - s * s) << n;
  }
  const std::uint64_t big = (std::uint64_t{1} << 62) - 1;
  const std::uint64_t s = laige::detail::isqrt64(big, rem);
  EXPECT_EQ(s, 2147483647u);
  EXPECT_EQ(rem, big - s * s);
}

TEST(SimMathFixed, ComparisonsAndClassification) {
  EXPECT_TRUE(Fx::less(R(-1), R(0)));
  EXPECT_FALSE(Fx::less(R(0), R(0)));
  EXPECT_TRUE(Fx::lessEqual(R(0), R(0)));
  EXPECT_TRUE(Fx::greater(fpx16_16::max(), fpx16_16::min()));
  EXPECT_TRUE(Fx::greaterEqual(R(5), R(5)));
  EXPECT_FALSE(Fx::greaterEqual(R(4), R(5)));
  EXPECT_TRUE(Fx::equals(R(7), R(7)));
  EXPECT_TRUE(Fx::notEquals(R(7), R(8)));
  EXPECT_FALSE(Fx::isNaN(fpx16_16::max()));
  EXPECT_FALSE(Fx::isInf(fpx16_16::max()));
  EXPECT_TRUE(Fx::isFinite(fpx16_16::min()));
  EXPECT_TRUE(Fx::isOrdered(R(0)));
  EXPECT_TRUE(Fx::isOrdered(R(0), fpx16_16::min()));
  EXPECT_TRUE(Fx::equals(V(1, 2), V(1, 2)));
  EXPECT_TRUE(Fx::notEquals(V(1, 2), V(1, 3)));
  EXPECT_FALSE(Fx::isNaN(V(1, 2)));
  EXPECT_TRUE(Fx::isFinite(Fx::Vec3{I(1), I(2), I(3)}));
}

TEST(SimMathFixed, HelpersConvert) {
  EXPECT_EQ(Fx::fromInt(3), I(3));
  EXPECT_EQ(Fx::fromInt(40000), fpx16_16::max());
  EXPECT_EQ(Fx::fromFloat(0.1f).raw, 6554);
  EXPECT_EQ(Fx::toFloat(S(1.25f)), 1.25f);
}

TEST(SimMathFixed, ClampScalarAndVector) {
  EXPECT_EQ(Fx::clamp(I(5), I(0), I(3)), I(3));
  EXPECT_EQ(Fx::clamp(I(-5), I(0), I(3)), I(0));
  EXPECT_EQ(Fx::clamp(I(2), I(0), I(3)), I(2));
  EXPECT_EQ(Fx::clamp(I(2), I(2), I(2)), I(2));
  EXPECT_EQ(Fx::clamp(fpx16_16::min(), fpx16_16::min(), fpx16_16::max()), fpx16_16::min());
  EXPECT_EQ(Fx::clamp(V(-9, 9), V(0, 0), V(4, 5)), V(0, 5));
  EXPECT_EQ(Fx::clamp(V(-9, 2), I(-1), I(1)), V(-1, 1));
  const Fx::Vec3 c = Fx::clamp(Fx::Vec3{I(1), I(20), I(-20)}, I(-10), I(10));
  EXPECT_EQ(c, (Fx::Vec3{I(1), I(10), I(-10)}));
}

TEST(SimMathFixed, LerpExactFormulaAndExtrapolation) {
  EXPECT_EQ(Fx::lerp(I(0), I(10), S(0.5f)), I(5));
  EXPECT_EQ(Fx::lerp(I(2), I(10), I(0)), I(2));
  EXPECT_EQ(Fx::lerp(I(2), I(10), I(1)), I(10));
  EXPECT_EQ(Fx::lerp(I(0), I(10), I(2)), I(20));    // extrapolates above
  EXPECT_EQ(Fx::lerp(I(0), I(10), I(-1)), I(-10));  // and below
  EXPECT_EQ(Fx::lerp(I(-4), I(4), S(0.25f)), I(-2));
  // Exactly add(a, mul(sub(b, a), t)), saturation included: b - a saturates
  // to max, so lerp(min, max, 1) lands on -1 raw, not on max.
  EXPECT_EQ(Fx::lerp(fpx16_16::min(), fpx16_16::max(), fpx16_16::one()).raw, -1);
  EXPECT_EQ(Fx::lerp(I(0), I(20000), I(2)), fpx16_16::max());
  EXPECT_EQ(Fx::lerp(R(0), R(1), S(0.5f)).raw, 0);  // 0.5 raw tie -> even
  EXPECT_EQ(Fx::lerp(V(0, 10), V(10, 0), S(0.5f)), V(5, 5));
  EXPECT_EQ(Fx::lerp(Fx::Vec3{I(0), I(0), I(0)}, Fx::Vec3{I(2), I(4), I(-8)}, S(0.5f)),
            (Fx::Vec3{I(1), I(2), I(-4)}));
}

TEST(SimMathFixed, LengthAndBound) {
  EXPECT_EQ(Fx::length(V(3, 4)), I(5));
  EXPECT_EQ(Fx::length(V(-3, -4)), I(5));
  EXPECT_EQ(Fx::length(V(0, 0)).raw, 0);
  EXPECT_EQ(Fx::length(V(181, 0)), I(181));  // 32761 still fits
  EXPECT_EQ(Fx::length(V(182, 0)), Fx::sqrt(fpx16_16::max()));  // 33124 saturates
  EXPECT_EQ(Fx::length(V(182, 0)).raw, 11863283);
  EXPECT_NEAR(fpx16_16::toDouble(Fx::length(V(182, 0))), 181.0193, 1e-4);
  EXPECT_EQ(Fx::length(Fx::Vec3{I(2), I(3), I(6)}), I(7));
  EXPECT_EQ(Fx::length(Fx::Vec2{R(1), R(0)}).raw, 0);  // 2^-32 squares to 0
}

TEST(SimMathFixed, NormalizeKatsAndZero) {
  const Fx::Vec2 n = Fx::normalize(V(3, 4));
  EXPECT_EQ(n.x.raw, 39322);
  EXPECT_EQ(n.y.raw, 52429);
  EXPECT_EQ(n.x, S(0.6f));
  EXPECT_EQ(n.y, S(0.8f));
  EXPECT_EQ(Fx::normalize(V(0, 0)), V(0, 0));
  EXPECT_EQ(Fx::normalize(Fx::Vec2{R(1), R(-1)}), V(0, 0));  // length rounds to 0
  EXPECT_EQ(Fx::normalize(V(-3, 4)).x.raw, -39322);
  EXPECT_EQ(Fx::normalize(Fx::Vec3{I(0), I(0), I(-5)}), (Fx::Vec3{I(0), I(0), I(-1)}));
  EXPECT_EQ(Fx::normalize(Fx::Vec3{}), Fx::Vec3{});
}

TEST(SimMathFixed, VectorArithmetic) {
  EXPECT_EQ(Fx::add(V(1, 2), V(3, 4)), V(4, 6));
  EXPECT_EQ(Fx::sub(V(1, 2), V(3, 5)), V(-2, -3));
  EXPECT_EQ(Fx::mul(V(2, 3), V(4, -5)), V(8, -15));
  EXPECT_EQ(Fx::mul(V(2, 3), I(3)), V(6, 9));
  EXPECT_EQ(Fx::mul(I(3), V(2, 3)), V(6, 9));
  EXPECT_EQ(Fx::div(V(6, 9), I(3)), V(2, 3));
  EXPECT_EQ(Fx::div(V(6, 9), V(2, -3)), V(3, -3));
  EXPECT_EQ(Fx::div(V(1, 0), V(0, 0)), (Fx::Vec2{fpx16_16::max(), R(0)}));
  EXPECT_EQ(Fx::negate(V(1, -2)), V(-1, 2));
  EXPECT_EQ(Fx::add(V(32767, 0), V(5, 0)).x, fpx16_16::max());
  const Fx::Vec3 a{I(1), I(2), I(3)}, b{I(4), I(5), I(6)};
  EXPECT_EQ(Fx::add(a, b), (Fx::Vec3{I(5), I(7), I(9)}));
  EXPECT_EQ(Fx::sub(b, a), (Fx::Vec3{I(3), I(3), I(3)}));
  EXPECT_EQ(Fx::mul(a, b), (Fx::Vec3{I(4), I(10), I(18)}));
  EXPECT_EQ(Fx::mul(I(2), a), (Fx::Vec3{I(2), I(4), I(6)}));
  EXPECT_EQ(Fx::div(b, I(2)), (Fx::Vec3{I(2), S(2.5f), I(3)}));
  EXPECT_EQ(Fx::div(b, a), (Fx::Vec3{I(4), S(2.5f), I(2)}));
  EXPECT_EQ(Fx::negate(a), (Fx::Vec3{I(-1), I(-2), I(-3)}));
}

// ---------------------------------------------------------------- fp32 ----

constexpr float kInf = std::numeric_limits<float>::infinity();
const float kNaN = std::numeric_limits<float>::quiet_NaN();

TEST(SimMathFp32, BasicOpsOneRoundingEach) {
  EXPECT_EQ(F32::add(0.5f, 0.25f), 0.75f);
  EXPECT_EQ(F32::sub(1.0f, 0.25f), 0.75f);
  EXPECT_EQ(F32::mul(1.5f, -2.0f), -3.0f);
  EXPECT_EQ(F32::div(1.0f, 4.0f), 0.25f);
  EXPECT_EQ(F32::div(1.0f, 3.0f), 1.0f / 3.0f);
  // (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24: exactly half an ulp, ties to even.
  const float x = 1.0f + 0x1.0p-12f;
  EXPECT_EQ(F32::mul(x, x), 1.0f + 0x1.0p-11f);
  EXPECT_EQ(bitCast<std::uint32_t>(F32::sqrt(2.0f)), 0x3FB504F3u);  // correctly rounded
  EXPECT_EQ(F32::sqrt(16.0f), 4.0f);
  EXPECT_EQ(F32::fromInt(16777217), 16777216.0f);  // nearest-even
  EXPECT_EQ(F32::fromFloat(0.1f), 0.1f);
  EXPECT_EQ(F32::toFloat(0.1f), 0.1f);
  EXPECT_EQ(F32::negate(2.0f), -2.0f);
}

TEST(SimMathFp32, LerpIsNotFused) {
  // a + (b - a) * t with b - a = t = 1 + 2^-12: the product rounds to
  // 1 + 2^-11, and adding a = -(1 + 2^-11) gives exactly 0. A fused
  // multiply-add would keep the 2^-24 and return it. volatile keeps the
  // compiler from folding, so this checks the -ffp-contract=off build.
  volatile float va = -(1.0f + 0x1.0p-11f);
  volatile float vb = -0x1.0p-12f;
  volatile float vt = 1.0f + 0x1.0p-12f;
  EXPECT_EQ(F32::lerp(va, vb, vt), 0.0f);
  EXPECT_EQ(F32::lerp(0.0f, 10.0f, 2.0f), 20.0f);
  EXPECT_EQ(F32::lerp(0.0f, 10.0f, -1.0f), -10.0f);
  EXPECT_EQ(F32::lerp(F32::Vec2{0, 0}, F32::Vec2{2, 4}, 0.5f), (F32::Vec2{1, 2}));
}

TEST(SimMathFp32, NaNAndInfinityRules) {
  EXPECT_TRUE(F32::isNaN(F32::add(kNaN, 1.0f)));
  EXPECT_TRUE(F32::isNaN(F32::mul(kNaN, 0.0f)));
  EXPECT_TRUE(F32::isNaN(F32::sqrt(kNaN)));
  EXPECT_TRUE(F32::isNaN(F32::sqrt(-1.0f)));
  EXPECT_TRUE(F32::isNaN(F32::div(0.0f, 0.0f)));
  EXPECT_TRUE(F32::isNaN(F32::sub(kInf, kInf)));
  EXPECT_EQ(F32::div(1.0f, 0.0f), kInf);
  EXPECT_EQ(F32::div(-1.0f, 0.0f), -kInf);
  EXPECT_EQ(F32::div(1.0f, -0.0f), -kInf);
  EXPECT_EQ(F32::mul(FLT_MAX, 2.0f), kInf);  // overflow, no trap
  for (float other : {0.0f, 1.0f, kNaN, kInf}) {
    EXPECT_FALSE(F32::less(kNaN, other));
    EXPECT_FALSE(F32::lessEqual(other, kNaN));
    EXPECT_FALSE(F32::greater(kNaN, other));
    EXPECT_FALSE(F32::greaterEqual(other, kNaN));
    EXPECT_FALSE(F32::equals(kNaN, other));
    EXPECT_TRUE(F32::notEquals(kNaN, other));
    EXPECT_FALSE(F32::isOrdered(kNaN, other));
  }
  EXPECT_TRUE(F32::isOrdered(1.0f, kInf));
  EXPECT_FALSE(F32::isOrdered(kNaN));
  EXPECT_TRUE(F32::isInf(kInf) && F32::isInf(-kInf));
  EXPECT_FALSE(F32::isInf(kNaN) || F32::isInf(FLT_MAX));
  EXPECT_FALSE(F32::isFinite(kInf) || F32::isFinite(kNaN));
  EXPECT_TRUE(F32::isFinite(FLT_MAX) && F32::isFinite(std::numeric_limits<float>::denorm_min()));
  EXPECT_FALSE(F32::isNaN(kInf));
  EXPECT_TRUE(F32::isNaN(F32::Vec2{1.0f, kNaN}));
  EXPECT_FALSE(F32::isFinite(F32::Vec3{1.0f, 2.0f, kInf}));
  EXPECT_TRUE(F32::notEquals(F32::Vec2{kNaN, 0}, F32::Vec2{kNaN, 0}));
  EXPECT_FALSE(F32::equals(F32::Vec2{kNaN, 0}, F32::Vec2{kNaN, 0}));
}

TEST(SimMathFp32, ClampNaNAndInfinity) {
  EXPECT_TRUE(F32::isNaN(F32::clamp(kNaN, 0.0f, 1.0f)));
  EXPECT_EQ(F32::clamp(kInf, 0.0f, 1.0f), 1.0f);
  EXPECT_EQ(F32::clamp(-kInf, 0.0f, 1.0f), 0.0f);
  EXPECT_EQ(F32::clamp(0.5f, 0.0f, 1.0f), 0.5f);
  const F32::Vec2 c = F32::clamp(F32::Vec2{kNaN, kInf}, -1.0f, 1.0f);
  EXPECT_TRUE(F32::isNaN(c.x));
  EXPECT_EQ(c.y, 1.0f);
}

TEST(SimMathFp32, SignedZeroPerIEEE) {
  EXPECT_TRUE(std::signbit(F32::add(-0.0f, -0.0f)));
  EXPECT_FALSE(std::signbit(F32::add(-0.0f, 0.0f)));
  EXPECT_FALSE(std::signbit(F32::sub(1.0f, 1.0f)));
  EXPECT_TRUE(std::signbit(F32::mul(-1.0f, 0.0f)));
  EXPECT_TRUE(std::signbit(F32::negate(0.0f)));  // sign flip, not 0 - x
  EXPECT_TRUE(std::signbit(F32::sqrt(-0.0f)));
  EXPECT_TRUE(std::signbit(F32::div(0.0f, -5.0f)));
  EXPECT_TRUE(F32::equals(0.0f, -0.0f));
  EXPECT_TRUE(std::signbit(F32::clamp(-0.0f, 0.0f, 1.0f)));  // equal to lo: kept
}

TEST(SimMathFp32, DenormalsAreKept) {
  const float tiny = std::numeric_limits<float>::denorm_min();
  EXPECT_GT(F32::mul(FLT_MIN, 0.5f), 0.0f);  // no flush-to-zero
  EXPECT_EQ(F32::mul(FLT_MIN, 0.5f), FLT_MIN / 2.0f);
  EXPECT_EQ(bitCast<std::uint32_t>(F32::add(tiny, tiny)), 2u);
  EXPECT_EQ(F32::sub(FLT_MIN, std::nextafter(FLT_MIN, 0.0f)), tiny);
  EXPECT_EQ(F32::div(FLT_MIN, 4.0f), FLT_MIN / 4.0f);
  EXPECT_GT(F32::div(FLT_MIN, 4.0f), 0.0f);
  EXPECT_EQ(F32::mul(F32::div(tiny, 1.0f), 2.0f), 2.0f * tiny);
}

TEST(SimMathFp32, LengthNormalizeVectors) {
  EXPECT_EQ(F32::length(F32::Vec2{3, 4}), 5.0f);
  EXPECT_EQ(F32::length(F32::Vec3{2, 3, 6}), 7.0f);
  const F32::Vec2 n = F32::normalize(F32::Vec2{3, 4});
  EXPECT_EQ(n.x, 0.6f);
  EXPECT_EQ(n.y, 0.8f);
  const F32::Vec2 z = F32::normalize(F32::Vec2{-0.0f, 0.0f});
  EXPECT_EQ(z, (F32::Vec2{0, 0}));
  EXPECT_FALSE(std::signbit(z.x));  // zero length -> the +0 vector
  EXPECT_EQ(F32::normalize(F32::Vec2{1e-30f, 0}), (F32::Vec2{0, 0}));  // squares underflow
  EXPECT_EQ(F32::normalize(F32::Vec3{}), F32::Vec3{});
  EXPECT_TRUE(F32::isNaN(F32::normalize(F32::Vec2{kNaN, 1})));
  EXPECT_EQ(F32::add(F32::Vec2{1, 2}, F32::Vec2{3, 4}), (F32::Vec2{4, 6}));
  EXPECT_EQ(F32::mul(2.0f, F32::Vec3{1, 2, 3}), (F32::Vec3{2, 4, 6}));
  EXPECT_EQ(F32::div(F32::Vec2{1, -1}, 0.0f), (F32::Vec2{kInf, -kInf}));
  EXPECT_EQ(F32::negate(F32::Vec3{1, 0, -1}), (F32::Vec3{-1, -0.0f, 1}));
}

}  // namespace
