// laige/sim_math.h - the simulation math surface, one API over two backends.
//
// SimMath<Fpx16_16> (default, config id "fixed_point_16_16") computes on
// Q16.16 in int64 and saturates; it is bit-identical on every compiler,
// target and optimisation level. SimMath<Fp32Pinned> (opt-in,
// "float_pinned_32") is plain IEEE binary32 with one rounding per operation;
// it is reproducible only within one build and ISA, never under -ffast-math
// and friends (laige/determinism_guard.h rejects them). Its products are
// kept from being fused into FMAs by the backend itself, whatever the
// consumer's -ffp-contract (`docs/sim_math.md#flags`). The backend is picked
// once at compile time; all operations are static, inline and noexcept. No
// libm transcendental appears anywhere (glibc and the wasm libc differ on
// them); deterministic sin, exp, ... are in laige/sim_math_fn.h. See
// docs/sim_math.md.
#pragma once

#include <cassert>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string_view>
#include <type_traits>

#include "laige/detail/fp_barrier.h"
#include "laige/detail/isqrt.h"
#include "laige/determinism_guard.h"
#include "laige/fpx16_16.h"
#include "laige/sim_math_fn.h"

namespace laige {

/// Backend tag: Q16.16 fixed point (the default, cross-platform exact).
struct Fpx16_16 {};
/// Backend tag: IEEE binary32 with pinned compiler flags (opt-in).
struct Fp32Pinned {};

/// The math surface for backend B; only the two specialisations exist.
template <class B>
struct SimMath;

namespace detail {

/// 2-component vector of a backend scalar. Aggregate, 2 * sizeof(S) bytes,
/// no padding; default-initialises to zero.
template <class S>
struct SimVec2 {
  S x{};  ///< First component.
  S y{};  ///< Second component.
  /// Exact component-wise ==, as SimMath::equals (for fp32 NaN != NaN).
  constexpr bool operator==(const SimVec2&) const noexcept = default;
};

/// 3-component vector of a backend scalar; see SimVec2.
template <class S>
struct SimVec3 {
  S x{};  ///< First component.
  S y{};  ///< Second component.
  S z{};  ///< Third component.
  /// Exact component-wise ==, as SimMath::equals (for fp32 NaN != NaN).
  constexpr bool operator==(const SimVec3&) const noexcept = default;
};

/// Scalar operations of the fixed-point backend (`docs/sim_math.md#fixed-point-operations`).
/// Every op computes in int64 and saturates to [INT32_MIN, INT32_MAX].
struct FixedScalarOps {
  /// The backend scalar.
  using Scalar = fpx16_16;

