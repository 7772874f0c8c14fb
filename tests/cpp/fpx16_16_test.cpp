// Tests for laige/fpx16_16.h: representation, constants, and the four
// conversions (docs/sim_math.md) with their saturation and tie rules.
// fromFloat is checked against an independent oracle (std::nearbyint under
// the default rounding mode, which the implementation must NOT use itself).
#include "laige/fpx16_16.h"

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

// Independent oracle for round-half-even(v * 65536) with saturation.
std::int32_t oracleRaw(double v) {
  if (std::isnan(v)) return 0;
  if (v >= 32768.0) return INT32_MAX;
  if (v <= -32768.0) return INT32_MIN;
  const double r = std::nearbyint(v * 65536.0);  // default mode = ties-to-even
  if (r > 2147483647.0) return INT32_MAX;
  return static_cast<std::int32_t>(r);
}

TEST(Fpx16_16, RepresentationAndLayout) {
  static_assert(sizeof(fpx16_16) == 4);
  static_assert(std::is_trivially_copyable_v<fpx16_16>);
  static_assert(std::is_standard_layout_v<fpx16_16>);
  static_assert(!std::is_convertible_v<int, fpx16_16>);
  static_assert(!std::is_convertible_v<double, fpx16_16>);
  static_assert(!std::is_constructible_v<fpx16_16, int>);
  EXPECT_EQ(fpx16_16{}.raw, 0);
  EXPECT_EQ(fpx16_16::min().raw, INT32_MIN);
  EXPECT_EQ(fpx16_16::max().raw, INT32_MAX);
  EXPECT_EQ(fpx16_16::one().raw, 65536);
  EXPECT_EQ(fpx16_16::zero().raw, 0);
  EXPECT_EQ(fpx16_16::kOneRaw, 65536);
  EXPECT_EQ(R(-5).raw, -5);
}

TEST(Fpx16_16, TotalOrderOnRaw) {
  EXPECT_LT(fpx16_16::min(), R(-1));
  EXPECT_LT(R(-1), fpx16_16::zero());
  EXPECT_LT(fpx16_16::zero(), R(1));
  EXPECT_LT(R(1), fpx16_16::max());
  EXPECT_EQ(R(42), R(42));
  EXPECT_NE(R(42), R(43));
  EXPECT_TRUE((R(7) <=> R(7)) == std::strong_ordering::equal);
  EXPECT_TRUE((R(-7) <=> R(7)) == std::strong_ordering::less);
  EXPECT_GE(fpx16_16::max(), fpx16_16::max());
}

TEST(Fpx16_16, FromInt32Saturates) {
  EXPECT_EQ(fpx16_16::fromInt32(0).raw, 0);
  EXPECT_EQ(fpx16_16::fromInt32(1), fpx16_16::one());
  EXPECT_EQ(fpx16_16::fromInt32(-1).raw, -65536);
  EXPECT_EQ(fpx16_16::fromInt32(32767).raw, 32767 * 65536);
  EXPECT_EQ(fpx16_16::fromInt32(32768), fpx16_16::max());
  EXPECT_EQ(fpx16_16::fromInt32(INT32_MAX), fpx16_16::max());
  EXPECT_EQ(fpx16_16::fromInt32(-32767).raw, -32767 * 65536);
  EXPECT_EQ(fpx16_16::fromInt32(-32768), fpx16_16::min());  // exactly min
  EXPECT_EQ(fpx16_16::fromInt32(-32768).raw, -32768 * 65536);
  EXPECT_EQ(fpx16_16::fromInt32(-32769), fpx16_16::min());
  EXPECT_EQ(fpx16_16::fromInt32(INT32_MIN), fpx16_16::min());
}

