// laige/fpx16_16.h - the Q16.16 fixed-point scalar of the default math backend.
//
// A value is raw / 2^16 with raw an int32. The type deliberately has no
// arithmetic operators and no converting constructors: every operation goes
// through SimMath<Fpx16_16> (sim_math.h), where rounding and saturation are
// spelled out, so no expression can silently mix in float or int semantics.
// All conversions here are integer or exact float operations only (no
// fesetround, no nearbyint, no libm), so native and wasm agree bit for bit.
// See docs/sim_math.md.
#pragma once

#include <compare>
#include <cstdint>
#include <type_traits>

#include "laige/determinism_guard.h"

namespace laige {

namespace detail {

/// Clamps a 64-bit intermediate to the int32 raw range (saturation).
constexpr std::int32_t saturateRaw(std::int64_t v) noexcept {
  if (v > INT32_MAX) return INT32_MAX;
  if (v < INT32_MIN) return INT32_MIN;
  return static_cast<std::int32_t>(v);
}

/// Rounds x to the nearest integer, ties to even, using only exact
/// operations. Requires |x| < 2^62. Why it is exact: trunc(x) of a binary
/// float is representable in the same format, so the int64 cast and the
/// cast back are exact, and x - trunc(x) is exact (Sterbenz / x itself when
/// |x| < 1). Comparing that exact fraction with 0.5 needs no rounding mode.
template <class F>
constexpr std::int64_t roundHalfEven(F x) noexcept {
  std::int64_t t = static_cast<std::int64_t>(x);  // toward zero
  const F frac = x - static_cast<F>(t);
  const bool odd = (t & 1) != 0;
  if (frac > F(0.5) || (frac == F(0.5) && odd)) {
    ++t;
  } else if (frac < F(-0.5) || (frac == F(-0.5) && odd)) {
    --t;
  }
  return t;
}

/// Shared body of fromFloat/fromDouble: NaN -> 0, saturate at +-32768,
/// else round-half-even(v * 65536). The scaling by 2^16 is exact.
template <class F>
constexpr std::int32_t rawFromBinaryFloat(F v) noexcept {
  if (v != v) return 0;  // NaN; `v != v` rather than std::isnan: constexpr.
  if (v >= F(32768)) return INT32_MAX;
  if (v <= F(-32768)) return INT32_MIN;
  // Saturate again: for double, values just below 32768 round up to 2^31.
  return saturateRaw(roundHalfEven(v * F(65536)));
}

}  // namespace detail

/// Q16.16 signed fixed point: value = raw / 65536.
///
/// Range [-32768.0, 32767.99998474] (raw INT32_MIN..INT32_MAX), resolution
/// 2^-16. Default-constructs to zero. Total order on raw. Trivially
/// copyable, standard layout, 4 bytes: safe to store in components and to
/// hash byte-wise.
struct fpx16_16 {
  /// The two's-complement representation; value = raw / 2^16. Public so
  /// that storage, hashing and serialisation can read it directly.
  std::int32_t raw = 0;

  /// Number of fractional bits.
  static constexpr int kFracBits = 16;
  /// raw of 1.0.
  static constexpr std::int32_t kOneRaw = 1 << kFracBits;

  /// Zero. Non-aggregate on purpose (C++20: a declared constructor removes
  /// aggregate init), so `fpx16_16{5}` does not compile: use fromRaw,
  /// fromInt32 or fromFloat and say which scale you mean.
  constexpr fpx16_16() noexcept = default;

  /// The value whose representation is `r` (value r / 65536).
  [[nodiscard]] static constexpr fpx16_16 fromRaw(std::int32_t r) noexcept {
    fpx16_16 v;
    v.raw = r;
    return v;
  }
  /// The smallest value, -32768.0 (raw INT32_MIN).
  [[nodiscard]] static constexpr fpx16_16 min() noexcept { return fromRaw(INT32_MIN); }
  /// The largest value, 32767.99998474 (raw INT32_MAX).
  [[nodiscard]] static constexpr fpx16_16 max() noexcept { return fromRaw(INT32_MAX); }
  /// 1.0 (raw 65536).
  [[nodiscard]] static constexpr fpx16_16 one() noexcept { return fromRaw(kOneRaw); }
  /// 0.0 (raw 0).
  [[nodiscard]] static constexpr fpx16_16 zero() noexcept { return fromRaw(0); }

  /// Exact integer conversion, saturating: v >= 32768 -> max(),
  /// v <= -32768 -> min() (-32768 is exactly min()), else raw = v * 65536.
  [[nodiscard]] static constexpr fpx16_16 fromInt32(std::int32_t v) noexcept {
    if (v >= 32768) return max();
    if (v <= -32768) return min();
    return fromRaw(v * kOneRaw);
  }

  /// Nearest integer to x, ties to even; result in [-32768, 32768]
  /// (max() rounds up to 32768). Pure integer arithmetic.
  [[nodiscard]] static constexpr std::int32_t toInt32(fpx16_16 x) noexcept {
    const std::int32_t q = x.raw >> kFracBits;  // arithmetic shift = floor (C++20)
    const std::int32_t rem = x.raw & 0xFFFF;
    const bool up = rem > 0x8000 || (rem == 0x8000 && (q & 1) != 0);
    return up ? q + 1 : q;
  }

  /// float(raw) / 65536: one rounding (int32 -> float, 24-bit mantissa);
  /// the division by a power of two is exact. toFloat(max()) == 32768.0f.
  [[nodiscard]] static constexpr float toFloat(fpx16_16 x) noexcept {
    return static_cast<float>(x.raw) / 65536.0f;
  }

  /// raw / 65536 as double: exact (31 bits fit a 53-bit mantissa), so it
  /// is safe for exact comparisons in tooling and budgets.
  [[nodiscard]] static constexpr double toDouble(fpx16_16 x) noexcept {
    return static_cast<double>(x.raw) / 65536.0;
  }

  /// NaN -> 0; v >= 32768 (incl. +inf) -> max(); v <= -32768 (incl. -inf)
  /// -> min(); else round-half-even(v * 65536), computed with exact float
  /// operations (independent of the FP rounding mode and of libm).
  /// fromFloat(0.1f).raw == 6554.
  [[nodiscard]] static constexpr fpx16_16 fromFloat(float v) noexcept {
    return fromRaw(detail::rawFromBinaryFloat(v));
  }

  /// fromFloat for a double input (tooling, configs, literals): same rules,
  /// one rounding from the exact double value (no detour through float).
  [[nodiscard]] static constexpr fpx16_16 fromDouble(double v) noexcept {
    return fromRaw(detail::rawFromBinaryFloat(v));
  }

  /// Bitwise equality of raw (every value has exactly one representation).
  constexpr bool operator==(const fpx16_16&) const noexcept = default;
  /// Total order on raw (== numeric order).
  constexpr std::strong_ordering operator<=>(const fpx16_16&) const noexcept = default;
};

static_assert(sizeof(fpx16_16) == 4);
static_assert(std::is_trivially_copyable_v<fpx16_16>);
static_assert(std::is_standard_layout_v<fpx16_16>);
// The "no implicit constructors" rule, checked rather than promised.
static_assert(!std::is_constructible_v<fpx16_16, std::int32_t>);
static_assert(!std::is_constructible_v<fpx16_16, float>);
static_assert(!std::is_convertible_v<std::int32_t, fpx16_16>);

}  // namespace laige
