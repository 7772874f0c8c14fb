// math_kat_eval.h - evaluates one row of the math known-answer table
// (tests/kat/math_kat.txt) with the C++ functions: shared by the table's
// generator (tests/ts/native/math_kat.cpp) and its checker
// (tests/cpp/sim_math_fn_test.cpp, natively and in wasm).
//
// Row format: "<fx|f32> <function> <a> [<b>] = <result>", every value the
// 8-hex-digit bits of a raw Q16.16 int32 or of a binary32. The TypeScript
// twin reads the same rows (tests/ts/support/math_kat.ts).
#pragma once

#include <cstdint>
#include <cstring>

#include "laige/sim_math.h"

namespace laige::testing {

/// The functions, in table order; the second column is the arity.
struct MathKatFunction {
  const char* name;
  int arity;
};
inline constexpr MathKatFunction kMathKatFunctions[] = {
    {"sin", 1},  {"cos", 1},   {"tan", 1}, {"atan2", 2}, {"asin", 1},  {"acos", 1},  {"exp", 1},
    {"log", 1},  {"pow", 2},   {"hypot", 2}, {"floor", 1}, {"ceil", 1}, {"round", 1},
};

/// The result bits of `fn` on the fixed (fx = true) or fp32 backend;
/// false for an unknown name.
inline bool evalMathKat(bool fx, const char* fn, std::uint32_t a, std::uint32_t b, std::uint32_t& out) noexcept {
  using FX = SimMath<Fpx16_16>;
  using F = SimMath<Fp32Pinned>;
  const auto xa = fpx16_16::fromRaw(static_cast<std::int32_t>(a));
  const auto xb = fpx16_16::fromRaw(static_cast<std::int32_t>(b));
  const float fa = laige::detail::bitCast<float>(a);
  const float fb = laige::detail::bitCast<float>(b);
  auto is = [fn](const char* n) { return std::strcmp(fn, n) == 0; };
  fpx16_16 rx{};
  float rf = 0;
#define LAIGE_KAT1(N)                              \
  if (is(#N)) {                                   \
    if (fx) rx = FX::N(xa); else rf = F::N(fa);   \
  } else
#define LAIGE_KAT2(N)                                   \
  if (is(#N)) {                                        \
    if (fx) rx = FX::N(xa, xb); else rf = F::N(fa, fb); \
  } else
  LAIGE_KAT1(sin) LAIGE_KAT1(cos) LAIGE_KAT1(tan) LAIGE_KAT2(atan2) LAIGE_KAT1(asin) LAIGE_KAT1(acos)
  LAIGE_KAT1(exp) LAIGE_KAT1(log) LAIGE_KAT2(pow) LAIGE_KAT2(hypot) LAIGE_KAT1(floor) LAIGE_KAT1(ceil)
  LAIGE_KAT1(round) { return false; }
#undef LAIGE_KAT1
#undef LAIGE_KAT2
  out = fx ? static_cast<std::uint32_t>(rx.raw) : laige::detail::bitCast<std::uint32_t>(rf);
  return true;
}

/// True when two result bit patterns agree: equal, or both fp32 NaNs (NaN
/// payloads are not part of the contract).
inline bool mathKatSame(bool fx, std::uint32_t x, std::uint32_t y) noexcept {
  if (x == y) return true;
  if (fx) return false;
  const auto isNaN = [](std::uint32_t v) { return (v & 0x7F800000u) == 0x7F800000u && (v & 0x7FFFFFu) != 0; };
  return isNaN(x) && isNaN(y);
}

}  // namespace laige::testing