TEST(Fpx16_16, ToInt32KatsAndTies) {
  // Known answers (docs/sim_math.md).
  EXPECT_EQ(fpx16_16::toInt32(R(0x8000)), 0);
  EXPECT_EQ(fpx16_16::toInt32(R(0x18000)), 2);
  EXPECT_EQ(fpx16_16::toInt32(R(-0x8000)), 0);
  EXPECT_EQ(fpx16_16::toInt32(R(-0x18000)), -2);
  // More ties, both signs.
  EXPECT_EQ(fpx16_16::toInt32(R(0x28000)), 2);
  EXPECT_EQ(fpx16_16::toInt32(R(0x38000)), 4);
  EXPECT_EQ(fpx16_16::toInt32(R(-0x28000)), -2);
  EXPECT_EQ(fpx16_16::toInt32(R(-0x38000)), -4);
  // Off-tie neighbours.
  EXPECT_EQ(fpx16_16::toInt32(R(0x7FFF)), 0);
  EXPECT_EQ(fpx16_16::toInt32(R(0x8001)), 1);
  EXPECT_EQ(fpx16_16::toInt32(R(-0x7FFF)), 0);
  EXPECT_EQ(fpx16_16::toInt32(R(-0x8001)), -1);
  EXPECT_EQ(fpx16_16::toInt32(R(-1)), 0);
  // Range ends: the result range is [-32768, 32768].
  EXPECT_EQ(fpx16_16::toInt32(fpx16_16::max()), 32768);
  EXPECT_EQ(fpx16_16::toInt32(fpx16_16::min()), -32768);
  for (std::int32_t i = -32768; i <= 32767; i += 97) {
    EXPECT_EQ(fpx16_16::toInt32(fpx16_16::fromInt32(i)), i);
  }
}

TEST(Fpx16_16, ToFloatAndToDouble) {
  EXPECT_EQ(fpx16_16::toFloat(fpx16_16::max()), 32768.0f);  // known answer (rounds up)
  EXPECT_EQ(fpx16_16::toFloat(fpx16_16::min()), -32768.0f);
  EXPECT_EQ(fpx16_16::toFloat(fpx16_16::one()), 1.0f);
  EXPECT_EQ(fpx16_16::toFloat(R(1)), 0x1.0p-16f);
  EXPECT_EQ(fpx16_16::toFloat(R(-3)), -3.0f * 0x1.0p-16f);
  EXPECT_EQ(fpx16_16::toDouble(fpx16_16::max()), 2147483647.0 / 65536.0);  // exact
  EXPECT_FALSE(std::signbit(fpx16_16::toFloat(fpx16_16::zero())));
  // raw with more than 24 significant bits: one round-to-nearest-even.
  EXPECT_EQ(fpx16_16::toFloat(R(0x01000001)), 256.0f);             // tie -> even
  EXPECT_EQ(fpx16_16::toFloat(R(0x01000003)), 0x1000004 / 65536.0f);  // tie -> even (up)
}

TEST(Fpx16_16, FromFloatKats) {
  EXPECT_EQ(S(0.1f).raw, 6554);
  EXPECT_EQ(S(0.6f).raw, 39322);
  EXPECT_EQ(S(0.8f).raw, 52429);
  EXPECT_EQ(S(181.0f).raw, 181 * 65536);
  EXPECT_EQ(S(-2.5f).raw, -163840);
  constexpr fpx16_16 atCompileTime = fpx16_16::fromFloat(0.1f);
  static_assert(atCompileTime.raw == 6554);
}

TEST(Fpx16_16, FromFloatNaNInfHugeAndBounds) {
  const float qnan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(S(qnan).raw, 0);
  EXPECT_EQ(S(-qnan).raw, 0);
  EXPECT_EQ(S(std::numeric_limits<float>::signaling_NaN()).raw, 0);
  EXPECT_EQ(S(std::numeric_limits<float>::infinity()), fpx16_16::max());
  EXPECT_EQ(S(-std::numeric_limits<float>::infinity()), fpx16_16::min());
  EXPECT_EQ(S(1e30f), fpx16_16::max());
  EXPECT_EQ(S(-1e30f), fpx16_16::min());
  EXPECT_EQ(S(FLT_MAX), fpx16_16::max());
  EXPECT_EQ(S(32768.0f), fpx16_16::max());
  EXPECT_EQ(S(-32768.0f), fpx16_16::min());
  EXPECT_EQ(S(-32768.0f).raw, INT32_MIN);
  EXPECT_EQ(S(-32768.5f), fpx16_16::min());
  // Largest float below 32768 is 32768 - 2^-9: exact, no saturation.
  EXPECT_EQ(S(std::nextafter(32768.0f, 0.0f)).raw, INT32_MAX - 127);
  EXPECT_EQ(S(std::nextafter(-32768.0f, 0.0f)).raw, INT32_MIN + 128);
}

