// fx_sweep.cpp - digests of the Q16.16 math functions (SimMath<Fpx16_16>::
// sin ... round) over millions of deterministic inputs, for the TypeScript
// twins (fx.sin ...) to be compared against (tests/ts/fx_sweep.test.ts).
//   laige-fx-sweep            every segment: its definition and digest
//   laige-fx-sweep <index>    every input and result of segment <index>
// Segments (the test regenerates the same inputs from the line):
//   fx <fn> range <lo> <hi> <step> = <count> <digest>
//     one-argument fn of every raw lo, lo + step, ... <= hi
//   fx <fn> rand <seed> <count> <specA> <specB> = <count> <digest>
//     two-argument fn of <count> pairs from xorshift32(seed): for each pair
//     the next two words r, each turned into a raw by its spec: sN is
//     int32(r) >> N, uN is r >> N (unsigned), iN is (int32(r) >> N) * 65536
//     (an integral value), dN (second only) is the first plus int32(r) >> N,
//     wrapped to int32 (pairs next to the diagonal |y| = |x|)
// digest: FNV-1a over the results as 32-bit words (h = (h ^ raw) * 16777619
// mod 2^32, from 2166136261), in hex.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "laige/sim_math.h"

namespace {

using laige::fpx16_16;
using M = laige::SimMath<laige::Fpx16_16>;

struct Segment {
  const char* fn;
  bool pair;
  std::int64_t lo, hi, step;      // range
  std::uint32_t seed, count;      // rand
  const char* specA;
  const char* specB;
};

std::int32_t apply1(const std::string& fn, std::int32_t a) {
  const fpx16_16 x = fpx16_16::fromRaw(a);
  if (fn == "sin") return M::sin(x).raw;
  if (fn == "cos") return M::cos(x).raw;
  if (fn == "tan") return M::tan(x).raw;
  if (fn == "asin") return M::asin(x).raw;
  if (fn == "acos") return M::acos(x).raw;
  if (fn == "exp") return M::exp(x).raw;
  if (fn == "log") return M::log(x).raw;
  if (fn == "floor") return M::floor(x).raw;
  if (fn == "ceil") return M::ceil(x).raw;
  if (fn == "round") return M::round(x).raw;
  std::fprintf(stderr, "fx_sweep: unknown function %s\n", fn.c_str());
  std::exit(2);
}
std::int32_t apply2(const std::string& fn, std::int32_t a, std::int32_t b) {
  const fpx16_16 x = fpx16_16::fromRaw(a), y = fpx16_16::fromRaw(b);
  if (fn == "atan2") return M::atan2(x, y).raw;
  if (fn == "pow") return M::pow(x, y).raw;
  if (fn == "hypot") return M::hypot(x, y).raw;
  std::fprintf(stderr, "fx_sweep: unknown function %s\n", fn.c_str());
  std::exit(2);
}
std::int32_t fromSpec(const char* spec, std::uint32_t r, std::int32_t first = 0) {
  const int n = std::atoi(spec + 1);
  switch (spec[0]) {
    case 's': return static_cast<std::int32_t>(r) >> n;
    case 'u': return static_cast<std::int32_t>(r >> n);
    case 'd':
      return static_cast<std::int32_t>(static_cast<std::uint32_t>(first) +
                                       static_cast<std::uint32_t>(static_cast<std::int32_t>(r) >> n));
    default: return static_cast<std::int32_t>(static_cast<std::uint32_t>(static_cast<std::int32_t>(r) >> n) << 16);
  }
}

std::vector<Segment> segments() {
  std::vector<Segment> v;
  const auto range = [&](const char* fn, std::int64_t lo, std::int64_t hi, std::int64_t step) {
    v.push_back({fn, false, lo, hi, step, 0, 0, "", ""});
  };
  const auto rand = [&](const char* fn, std::uint32_t seed, std::uint32_t count, const char* a, const char* b) {
    v.push_back({fn, true, 0, 0, 0, seed, count, a, b});
  };
  constexpr std::int64_t kMin = -2147483648LL, kMax = 2147483647LL;
  for (const char* fn : {"sin", "cos", "tan"}) {
    range(fn, kMin, kMax, 2053);                // the whole range, ~2.1M
    range(fn, -1048576, 1048575, 1);            // every raw in [-16, 16)
    range(fn, kMax - 131071, kMax, 1);          // both ends
    range(fn, kMin, kMin + 131071, 1);
  }
  // tan next to its poles, where the TypeScript bound is tightest: every raw
  // within 4096 of round(k pi/2 2^16), k odd, both signs
  for (const std::int64_t k : {1, 3, 5, 7, 63, 1001, 10001, 20859}) {
    const auto c = static_cast<std::int64_t>(static_cast<double>(k) * 3.14159265358979323846 * 32768.0 + 0.5);
    range("tan", c - 4096, c + 4096, 1);
    range("tan", -c - 4096, -c + 4096, 1);
  }
  for (const char* fn : {"asin", "acos"}) {
    range(fn, kMin, kMax, 4099);
    range(fn, -131072, 131072, 1);              // every input that is not clamped, and more
  }
  range("exp", kMin, kMax, 2053);
  range("exp", -1245184, 786432, 1);            // every raw in [-19, 12]: all that do not saturate
  range("log", kMin, kMax, 2053);
  range("log", 1, 2097152, 1);                  // (0, 32]
  for (const char* fn : {"floor", "ceil", "round"}) {
    range(fn, kMin, kMax, 2053);
    range(fn, -1048576, 1048575, 1);
    range(fn, kMax - 131071, kMax, 1);
    range(fn, kMin, kMin + 131071, 1);
  }
  rand("atan2", 1, 1 << 20, "s0", "s0");
  rand("atan2", 2, 1 << 20, "s12", "s12");      // [-8, 8)
  rand("atan2", 3, 1 << 19, "s0", "s24");
  rand("atan2", 4, 1 << 19, "s24", "s0");
  rand("atan2", 5, 1 << 18, "s27", "s27");      // tiny raws, many zeros and ties
  rand("atan2", 15, 1 << 19, "s0", "d28");      // next to the diagonal (the swap): x = y + [-8, 8)
  rand("atan2", 16, 1 << 19, "s12", "d29");     // the same at [-8, 8), x = y + [-4, 4)
  rand("hypot", 6, 1 << 20, "s0", "s0");
  rand("hypot", 7, 1 << 20, "s8", "s8");
  rand("hypot", 8, 1 << 19, "s16", "s16");
  rand("hypot", 9, 1 << 19, "s0", "s28");
  rand("pow", 10, 1 << 20, "u1", "s12");        // x > 0 anywhere, y in [-8, 8)
  rand("pow", 11, 1 << 20, "u9", "s11");        // x in [0, 128), y in [-16, 16)
  rand("pow", 12, 1 << 19, "s0", "i27");        // x of either sign, integral y in [-16, 16)
  rand("pow", 13, 1 << 19, "u14", "s0");        // x in [0, 4), y anywhere
  rand("pow", 14, 1 << 19, "s16", "s13");       // x in [-0.5, 0.5), y in [-4, 4)
  return v;
}

std::uint32_t xorshift32(std::uint32_t& s) {
  s ^= s << 13;
  s ^= s >> 17;
  s ^= s << 5;
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<Segment> segs = segments();
  const long only = argc > 1 ? std::strtol(argv[1], nullptr, 10) : -1;
  for (std::size_t i = 0; i < segs.size(); ++i) {
    if (only >= 0 && static_cast<std::size_t>(only) != i) continue;
    const Segment& s = segs[i];
    std::uint32_t h = 2166136261u, count = 0;
    const auto take = [&](std::int32_t r) {
      h = (h ^ static_cast<std::uint32_t>(r)) * 16777619u;
      ++count;
    };
    if (!s.pair) {
      for (std::int64_t x = s.lo; x <= s.hi; x += s.step) {
        const std::int32_t r = apply1(s.fn, static_cast<std::int32_t>(x));
        if (only >= 0) std::printf("%lld = %d\n", static_cast<long long>(x), r);
        take(r);
      }
      if (only < 0) std::printf("fx %s range %lld %lld %lld = %u %08x\n", s.fn, static_cast<long long>(s.lo),
                                static_cast<long long>(s.hi), static_cast<long long>(s.step), count, h);
    } else {
      std::uint32_t state = s.seed;
      for (std::uint32_t k = 0; k < s.count; ++k) {
        const std::int32_t a = fromSpec(s.specA, xorshift32(state));
        const std::int32_t b = fromSpec(s.specB, xorshift32(state), a);
        const std::int32_t r = apply2(s.fn, a, b);
        if (only >= 0) std::printf("%d %d = %d\n", a, b, r);
        take(r);
      }
      if (only < 0) std::printf("fx %s rand %u %u %s %s = %u %08x\n", s.fn, s.seed, s.count, s.specA, s.specB, count, h);
    }
  }
  return 0;
}
