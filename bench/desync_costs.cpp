// desync_costs.cpp - what the desync tools cost (docs/desync.md#cost),
// natively (build/native-release/laige_desync_costs) and in wasm
// (build/wasm/laige_desync_costs.js, run under node).
//
// The world: N = 10,000 entities with Position + Velocity (f32), three
// systems: Move (pos += vel; writes Position), Bounce (reflects the velocity
// at the walls; writes Velocity) and Census (reads both, sums into a
// counter; writes nothing). Rows, per tick, each world ticking on its own:
//   plain         runSystems, checkpoints off
//   checkpoints   runSystems with setSystemCheckpoints(true): 3 checkpoints
//   checksum      runSystems + one columnChecksumCached per tick (what a
//                 rollback session with the Columns checksum adds per tick)
//   both          checkpoints on + that per-tick checksum (it finds every
//                 column hash cached by the last checkpoint)
// Rounds alternate the rows (ROUNDS, default 15; TICKS per round, default
// 50); reported: best and median per tick, and the median of the per-round
// ratios to `plain`. Then the cold paths, once each on 10,000 entities:
// stateTreeRoot, findDifferingRows for one flipped bit, desyncReport.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bench_components.h"
#include "laige/desync.h"
#include "laige/system.h"
#include "laige/world.h"

