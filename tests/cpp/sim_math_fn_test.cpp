// sim_math_fn_test.cpp - the deterministic math functions
// (laige/sim_math_fn.h, docs/sim_math.md#functions): the committed
// known-answer table (tests/kat/math_kat.txt, also checked by Vitest
// against the TypeScript twins) bit for bit, natively and in wasm; the
// stated accuracy against a long-double reference (native only: long double
// is a slow software type in wasm); and the fp32 special values against the
// C99 ones of the C library.
#include <gtest/gtest.h>

#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>

#include "laige/prng.h"
#include "laige/sim_math.h"
#include "support/math_kat_eval.h"

#ifndef LAIGE_SOURCE_DIR
#error "LAIGE_SOURCE_DIR must name the source tree (CMakeLists.txt sets it for laige_tests)"
#endif

namespace {

using FX = laige::SimMath<laige::Fpx16_16>;
using F = laige::SimMath<laige::Fp32Pinned>;
using laige::fpx16_16;
using LD = long double;

TEST(SimMathFunctions, KnownAnswerTableMatchesBitForBit) {
  std::FILE* f = std::fopen(LAIGE_SOURCE_DIR "/tests/kat/math_kat.txt", "r");
  ASSERT_NE(f, nullptr);
  char line[256];
  int rows = 0;
  int mismatches = 0;
  while (std::fgets(line, sizeof line, f) != nullptr) {
    if (line[0] == '#') continue;
    char backend[8], fn[16];
    std::uint32_t a = 0, b = 0, want = 0, got = 0;
    bool ok = std::sscanf(line, "%7s %15s %" SCNx32 " %" SCNx32 " = %" SCNx32, backend, fn, &a, &b, &want) == 5;
    if (!ok) {
      b = 0;
      ok = std::sscanf(line, "%7s %15s %" SCNx32 " = %" SCNx32, backend, fn, &a, &want) == 4;
    }
    ASSERT_TRUE(ok) << line;
    const bool fx = std::string(backend) == "fx";
    ASSERT_TRUE(laige::testing::evalMathKat(fx, fn, a, b, got)) << line;
    if (!laige::testing::mathKatSame(fx, got, want)) {
      if (++mismatches <= 10) ADD_FAILURE() << "got " << std::hex << got << " for " << line;
    }
    ++rows;
  }
  std::fclose(f);
  EXPECT_EQ(mismatches, 0);
  EXPECT_GT(rows, 13 * 2 * 270);
}

#if !defined(__EMSCRIPTEN__)

constexpr LD kRaw = 65536.0L;
LD val(std::int64_t raw) { return static_cast<LD>(raw) / kRaw; }

// Max |result - exact| in raw units of a Q16.16 function over `inputs`.
template <class Fn, class Ref, class Gen>
LD fxMaxError(int count, Gen gen, Fn fn, Ref ref) {
  LD worst = 0;
  for (int i = 0; i < count; ++i) {
    std::int32_t a = 0, b = 0;
    if (!gen(i, a, b)) continue;
    const LD exact = ref(val(a), val(b));
    const LD got = static_cast<LD>(fn(fpx16_16::fromRaw(a), fpx16_16::fromRaw(b)).raw);
    const LD e = std::fabs(got - exact * kRaw);
    if (e > worst) worst = e;
  }
  return worst;
}

TEST(SimMathFunctions, FixedAccuracyAgainstLongDouble) {
  laige::Prng rng(42);
  auto stride = [](std::int64_t lo, std::int64_t hi, int n) {
    return [=](int i, std::int32_t& a, std::int32_t&) {
      a = static_cast<std::int32_t>(lo + (hi - lo) * i / n);
      return true;
    };
  };
  const int n = 400000;
  const LD sinE = fxMaxError(n, stride(INT32_MIN, INT32_MAX, n), [](fpx16_16 a, fpx16_16) { return FX::sin(a); },
                             [](LD a, LD) { return std::sin(a); });
  const LD cosE = fxMaxError(n, stride(INT32_MIN, INT32_MAX, n), [](fpx16_16 a, fpx16_16) { return FX::cos(a); },
                             [](LD a, LD) { return std::cos(a); });
  // tan where |cos x| >= 0.1 (|tan| <= ~10): near the poles one raw unit of
  // input moves tan by more than its own value.
  const LD tanE = fxMaxError(
      n, [&](int, std::int32_t& a, std::int32_t&) {
        a = static_cast<std::int32_t>(rng.next_u32());
        return std::fabs(std::cos(val(a))) >= 0.1L;
      },
      [](fpx16_16 a, fpx16_16) { return FX::tan(a); }, [](LD a, LD) { return std::tan(a); });
  const LD atan2E = fxMaxError(
      n, [&](int, std::int32_t& a, std::int32_t& b) {
        a = static_cast<std::int32_t>(rng.next_u32()) >> (rng.next_u32() % 24);
        b = static_cast<std::int32_t>(rng.next_u32()) >> (rng.next_u32() % 24);
        return a != 0 || b != 0;
      },
      [](fpx16_16 y, fpx16_16 x) { return FX::atan2(y, x); }, [](LD y, LD x) { return std::atan2(y, x); });
  const LD asinE = fxMaxError(131073, stride(-65536, 65537, 131073), [](fpx16_16 a, fpx16_16) { return FX::asin(a); },
                              [](LD a, LD) { return std::asin(a); });
  const LD acosE = fxMaxError(131073, stride(-65536, 65537, 131073), [](fpx16_16 a, fpx16_16) { return FX::acos(a); },
                              [](LD a, LD) { return std::acos(a); });
  // exp while the result is below 16384 (raw 2^30), then relative above.
  const LD expE = fxMaxError(n, stride(-12 << 16, 635000, n), [](fpx16_16 a, fpx16_16) { return FX::exp(a); },
                             [](LD a, LD) { return std::exp(a); });
  const LD logE = fxMaxError(n, stride(1, INT32_MAX, n), [](fpx16_16 a, fpx16_16) { return FX::log(a); },
                             [](LD a, LD) { return std::log(a); });
  const LD hypotE = fxMaxError(
      n, [&](int, std::int32_t& a, std::int32_t& b) {
        a = static_cast<std::int32_t>(rng.next_u32()) >> 2;
        b = static_cast<std::int32_t>(rng.next_u32()) >> 2;
        return true;
      },
      [](fpx16_16 a, fpx16_16 b) { return FX::hypot(a, b); }, [](LD a, LD b) { return std::hypot(a, b); });
  // pow with x in (0, 64) and y in (-4, 4), where the exact result is in
  // [2^-8, 1024]: error relative to the result, in units of 2^-16 * result.
  LD powE = 0;
  for (int i = 0; i < n; ++i) {
    const auto x = static_cast<std::int32_t>(1 + rng.next_u32() % (64u << 16));
    const auto y = static_cast<std::int32_t>(rng.next_u32() % (8u << 16)) - (4 << 16);
    const LD exact = std::pow(val(x), val(y));
    if (exact < 1.0L / 256 || exact > 1024) continue;
    const LD got = val(FX::pow(fpx16_16::fromRaw(x), fpx16_16::fromRaw(y)).raw);
    powE = std::max(powE, std::fabs(got - exact) / std::max(exact, 1.0L) * kRaw);
  }
  std::printf("fx accuracy (max |error| in raw units 2^-16): sin %.3Lf cos %.3Lf tan(|cos|>=0.1) %.3Lf "
              "atan2 %.3Lf asin %.3Lf acos %.3Lf exp(<=%d) %.3Lf log %.3Lf hypot %.3Lf pow(rel, x 2^-16) %.3Lf\n",
              sinE, cosE, tanE, atan2E, asinE, acosE, 635000 >> 16, expE, logE, hypotE, powE);
  EXPECT_LE(sinE, 1.0L);
  EXPECT_LE(cosE, 1.0L);
  EXPECT_LE(tanE, 2.0L);
  EXPECT_LE(atan2E, 1.0L);
  EXPECT_LE(asinE, 1.0L);
  EXPECT_LE(acosE, 1.0L);
  EXPECT_LE(expE, 1.5L);  // the top binade of raw values: 2 raw units per Q30 unit
  EXPECT_LE(logE, 1.0L);
  EXPECT_LE(hypotE, 0.5L);
  EXPECT_LE(powE, 4.0L);
}

TEST(SimMathFunctions, FixedRoundingFunctionsAreExactAndSaturate) {
  for (std::int64_t r = INT32_MIN; r <= INT32_MAX; r += 12347) {
    const auto x = fpx16_16::fromRaw(static_cast<std::int32_t>(r));
    const auto expect = [](LD v) {
      const LD s = v * kRaw;
      return static_cast<std::int32_t>(s > INT32_MAX ? INT32_MAX : s);
    };
    EXPECT_EQ(FX::floor(x).raw, expect(std::floor(val(r))));
    EXPECT_EQ(FX::ceil(x).raw, expect(std::ceil(val(r))));
    EXPECT_EQ(FX::round(x).raw, expect(std::round(val(r))));
  }
  EXPECT_EQ(FX::ceil(fpx16_16::max()).raw, fpx16_16::max().raw);
  EXPECT_EQ(FX::log(fpx16_16::zero()).raw, fpx16_16::min().raw);
  EXPECT_EQ(FX::pow(fpx16_16::fromInt32(-2), fpx16_16::fromInt32(3)).raw, fpx16_16::fromInt32(-8).raw);
  EXPECT_EQ(FX::pow(fpx16_16::fromInt32(-2), fpx16_16::fromRaw(0x8000)).raw, 0);  // domain error
  EXPECT_EQ(FX::exp(fpx16_16::fromInt32(11)).raw, fpx16_16::max().raw);
  EXPECT_EQ(FX::asin(fpx16_16::fromInt32(2)).raw, FX::asin(fpx16_16::one()).raw);  // clamped
}

// |got - exact| in units of the binary32 ulp at the exact value.
LD ulpError(float got, LD exact) {
  const LD a = std::fabs(exact);
  int e = 0;
  std::frexp(a, &e);  // a = m * 2^e, m in [0.5, 1)
  const LD ulp = std::ldexp(1.0L, std::max(e - 24, -149));
  return std::fabs(static_cast<LD>(got) - exact) / ulp;
}

template <class Fn, class Ref, class Gen>
LD f32MaxUlp(int count, Gen gen, Fn fn, Ref ref) {
  LD worst = 0;
  for (int i = 0; i < count; ++i) {
    float a = 0, b = 0;
    if (!gen(i, a, b)) continue;
    const LD exact = ref(static_cast<LD>(a), static_cast<LD>(b));
    if (!std::isfinite(exact) || std::fabs(exact) > 3.4028234663852886e38L) continue;
    worst = std::max(worst, ulpError(fn(a, b), exact));
  }
  return worst;
}

TEST(SimMathFunctions, Fp32AccuracyAgainstLongDouble) {
  laige::Prng rng(7);
  const int n = 400000;
  auto uniform = [&](float lo, float hi) {
    return [&rng, lo, hi](int, float& a, float&) {
      a = lo + (hi - lo) * rng.next_float01();
      return true;
    };
  };
  auto anyBits = [&](float limit) {
    return [&rng, limit](int, float& a, float&) {
      a = laige::detail::bitCast<float>(rng.next_u32());
      return std::fabs(a) <= limit;
    };
  };
  // 2^20: where the Cody-Waite reduction is exact; beyond, and up to FLT_MAX:
  // sim_math_trig_range_test.cpp (against an exact reduction).
  const float kTrig = 1048576.0f;
  const LD sinE = std::max(f32MaxUlp(n, anyBits(kTrig), [](float a, float) { return F::sin(a); },
                                     [](LD a, LD) { return std::sin(a); }),
                           f32MaxUlp(n, uniform(-kTrig, kTrig), [](float a, float) { return F::sin(a); },
                                     [](LD a, LD) { return std::sin(a); }));
  const LD cosE = std::max(f32MaxUlp(n, anyBits(kTrig), [](float a, float) { return F::cos(a); },
                                     [](LD a, LD) { return std::cos(a); }),
                           f32MaxUlp(n, uniform(-kTrig, kTrig), [](float a, float) { return F::cos(a); },
                                     [](LD a, LD) { return std::cos(a); }));
  const LD tanE = f32MaxUlp(n, uniform(-kTrig, kTrig), [](float a, float) { return F::tan(a); },
                            [](LD a, LD) { return std::tan(a); });
  const LD atan2E = f32MaxUlp(
      n, [&](int, float& a, float& b) {
        a = laige::detail::bitCast<float>(rng.next_u32());
        b = laige::detail::bitCast<float>(rng.next_u32());
        return std::isfinite(a) && std::isfinite(b);
      },
      [](float y, float x) { return F::atan2(y, x); }, [](LD y, LD x) { return std::atan2(y, x); });
  const LD asinE = f32MaxUlp(n, uniform(-1, 1), [](float a, float) { return F::asin(a); },
                             [](LD a, LD) { return std::asin(a); });
  const LD acosE = f32MaxUlp(n, uniform(-1, 1), [](float a, float) { return F::acos(a); },
                             [](LD a, LD) { return std::acos(a); });
  const LD expE = f32MaxUlp(n, uniform(-103, 88.7f), [](float a, float) { return F::exp(a); },
                            [](LD a, LD) { return std::exp(a); });
  const LD logE = f32MaxUlp(n, anyBits(INFINITY), [](float a, float) { return F::log(a); },
                            [](LD a, LD) { return a > 0 ? std::log(a) : LD(NAN); });
  const LD powE = f32MaxUlp(
      n, [&](int, float& a, float& b) {
        a = 100.0f * rng.next_float01();
        b = 60.0f * (rng.next_float01() - 0.5f);
        return a > 0;
      },
      [](float x, float y) { return F::pow(x, y); }, [](LD x, LD y) { return std::pow(x, y); });
  const LD hypotE = f32MaxUlp(
      n, [&](int, float& a, float& b) {
        a = laige::detail::bitCast<float>(rng.next_u32());
        b = laige::detail::bitCast<float>(rng.next_u32());
        return std::isfinite(a) && std::isfinite(b);
      },
      [](float x, float y) { return F::hypot(x, y); }, [](LD x, LD y) { return std::hypot(x, y); });
  std::printf("f32 accuracy (max ulp): sin %.3Lf cos %.3Lf tan %.3Lf (|x| <= 2^20) atan2 %.3Lf asin %.3Lf acos %.3Lf "
              "exp %.3Lf log %.3Lf pow %.3Lf hypot %.3Lf\n",
              sinE, cosE, tanE, atan2E, asinE, acosE, expE, logE, powE, hypotE);
  EXPECT_LE(sinE, 1.0L);
  EXPECT_LE(cosE, 1.0L);
  EXPECT_LE(tanE, 1.0L);
  EXPECT_LE(atan2E, 1.0L);
  EXPECT_LE(asinE, 1.0L);
  EXPECT_LE(acosE, 1.0L);
  EXPECT_LE(expE, 1.0L);
  EXPECT_LE(logE, 1.0L);
  EXPECT_LE(powE, 1.0L);
  EXPECT_LE(hypotE, 1.0L);
}

// Special values (NaN, +-inf, +-0, domain edges) agree with the C99 values
// of the C library, and floor/ceil/round agree with it everywhere.
TEST(SimMathFunctions, Fp32SpecialValuesFollowC99) {
  const float inf = INFINITY;
  const float sp[] = {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, -0.5f, 2.0f, -2.0f, 3.0f, -3.0f, inf, -inf, NAN,
                      1e-45f, 3.4e38f, -3.4e38f, 1.5f, -1.5f, 2.5f, -2.5f};
  auto same = [](float got, float want) {
    if (std::isnan(want)) return std::isnan(got);
    if (!std::isfinite(want) || want == 0.0f) return laige::detail::bitCast<std::uint32_t>(got) == laige::detail::bitCast<std::uint32_t>(want);
    return std::fabs(got - want) <= std::fabs(want) * 1.2e-7f;
  };
  for (float a : sp) {
    EXPECT_TRUE(same(F::sin(a), std::sin(a))) << "sin " << a;
    EXPECT_TRUE(same(F::cos(a), std::cos(a))) << "cos " << a;
    EXPECT_TRUE(same(F::tan(a), std::tan(a))) << "tan " << a;
    EXPECT_TRUE(same(F::asin(a), std::asin(a))) << "asin " << a;
    EXPECT_TRUE(same(F::acos(a), std::acos(a))) << "acos " << a;
    EXPECT_TRUE(same(F::exp(a), std::exp(a))) << "exp " << a;
    EXPECT_TRUE(same(F::log(a), std::log(a))) << "log " << a;
    EXPECT_TRUE(same(F::floor(a), std::floor(a))) << "floor " << a;
    EXPECT_TRUE(same(F::ceil(a), std::ceil(a))) << "ceil " << a;
    EXPECT_TRUE(same(F::round(a), std::round(a))) << "round " << a;
    for (float b : sp) {
      EXPECT_TRUE(same(F::atan2(a, b), std::atan2(a, b))) << "atan2 " << a << " " << b;
      EXPECT_TRUE(same(F::pow(a, b), std::pow(a, b))) << "pow " << a << " " << b;
      EXPECT_TRUE(same(F::hypot(a, b), std::hypot(a, b))) << "hypot " << a << " " << b;
    }
  }
  laige::Prng rng(9);
  for (int i = 0; i < 200000; ++i) {
    const float x = laige::detail::bitCast<float>(rng.next_u32()) ;
    const float y = (rng.next_float01() - 0.5f) * 4096.0f;
    for (float v : {x, y}) {
      EXPECT_TRUE(same(F::floor(v), std::floor(v)));
      EXPECT_TRUE(same(F::ceil(v), std::ceil(v)));
      EXPECT_TRUE(same(F::round(v), std::round(v)));
    }
  }
}

#endif  // !__EMSCRIPTEN__

}  // namespace