  /// a + b, exact, then saturated.
  static constexpr Scalar add(Scalar a, Scalar b) noexcept {
    return Scalar::fromRaw(saturateRaw(std::int64_t{a.raw} + b.raw));
  }
  /// a - b, exact, then saturated.
  static constexpr Scalar sub(Scalar a, Scalar b) noexcept {
    return Scalar::fromRaw(saturateRaw(std::int64_t{a.raw} - b.raw));
  }
  /// sub(0, a): only negate(min()) saturates (to max()).
  static constexpr Scalar negate(Scalar a) noexcept { return sub(Scalar::zero(), a); }
  /// a * b: p = a.raw * b.raw; q = floor(p / 2^16); round to nearest with
  /// ties to even on the 16 dropped bits; saturate.
  static constexpr Scalar mul(Scalar a, Scalar b) noexcept {
    const std::int64_t p = std::int64_t{a.raw} * b.raw;
    std::int64_t q = p >> 16;  // arithmetic = floor (C++20)
    const std::int64_t rem = p & 0xFFFF;
    if (rem > 0x8000 || (rem == 0x8000 && (q & 1) != 0)) ++q;
    return Scalar::fromRaw(saturateRaw(q));
  }
  /// a / b rounded to nearest, ties to even, saturated. b == 0 gives 0 for
  /// a == 0, else max()/min() by the sign of a. Laige policy (differs from
  /// upstream): a rounding step goes away from zero in the direction of the
  /// TRUE quotient sign, so raw quotients in (-1, -0.5) give -1, not +1.
  static constexpr Scalar div(Scalar a, Scalar b) noexcept {
    if (b.raw == 0) {
      if (a.raw == 0) return Scalar::zero();
      return a.raw > 0 ? Scalar::max() : Scalar::min();
    }
    const std::int64_t num = std::int64_t{a.raw} * 65536;
    const std::int64_t den = b.raw;
    std::int64_t q = num / den;  // truncates toward zero
    const std::int64_t r = num % den;
    if (r != 0) {
      const std::int64_t twiceAbsR = 2 * (r < 0 ? -r : r);
      const std::int64_t absDen = den < 0 ? -den : den;
      if (twiceAbsR > absDen || (twiceAbsR == absDen && (q & 1) != 0)) {
        // The quotient's sign comes from the operands, not from q: q is 0
        // for |true quotient| < 1 and then carries no sign.
        q += ((num < 0) != (den < 0)) ? -1 : 1;
      }
    }
    return Scalar::fromRaw(saturateRaw(q));
  }
  /// Square root, rounded to nearest (no ties exist). a <= 0 gives 0
  /// (negative input is defined as +0). Exact integer algorithm:
  /// n = raw << 16, s = isqrt(n), result s + (n - s^2 > s).
  static constexpr Scalar sqrt(Scalar a) noexcept {
    if (a.raw <= 0) return Scalar::zero();
    std::uint64_t rem = 0;
    const std::uint64_t n = static_cast<std::uint64_t>(a.raw) << 16;
    const std::uint64_t s = isqrt64(n, rem);
    return Scalar::fromRaw(static_cast<std::int32_t>(s + (rem > s ? 1 : 0)));
  }

  /// a < b.
  static constexpr bool less(Scalar a, Scalar b) noexcept { return a.raw < b.raw; }
  /// a <= b.
  static constexpr bool lessEqual(Scalar a, Scalar b) noexcept { return a.raw <= b.raw; }
  /// a > b.
  static constexpr bool greater(Scalar a, Scalar b) noexcept { return a.raw > b.raw; }
  /// a >= b.
  static constexpr bool greaterEqual(Scalar a, Scalar b) noexcept { return a.raw >= b.raw; }
  /// Exact bit equality.
  static constexpr bool equals(Scalar a, Scalar b) noexcept { return a.raw == b.raw; }
  /// !equals(a, b).
  static constexpr bool notEquals(Scalar a, Scalar b) noexcept { return a.raw != b.raw; }
  /// Always false: fixed point has no NaN.
  static constexpr bool isNaN(Scalar) noexcept { return false; }
  /// Always false: fixed point has no infinity (it saturates).
  static constexpr bool isInf(Scalar) noexcept { return false; }
  /// Always true.
  static constexpr bool isFinite(Scalar) noexcept { return true; }
  /// Always true: every value is ordered.
  static constexpr bool isOrdered(Scalar) noexcept { return true; }
  /// Always true: every pair compares (no unordered results).
  static constexpr bool isOrdered(Scalar, Scalar) noexcept { return true; }

  /// fpx16_16::fromInt32 (saturating, exact).
  static constexpr Scalar fromInt(std::int32_t v) noexcept { return Scalar::fromInt32(v); }
  /// fpx16_16::fromFloat (NaN -> 0, saturating, round-half-even).
  static constexpr Scalar fromFloat(float v) noexcept { return Scalar::fromFloat(v); }
  /// fpx16_16::toFloat (one rounding).
  static constexpr float toFloat(Scalar a) noexcept { return Scalar::toFloat(a); }
};

/// Scalar operations of the pinned binary32 backend: each op is one IEEE
/// operation, rounded once to nearest-even. NaN propagates, 0/0 is NaN,
/// x/0 is +-inf, signed zeros and denormals follow IEEE, nothing traps.
/// `x != x` style tests replace std::isnan so they stay constexpr; they are
/// correct because finite-math modes are rejected (determinism_guard.h).
struct Fp32ScalarOps {
  /// The backend scalar.
  using Scalar = float;