namespace {

using bench::Position;
using bench::Velocity;
using laige::Entity;
using laige::World;
using Clock = std::chrono::steady_clock;

constexpr std::uint32_t kEntities = 10000;

void moveSystem(World& w, laige::SystemContext&) {
  (void)w.each<Position, Velocity>(
      [](Entity, Position& p, const Velocity& v) {
        p.x += v.x;
        p.y += v.y;
      },
      laige::Write{}, laige::Read{});
}

void bounceSystem(World& w, laige::SystemContext&) {
  (void)w.each<Velocity, Position>(
      [](Entity, Velocity& v, const Position& p) {
        if (p.x < 0.0f || p.x > 10000.0f) v.x = -v.x;
        if (p.y < -5000.0f || p.y > 5000.0f) v.y = -v.y;
      },
      laige::Write{}, laige::Read{});
}

void censusSystem(World& w, laige::SystemContext& ctx) {
  std::uint32_t right = 0;
  (void)w.each<Position, Velocity>([&](Entity, const Position&, const Velocity& v) { right += v.x > 0.0f ? 1 : 0; },
                                   laige::Read{}, laige::Read{});
  *static_cast<std::uint32_t*>(ctx.userData) += right;
}

std::uint32_t gCensus = 0;

World makeWorld(laige::SystemSchedule& sched) {
  World::Options o;
  o.capacity = kEntities;
  o.churnPerFrameBudget = 0;
  World w = World::create(o).takeValue();
  (void)w.registerComponent<Position>();
  (void)w.registerComponent<Velocity>();
  const laige::fpx16_16 budget = laige::fpx16_16::fromInt32(1000);
  (void)w.registerSystem(laige::SystemDef{"Move", &moveSystem, budget, nullptr, nullptr},
                         laige::Io<Position, laige::Write>{}, laige::Io<Velocity, laige::Read>{});
  (void)w.registerSystem(laige::SystemDef{"Bounce", &bounceSystem, budget, nullptr, nullptr},
                         laige::Io<Velocity, laige::Write>{}, laige::Io<Position, laige::Read>{});
  (void)w.registerSystem(laige::SystemDef{"Census", &censusSystem, budget, nullptr, &gCensus},
                         laige::Io<Position, laige::Read>{}, laige::Io<Velocity, laige::Read>{});
  (void)w.scheduleSystems(sched);
  for (std::uint32_t i = 0; i < kEntities; ++i) {
    const Entity e = w.create().value();
    (void)w.addComponent(e, Position{static_cast<float>(i), 0.0f});
    (void)w.addComponent(e, Velocity{0.25f + static_cast<float>(i % 7), -0.5f});
  }
  return w;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

double msSince(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

struct Row {
  std::string name;
  World world;
  laige::SystemSchedule sched;
  std::vector<double> us;  // per tick, per round
};

}  // namespace

int main() {
  const char* roundsEnv = std::getenv("ROUNDS");
  const char* ticksEnv = std::getenv("TICKS");
  const int rounds = roundsEnv != nullptr ? std::atoi(roundsEnv) : 15;
  const int ticks = ticksEnv != nullptr ? std::atoi(ticksEnv) : 50;
  std::vector<Row> rows(4);
  rows[0].name = "plain";
  rows[1].name = "checkpoints";
  rows[2].name = "checksum";
  rows[3].name = "both";
  for (Row& r : rows) r.world = makeWorld(r.sched);
  (void)laige::setSystemCheckpoints(rows[1].world, true);
  (void)laige::setSystemCheckpoints(rows[3].world, true);
  for (int round = -1; round < rounds; ++round) {
    for (std::size_t k = 0; k < rows.size(); ++k) {
      Row& r = rows[k];
      const auto t0 = Clock::now();
      for (int t = 0; t < ticks; ++t) {
        (void)r.world.runSystems(r.sched);
        if (k >= 2) (void)laige::columnChecksumCached(r.world, r.world.systemTicksRun());
      }
      const double us = msSince(t0) * 1000.0 / ticks;
      if (round >= 0) r.us.push_back(us);
    }
  }
  std::printf("info entities %u systems 3 rounds %d ticks_per_round %d\n", kEntities, rounds, ticks);
  for (const Row& r : rows) {
    std::vector<double> ratios;
    for (std::size_t i = 0; i < r.us.size(); ++i) ratios.push_back(r.us[i] / rows[0].us[i]);
    std::printf("row %-12s best %8.2f us  median %8.2f us  x_plain %5.2f\n", r.name.c_str(),
                *std::min_element(r.us.begin(), r.us.end()), median(r.us), median(ratios));
  }
  // Every world ran the same ticks: equal state, so the checkpoints changed nothing.
  const std::uint64_t tick = rows[0].world.systemTicksRun();
  std::printf("info state checksums equal: %s\n",
              rows[0].world.stateChecksum(tick) == rows[1].world.stateChecksum(tick) &&
                      rows[1].world.stateChecksum(tick) == rows[2].world.stateChecksum(tick)
                  ? "yes"
                  : "NO");

  // The cold paths on 10,000 entities.
  World& a = rows[0].world;
  World& b = rows[1].world;
  b.get<Velocity>(b.handleAt(4321))->y += 1.0f;
  auto t0 = Clock::now();
  const std::uint64_t root = laige::stateTreeRoot(a, tick);
  std::printf("cold stateTreeRoot %.3f ms (root %016llx)\n", msSince(t0), static_cast<unsigned long long>(root));
  std::vector<std::uint8_t> scratch(2 * laige::stateTreeLeafCapacity(a));
  laige::StateTreeWalkStats stats;
  std::uint32_t found = 0;
  t0 = Clock::now();
  const laige::Result<std::uint32_t> n = laige::findDifferingRows(
      a, laige::stateTreeSourceOf(a), laige::stateTreeSourceOf(b), scratch, 10,
      [](void* c, const laige::StateTreeDifference&) noexcept { ++*static_cast<std::uint32_t*>(c); }, &found, &stats);
  std::printf("cold findDifferingRows %.3f ms: %u rows, %u child queries, %u leaves, %llu hashes, %llu leaf bytes\n",
              msSince(t0), n.ok() ? n.value() : 0u, stats.childQueries, stats.leafQueries,
              static_cast<unsigned long long>(stats.hashes), static_cast<unsigned long long>(stats.leafBytesB));
  t0 = Clock::now();
  const laige::Result<laige::DesyncReport> report = laige::desyncReport(a, b, 10, [](const laige::DesyncItem&) {});
  std::printf("cold desyncReport %.3f ms: %u differences\n", msSince(t0),
              report.ok() ? report.value().differences : 0u);
  return 0;
}
