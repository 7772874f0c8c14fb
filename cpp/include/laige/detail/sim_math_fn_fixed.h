// laige/detail/sim_math_fn_fixed.h - sin, cos, ..., round for Q16.16, in
// integers only (`docs/sim_math.md#functions`). Reached through
// SimMath<Fpx16_16>::sin etc. (sim_math.h includes laige/sim_math_fn.h).
//
// Method: every function computes on int64 values whose magnitude stays
// below 2^53, except products, which go through mulRound (and its wide
// form, same result): the TypeScript twin (web/src/math/fx_q30.ts) does the
// very same steps on doubles, exactly, so both give the same bits (it first
// tries the series in real arithmetic and keeps that result only where the
// proven distance to these steps cannot change the rounding). Internal
// precision is Q30 (value = v / 2^30); angle reduction uses pi/2 in Q37 and
// exp's reduction ln2 in Q46. Polynomials are truncated Taylor series with
// integer coefficients round(2^30 * c), on reduced ranges where the first
// dropped term is below 2^-30: sin/cos on [-pi/4, pi/4], atan on
// [-1/16, 1/16] after a 9-entry table (atan(i/8)), exp on [-ln2/2, ln2/2],
// log as 2*atanh(s) with |s| <= 0.1716. Results are rounded to raw (half up)
// and saturated to [min(), max()]. No function fails; out-of-domain input is
// defined (see each member).
#pragma once

#include <cstdint>

#include "laige/detail/isqrt.h"
#include "laige/fpx16_16.h"

namespace laige::detail {

/// Integer helpers shared by the Q16.16 functions (mirrored in web/src/math/fx_q30.ts).
struct FixedFnCore {
  static constexpr std::int64_t kOneQ30 = std::int64_t{1} << 30;
  static constexpr std::int64_t kHalfPiQ37 = 215888603272;  // round(pi/2 * 2^37)
  static constexpr std::int64_t kPiQ30 = 3373259426;
  static constexpr std::int64_t kHalfPiQ30 = 1686629713;
  static constexpr std::int64_t kLn2Q46 = 48775896626292;
  static constexpr std::int64_t kLn2Q30 = 744261118;
  static constexpr std::int64_t kSqrt2Q30 = 1518500250;

  /// floor((a * b + 2^(s-1)) / 2^s) for |a|, |b| < 2^31, 1 <= s <= 62.
  static constexpr std::int64_t mulRound(std::int64_t a, std::int64_t b, int s) noexcept {
    return (a * b + (std::int64_t{1} << (s - 1))) >> s;
  }
  /// The same value for |a| < 2^36, |b| < 2^31, 16 <= s <= 46, without a
  /// 128-bit product: b = bh * 2^16 + bl with bl in [0, 2^16).
  static constexpr std::int64_t mulRoundWide(std::int64_t a, std::int64_t b, int s) noexcept {
    const std::int64_t bh = b >> 16;
    const std::int64_t bl = b - bh * 65536;
    const std::int64_t p1 = a * bh;
    const std::int64_t p0 = a * bl;
    const std::int64_t q1 = p1 >> (s - 16);
    const std::int64_t r1 = p1 - q1 * (std::int64_t{1} << (s - 16));
    return q1 + ((r1 * 65536 + p0 + (std::int64_t{1} << (s - 1))) >> s);
  }
  /// floor(n / d) for d > 0 (C++ division truncates; this floors).
  static constexpr std::int64_t floorDiv(std::int64_t n, std::int64_t d) noexcept {
    const std::int64_t q = n / d;
    return (n % d != 0 && n < 0) ? q - 1 : q;
  }
  /// floor(a * 2^30 / b) for 0 <= a <= b, 0 < b < 2^33.
  static constexpr std::int64_t ratioQ30(std::int64_t a, std::int64_t b) noexcept {
    const std::int64_t q1 = (a * 32768) / b;
    const std::int64_t r1 = a * 32768 - q1 * b;
    return q1 * 32768 + (r1 * 32768) / b;
  }
  /// round(v / 2^14) (Q30 -> raw), half away from zero, saturated.
  static constexpr std::int32_t q30ToRaw(std::int64_t v) noexcept {
    const std::int64_t m = v < 0 ? -v : v;
    const std::int64_t r = (m + 8192) >> 14;
    return saturateRaw(v < 0 ? -r : r);
  }
  /// floor(sqrt(n)) for 0 <= n < 2^53 (isqrt64; exact).
  static constexpr std::int64_t isqrt(std::int64_t n) noexcept {
    std::uint64_t remainder = 0;
    return static_cast<std::int64_t>(isqrt64(static_cast<std::uint64_t>(n), remainder));
  }

