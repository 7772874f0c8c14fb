// fx_table.cpp - prints a table of Q16.16 operations computed by the C++
// core (fpx16_16.h, SimMath<Fpx16_16>), one per line, for the TypeScript
// fx helpers to be compared against bit for bit (tests/ts/fx.test.ts).
//   laige-fx-table [count]   (default 20000 random cases + edge cases)
// Line format (decimal raw int32 values, floats as their IEEE bits in hex):
//   <op> <inputs...> = <outputs...>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "laige/fpx16_16.h"
#include "laige/prng.h"
#include "laige/sim_math.h"

namespace {

using laige::fpx16_16;
using M = laige::SimMath<laige::Fpx16_16>;

fpx16_16 R(std::int32_t r) { return fpx16_16::fromRaw(r); }

std::uint32_t bitsOf(float f) {
  std::uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}
std::uint64_t bitsOf(double d) {
  std::uint64_t b;
  std::memcpy(&b, &d, 8);
  return b;
}
float floatOf(std::uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}

void two(std::int32_t a, std::int32_t b) {
  std::printf("add %d %d = %d\n", a, b, M::add(R(a), R(b)).raw);
  std::printf("sub %d %d = %d\n", a, b, M::sub(R(a), R(b)).raw);
  std::printf("mul %d %d = %d\n", a, b, M::mul(R(a), R(b)).raw);
  std::printf("div %d %d = %d\n", a, b, M::div(R(a), R(b)).raw);
  const auto v = M::normalize(M::Vec2{R(a), R(b)});
  std::printf("length %d %d = %d\n", a, b, M::length(M::Vec2{R(a), R(b)}).raw);
  std::printf("normalize %d %d = %d %d\n", a, b, v.x.raw, v.y.raw);
}

void one(std::int32_t a) {
  std::printf("sqrt %d = %d\n", a, M::sqrt(R(a)).raw);
  std::printf("negate %d = %d\n", a, M::negate(R(a)).raw);
  std::printf("toInt %d = %d\n", a, fpx16_16::toInt32(R(a)));
  std::printf("fromInt %d = %d\n", a, fpx16_16::fromInt32(a).raw);
  std::printf("toFloat %d = %08x\n", a, bitsOf(fpx16_16::toFloat(R(a))));
}

void fromBits(std::uint32_t fbits) {
  const float f = floatOf(fbits);
  std::printf("fromFloat %08x = %d\n", fbits, fpx16_16::fromFloat(f).raw);
  const double d = static_cast<double>(f) * 1.0000001;  // a double that is not a float
  std::printf("fromDouble %016llx = %d\n", static_cast<unsigned long long>(bitsOf(d)), fpx16_16::fromDouble(d).raw);
}

}  // namespace

int main(int argc, char** argv) {
  const long count = argc > 1 ? std::strtol(argv[1], nullptr, 10) : 20000;
  const std::int32_t edges[] = {0, 1, -1, 2, -2, 3, -3, 0x4000, 0x8000, -0x8000, 0x18000, -0x18000, 65536, -65536,
                                131072, INT32_MAX, INT32_MIN, INT32_MAX - 1, INT32_MIN + 1, 181 << 16, 182 << 16,
                                32767, -32768, 32768, 46341, 0x7fff0000, -0x7fff0000};
  for (std::int32_t a : edges) {
    one(a);
    for (std::int32_t b : edges) two(a, b);
    std::printf("lerp %d %d %d = %d\n", a, 65536, 32768, M::lerp(R(a), R(65536), R(32768)).raw);
  }
  const std::uint32_t floatEdges[] = {0x00000000u, 0x80000000u, 0x3dcccccdu /*0.1f*/, 0x3f19999au, 0x3f4ccccdu,
                                      0x47000000u /*32768*/, 0xc7000000u, 0x46fffffeu, 0xc6fffffeu, 0x7f800000u,
                                      0xff800000u, 0x7fc00000u, 0x00000001u, 0x37800000u /*2^-16*/, 0x37000000u,
                                      0x37c00000u, 0x3f000000u, 0xbf000000u};
  for (std::uint32_t f : floatEdges) fromBits(f);
  laige::Prng rng(0x5eedf00dULL);
  for (long i = 0; i < count; ++i) {
    // Mix full-range values with small ones (where rounding matters most).
    const std::uint32_t sel = rng.next_u32() & 3u;
    auto pick = [&](std::uint32_t s) -> std::int32_t {
      const auto r = static_cast<std::int32_t>(rng.next_u32());
      switch (s) {
        case 0: return r;
        case 1: return r >> 12;
        case 2: return r >> 20;
        default: return r >> 28;
      }
    };
    const std::int32_t a = pick(sel);
    const std::int32_t b = pick(rng.next_u32() & 3u);
    const std::int32_t t = pick(rng.next_u32() & 3u);
    two(a, b);
    one(a);
    std::printf("lerp %d %d %d = %d\n", a, b, t, M::lerp(R(a), R(b), R(t)).raw);
    std::printf("clamp %d %d %d = %d\n", a, b < t ? b : t, b < t ? t : b, M::clamp(R(a), R(b < t ? b : t), R(b < t ? t : b)).raw);
    const auto v3 = M::normalize(M::Vec3{R(a), R(b), R(t)});
    std::printf("length3 %d %d %d = %d\n", a, b, t, M::length(M::Vec3{R(a), R(b), R(t)}).raw);
    std::printf("normalize3 %d %d %d = %d %d %d\n", a, b, t, v3.x.raw, v3.y.raw, v3.z.raw);
    fromBits(rng.next_u32());
    // Floats in the representable range with fractional bits.
    const float f = (rng.next_float01() - 0.5f) * 65536.0f;
    fromBits(bitsOf(f));
  }
  return 0;
}
