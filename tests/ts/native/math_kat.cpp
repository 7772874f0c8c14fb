// math_kat.cpp - prints the known-answer table of the deterministic math
// functions (laige/sim_math_fn.h) for both backends: tests/kat/math_kat.txt
// is its output, checked by GoogleTest (native, wasm) and Vitest (the
// TypeScript twins). Regenerate with
//   build/native-debug/laige-math-kat > tests/kat/math_kat.txt
// only when a function is meant to change (its bits are a contract).
// Inputs: the edge values of each domain, then PRNG-drawn values (fixed seed);
// last, fp32 sin, cos and tan of the inputs that stress their argument
// reduction (support/f32_trig_extremes.h).
#include <cinttypes>
#include <cstdio>
#include <vector>

#include "laige/prng.h"
#include "support/f32_trig_extremes.h"
#include "support/math_kat_eval.h"

namespace {

using laige::testing::evalMathKat;
using laige::testing::kMathKatFunctions;

std::vector<std::uint32_t> fxInputs(const char* fn, laige::Prng& rng) {
  std::vector<std::uint32_t> v = {0, 1, 0xFFFFFFFFu, 65536, 0xFFFF0000u, 32768, 0xFFFF8000u, 0x80000000u,
                                  0x7FFFFFFFu, 0x80000001u, 0x7FFFFFFEu, 102944, 205887, 411775,
                                  static_cast<std::uint32_t>(-102944), 98304, 0x00018000u, 0xFFFE8000u};
  const std::string_view f = fn;
  for (int i = 0; i < 260; ++i) {
    const std::uint32_t r = rng.next_u32();
    std::int64_t x = 0;
    switch (i % 4) {
      case 0: x = static_cast<std::int32_t>(r); break;                               // whole range
      case 1: x = static_cast<std::int32_t>(r % (16u << 16)) - (8 << 16); break;     // [-8, 8)
      case 2: x = static_cast<std::int32_t>(r % (2u << 16)) - (1 << 16); break;      // [-1, 1)
      default: x = static_cast<std::int32_t>(r % (24u << 16)) - (12 << 16); break;   // [-12, 12)
    }
    if ((f == "log" || f == "pow") && i % 2 == 1 && x < 0) x = -x;
    v.push_back(static_cast<std::uint32_t>(static_cast<std::int32_t>(x)));
  }
  return v;
}

std::vector<std::uint32_t> f32Inputs(laige::Prng& rng) {
  const float specials[] = {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, -0.5f, 2.0f, 1.5707964f, 3.1415927f, 6.2831855f,
                            1e6f, 1048576.0f, 1e30f, -1e30f, 88.7f, -104.0f, 1.17549435e-38f, 1e-45f,
                            3.40282347e+38f, -3.40282347e+38f, 2.5f, -2.5f, 8388607.5f};
  std::vector<std::uint32_t> v;
  for (float s : specials) v.push_back(laige::detail::bitCast<std::uint32_t>(s));
  v.push_back(0x7F800000u);  // +inf
  v.push_back(0xFF800000u);  // -inf
  v.push_back(0x7FC00000u);  // NaN
  for (int i = 0; i < 260; ++i) {
    const std::uint32_t r = rng.next_u32();
    float x = 0;
    switch (i % 4) {
      case 0: x = laige::detail::bitCast<float>(r); break;                                          // any bits
      case 1: x = (rng.next_float01() - 0.5f) * 20.0f; break;                              // [-10, 10)
      case 2: x = (rng.next_float01() - 0.5f) * 2.2f; break;                               // ~[-1.1, 1.1)
      default: x = (rng.next_float01() - 0.5f) * 2000.0f; break;                           // [-1000, 1000)
    }
    v.push_back(laige::detail::bitCast<std::uint32_t>(x));
  }
  return v;
}

}  // namespace

int main() {
  laige::Prng rng(0x5eed0f3a7c0ffee1ull);
  std::printf("# laige math known answers: <backend> <function> <a> [<b>] = <result> (hex bits)\n");
  for (int backend = 0; backend < 2; ++backend) {
    const bool fx = backend == 0;
    for (const auto& fn : kMathKatFunctions) {
      const std::vector<std::uint32_t> a = fx ? fxInputs(fn.name, rng) : f32Inputs(rng);
      const std::vector<std::uint32_t> b = fx ? fxInputs(fn.name, rng) : f32Inputs(rng);
      for (std::size_t i = 0; i < a.size(); ++i) {
        std::uint32_t out = 0;
        if (fn.arity == 1) {
          evalMathKat(fx, fn.name, a[i], 0, out);
          std::printf("%s %s %08" PRIx32 " = %08" PRIx32 "\n", fx ? "fx" : "f32", fn.name, a[i], out);
        } else {
          // Pairs: the first 18 edge values against a few of their own, then random pairs.
          const std::uint32_t bi = i < 18 ? b[(i * 7) % 18] : b[i];
          evalMathKat(fx, fn.name, a[i], bi, out);
          std::printf("%s %s %08" PRIx32 " %08" PRIx32 " = %08" PRIx32 "\n", fx ? "fx" : "f32", fn.name, a[i], bi, out);
          if (i < 18) {  // and every edge value against every edge value, once per pair
            for (std::size_t j = 0; j < 18; j += 3) {
              evalMathKat(fx, fn.name, a[i], b[j], out);
              std::printf("%s %s %08" PRIx32 " %08" PRIx32 " = %08" PRIx32 "\n", fx ? "fx" : "f32", fn.name, a[i], b[j], out);
            }
          }
        }
      }
    }
  }
  std::printf("# f32 sin, cos, tan of large and edge arguments (tests/cpp/support/f32_trig_extremes.h)\n");
  for (const char* fn : {"sin", "cos", "tan"}) {
    for (std::uint32_t a : laige::testing::f32TrigExtremeInputs()) {
      std::uint32_t out = 0;
      evalMathKat(false, fn, a, 0, out);
      std::printf("f32 %s %08" PRIx32 " = %08" PRIx32 "\n", fn, a, out);
    }
  }
  return 0;
}
