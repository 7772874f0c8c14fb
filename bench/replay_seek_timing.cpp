// replay_seek_timing.cpp - time travel over a 10,000-tick replay of the
// stress scenario (10,000 entities) with the C++ ReplayPlayer, natively
// (build/native-release/laige_replay_seek_timing) and inside wasm
// (build/wasm/laige_replay_seek_timing.js, under node). The TypeScript
// figure in node and chromium: bench/js/replay_seek_bench.mjs and
// replay_seek_browser.mjs. docs/replay.md#time-travel has the numbers.
//
// Per keyframe interval K (argv: ticks, then the Ks; default 10000 and
// 50 100 200 400 0): records the run with keyframes every K ticks (the live
// stateHash of every tick kept), then times 200 seeks to random ticks and
// 200 single steps back (runs of 20 from random ticks), each checked
// against the live hash. Prints p50 / p99 / max per kind and the log's
// size. Asserts nothing but exactness (exit 1 on a wrong state).
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <vector>

#include "laige/logging.h"
#include "laige/prng.h"
#include "laige/replay.h"
#include "laige/replay_player.h"
#include "scenario.h"

namespace {

using namespace laige;
using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

// The process's CPU time in ms: on a loaded machine a call is often
// preempted, which the wall clock counts and the CPU clock does not.
double cpuMs() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

struct Summary {
  double p50, p99, max;
};
Summary summarize(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  auto at = [&](double q) { return v[std::min(v.size() - 1, static_cast<std::size_t>(q * static_cast<double>(v.size())))]; };
  return {at(0.5), at(0.99), v.back()};
}

ReplayConfig configOf(const Scenario& s, std::uint64_t seed) {
  ReplayConfig c;
  c.tickRateHz = s.tickRateHz;
  c.entityCapacity = s.capacity;
  c.churnPerFrameBudget = s.churnPerFrameBudget;
  c.seed = seed;
  c.determinism.math = s.math;
  return c;
}

bool measure(const Scenario& s, std::uint64_t ticks, std::uint64_t k) {
  const ReplayConfig config = configOf(s, s.defaultSeed);
  std::vector<std::uint64_t> hashes;
  std::vector<std::uint8_t> bytes;
  {
    ScenarioRun run = ScenarioRun::create(s, s.defaultSeed).takeValue();
    ReplayWriter w = ReplayWriter::create(makeReplayIdentity(run.world(), config), 0, k).takeValue();
    hashes.push_back(run.hash());
    if (w.keyframeDue()) (void)w.writeKeyframe(run.world());
    for (std::uint64_t t = 1; t <= ticks; ++t) {
      (void)run.step();
      (void)w.writeFrame(t, nullptr, 0);
      if (w.keyframeDue()) (void)w.writeKeyframe(run.world());
      hashes.push_back(run.hash());
    }
    (void)w.finish();
    bytes = w.takeBytes();
  }
  ScenarioRun fresh = ScenarioRun::create(s, s.defaultSeed).takeValue();
  ReplayLog log = parseReplay(bytes.data(), bytes.size()).takeValue();
  const std::size_t keyframes = log.keyframes.size();
  const auto t0 = Clock::now();
  ReplayPlayer p = ReplayPlayer::open(std::move(log), fresh.world(), config).takeValue();
  const double openMs = msSince(t0);
  Prng rng(0x5eed);
  const int jumps = k == 0 ? 20 : 200;
  bool exact = true;
  std::vector<double> jump;
  std::vector<double> jumpCpu;
  for (int i = 0; i < jumps; ++i) {
    const std::uint64_t t = rng.next_range(0, static_cast<std::uint32_t>(ticks + 1));
    const auto a = Clock::now();
    const double c = cpuMs();
    (void)p.seek(t);
    jumpCpu.push_back(cpuMs() - c);
    jump.push_back(msSince(a));
    exact = exact && p.stateHash() == hashes[t];
  }
  std::vector<double> back;
  std::vector<double> backCpu;
  while (back.size() < static_cast<std::size_t>(jumps)) {
    (void)p.seek(20 + rng.next_range(0, static_cast<std::uint32_t>(ticks - 19)));
    for (int i = 0; i < 20 && back.size() < static_cast<std::size_t>(jumps); ++i) {
      const auto a = Clock::now();
      const double c = cpuMs();
      (void)p.stepBack();
      backCpu.push_back(cpuMs() - c);
      back.push_back(msSince(a));
      exact = exact && p.stateHash() == hashes[p.tick()];
    }
  }
  const Summary j = summarize(jump);
  const Summary b = summarize(back);
  std::printf("K %5llu: jump p50 %.2f / p99 %.2f / max %.2f ms; stepBack p50 %.2f / p99 %.2f / max %.2f ms; "
              "%zu keyframes, %zu bytes (%llu without); open %.2f ms; exact %s\n",
              static_cast<unsigned long long>(k), j.p50, j.p99, j.max, b.p50, b.p99, b.max, keyframes, bytes.size(),
              static_cast<unsigned long long>(40 + 12 * ticks + 16), openMs, exact ? "true" : "false");
  const Summary jc = summarize(jumpCpu);
  const Summary bc = summarize(backCpu);
  std::printf("   cpu: jump p50 %.2f / p99 %.2f / max %.2f ms; stepBack p50 %.2f / p99 %.2f / max %.2f ms\n", jc.p50, jc.p99,
              jc.max, bc.p50, bc.p99, bc.max);
  std::fflush(stdout);
  return exact;
}

}  // namespace

int main(int argc, char** argv) {
  laige::log::Logger::instance().setGlobalMinimum(laige::log::Level::Off);  // budget warnings are not the measurement
  const laige::Scenario* s = laige::findScenario("stress");
  if (s == nullptr) return 2;
  const std::uint64_t ticks = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 10000;
  std::vector<std::uint64_t> ks;
  for (int i = 2; i < argc; ++i) ks.push_back(std::strtoull(argv[i], nullptr, 10));
  if (ks.empty()) ks = {50, 100, 200, 400, 0};
  bool exact = true;
  for (const std::uint64_t k : ks) exact = measure(*s, ticks, k) && exact;
  return exact ? 0 : 1;
}
