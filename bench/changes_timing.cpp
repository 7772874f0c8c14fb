// changes_timing.cpp - the cost of change tracking (docs/changes.md#cost),
// natively and inside wasm, from this one file (build/native-release/
// laige_changes_timing and build/wasm/laige_changes_timing.js under node).
//
// Passes, each the fastest of its rounds, the two sides of a comparison
// alternating round by round in one run (contention only ever adds time):
//   move_untracked / move_tracked   each<Write Position, Read Velocity>
//       p += v over N entities, Position not tracked / tracked (the marks
//       of a Write walk); the ratio is the marking overhead (target <= 1.05)
//   changed_none   a Changed<Position> walk when nothing changed since its
//       last run (archetypes of 16 tag combinations): per call
//   read_all       an unfiltered Reads<Position> walk over the same world:
//       per call (what a row scan costs)
//   changed_all    a Changed<Position> walk after a Write walk marked every row
//   spawn_plain / spawn_tracked / spawn_observed   create + add Position +
//       add Velocity, then destroy, per entity: nothing tracked / Position
//       and Velocity tracked (marks and removed log) / an OnAdd observer on
//       Position as well (queue and dispatch)
//
// Output: "pass <name> <ns> <unit>" lines and the ratio. Asserts nothing.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>

#include "bench_components.h"
#include "laige/changes.h"
#include "laige/logging.h"
#include "laige/query_object.h"
#include "laige/world.h"

