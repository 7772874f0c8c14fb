// laige/detail/sim_math_fn_f32.h - sin, cos, ..., round for the pinned
// binary32 backend (`docs/sim_math.md#functions`). Reached through
// SimMath<Fp32Pinned>::sin etc.
//
// Method: the float input is widened to binary64 (exact), the function is
// computed with binary64 + - * / sqrt only (each product behind the anti-FMA
// barrier), and the result is rounded once to binary32. JavaScript numbers
// are binary64 with exactly these operations, so the TypeScript twin
// (web/src/math/f32_math.ts, `f32`) performs the same steps and returns the same
// bits, and so does wasm. Reductions: for sin, cos, tan below 2^23
// Cody-Waite with pi/2 in three parts (two of 33 bits, so k * part is exact
// for |k| < 2^20), from 2^23 an exact Payne-Hanek reduction in integers
// (reduceLarge); for exp, Cody-Waite with ln2 in two parts;
// polynomials are truncated Taylor series whose first dropped term is below
// 2^-44 relative; atan uses a 9-entry table of atan(i/8) and a series on
// [-1/16, 1/16]. Special values follow C99 Annex F (NaN, +-inf, +-0).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#include "laige/detail/fp_barrier.h"

namespace laige::detail {

/// The bits of `v` as a To of the same size (bitCast, which the libc++
/// of emscripten 3.1.6 lacks).
template <class To, class From>
inline To bitCast(const From& v) noexcept {
  static_assert(sizeof(To) == sizeof(From));
  To t;
  std::memcpy(&t, &v, sizeof t);
  return t;
}

/// binary64 helpers of the fp32 functions (mirrored in web/src/math/f32_math.ts).
struct F32FnCore {
  /// x = k * pi/2 + r: k mod 4 (0..3) and r.
  struct Reduced {
    int quadrant;
    double r;
  };
  static double mul(double a, double b) noexcept { return opaque(a * b); }
  static bool signBit(double v) noexcept { return std::signbit(v); }
  /// floor(v), exact (|v| >= 2^52 is integral already); as Math.floor except
/// that -0 is never an argument here.
  static double floorD(double v) noexcept {
    if (!(v < 4503599627370496.0 && v > -4503599627370496.0)) return v;  // integral already
    const double t = static_cast<double>(static_cast<std::int64_t>(v));
    return t > v ? t - 1.0 : t;
  }
  /// 2^k for -1022 <= k <= 1023 (exact).
  static double pow2(int k) noexcept {
    return bitCast<double>(static_cast<std::uint64_t>(k + 1023) << 52);
  }
  /// sin (odd = false) or cos (odd = true) of r in [-pi/4, pi/4] picked by
  /// the quadrant: the polynomials.
  static double sinPoly(double r) noexcept {
    const double z = mul(r, r);
    double p = 1.6059043836821613e-10;
    p = -2.505210838544172e-08 + mul(p, z);
    p = 2.7557319223985893e-06 + mul(p, z);
    p = -0.0001984126984126984 + mul(p, z);
    p = 0.008333333333333333 + mul(p, z);
    p = -0.16666666666666666 + mul(p, z);
    return r + mul(mul(p, z), r);
  }
  static double cosPoly(double r) noexcept {
    const double z = mul(r, r);
    double p = -1.1470745597729725e-11;
    p = 2.08767569878681e-09 + mul(p, z);
    p = -2.755731922398589e-07 + mul(p, z);
    p = 2.48015873015873e-05 + mul(p, z);
    p = -0.001388888888888889 + mul(p, z);
    p = 0.041666666666666664 + mul(p, z);
    p = -0.5 + mul(p, z);
    return 1.0 + mul(p, z);
  }
  /// x = k * pi/2 + r for sin, cos and tan: q = k mod 4 (0..3), r in
  /// ~[-pi/4, pi/4]; false for NaN and +-inf. Below 2^23 the three-part
  /// Cody-Waite steps of reduce (exact up to 2^20; from 2^20 to 2^23 every
  /// float was checked to give the same sin, cos and tan as reduceLarge);
  /// from 2^23, reduceLarge. The common path costs one integer test on the
  /// bits, which also sends NaN and +-inf away from it (measured: no
  /// slower than the NaN test alone, natively and in wasm).
  static bool reduceTrig(float x, int& q, double& r) noexcept {
    if ((bitCast<std::uint32_t>(x) & 0x7FFFFFFFu) < 0x4B000000u) [[likely]] {  // abs(x) < 2^23 (0x4B000000)
      q = reduce(static_cast<double>(x), r);
      return true;
    }
    if (!(x - x == 0.0f)) return false;
    const Reduced large = reduceLarge(static_cast<double>(x));
    q = large.quadrant;
    r = large.r;
    return true;
  }
  /// x = k * pi/2 + r for abs(x) < 2^23 (a widened float): returns k mod 4
  /// (0..3), r in ~[-pi/4, pi/4] (Cody-Waite, pi/2 in three parts).
  static int reduce(double x, double& r) noexcept {
    const double k = floorD(mul(x, 0.6366197723675814) + 0.5);
    r = ((x - mul(k, 1.5707963267341256)) - mul(k, 6.077100506303966e-11)) - mul(k, 2.0222662487959506e-21);
    const double q = k - mul(floorD(mul(k, 0.25)), 4.0);
    return static_cast<int>(q);
  }
  /// 2/pi in binary: bits 1..256 after the point as 32-bit words, most
  /// significant first, behind one zero word (bits -31..0), so a window may
  /// start before the point. reduceLarge reads up to bit 222.
  static constexpr std::uint32_t kTwoOverPiWords[9] = {0,          0xA2F9836Eu, 0x4E441529u, 0xFC2757D1u, 0xF534DDC0u,
                                                       0xDB629599u, 0x3C439041u, 0xFE5163ABu, 0xDEBBC561u};
  /// Bits p .. p+23 of 2/pi as an integer (bit 1 is the first after the
  /// point; bits p <= 0 are 0), for -31 <= p <= 200 (reduceLarge: -1..199).
  static std::uint64_t twoOverPiBits24(int p) noexcept {
    const int a = p + 31;
    const std::uint64_t w = (std::uint64_t{kTwoOverPiWords[a >> 5]} << 32) | kTwoOverPiWords[(a >> 5) + 1];
    return (w >> (40 - (a & 31))) & 0xFFFFFFu;
  }
  /// x = k * pi/2 + r as reduce, for finite abs(x) >= 2^23 (Payne-Hanek in
  /// integers, so every target computes the same bits; f32_math.ts mirrors
  /// it step by step).
  /// |x| = m 2^e with m < 2^24 an integer; |x| * 2/pi = sum_j m b_j 2^(e-j)
  /// over the bits b_j of 2/pi, and the bits j <= e - 2 add multiples of 4,
  /// which change no quadrant. The next 120 bits, in 24-bit chunks c_i from
  /// bit e - 1 on, give y = sum_i m c_i 2^(-22-24i) (mod 4): each product
  /// is an exact 48-bit integer, added up as 24-bit digits with carries.
  /// Dropped bits weigh < 2^-93 in y; the closest float to a multiple of
  /// pi/2 (16367173 * 2^72) has |y - k| = 2^-29.9, so y - k keeps more than
  /// 60 correct bits, and r is within ~2 ulp (binary64) of the exact value.
  /// Inline on purpose: as an out-of-line call (even marked cold) it cost
  /// ~1 ns on the common path of cos in a loop (every xmm register is
  /// caller-saved, so the loop's constants no longer stay in registers).
  static Reduced reduceLarge(double x) noexcept {
    constexpr std::uint64_t kDigit = 0xFFFFFFu;
    const std::uint32_t bits = bitCast<std::uint32_t>(static_cast<float>(x < 0 ? -x : x));
    const std::uint64_t m = (bits & 0x7FFFFFu) | 0x800000u;
    const int e = static_cast<int>(bits >> 23) - 150;  // 0 <= e <= 104
    std::uint64_t t[5];
    for (int i = 0; i < 5; ++i) t[i] = m * twoOverPiBits24(e - 1 + 24 * i);
    // y 2^22 = d1 + d2 2^-24 + d3 2^-48 + d4 2^-72; the digit above d1 weighs 4 in y: dropped.
    std::uint64_t d4 = (t[3] & kDigit) + (t[4] >> 24);
    std::uint64_t d3 = (t[2] & kDigit) + (t[3] >> 24) + (d4 >> 24);
    std::uint64_t d2 = (t[1] & kDigit) + (t[2] >> 24) + (d3 >> 24);
    const std::uint64_t d1 = ((t[0] & kDigit) + (t[1] >> 24) + (d2 >> 24)) & kDigit;
    d4 &= kDigit;
    d3 &= kDigit;
    d2 &= kDigit;
    const std::uint64_t k = (d1 + 0x200000u) >> 22;  // the nearest integer to y: 0..4
    // y - k in [-1/2, 1/2]: hi and lo are exact, their sum is rounded once.
    const double hi = static_cast<double>(static_cast<std::int64_t>(d1) - static_cast<std::int64_t>(k << 22)) +
                      static_cast<double>(d2) * 0x1p-24;
    const double lo = static_cast<double>(d3) * 0x1p-48 + static_cast<double>(d4) * 0x1p-72;
    const double rr = mul((hi + lo) * 0x1p-22, 1.5707963267948966);
    const int q = static_cast<int>(k & 3u);
    if (x < 0) return {(4 - q) & 3, -rr};  // -|x| = (-k) pi/2 - r
    return {q, rr};
  }
  /// atan(y / x) for finite 0 <= y, 0 <= x, not both 0: [0, pi/2].
  static double atanQuadrant(double y, double x) noexcept {
    const bool swap = y > x;
    const double t = swap ? x / y : y / x;
    const double idx = floorD(mul(t, 8.0) + 0.5);
    const double c = mul(idx, 0.125);
    const double u = (t - c) / (1.0 + mul(t, c));
    const double w = mul(u, u);
    double p = -0.09090909090909091;
    p = 0.1111111111111111 + mul(p, w);
    p = -0.14285714285714285 + mul(p, w);
    p = 0.2 + mul(p, w);
    p = -0.3333333333333333 + mul(p, w);
    static constexpr double kTable[9] = {0.0, 0.12435499454676144, 0.24497866312686414, 0.35877067027057225,
                                         0.4636476090008061, 0.5585993153435624, 0.6435011087932844,
                                         0.7188299996216245, 0.7853981633974483};
    const double a = kTable[static_cast<int>(idx)] + (u + mul(mul(p, w), u));
    return swap ? 1.5707963267948966 - a : a;
  }
  /// atan2 for finite, not-both-zero y and x (signs handled).
  static double atan2Finite(double y, double x) noexcept {
    double a = atanQuadrant(y < 0 ? -y : y, x < 0 ? -x : x);
    if (signBit(x)) a = 3.141592653589793 - a;
    return signBit(y) ? -a : a;
  }
  /// log(x) for finite x > 0 given as a float (exact in double).
  static double logPositive(float xf) noexcept {
    int bias = 0;
    if (xf < 1.17549435e-38f) {  // subnormal: scale into the normal range, exactly
      xf = xf * 16777216.0f;
      bias = -24;
    }
    const std::uint32_t bits = bitCast<std::uint32_t>(xf);
    double e = static_cast<double>(static_cast<int>(bits >> 23) - 127 + bias);
    double m = static_cast<double>(bitCast<float>((bits & 0x7FFFFFu) | 0x3F800000u));
    if (m > 1.4142135623730951) {
      m = mul(m, 0.5);
      e = e + 1.0;
    }
    const double s = (m - 1.0) / (m + 1.0);
    const double w = mul(s, s);
    double p = 0.13333333333333333;
    p = 0.15384615384615385 + mul(p, w);
    p = 0.18181818181818182 + mul(p, w);
    p = 0.2222222222222222 + mul(p, w);
    p = 0.2857142857142857 + mul(p, w);
    p = 0.4 + mul(p, w);
    p = 0.6666666666666666 + mul(p, w);
    const double lm = mul(2.0, s) + mul(mul(p, w), s);
    return mul(e, 0.6931471803691238) + (mul(e, 1.9082149292705877e-10) + lm);
  }
  /// exp(x) for x already clamped to [-110, 90] (float results only).
  static double expClamped(double x) noexcept {
    const double k = floorD(mul(x, 1.4426950408889634) + 0.5);
    const double r = (x - mul(k, 0.6931471803691238)) - mul(k, 1.9082149292705877e-10);
    double p = 2.08767569878681e-09;
    p = 2.505210838544172e-08 + mul(p, r);
    p = 2.755731922398589e-07 + mul(p, r);
    p = 2.7557319223985893e-06 + mul(p, r);
    p = 2.48015873015873e-05 + mul(p, r);
    p = 0.0001984126984126984 + mul(p, r);
    p = 0.001388888888888889 + mul(p, r);
    p = 0.008333333333333333 + mul(p, r);
    p = 0.041666666666666664 + mul(p, r);
    p = 0.16666666666666666 + mul(p, r);
    p = 0.5 + mul(p, r);
    p = 1.0 + mul(p, r);
    const double e = 1.0 + mul(p, r);
    return mul(e, pow2(static_cast<int>(k)));
  }
  static double clampExpArg(double x) noexcept { return x > 90.0 ? 90.0 : x < -110.0 ? -110.0 : x; }
  /// True for an integral float (every |y| >= 2^23 is).
  static bool isIntegral(float y) noexcept {
    const float a = y < 0 ? -y : y;
    if (a >= 8388608.0f) return true;
    return static_cast<float>(static_cast<std::int32_t>(y)) == y;
  }
  static bool isOddIntegral(float y) noexcept {
    const float a = y < 0 ? -y : y;
    if (a >= 16777216.0f || !isIntegral(y)) return false;
    return (static_cast<std::int32_t>(y) & 1) != 0;
  }
};

/// The fp32 functions SimMath<Fp32Pinned> offers (`docs/sim_math.md#functions`).
/// noexcept, allocation-free, no libm: binary64 + - * / sqrt inside.
struct F32MathFunctions {
 private:
  using C = F32FnCore;
  static float nan() noexcept { return bitCast<float>(0x7FC00000u); }
  static float inf() noexcept { return bitCast<float>(0x7F800000u); }

