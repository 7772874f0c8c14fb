// laige-selfcheck - the short self-check README command 1 runs on both
// targets (native and wasm under node): known answers of the core modules
// and a small deterministic world workload whose digest must be the same
// on every target.
#include <laige/sim.h>

#include <cstdio>

namespace {

int gFailures = 0;

void expect(bool ok, const char* what) {
  std::printf("  %-52s %s\n", what, ok ? "ok" : "FAILED");
  if (!ok) ++gFailures;
}

// FNV-1a 64 over big-endian u64 words (the house word-stream convention).
struct Fnv {
  std::uint64_t h = 0xcbf29ce484222325ull;
  void word(std::uint64_t w) {
    for (int i = 7; i >= 0; --i) {
      h ^= (w >> (8 * i)) & 0xFF;
      h *= 0x100000001b3ull;
    }
  }
};

}  // namespace

int main() {
#if defined(__EMSCRIPTEN__)
  const char* target = "wasm";
#else
  const char* target = "native";
#endif
  std::printf("laige-sim %s self-check (%s)\n", laige::kVersionString, target);

  laige::log::LoggerOptions quiet;
  quiet.globalMinimum = laige::log::Level::Error;  // the workload hits the entity-budget warns on purpose
  laige::log::Logger::instance().init(quiet);

  expect(std::string_view(laige::errorName(laige::ErrorCode::BudgetExhausted)) == "budget_exhausted",
         "errors: registry");

  laige::Prng rng(0x1234567890ABCDEFull);
  expect(rng.next_u64() == 0x6C6322B836E9CA2Aull, "prng: first master draw (known answer)");
  expect(laige::Prng::deriveSubstream(0x1234567890ABCDEFull, 3).next_u64() == 0x50A8E8673127AD76ull,
         "prng: substream 3 first draw (known answer)");

  using M = laige::SimMathFpx16;
  const auto three = laige::fpx16_16::fromRaw(3 << 16);
  const auto five = laige::fpx16_16::fromRaw(5 << 16);
  expect(M::div(three, five).raw == 39322, "fixed point: div(3, 5) == 39322 raw");
  expect(M::sqrt(laige::fpx16_16::fromRaw(2 << 16)).raw == 92682, "fixed point: sqrt(2) == 92682 raw");

  // A deterministic entity workload: PRNG-driven create/destroy churn.
  auto created = laige::World::create(laige::World::Options{1000});
  expect(created.ok(), "world: create(capacity 1000)");
  laige::World world = std::move(created).takeValue();
  laige::Prng churn(0x1F055EEDull);
  laige::Entity live[1000];
  std::uint32_t n = 0;
  Fnv digest;
  for (int i = 0; i < 20000; ++i) {
    if (n == 0 || churn.next_range(0, 3) != 0) {
      auto e = world.create();
      if (e.ok()) {
        live[n++] = e.value();
        digest.word(e.value().bits());
      }
    } else {
      const std::uint32_t k = churn.next_range(0, n);
      if (world.destroy(live[k]).isError()) ++gFailures;
      live[k] = live[--n];
    }
  }
  expect(world.entityCount() == n, "world: live count matches the workload");
  digest.word(n);
  // The digest is a pure function of the operation sequence: native and wasm print the same value.
  std::printf("  workload digest: %016llx (%u live)\n", static_cast<unsigned long long>(digest.h), n);
  std::printf("self-check %s: %s\n", target, gFailures == 0 ? "OK" : "FAILED");
  return gFailures == 0 ? 0 : 1;
}