  /// sin and cos (Q30) of r30 in [-pi/4, pi/4] (Q30).
  static constexpr void sinCosQ30(std::int64_t r, std::int64_t& s, std::int64_t& c) noexcept {
    const std::int64_t z = mulRound(r, r, 30);
    std::int64_t p = -27;               // -1/11!
    p = 2959 + mulRound(p, z, 30);      // 1/9!
    p = -213044 + mulRound(p, z, 30);   // -1/7!
    p = 8947849 + mulRound(p, z, 30);   // 1/5!
    p = -178956971 + mulRound(p, z, 30);  // -1/3!
    s = r + mulRound(mulRound(p, z, 30), r, 30);
    std::int64_t q = 2;                 // 1/12!
    q = -296 + mulRound(q, z, 30);      // -1/10!
    q = 26631 + mulRound(q, z, 30);     // 1/8!
    q = -1491308 + mulRound(q, z, 30);  // -1/6!
    q = 44739243 + mulRound(q, z, 30);  // 1/4!
    q = -536870912 + mulRound(q, z, 30);  // -1/2
    c = kOneQ30 + mulRound(q, z, 30);
  }
  /// For raw >= 0 (as int64): the quadrant k mod 4 and sin, cos (Q30) of
  /// the reduced angle raw / 2^16 - k * pi/2.
  static constexpr int reduce(std::int64_t ax, std::int64_t& s, std::int64_t& c) noexcept {
    const std::int64_t n = ax * 2097152;  // Q37
    const std::int64_t k = (n + kHalfPiQ37 / 2) / kHalfPiQ37;
    const std::int64_t r37 = n - k * kHalfPiQ37;
    sinCosQ30((r37 + 64) >> 7, s, c);
    return static_cast<int>(k & 3);
  }
  /// atan(y / x) in Q30 for 0 <= y, x and not both 0, any common scale
  /// (< 2^32): the first-quadrant angle.
  static constexpr std::int64_t atanQ30(std::int64_t y, std::int64_t x) noexcept {
    const bool swap = y > x;
    const std::int64_t t = swap ? ratioQ30(x, y) : ratioQ30(y, x);
    const std::int64_t idx = (t + (std::int64_t{1} << 26)) >> 27;
    const std::int64_t cst = idx << 27;
    const std::int64_t num = t - cst;
    const std::int64_t den = kOneQ30 + mulRound(t, cst, 30);
    const std::int64_t un = ratioQ30(num < 0 ? -num : num, den);
    const std::int64_t u = num < 0 ? -un : un;
    const std::int64_t w = mulRound(u, u, 30);
    std::int64_t p = 119304647;           // 1/9
    p = -153391689 + mulRound(p, w, 30);  // -1/7
    p = 214748365 + mulRound(p, w, 30);   // 1/5
    p = -357913941 + mulRound(p, w, 30);  // -1/3
    constexpr std::int64_t kTable[9] = {0,         133525159, 263043837, 385227074, 497837829,
                                        599791448, 690954054, 771837835, 843314857};
    const std::int64_t a = kTable[idx] + u + mulRound(mulRound(p, w, 30), u, 30);
    return swap ? kHalfPiQ30 - a : a;
  }
  /// log(raw / 2^16) in Q30 for raw > 0.
  static constexpr std::int64_t logQ30(std::int64_t raw) noexcept {
    int msb = 0;
    while ((raw >> (msb + 1)) != 0) ++msb;
    // [2^30, 2^31); only raw = 2^31 (pow of min()) has msb 31, exactly.
    const std::int64_t m = msb <= 30 ? raw << (30 - msb) : raw >> (msb - 30);
    std::int64_t e = msb - 16;
    std::int64_t num = m - kOneQ30;
    std::int64_t den = m + kOneQ30;
    if (m > kSqrt2Q30) {  // use m / 2, exactly: (m - 2^31) / (m + 2^31)
      num = m - 2 * kOneQ30;
      den = m + 2 * kOneQ30;
      e += 1;
    }
    const std::int64_t sn = ratioQ30(num < 0 ? -num : num, den);
    const std::int64_t s = num < 0 ? -sn : sn;
    const std::int64_t w = mulRound(s, s, 30);
    std::int64_t p = 165191050;          // 2/13
    p = 195225786 + mulRound(p, w, 30);  // 2/11
    p = 238609294 + mulRound(p, w, 30);  // 2/9
    p = 306783378 + mulRound(p, w, 30);  // 2/7
    p = 429496730 + mulRound(p, w, 30);  // 2/5
    p = 715827883 + mulRound(p, w, 30);  // 2/3
    return e * kLn2Q30 + 2 * s + mulRound(mulRound(p, w, 30), s, 30);
  }
  /// exp(a / 2^30) as raw, saturated; a is Q30 with |a| < 2^50.
  static constexpr std::int32_t expQ30ToRaw(std::int64_t a) noexcept {
    if (a > 11 * kOneQ30) return kFpxRawMax;  // e^11 > 32768
    if (a < -17 * kOneQ30) return 0;          // e^-17 < 2^-17
    const std::int64_t n = a * 65536;         // Q46
    const std::int64_t k = floorDiv(n + kLn2Q46 / 2, kLn2Q46);
    const std::int64_t r = (n - k * kLn2Q46 + 32768) >> 16;  // Q30, |r| <= ln2/2
    std::int64_t p = 27;                // 1/11!
    p = 296 + mulRound(p, r, 30);       // 1/10!
    p = 2959 + mulRound(p, r, 30);      // 1/9!
    p = 26631 + mulRound(p, r, 30);     // 1/8!
    p = 213044 + mulRound(p, r, 30);    // 1/7!
    p = 1491308 + mulRound(p, r, 30);   // 1/6!
    p = 8947849 + mulRound(p, r, 30);   // 1/5!
    p = 44739243 + mulRound(p, r, 30);  // 1/4!
    p = 178956971 + mulRound(p, r, 30);  // 1/3!
    p = 536870912 + mulRound(p, r, 30);  // 1/2
    p = kOneQ30 + mulRound(p, r, 30);    // 1
    const std::int64_t e = kOneQ30 + mulRound(p, r, 30);  // exp(r), Q30
    const std::int64_t sh = 14 - k;  // raw = e * 2^(k - 14)
    if (sh <= 0) return saturateRaw(e << (-sh));
    if (sh > 40) return 0;
    return saturateRaw((e + (std::int64_t{1} << (sh - 1))) >> sh);
  }
  static constexpr std::int32_t kFpxRawMax = 2147483647;
  static constexpr std::int32_t kFpxRawMin = -2147483647 - 1;
};

/// The Q16.16 functions SimMath<Fpx16_16> offers (`docs/sim_math.md#functions`).
/// All constexpr, noexcept, allocation-free; integer operations only.
struct FixedMathFunctions {
 private:
  using C = FixedFnCore;
  using S = fpx16_16;
  static constexpr S raw(std::int64_t v) noexcept { return S::fromRaw(saturateRaw(v)); }