 public:
  /// sin(x); NaN for NaN and +-inf; sin(-0) = -0.
  static float sin(float x) noexcept {
    if (x == 0.0f) return x;  // keeps -0
    int q = 0;
    double r = 0;
    if (!C::reduceTrig(x, q, r)) return nan();
    const double v = (q & 1) == 0 ? C::sinPoly(r) : C::cosPoly(r);
    return static_cast<float>(q >= 2 ? -v : v);
  }
  /// cos(x); NaN for NaN and +-inf.
  static float cos(float x) noexcept {
    int q = 0;
    double r = 0;
    if (!C::reduceTrig(x, q, r)) return nan();
    const double v = (q & 1) == 0 ? C::cosPoly(r) : C::sinPoly(r);
    return static_cast<float>(q == 1 || q == 2 ? -v : v);
  }
  /// tan(x) = sin / cos in binary64, rounded once; NaN for NaN and +-inf.
  static float tan(float x) noexcept {
    if (x == 0.0f) return x;  // keeps -0
    int q = 0;
    double r = 0;
    if (!C::reduceTrig(x, q, r)) return nan();
    const double s = C::sinPoly(r);
    const double c = C::cosPoly(r);
    return static_cast<float>((q & 1) == 0 ? s / c : -c / s);
  }
  /// atan2(y, x) in [-pi, pi] with the C99 special cases (signed zeros,
  /// infinities); NaN if either is NaN.
  static float atan2(float y, float x) noexcept {
    if (y != y || x != x) return nan();
    const double dy = y;
    const double dx = x;
    const bool yInf = y == inf() || y == -inf();
    const bool xInf = x == inf() || x == -inf();
    double a = 0;
    if (yInf && xInf) {
      a = C::signBit(dx) ? 2.356194490192345 : 0.7853981633974483;
    } else if (yInf) {
      a = 1.5707963267948966;
    } else if (xInf) {
      a = C::signBit(dx) ? 3.141592653589793 : 0.0;
    } else if (dy == 0.0 && dx == 0.0) {
      a = C::signBit(dx) ? 3.141592653589793 : 0.0;
    } else {
      return static_cast<float>(C::atan2Finite(dy, dx));
    }
    return static_cast<float>(C::signBit(dy) ? -a : a);
  }
  /// asin(x) in [-pi/2, pi/2]; NaN outside [-1, 1] and for NaN.
  static float asin(float x) noexcept {
    if (!(x >= -1.0f && x <= 1.0f)) return nan();
    const double d = x;
    if (d == 0.0) return x;  // +-0
    return static_cast<float>(C::atan2Finite(d, std::sqrt(C::mul(1.0 - d, 1.0 + d))));
  }
  /// acos(x) in [0, pi]; NaN outside [-1, 1] and for NaN.
  static float acos(float x) noexcept {
    if (!(x >= -1.0f && x <= 1.0f)) return nan();
    const double d = x;
    return static_cast<float>(C::atan2Finite(std::sqrt(C::mul(1.0 - d, 1.0 + d)), d));
  }
  /// e^x; +inf above ~88.72, +0 below ~-103.97, NaN for NaN.
  static float exp(float x) noexcept {
    if (x != x) return nan();
    return static_cast<float>(C::expClamped(C::clampExpArg(x)));
  }
  /// Natural log; -inf for +-0, NaN for x < 0 and NaN, +inf for +inf.
  static float log(float x) noexcept {
    if (x != x || x < 0.0f) return nan();
    if (x == 0.0f) return -inf();
    if (x == inf()) return x;
    return static_cast<float>(C::logPositive(x));
  }
  /// x^y = exp(y * log|x|) in binary64, with every C99 special case.
  static float pow(float x, float y) noexcept {
    if (y == 0.0f || x == 1.0f) return 1.0f;
    if (x != x || y != y) return nan();
    const bool yOdd = C::isOddIntegral(y);
    const bool yInf = y == inf() || y == -inf();
    if (x == 0.0f) {
      if (y < 0.0f) return yOdd ? (C::signBit(x) ? -inf() : inf()) : inf();
      return yOdd ? x : 0.0f;
    }
    if (yInf) {
      const float ax = x < 0 ? -x : x;
      if (ax == 1.0f) return 1.0f;
      return (ax < 1.0f) == (y < 0.0f) ? inf() : 0.0f;
    }
    if (x == inf() || x == -inf()) {
      const float mag = y < 0.0f ? 0.0f : inf();
      return (x < 0.0f && yOdd) ? -mag : mag;
    }
    if (x < 0.0f && !C::isIntegral(y)) return nan();
    const double l = C::logPositive(x < 0 ? -x : x);
    const double v = C::expClamped(C::clampExpArg(C::mul(static_cast<double>(y), l)));
    return static_cast<float>(x < 0.0f && yOdd ? -v : v);
  }
  /// sqrt(x*x + y*y) in binary64 (no overflow, no underflow), rounded once;
  /// +inf if either is infinite (even with a NaN), else NaN if either is.
  static float hypot(float x, float y) noexcept {
    if (x == inf() || x == -inf() || y == inf() || y == -inf()) return inf();
    if (x != x || y != y) return nan();
    const double dx = x;
    const double dy = y;
    return static_cast<float>(std::sqrt(C::mul(dx, dx) + C::mul(dy, dy)));
  }
  /// Largest integral value <= x; keeps -0, NaN, +-inf.
  static float floor(float x) noexcept { return rounded(x, 0); }
  /// Smallest integral value >= x; ceil(-0.5) = -0.
  static float ceil(float x) noexcept { return rounded(x, 1); }
  /// Nearest integral value, halves away from zero (std::round).
  static float round(float x) noexcept { return rounded(x, 2); }

 private:
  static float rounded(float x, int mode) noexcept {
    const float a = x < 0 ? -x : x;
    if (!(a < 8388608.0f)) return x;  // NaN, +-inf, already integral
    const float t = static_cast<float>(static_cast<std::int32_t>(x));
    float r = t;
    if (mode == 0 && t > x) r = t - 1.0f;
    if (mode == 1 && t < x) r = t + 1.0f;
    if (mode == 2) {
      const float frac = x - t;
      if (frac >= 0.5f) r = t + 1.0f;
      if (frac <= -0.5f) r = t - 1.0f;
    }
    if (r == 0.0f) return std::signbit(x) ? -0.0f : 0.0f;
    return r;
  }
};

}  // namespace laige::detail
