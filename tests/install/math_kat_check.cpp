// The math known-answer table checked by a consumer compiled with its own
// flags against the installed headers (tests/install/run.sh: g++ and
// clang++, -O0 and -O3 -march=native without -ffp-contract): the functions
// of laige/sim_math_fn.h must give the committed bits whatever the flags.
//   math_kat_check <tests/kat/math_kat.txt>   exit 0 iff every row matches
#include <cinttypes>
#include <cstdio>
#include <cstring>

#include "support/math_kat_eval.h"

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  std::FILE* f = std::fopen(argv[1], "r");
  if (f == nullptr) return 2;
  char line[256];
  int rows = 0, bad = 0;
  while (std::fgets(line, sizeof line, f) != nullptr) {
    if (line[0] == '#') continue;
    char backend[8], fn[16];
    std::uint32_t a = 0, b = 0, want = 0, got = 0;
    if (std::sscanf(line, "%7s %15s %" SCNx32 " %" SCNx32 " = %" SCNx32, backend, fn, &a, &b, &want) != 5) {
      b = 0;
      if (std::sscanf(line, "%7s %15s %" SCNx32 " = %" SCNx32, backend, fn, &a, &want) != 4) return 2;
    }
    const bool fx = std::strcmp(backend, "fx") == 0;
    if (!laige::testing::evalMathKat(fx, fn, a, b, got) || !laige::testing::mathKatSame(fx, got, want)) {
      if (++bad <= 5) std::printf("mismatch: got %08" PRIx32 " for %s", got, line);
    }
    ++rows;
  }
  std::fclose(f);
  std::printf("%d rows, %d mismatches\n", rows, bad);
  return bad == 0 && rows > 0 ? 0 : 1;
}