  /// a + b. (A product written with `*` by the caller, as in
  /// `add(x * y, z)`, is the caller's: only mul's products are pinned.)
  static constexpr Scalar add(Scalar a, Scalar b) noexcept { return a + b; }
  /// a - b.
  static constexpr Scalar sub(Scalar a, Scalar b) noexcept { return a - b; }
  /// IEEE negate: flips the sign bit (negate(+0) == -0), no rounding.
  static constexpr Scalar negate(Scalar a) noexcept { return -a; }
  /// a * b, rounded: the product passes the barrier (detail::opaque), so no
  /// compiler fuses it with a later add, whatever -ffp-contract says.
  static constexpr Scalar mul(Scalar a, Scalar b) noexcept {
    if (std::is_constant_evaluated()) return a * b;
    return opaque(a * b);
  }
  /// a / b (x/0 = +-inf, 0/0 = NaN).
  static constexpr Scalar div(Scalar a, Scalar b) noexcept { return a / b; }
  /// Correctly rounded sqrt (IEEE requires it; x86 sqrtss, wasm f32.sqrt).
  /// sqrt(-0) = -0; negative or NaN input gives NaN.
  static Scalar sqrt(Scalar a) noexcept { return std::sqrt(a); }

  /// a < b (false if either is NaN).
  static constexpr bool less(Scalar a, Scalar b) noexcept { return a < b; }
  /// a <= b (false if either is NaN).
  static constexpr bool lessEqual(Scalar a, Scalar b) noexcept { return a <= b; }
  /// a > b (false if either is NaN).
  static constexpr bool greater(Scalar a, Scalar b) noexcept { return a > b; }
  /// a >= b (false if either is NaN).
  static constexpr bool greaterEqual(Scalar a, Scalar b) noexcept { return a >= b; }
  /// IEEE ==: +0 equals -0, NaN equals nothing.
  static constexpr bool equals(Scalar a, Scalar b) noexcept { return a == b; }
  /// IEEE !=: true whenever either is NaN.
  static constexpr bool notEquals(Scalar a, Scalar b) noexcept { return a != b; }
  /// True for any NaN.
  static constexpr bool isNaN(Scalar a) noexcept { return a != a; }
  /// True for +inf and -inf.
  static constexpr bool isInf(Scalar a) noexcept {
    return a == std::numeric_limits<Scalar>::infinity() ||
           a == -std::numeric_limits<Scalar>::infinity();
  }
  /// Neither NaN nor infinite (denormals are finite).
  static constexpr bool isFinite(Scalar a) noexcept { return !isNaN(a) && !isInf(a); }
  /// Not NaN (compares ordered with any non-NaN).
  static constexpr bool isOrdered(Scalar a) noexcept { return !isNaN(a); }
  /// Neither is NaN, i.e. the IEEE comparison of a and b is ordered.
  static constexpr bool isOrdered(Scalar a, Scalar b) noexcept { return !isNaN(a) && !isNaN(b); }

  /// float(v), rounded to nearest-even when |v| > 2^24.
  static constexpr Scalar fromInt(std::int32_t v) noexcept { return static_cast<Scalar>(v); }
  /// Identity.
  static constexpr Scalar fromFloat(float v) noexcept { return v; }
  /// Identity.
  static constexpr float toFloat(Scalar a) noexcept { return a; }
};

/// The backend-independent layer: vector types and every composite op,
/// written once in terms of the scalar ops of Core so both backends share
/// one definition of lerp, clamp, length and normalize.
template <class Core>
struct SimMathOps : Core {
  /// The backend scalar (fpx16_16 or float).
  using Scalar = typename Core::Scalar;
  /// 2-component vector, 2 * sizeof(Scalar) bytes.
  using Vec2 = SimVec2<Scalar>;
  /// 3-component vector, 3 * sizeof(Scalar) bytes.
  using Vec3 = SimVec3<Scalar>;

