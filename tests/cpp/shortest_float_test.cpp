// shortest_float_test.cpp - the wasm build's shortest round-trip float text
// (laige/detail/shortest_float.h) against its references: natively
// std::to_chars itself, in wasm (no floating-point to_chars there) the
// printf/strtod emulation the log fields used before, kept here verbatim.
// Edge cases (powers of two, subnormals, halfway ties, exact large
// integers) and a seeded sweep of random bit patterns, doubles and floats.
#include "laige/detail/shortest_float.h"
#include <gtest/gtest.h>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <version>

namespace {

#if defined(__cpp_lib_to_chars) && __cpp_lib_to_chars >= 201611L
constexpr bool kNativeToChars = true;
template <typename Float>
std::string reference(Float value) {
  char out[64];
  return std::string(out, static_cast<std::size_t>(std::to_chars(out, out + sizeof out, value).ptr - out));
}
#else
constexpr bool kNativeToChars = false;
// The previous wasm rendering (musl's exact printf and strtod), verbatim.
template <typename Float>
std::string reference(Float value) {
  const double magnitude = std::fabs(static_cast<double>(value));
  auto parsesBack = [value](const char* text) {
    return (sizeof(Float) == sizeof(float) ? static_cast<Float>(std::strtof(text, nullptr))
                                           : static_cast<Float>(std::strtod(text, nullptr))) == std::fabs(value);
  };
  char text[48];
  char digits[24];
  int n = 0;
  int exponent = 0;
  for (int p = 0; p <= (sizeof(Float) == sizeof(float) ? 8 : 16); ++p) {
    std::snprintf(text, sizeof text, "%.*e", p, magnitude);
    n = 0;
    for (const char* s = text; *s != 'e'; ++s) {
      if (*s != '.') digits[n++] = *s;
    }
    exponent = std::atoi(std::strchr(text, 'e') + 1);
    if (parsesBack(text)) break;
    int i = n - 1;
    for (; i >= 0 && digits[i] == '9'; --i) digits[i] = '0';
    if (i < 0) {
      digits[0] = '1';
      ++exponent;
    } else {
      ++digits[i];
    }
    std::snprintf(text, sizeof text, "%c.%.*se%d", digits[0], n - 1, digits + 1, exponent);
    if (parsesBack(text)) break;
  }
  while (n > 1 && digits[n - 1] == '0') --n;
  char result[48];
  int len = std::signbit(value) ? 1 : 0;
  result[0] = '-';
  const int sciLength = n + (n > 1 ? 1 : 0) + (exponent <= -100 || exponent >= 100 ? 5 : 4);
  const int fixedLength = exponent >= n - 1 ? exponent + 1 : (exponent >= 0 ? n + 1 : n + 1 - exponent);
  if (fixedLength > sciLength) {
    len += std::snprintf(result + len, sizeof result - 1, "%c%s%.*se%c%02d", digits[0], n > 1 ? "." : "",
                         n - 1, digits + 1, exponent < 0 ? '-' : '+', exponent < 0 ? -exponent : exponent);
  } else if (exponent >= n - 1) {
    len += std::snprintf(result + len, sizeof result - 1, "%.0f", magnitude);
  } else if (exponent >= 0) {
    len += std::snprintf(result + len, sizeof result - 1, "%.*s.%.*s", exponent + 1, digits, n - exponent - 1,
                         digits + exponent + 1);
  } else {
    result[len++] = '0';
    result[len++] = '.';
    for (int z = 0; z < -exponent - 1; ++z) result[len++] = '0';
    std::memcpy(result + len, digits, static_cast<std::size_t>(n));
    len += n;
  }
  return std::string(result, static_cast<std::size_t>(len));
}
#endif

std::string shortest(double v) {
  char out[64];
  return std::string(out, laige::detail::shortestDouble(v, out, sizeof out));
}
std::string shortest(float v) {
  char out[64];
  return std::string(out, laige::detail::shortestFloat(v, out, sizeof out));
}

double fromBits(std::uint64_t b) {
  double d;
  std::memcpy(&d, &b, sizeof d);
  return d;
}
float fromBits32(std::uint32_t b) {
  float f;
  std::memcpy(&f, &b, sizeof f);
  return f;
}

// splitmix64: the sweep's bit patterns.
std::uint64_t next(std::uint64_t& s) {
  std::uint64_t z = (s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

TEST(ShortestFloat, KnownTexts) {
  EXPECT_EQ(shortest(0.1), "0.1");
  EXPECT_EQ(shortest(-2.5), "-2.5");
  EXPECT_EQ(shortest(100.0), "100");
  EXPECT_EQ(shortest(1e20), "1e+20");
  EXPECT_EQ(shortest(1e6), "1e+06");
  EXPECT_EQ(shortest(1.5e-7), "1.5e-07");
  EXPECT_EQ(shortest(0.0), "0");
  EXPECT_EQ(shortest(-0.0), "-0");
  EXPECT_EQ(shortest(5e-324), "5e-324");
  EXPECT_EQ(shortest(1.7976931348623157e308), "1.7976931348623157e+308");
  EXPECT_EQ(shortest(2.2250738585072014e-308), "2.2250738585072014e-308");
  // Fixed integers print their exact value (here 2^69 + 2^17, 21 digits).
  EXPECT_EQ(shortest(590295810358705782784.0), "590295810358705782784");
  // A halfway tie between two 16-digit decimals that both read back: the even one.
  EXPECT_EQ(shortest(562949953421312.25), "562949953421312.2");
  EXPECT_EQ(shortest(0.1f), "0.1");
  EXPECT_EQ(shortest(16777216.0f), "16777216");
  EXPECT_EQ(shortest(3.4028235e38f), "3.4028235e+38");
  EXPECT_EQ(shortest(1e-45f), "1e-45");
  EXPECT_EQ(shortest(-0.0f), "-0");
}

TEST(ShortestFloat, TruncatesAtCap) {
  char out[4];
  EXPECT_EQ(laige::detail::shortestDouble(0.3333333333333333, out, sizeof out), 4u);
  EXPECT_EQ(std::string(out, 4), "0.33");
}

TEST(ShortestFloat, EdgeCasesMatchTheReference) {
  std::printf("[ShortestFloat] reference: %s\n", kNativeToChars ? "std::to_chars" : "printf/strtod emulation");
  // Every power of two (the asymmetric gap), its neighbours, and the subnormal range's ends.
  for (int biased = 0; biased < 2047; ++biased) {
    const std::uint64_t b = static_cast<std::uint64_t>(biased) << 52;
    for (const std::uint64_t bits : {b, b + 1, b | std::uint64_t{0xfffffffffffff}, b | std::uint64_t{0x8000000000000}}) {
      const double v = fromBits(bits);
      ASSERT_EQ(shortest(v), reference(v)) << std::hex << bits;
    }
  }
  for (int biased = 0; biased < 255; ++biased) {
    const std::uint32_t b = static_cast<std::uint32_t>(biased) << 23;
    for (const std::uint32_t bits : {b, b + 1u, b | 0x7fffffu, b | 0x400000u}) {
      const float v = fromBits32(bits);
      ASSERT_EQ(shortest(v), reference(v)) << std::hex << bits;
    }
  }
  // Integers and halves around 2^49..2^54 (ties between two short decimals) and up to 1e22 (exact fixed integers).
  for (int k = 40; k < 75; ++k) {
    const double base = std::ldexp(1.0, k);
    for (int i = -40; i <= 40; ++i) {
      const double v = base + std::ldexp(static_cast<double>(i), k - 52 > -2 ? k - 52 : -2);
      ASSERT_EQ(shortest(v), reference(v)) << v;
    }
  }
  // Short decimals and their neighbours.
  double p = 1e-30;
  for (int e = -30; e <= 30; ++e, p *= 10) {
    for (int d = 1; d < 1000; d += 7) {
      const double v = d * p;
      ASSERT_EQ(shortest(v), reference(v)) << v;
      ASSERT_EQ(shortest(std::nextafter(v, 0.0)), reference(std::nextafter(v, 0.0))) << v;
      ASSERT_EQ(shortest(static_cast<float>(v)), reference(static_cast<float>(v))) << v;
    }
  }
}

TEST(ShortestFloat, RandomBitPatternsMatchTheReference) {
  std::uint64_t seed = 0x5eed5f10a7ull;
  const int count = kNativeToChars ? 200000 : 20000;
  for (int i = 0; i < count; ++i) {
    const std::uint64_t bits = next(seed);
    const double v = fromBits(bits);
    if (std::isfinite(v)) {
      ASSERT_EQ(shortest(v), reference(v)) << std::hex << bits;
    }
    const float f = fromBits32(static_cast<std::uint32_t>(bits >> 32));
    if (std::isfinite(f)) {
      ASSERT_EQ(shortest(f), reference(f)) << std::hex << (bits >> 32);
    }
    // Values of a few significant digits, where the shortest text is short.
    double d = static_cast<double>(bits % 100000) * 1e-20;
    for (int e = static_cast<int>((bits >> 40) % 40); e > 0; --e) d *= 10;
    ASSERT_EQ(shortest(d), reference(d)) << d;
  }
}

}  // namespace
