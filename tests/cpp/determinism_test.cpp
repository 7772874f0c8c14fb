// determinism_test.cpp - the determinism configuration and the storage
// trait (docs/determinism.md): what is determinism-safe, what the marks do.
#include "laige/determinism.h"

#include <gtest/gtest.h>

#include <cstdint>

#include "laige/component.h"
#include "laige/entity.h"
#include "laige/fpx16_16.h"
#include "laige/sim_math.h"

namespace laige {
namespace {

enum class DetColor : std::uint8_t { Red, Green };
enum DetPlain : int { kDetA, kDetB };  // NOLINT: an unscoped enum over int32

struct DetInner {
  fpx16_16 a;
  std::int32_t b;
};
LAIGE_DETERMINISM_SAFE(DetInner, fpx16_16, std::int32_t);

struct DetOuter {
  DetInner inner;
  std::uint32_t tag;
  float weights[2];
};
LAIGE_DETERMINISM_SAFE(DetOuter, DetInner, std::uint32_t, float[2]);

struct DetUnmarked {
  std::int32_t v;
};

struct DetWithDouble {
  double d;
};

struct DetComponent {
  std::int32_t x;
  std::int32_t y;
};
LAIGE_COMPONENT(DetComponent, x, y);

using detail::kIsDeterminismSafe;

TEST(Determinism, FixedWidthIntegersAndEnumsAreSafe) {
  static_assert(kIsDeterminismSafe<std::int8_t> && kIsDeterminismSafe<std::uint8_t>);
  static_assert(kIsDeterminismSafe<std::int16_t> && kIsDeterminismSafe<std::uint16_t>);
  static_assert(kIsDeterminismSafe<std::int32_t> && kIsDeterminismSafe<std::uint32_t>);
  static_assert(kIsDeterminismSafe<std::int64_t> && kIsDeterminismSafe<std::uint64_t>);
  static_assert(kIsDeterminismSafe<const std::int32_t>);
  static_assert(kIsDeterminismSafe<DetColor>);
  static_assert(kIsDeterminismSafe<DetPlain>);
  SUCCEED();
}

TEST(Determinism, MathTypesAreSafeAndDoubleIsNot) {
  static_assert(kIsDeterminismSafe<fpx16_16>);
  static_assert(kIsDeterminismSafe<float>);
  static_assert(kIsDeterminismSafe<SimMath<Fpx16_16>::Vec2>);
  static_assert(kIsDeterminismSafe<SimMath<Fpx16_16>::Vec3>);
  static_assert(kIsDeterminismSafe<SimMath<Fp32Pinned>::Vec2>);
  static_assert(kIsDeterminismSafe<SimMath<Fp32Pinned>::Vec3>);
  static_assert(kIsDeterminismSafe<Entity>);
  static_assert(!kIsDeterminismSafe<double>);
  static_assert(!kIsDeterminismSafe<long double>);
  static_assert(!kIsDeterminismSafe<bool>);
  static_assert(!kIsDeterminismSafe<int*>);
  static_assert(!kIsDeterminismSafe<double[4]>);
  static_assert(kIsDeterminismSafe<fpx16_16[4]>);
  SUCCEED();
}

TEST(Determinism, MarkedStructsAreSafeAndUnmarkedOnesAreNot) {
  static_assert(kIsDeterminismSafe<DetInner>);
  static_assert(kIsDeterminismSafe<DetOuter>);
  static_assert(kIsDeterminismSafe<DetOuter[3]>);
  static_assert(kIsDeterminismSafe<DetComponent>);  // LAIGE_COMPONENT checks its members
  static_assert(!kIsDeterminismSafe<DetUnmarked>);
  static_assert(!kIsDeterminismSafe<DetWithDouble>);
  // The mark is the check itself: it evaluates at compile time.
  static_assert(detail::checkDeterminismSafeMark<DetInner, fpx16_16, std::int32_t>());
  SUCCEED();
}

TEST(Determinism, ConfigDefaultsAndBackendIds) {
  const DeterminismConfig c;
  EXPECT_TRUE(c.enabled);
  EXPECT_EQ(c.math, SimMathBackend::FixedPoint16_16);
  // The numeric values are the replay header's mathBackendId: frozen.
  EXPECT_EQ(static_cast<int>(SimMathBackend::FixedPoint16_16), 0);
  EXPECT_EQ(static_cast<int>(SimMathBackend::FloatPinned32), 1);
  EXPECT_STREQ(simMathBackendName(SimMathBackend::FixedPoint16_16), "fixed_point_16_16");
  EXPECT_STREQ(simMathBackendName(SimMathBackend::FloatPinned32), "float_pinned_32");
  EXPECT_STREQ(simMathBackendName(static_cast<SimMathBackend>(7)), "unknown");
}

}  // namespace
}  // namespace laige