  // The scalar ops of Core stay visible next to the vector overloads below
  // (a declaration in this class would otherwise hide them).
  using Core::add;
  using Core::div;
  using Core::equals;
  using Core::isFinite;
  using Core::isNaN;
  using Core::mul;
  using Core::negate;
  using Core::notEquals;
  using Core::sub;

 private:
  // Component-wise application; the order x, y, z is fixed (irrelevant to
  // the results, which are independent per component).
  template <class F>
  static constexpr Vec2 zip(const Vec2& a, const Vec2& b, F f) noexcept {
    return {f(a.x, b.x), f(a.y, b.y)};
  }
  template <class F>
  static constexpr Vec3 zip(const Vec3& a, const Vec3& b, F f) noexcept {
    return {f(a.x, b.x), f(a.y, b.y), f(a.z, b.z)};
  }
  static constexpr Vec2 splat(const Vec2&, Scalar s) noexcept { return {s, s}; }
  static constexpr Vec3 splat(const Vec3&, Scalar s) noexcept { return {s, s, s}; }

 public:
  /// Component-wise add.
  static constexpr Vec2 add(const Vec2& a, const Vec2& b) noexcept { return zip(a, b, Core::add); }
  /// Component-wise add.
  static constexpr Vec3 add(const Vec3& a, const Vec3& b) noexcept { return zip(a, b, Core::add); }
  /// Component-wise sub.
  static constexpr Vec2 sub(const Vec2& a, const Vec2& b) noexcept { return zip(a, b, Core::sub); }
  /// Component-wise sub.
  static constexpr Vec3 sub(const Vec3& a, const Vec3& b) noexcept { return zip(a, b, Core::sub); }
  /// Component-wise product (Hadamard), not a dot product.
  static constexpr Vec2 mul(const Vec2& a, const Vec2& b) noexcept { return zip(a, b, Core::mul); }
  /// Component-wise product (Hadamard), not a dot product.
  static constexpr Vec3 mul(const Vec3& a, const Vec3& b) noexcept { return zip(a, b, Core::mul); }
  /// Scale: each component times s.
  static constexpr Vec2 mul(const Vec2& v, Scalar s) noexcept { return mul(v, splat(v, s)); }
  /// Scale: each component times s.
  static constexpr Vec3 mul(const Vec3& v, Scalar s) noexcept { return mul(v, splat(v, s)); }
  /// Scale: s times each component (same as mul(v, s)).
  static constexpr Vec2 mul(Scalar s, const Vec2& v) noexcept { return mul(v, s); }
  /// Scale: s times each component (same as mul(v, s)).
  static constexpr Vec3 mul(Scalar s, const Vec3& v) noexcept { return mul(v, s); }
  /// Component-wise quotient (scalar div rules per component).
  static constexpr Vec2 div(const Vec2& a, const Vec2& b) noexcept { return zip(a, b, Core::div); }
  /// Component-wise quotient (scalar div rules per component).
  static constexpr Vec3 div(const Vec3& a, const Vec3& b) noexcept { return zip(a, b, Core::div); }
  /// Each component divided by s.
  static constexpr Vec2 div(const Vec2& v, Scalar s) noexcept { return div(v, splat(v, s)); }
  /// Each component divided by s.
  static constexpr Vec3 div(const Vec3& v, Scalar s) noexcept { return div(v, splat(v, s)); }
  /// Component-wise negate.
  static constexpr Vec2 negate(const Vec2& v) noexcept { return {Core::negate(v.x), Core::negate(v.y)}; }
  /// Component-wise negate.
  static constexpr Vec3 negate(const Vec3& v) noexcept {
    return {Core::negate(v.x), Core::negate(v.y), Core::negate(v.z)};
  }