namespace {

using bench::Position;
using bench::Velocity;
using laige::Entity;
using laige::World;
using Clock = std::chrono::steady_clock;

struct TagA {
  std::int32_t v;
};
LAIGE_COMPONENT(TagA, v);
struct TagB {
  std::int32_t v;
};
LAIGE_COMPONENT(TagB, v);
struct TagC {
  std::int32_t v;
};
LAIGE_COMPONENT(TagC, v);
struct TagD {
  std::int32_t v;
};
LAIGE_COMPONENT(TagD, v);

World makeWorld(std::uint32_t n, bool tags) {
  World::Options o;
  o.capacity = n;
  o.churnPerFrameBudget = 0;
  World w = World::create(o).takeValue();
  (void)w.registerComponent<Position>();
  (void)w.registerComponent<Velocity>();
  (void)w.registerComponent<TagA>();
  (void)w.registerComponent<TagB>();
  (void)w.registerComponent<TagC>();
  (void)w.registerComponent<TagD>();
  for (std::uint32_t i = 0; i < n; ++i) {
    const Entity e = w.create().value();
    (void)w.addComponent(e, Position{static_cast<float>(i), 0.0f});
    (void)w.addComponent(e, Velocity{1.0f, 0.5f});
    if (!tags) continue;
    if ((i & 1) != 0) (void)w.addComponent(e, TagA{1});
    if ((i & 2) != 0) (void)w.addComponent(e, TagB{1});
    if ((i & 4) != 0) (void)w.addComponent(e, TagC{1});
    if ((i & 8) != 0) (void)w.addComponent(e, TagD{1});
  }
  return w;
}

double timeNs(auto&& fn) {
  const auto t0 = Clock::now();
  fn();
  return std::chrono::duration<double, std::nano>(Clock::now() - t0).count();
}

void move(World& w, int passes) {
  for (int k = 0; k < passes; ++k) {
    (void)w.each<Position, Velocity>([](Entity, Position& p, const Velocity& v) {
      p.x += v.x;
      p.y += v.y;
    }, laige::Write{}, laige::Read{});
  }
}

void moveSideBySide(std::uint32_t n) {
  World plain = makeWorld(n, false);
  World tracked = makeWorld(n, false);
  (void)laige::trackChanges(tracked, tracked.componentId<Position>());
  constexpr int kPasses = 100;
  double bestPlain = 1e300, bestTracked = 1e300;
  for (int r = -2; r < 15; ++r) {  // alternating rounds, two warm-up
    const double a = timeNs([&] { move(plain, kPasses); });
    const double b = timeNs([&] { move(tracked, kPasses); });
    if (r < 0) continue;
    bestPlain = std::min(bestPlain, a);
    bestTracked = std::min(bestTracked, b);
  }
  const double units = static_cast<double>(n) * kPasses;
  std::printf("pass move_untracked_n%u %.3f ns/entity\n", n, bestPlain / units);
  std::printf("pass move_tracked_n%u %.3f ns/entity\n", n, bestTracked / units);
  std::printf("ratio move_tracked/untracked_n%u %.3f\n", n, bestTracked / bestPlain);
}

void changedQueries(std::uint32_t n) {
  World w = makeWorld(n, true);
  laige::Query<laige::Reads<Position>, laige::Changed<Position>> changed;
  laige::Query<laige::Reads<Position>> all;
  float sink = 0;
  (void)changed.each(w, [&](Entity, const Position& p) { sink += p.x; });  // starts tracking, sees all
  constexpr int kCalls = 200;
  double none = 1e300, read = 1e300, marked = 1e300;
  for (int r = -2; r < 9; ++r) {
    const double a = timeNs([&] {
      for (int k = 0; k < kCalls; ++k) (void)changed.each(w, [&](Entity, const Position& p) { sink += p.x; });
    });
    const double b = timeNs([&] {
      for (int k = 0; k < kCalls; ++k) (void)all.each(w, [&](Entity, const Position& p) { sink += p.x; });
    });
    move(w, 1);  // marks every row (a bulk mark per archetype)
    const double c = timeNs([&] { (void)changed.each(w, [&](Entity, const Position& p) { sink += p.x; }); });
    if (r < 0) continue;
    none = std::min(none, a / kCalls);
    read = std::min(read, b / kCalls);
    marked = std::min(marked, c);
  }
  std::printf("pass changed_none_n%u %.1f ns/call (%u archetypes)\n", n, none, w.archetypeCount());
  std::printf("pass read_all_n%u %.1f ns/call\n", n, read);
  std::printf("pass changed_all_n%u %.3f ns/entity (%g)\n", n, marked / n, static_cast<double>(sink > 0));
}

std::uint64_t gObserved = 0;
laige::Status countAdd(laige::ObserverContext&) {
  ++gObserved;
  return {};
}

void spawnCycle(World& w, std::uint32_t n) {
  for (std::uint32_t i = 0; i < n; ++i) {
    const Entity e = w.create().value();
    (void)w.addComponent(e, Position{1.0f, 2.0f});
    (void)w.addComponent(e, Velocity{1.0f, 0.5f});
  }
  (void)w.clear();
}

void spawnSideBySide(std::uint32_t n) {
  World plain = makeWorld(n, false);
  World tracked = makeWorld(n, false);
  World observed = makeWorld(n, false);
  for (World* w : {&tracked, &observed}) {
    (void)laige::trackChanges(*w, w->componentId<Position>());
    (void)laige::trackChanges(*w, w->componentId<Velocity>());
  }
  (void)laige::observe<Position>(observed, laige::ObserverEvent::OnAdd, &countAdd);
  for (World* w : {&plain, &tracked, &observed}) (void)w->clear();
  double a = 1e300, b = 1e300, c = 1e300;
  for (int r = -2; r < 9; ++r) {
    const double x = timeNs([&] { spawnCycle(plain, n); });
    const double y = timeNs([&] { spawnCycle(tracked, n); });
    const double z = timeNs([&] { spawnCycle(observed, n); });
    if (r < 0) continue;
    a = std::min(a, x);
    b = std::min(b, y);
    c = std::min(c, z);
  }
  std::printf("pass spawn_plain_n%u %.1f ns/entity\n", n, a / n);
  std::printf("pass spawn_tracked_n%u %.1f ns/entity\n", n, b / n);
  std::printf("pass spawn_observed_n%u %.1f ns/entity (%llu calls)\n", n, c / n,
              static_cast<unsigned long long>(gObserved));
  std::printf("ratio spawn_tracked/plain_n%u %.3f\n", n, b / a);
}

}  // namespace

int main() {
  laige::log::Logger::instance().setGlobalMinimum(laige::log::Level::Off);  // growth infos are expected
  moveSideBySide(10000);
  moveSideBySide(65000);
  changedQueries(10000);
  changedQueries(65000);
  spawnSideBySide(10000);
  return 0;
}