TEST(Fpx16_16, FromFloatTiesToEvenAndTinyValues) {
  constexpr float u = 0x1.0p-16f;  // one raw step
  EXPECT_EQ(S(0.5f * u).raw, 0);
  EXPECT_EQ(S(1.5f * u).raw, 2);
  EXPECT_EQ(S(2.5f * u).raw, 2);
  EXPECT_EQ(S(3.5f * u).raw, 4);
  EXPECT_EQ(S(-0.5f * u).raw, 0);
  EXPECT_EQ(S(-1.5f * u).raw, -2);
  EXPECT_EQ(S(-2.5f * u).raw, -2);
  EXPECT_EQ(S(0.50001f * u).raw, 1);
  EXPECT_EQ(S(-0.50001f * u).raw, -1);
  EXPECT_EQ(S(1000.5f * u).raw, 1000);
  EXPECT_EQ(S(1001.5f * u).raw, 1002);
  EXPECT_EQ(S(-0.0f).raw, 0);
  EXPECT_EQ(S(std::numeric_limits<float>::denorm_min()).raw, 0);
  EXPECT_EQ(S(-FLT_MIN).raw, 0);
}

TEST(Fpx16_16, FromDoubleRules) {
  EXPECT_EQ(fpx16_16::fromDouble(0.1).raw, 6554);
  EXPECT_EQ(fpx16_16::fromDouble(std::nan("")).raw, 0);
  EXPECT_EQ(fpx16_16::fromDouble(1e300), fpx16_16::max());
  EXPECT_EQ(fpx16_16::fromDouble(-1e300), fpx16_16::min());
  EXPECT_EQ(fpx16_16::fromDouble(-32768.0), fpx16_16::min());
  // Just below 32768 in double rounds up to 2^31 and must saturate.
  EXPECT_EQ(fpx16_16::fromDouble(32768.0 - 0x1.0p-38), fpx16_16::max());
  EXPECT_EQ(fpx16_16::fromDouble(-32768.0 + 0x1.0p-38), fpx16_16::min());
  EXPECT_EQ(fpx16_16::fromDouble(2.5 / 65536.0).raw, 2);
  EXPECT_EQ(fpx16_16::fromDouble(-3.5 / 65536.0).raw, -4);
  // Differs from a detour through float: 1 + 2^-17 + 2^-40 is above the
  // tie in double, but float(…) would drop the 2^-40 and round to even.
  EXPECT_EQ(fpx16_16::fromDouble(1.0 + 0x1.0p-17 + 0x1.0p-40).raw, 65537);
}

TEST(Fpx16_16, RoundTripsAreExact) {
  laige::Prng rng(0xF1F1F1F1ULL);
  for (int i = 0; i < 20000; ++i) {
    const auto raw = static_cast<std::int32_t>(rng.next_u32());
    ASSERT_EQ(fpx16_16::fromDouble(fpx16_16::toDouble(R(raw))).raw, raw);
    const std::int32_t small = raw / 256;  // |raw| < 2^24: float is exact
    ASSERT_EQ(S(fpx16_16::toFloat(R(small))).raw, small);
  }
}

TEST(Fpx16_16, FromFloatMatchesNearbyintOracle) {
  laige::Prng rng(0xBADC0FFEEULL);
  for (int i = 0; i < 200000; ++i) {
    // Random bit patterns, narrowed to interesting exponents half the time.
    std::uint32_t bits = rng.next_u32();
    if (i % 2 == 0) bits = (bits & 0x807FFFFFu) | ((100u + rng.next_range(0, 45)) << 23);
    const auto v = bitCast<float>(bits);
    ASSERT_EQ(S(v).raw, oracleRaw(static_cast<double>(v))) << "bits 0x" << std::hex << bits;
  }
  // Every tie at a small scale, both signs.
  for (int k = -4096; k <= 4096; ++k) {
    const float v = (static_cast<float>(k) + 0.5f) * 0x1.0p-16f;
    ASSERT_EQ(S(v).raw, oracleRaw(static_cast<double>(v))) << k;
  }
}

}  // namespace