  /// All components equal (scalar equals rules).
  static constexpr bool equals(const Vec2& a, const Vec2& b) noexcept {
    return Core::equals(a.x, b.x) && Core::equals(a.y, b.y);
  }
  /// All components equal (scalar equals rules).
  static constexpr bool equals(const Vec3& a, const Vec3& b) noexcept {
    return Core::equals(a.x, b.x) && Core::equals(a.y, b.y) && Core::equals(a.z, b.z);
  }
  /// !equals(a, b): true if any component differs or is NaN.
  static constexpr bool notEquals(const Vec2& a, const Vec2& b) noexcept { return !equals(a, b); }
  /// !equals(a, b): true if any component differs or is NaN.
  static constexpr bool notEquals(const Vec3& a, const Vec3& b) noexcept { return !equals(a, b); }
  /// Any component NaN (never for fixed point).
  static constexpr bool isNaN(const Vec2& v) noexcept { return isNaN(v.x) || isNaN(v.y); }
  /// Any component NaN (never for fixed point).
  static constexpr bool isNaN(const Vec3& v) noexcept { return isNaN(v.x) || isNaN(v.y) || isNaN(v.z); }
  /// All components finite (always for fixed point).
  static constexpr bool isFinite(const Vec2& v) noexcept { return isFinite(v.x) && isFinite(v.y); }
  /// All components finite (always for fixed point).
  static constexpr bool isFinite(const Vec3& v) noexcept {
    return isFinite(v.x) && isFinite(v.y) && isFinite(v.z);
  }

  /// x limited to [lo, hi]; requires !(hi < lo) (asserted in debug; in
  /// release the lower bound is tested first). NaN x stays NaN (both
  /// comparisons are false); +-inf goes to the bound.
  static constexpr Scalar clamp(Scalar x, Scalar lo, Scalar hi) noexcept {
    assert(!Core::less(hi, lo) && "SimMath::clamp requires lo <= hi");
    if (Core::less(x, lo)) return lo;
    if (Core::greater(x, hi)) return hi;
    return x;
  }
  /// Component-wise clamp to per-component bounds.
  static constexpr Vec2 clamp(const Vec2& v, const Vec2& lo, const Vec2& hi) noexcept {
    return {clamp(v.x, lo.x, hi.x), clamp(v.y, lo.y, hi.y)};
  }
  /// Component-wise clamp to per-component bounds.
  static constexpr Vec3 clamp(const Vec3& v, const Vec3& lo, const Vec3& hi) noexcept {
    return {clamp(v.x, lo.x, hi.x), clamp(v.y, lo.y, hi.y), clamp(v.z, lo.z, hi.z)};
  }
  /// Every component clamped to the same [lo, hi].
  static constexpr Vec2 clamp(const Vec2& v, Scalar lo, Scalar hi) noexcept {
    return clamp(v, splat(v, lo), splat(v, hi));
  }
  /// Every component clamped to the same [lo, hi].
  static constexpr Vec3 clamp(const Vec3& v, Scalar lo, Scalar hi) noexcept {
    return clamp(v, splat(v, lo), splat(v, hi));
  }

  /// a + (b - a) * t as exactly sub, mul, add (each rounded/saturated on its
  /// own, never fused). t outside [0, 1] extrapolates.
  static constexpr Scalar lerp(Scalar a, Scalar b, Scalar t) noexcept {
    return Core::add(a, Core::mul(Core::sub(b, a), t));
  }
  /// Component-wise lerp with one parameter t.
  static constexpr Vec2 lerp(const Vec2& a, const Vec2& b, Scalar t) noexcept {
    return {lerp(a.x, b.x, t), lerp(a.y, b.y, t)};
  }
  /// Component-wise lerp with one parameter t.
  static constexpr Vec3 lerp(const Vec3& a, const Vec3& b, Scalar t) noexcept {
    return {lerp(a.x, b.x, t), lerp(a.y, b.y, t), lerp(a.z, b.z, t)};
  }

