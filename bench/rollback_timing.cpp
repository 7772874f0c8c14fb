// rollback_timing.cpp - a RollbackSession over the swarm scenario (2,400
// agents), timed natively and inside wasm (built twice from this file:
// build/native-release/laige_rollback_timing and
// build/wasm/laige_rollback_timing.js, run under node). The browser figure
// of the same measurement through TypeScript is printed by the browser
// suite (tests/browsers/rollback_timing.mjs); docs/rollback.md#costs has
// the numbers.
//
// Passes (each the fastest of its rounds, per advance() call):
//   swarm_tick            ScenarioRun::step alone (the tick without the session)
//   swarm_state_hash      World::stateHash of the swarm world
//   swarm_snapshot        World::snapshot of the swarm world
//   swarm_restore         World::restore of a swarm snapshot one tick old
//   advance_plain         advance() without a rollback: snapshot + tick + hash
//   advance_rollback_8    advance() after a late input 8 ticks back that
//                         differs from the prediction: restore + 8 re-run
//                         ticks + the new tick (9 x snapshot + tick + hash)
// Also the median of the rounds ("median" lines) and, natively, the best
// thread CPU time ("cpu" lines: on a loaded machine a round is often
// preempted for tens of ms, which the wall clock counts and the CPU clock
// does not). Asserts nothing.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <memory>
#include <vector>

#include "laige/logging.h"
#include "laige/rollback.h"
#include "laige/world.h"
#include "scenario.h"

namespace {

using laige::RollbackSession;
using laige::ScenarioRun;
using Clock = std::chrono::steady_clock;

double nsSince(Clock::time_point t0) { return std::chrono::duration<double, std::nano>(Clock::now() - t0).count(); }

// This thread's CPU time in ns (0 where the platform has no thread clock: wasm).
double cpuNs() {
#if defined(__EMSCRIPTEN__)
  return 0;
#else
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e9 + static_cast<double>(ts.tv_nsec);
#endif
}

// One timed call: wall and CPU ns.
struct Sample {
  std::vector<double> wall, cpu;
  template <class F>
  void time(F&& f) {
    const double c0 = cpuNs();
    const auto t0 = Clock::now();
    f();
    wall.push_back(nsSince(t0));
    cpu.push_back(cpuNs() - c0);
  }
};

std::unique_ptr<ScenarioRun> swarm() {
  const laige::Scenario* sc = laige::findScenario("swarm");
  return std::make_unique<ScenarioRun>(ScenarioRun::create(*sc, sc->defaultSeed).takeValue());
}

void report(const char* name, Sample& s) {
  std::sort(s.wall.begin(), s.wall.end());
  std::sort(s.cpu.begin(), s.cpu.end());
  std::printf("pass %s %.0f ns_per_call\n", name, s.wall.front());
  std::printf("median %s %.0f ns_per_call\n", name, s.wall[s.wall.size() / 2]);
  if (s.cpu.back() > 0) std::printf("cpu %s %.0f ns_per_call\n", name, s.cpu.front());
}

// The attractor payload (8 bytes: Q16.16 x, y) with x from `k`.
void attractor(std::uint64_t k, std::uint8_t (&out)[8]) {
  const std::int32_t x = static_cast<std::int32_t>(k % 5) * 0x40000 - 0x80000;
  for (int i = 0; i < 4; ++i) out[i] = static_cast<std::uint8_t>(static_cast<std::uint32_t>(x) >> (8 * i));
  for (int i = 4; i < 8; ++i) out[i] = 0;
}

}  // namespace

int main() {
  laige::log::Logger::instance().setGlobalMinimum(laige::log::Level::Off);  // budget warnings are not the measurement
  constexpr int kRounds = 60;

  {  // The parts, on a plain run.
    auto run = swarm();
    for (int i = 0; i < 30; ++i) (void)run->step();
    std::vector<std::uint8_t> a(run->world().snapshotSize() * 2), b(a.size());
    Sample tick, hash, snap, restore;
    for (int r = 0; r < kRounds; ++r) {
      const std::size_t size = run->world().snapshotSize();
      (void)run->world().snapshot(a);
      tick.time([&] { (void)run->step(); });
      hash.time([&] {
        volatile std::uint64_t h = run->hash();
        (void)h;
      });
      snap.time([&] { (void)run->world().snapshot(b); });
      // Back to the state one tick earlier (what a rollback restores).
      restore.time([&] { (void)run->world().restore(std::span<const std::uint8_t>(a.data(), size)); });
      (void)run->step();
    }
    std::printf("info swarm_snapshot_bytes %zu\n", run->world().snapshotSize());
    report("swarm_tick", tick);
    report("swarm_state_hash", hash);
    report("swarm_snapshot", snap);
    report("swarm_restore", restore);
  }

  auto run = swarm();
  RollbackSession::Options o;
  o.players = 2;
  o.localPlayer = 0;
  o.depth = 12;
  o.maxInputBytes = 8;
  o.combine = &RollbackSession::combineConcatenated;  // player 0 sends nothing: the payload is player 1's attractor
  RollbackSession s = RollbackSession::create(run->world(), run->schedule(), o).takeValue();
  std::uint8_t att[8];
  auto local = [&] { (void)s.setLocalInput(s.currentTick() + 1, std::span<const std::uint8_t>{}); };
  for (int i = 0; i < 30; ++i) {
    local();
    (void)s.advance();
  }
  Sample plain, rolled;
  for (int r = 0; r < kRounds; ++r) {
    local();
    plain.time([&] { (void)s.advance(); });
  }
  for (int r = 0; r < kRounds; ++r) {
    local();
    // Tick current - 7 with an input the prediction did not have: the
    // advance restores the state before it and re-runs 8 ticks.
    attractor(static_cast<std::uint64_t>(r), att);
    (void)s.addRemoteInput(1, s.currentTick() - 7, att);
    laige::Status st;
    rolled.time([&] { st = s.advance(); });
    if (st.isError() || s.stats().lastAdvanceRolledBackTicks != 8) {
      std::printf("error advance_rollback_8: %s, rolled back %llu\n", st.reason(),
                  static_cast<unsigned long long>(s.stats().lastAdvanceRolledBackTicks));
      return 1;
    }
  }
  report("advance_plain", plain);
  report("advance_rollback_8", rolled);
  std::printf("info ring_growths %llu\n", static_cast<unsigned long long>(s.stats().ringGrowths));
  return 0;
}