 public:
  /// sin(x), |error| <= 1 raw unit over the whole range.
  static constexpr S sin(S x) noexcept {
    const std::int64_t ax = x.raw < 0 ? -std::int64_t{x.raw} : x.raw;
    std::int64_t s = 0, c = 0;
    const int q = C::reduce(ax, s, c);
    const std::int64_t v = q == 0 ? s : q == 1 ? c : q == 2 ? -s : -c;
    return S::fromRaw(C::q30ToRaw(x.raw < 0 ? -v : v));
  }
  /// cos(x), |error| <= 1 raw unit over the whole range.
  static constexpr S cos(S x) noexcept {
    const std::int64_t ax = x.raw < 0 ? -std::int64_t{x.raw} : x.raw;
    std::int64_t s = 0, c = 0;
    const int q = C::reduce(ax, s, c);
    return S::fromRaw(C::q30ToRaw(q == 0 ? c : q == 1 ? -s : q == 2 ? -c : s));
  }
  /// tan(x) = sin / cos rounded once, saturated (near the poles the result
  /// is max() or min() by the sign).
  static constexpr S tan(S x) noexcept {
    const std::int64_t ax = x.raw < 0 ? -std::int64_t{x.raw} : x.raw;
    std::int64_t s = 0, c = 0;
    const int q = C::reduce(ax, s, c);
    std::int64_t num = (q & 1) == 0 ? s : c;
    std::int64_t den = (q & 1) == 0 ? c : -s;
    if (x.raw < 0) num = -num;
    if (den < 0) { num = -num; den = -den; }
    if (den == 0) return num >= 0 ? S::max() : S::min();
    const std::int64_t an = num < 0 ? -num : num;
    const std::int64_t r = (2 * an * 65536 + den) / (2 * den);  // round half up
    return raw(num < 0 ? -r : r);
  }
  /// atan2(y, x) in (-pi, pi]; atan2(0, 0) = 0; atan2(0, negative) = +pi.
  static constexpr S atan2(S y, S x) noexcept {
    if (x.raw == 0 && y.raw == 0) return S::zero();
    const std::int64_t ay = y.raw < 0 ? -std::int64_t{y.raw} : y.raw;
    const std::int64_t ax = x.raw < 0 ? -std::int64_t{x.raw} : x.raw;
    std::int64_t a = C::atanQ30(ay, ax);
    if (x.raw < 0) a = C::kPiQ30 - a;
    return S::fromRaw(C::q30ToRaw(y.raw < 0 ? -a : a));
  }
  /// asin(x) in [-pi/2, pi/2]; x outside [-1, 1] is clamped to it.
  static constexpr S asin(S x) noexcept {
    const std::int64_t v = asinQ30(x);
    return S::fromRaw(C::q30ToRaw(v));
  }
  /// acos(x) = pi/2 - asin(x) in [0, pi]; x outside [-1, 1] is clamped.
  static constexpr S acos(S x) noexcept { return S::fromRaw(C::q30ToRaw(C::kHalfPiQ30 - asinQ30(x))); }
  /// exp(x), saturated to max() for x >= ~10.3972; 0 below ~-11.09.
  static constexpr S exp(S x) noexcept { return S::fromRaw(C::expQ30ToRaw(std::int64_t{x.raw} * 16384)); }
  /// log(x) (natural); x <= 0 (a domain error) gives min().
  static constexpr S log(S x) noexcept {
    if (x.raw <= 0) return S::min();
    return S::fromRaw(C::q30ToRaw(C::logQ30(x.raw)));
  }
  /// x^y = exp(y * log(x)) with log kept in Q30. pow(x, 0) = 1; pow(0, y)
  /// = 0 for y > 0, max() for y < 0; negative x: integral y gives the
  /// signed power, other y (a domain error) gives 0. Saturates.
  static constexpr S pow(S x, S y) noexcept {
    if (y.raw == 0) return S::one();
    if (x.raw == 0) return y.raw > 0 ? S::zero() : S::max();
    std::int64_t ax = x.raw;
    bool negate = false;
    if (ax < 0) {
      if ((y.raw & 0xFFFF) != 0) return S::zero();
      negate = ((y.raw >> 16) & 1) != 0;
      ax = -ax;
    }
    const std::int64_t l = C::logQ30(ax);
    const std::int32_t r = C::expQ30ToRaw(C::mulRoundWide(l, y.raw, 16));
    return S::fromRaw(negate ? -r : r);  // -max() at worst, never overflows
  }
  /// sqrt(x*x + y*y) exact to 1/2 raw unit (64-bit integer root), saturated.
  static constexpr S hypot(S x, S y) noexcept {
    const auto ax = static_cast<std::uint64_t>(x.raw < 0 ? -std::int64_t{x.raw} : x.raw);
    const auto ay = static_cast<std::uint64_t>(y.raw < 0 ? -std::int64_t{y.raw} : y.raw);
    std::uint64_t n = ax * ax + ay * ay;  // < 2^63
    std::uint64_t s = 0;
    std::uint64_t bit = std::uint64_t{1} << 62;
    while (bit > n) bit >>= 2;
    while (bit != 0) {
      if (n >= s + bit) {
        n -= s + bit;
        s = (s >> 1) + bit;
      } else {
        s >>= 1;
      }
      bit >>= 2;
    }
    return raw(static_cast<std::int64_t>(s + (n > s ? 1 : 0)));  // n is now the remainder
  }
  /// The largest integer <= x (exact).
  static constexpr S floor(S x) noexcept { return S::fromRaw(x.raw & ~0xFFFF); }
  /// The smallest integer >= x; above 32767 it saturates to max().
  static constexpr S ceil(S x) noexcept { return raw((std::int64_t{x.raw} + 0xFFFF) & ~std::int64_t{0xFFFF}); }
  /// The nearest integer, halves away from zero (as std::round); above
  /// 32767.5 it saturates to max().
  static constexpr S round(S x) noexcept {
    const std::int64_t a = x.raw < 0 ? -std::int64_t{x.raw} : x.raw;
    const std::int64_t r = (a + 0x8000) & ~std::int64_t{0xFFFF};
    return raw(x.raw < 0 ? -r : r);
  }

 private:
  static constexpr std::int64_t asinQ30(S x) noexcept {
    std::int64_t v = x.raw;
    if (v > 65536) v = 65536;
    if (v < -65536) v = -65536;
    const std::int64_t a = v < 0 ? -v : v;
    const std::int64_t c24 = C::isqrt(((std::int64_t{1} << 32) - a * a) * 65536);  // sqrt(1 - x^2), Q24
    const std::int64_t ang = C::atanQ30(a * 256, c24);
    return v < 0 ? -ang : ang;
  }
};

}  // namespace laige::detail