  /// sqrt(x*x + y*y): squares, then adds (left to right), then sqrt, each
  /// op rounded/saturated. Fixed point is accurate while the sum of squares
  /// fits (|v| <= ~181); beyond, it returns sqrt(max()) ~= 181.0193.
  static constexpr Scalar length(const Vec2& v) noexcept {
    return Core::sqrt(Core::add(Core::mul(v.x, v.x), Core::mul(v.y, v.y)));
  }
  /// sqrt(x*x + y*y + z*z), evaluated as ((x*x + y*y) + z*z); see Vec2.
  static constexpr Scalar length(const Vec3& v) noexcept {
    const Scalar xy = Core::add(Core::mul(v.x, v.x), Core::mul(v.y, v.y));
    return Core::sqrt(Core::add(xy, Core::mul(v.z, v.z)));
  }
  /// v / length(v) component-wise. A zero length (including one that
  /// underflowed) yields the +0 vector instead of 0/0.
  static constexpr Vec2 normalize(const Vec2& v) noexcept {
    const Scalar len = length(v);
    if (Core::equals(len, Scalar{})) return Vec2{};
    return div(v, len);
  }
  /// v / length(v) component-wise; zero length yields the +0 vector.
  static constexpr Vec3 normalize(const Vec3& v) noexcept {
    const Scalar len = length(v);
    if (Core::equals(len, Scalar{})) return Vec3{};
    return div(v, len);
  }
};

}  // namespace detail

/// Q16.16 fixed-point backend: exact integer arithmetic, saturating,
/// identical results on every platform, compiler and build type.
template <>
struct SimMath<Fpx16_16> : detail::SimMathOps<detail::FixedScalarOps>, detail::FixedMathFunctions {
  /// Config/replay identity string of this backend.
  static constexpr std::string_view kBackendId = "fixed_point_16_16";
  /// A stateless instance (sizeof 1); every op is static.
  static constexpr SimMath create() noexcept { return {}; }
};

/// IEEE binary32 backend with pinned flags: same results only within one
/// build and ISA. Opt-in.
template <>
struct SimMath<Fp32Pinned> : detail::SimMathOps<detail::Fp32ScalarOps>, detail::F32MathFunctions {
  /// Config/replay identity string of this backend.
  static constexpr std::string_view kBackendId = "float_pinned_32";
  /// A stateless instance (sizeof 1); every op is static.
  static constexpr SimMath create() noexcept { return {}; }
};

/// The default backend.
using SimMathFpx16 = SimMath<Fpx16_16>;
/// The opt-in pinned-float backend.
using SimMathFp32 = SimMath<Fp32Pinned>;

// Layout guarantees that storage and hashing rely on.
static_assert(sizeof(SimMathFpx16) == 1 && sizeof(SimMathFp32) == 1);
static_assert(sizeof(SimMathFpx16::Vec2) == 8 && sizeof(SimMathFpx16::Vec3) == 12);
static_assert(sizeof(SimMathFp32::Vec2) == 8 && sizeof(SimMathFp32::Vec3) == 12);
static_assert(std::is_trivially_copyable_v<SimMathFpx16::Vec2> &&
              std::is_trivially_copyable_v<SimMathFpx16::Vec3> &&
              std::is_trivially_copyable_v<SimMathFp32::Vec2> &&
              std::is_trivially_copyable_v<SimMathFp32::Vec3>);
static_assert(std::is_standard_layout_v<SimMathFpx16::Vec2> &&
              std::is_standard_layout_v<SimMathFpx16::Vec3> &&
              std::is_standard_layout_v<SimMathFp32::Vec2> &&
              std::is_standard_layout_v<SimMathFp32::Vec3>);
static_assert(std::is_trivially_copyable_v<SimMathFpx16> && std::is_trivially_copyable_v<SimMathFp32>);
static_assert(std::numeric_limits<float>::is_iec559, "fp32 backend needs IEEE binary32");

}  // namespace laige
