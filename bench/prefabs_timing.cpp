// prefabs_timing.cpp - instantiate against building the same entities by
// hand (docs/prefabs.md#costs), natively and inside wasm, from this one file
// (build/native-release/laige_prefabs_timing, build/wasm/
// laige_prefabs_timing.js under node).
//
// A prefab tree of 5 entities: a root {Pos, Vel, Hp}, three children {Pos,
// ChildOf} and one grandchild {Pos, ChildOf}. Each round makes 2,000
// instances (10,000 entities) and destroys them again (untimed: destroying
// a root cascades). Passes, the fastest of 15 rounds each, alternating
// round by round in one run:
//   instantiate  instantiate(world, prefab, {hierarchy = ChildOf})
//   deferred     instantiateDeferred inside one World::defer (record + apply)
//   manual       create + addComponent per component + addRelation, the
//                same entities and values in the same order
// Output: "pass <name> <ms> ms (<ns> ns/entity)" and the ratios to manual.
// Asserts only that the passes build the same state (equal state hashes).
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "laige/logging.h"
#include "laige/prefabs.h"
#include "laige/relations.h"
#include "laige/world.h"

namespace {

using laige::Entity;
using laige::World;
using Clock = std::chrono::steady_clock;

struct Pos {
  std::int32_t x, y;
};
LAIGE_COMPONENT(Pos, x, y);
struct Vel {
  std::int32_t x, y;
};
LAIGE_COMPONENT(Vel, x, y);
struct Hp {
  std::int32_t hp;
};
LAIGE_COMPONENT(Hp, hp);
struct ChildOf {
  Entity target;
};
LAIGE_COMPONENT(ChildOf, target);

constexpr int kInstances = 2000;
constexpr int kTree = 5;
constexpr int kRounds = 15;

struct Scene {
  World w = World::create(65536).value();
  laige::ComponentTypeId childOf = 0;
  Entity prefab;
  laige::InstantiateOptions opts;
  std::vector<Entity> roots;
  Scene() {
    laige::RelationOptions ro;
    ro.onTargetDestroyed = laige::OnTargetDestroyed::Destroy;
    childOf = laige::registerRelation<ChildOf>(w, ro).value();
    (void)w.registerComponent<Pos>();
    (void)w.registerComponent<Vel>();
    (void)w.registerComponent<Hp>();
    prefab = laige::createPrefab(w).value();
    (void)w.addComponent(prefab, Pos{1, 2});
    (void)w.addComponent(prefab, Vel{3, 4});
    (void)w.addComponent(prefab, Hp{100});
    Entity first;
    for (int k = 0; k < 3; ++k) {
      const Entity c = laige::createPrefab(w).value();
      (void)w.addComponent(c, Pos{10 + k, 0});
      (void)laige::addRelation(w, c, childOf, prefab);
      if (k == 0) first = c;
    }
    const Entity g = laige::createPrefab(w).value();
    (void)w.addComponent(g, Pos{20, 0});
    (void)laige::addRelation(w, g, childOf, first);
    opts.hierarchy = childOf;
    roots.reserve(kInstances);
  }
  void clearInstances() {
    for (const Entity r : roots) (void)w.destroy(r);
    roots.clear();
  }
  void instantiateAll() {
    for (int i = 0; i < kInstances; ++i) roots.push_back(laige::instantiate(w, prefab, opts).value());
  }
  void deferredAll() {
    (void)w.defer([&](laige::CommandBuffer&) {
      for (int i = 0; i < kInstances; ++i) roots.push_back(laige::instantiateDeferred(w, prefab, opts).value());
    });
  }
  void manualAll() {
    for (int i = 0; i < kInstances; ++i) {
      Entity e[kTree];
      for (Entity& x : e) x = w.create().value();
      (void)w.addComponent(e[0], Pos{1, 2});
      (void)w.addComponent(e[0], Vel{3, 4});
      (void)w.addComponent(e[0], Hp{100});
      for (int k = 0; k < 3; ++k) {
        (void)w.addComponent(e[1 + k], Pos{10 + k, 0});
        (void)w.addComponent(e[1 + k], ChildOf{e[0]});
      }
      (void)w.addComponent(e[4], Pos{20, 0});
      (void)w.addComponent(e[4], ChildOf{e[1]});
      roots.push_back(e[0]);
    }
  }
};

template <class Fn>
double timeMs(Fn&& fn) {
  const auto t0 = Clock::now();
  fn();
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

}  // namespace

int main() {
  laige::log::Logger::instance().setGlobalMinimum(laige::log::Level::Off);
  Scene a, b, c;
  double best[3] = {1e30, 1e30, 1e30};
  for (int round = 0; round < kRounds; ++round) {
    best[0] = std::min(best[0], timeMs([&] { a.instantiateAll(); }));
    best[1] = std::min(best[1], timeMs([&] { b.deferredAll(); }));
    best[2] = std::min(best[2], timeMs([&] { c.manualAll(); }));
    if (a.w.stateHash(0) != b.w.stateHash(0) || a.w.stateHash(0) != c.w.stateHash(0)) {
      std::printf("prefabs_timing: the passes built different states\n");
      return EXIT_FAILURE;
    }
    a.clearInstances();
    b.clearInstances();
    c.clearInstances();
  }
  const char* names[3] = {"instantiate", "deferred", "manual"};
  for (int p = 0; p < 3; ++p) {
    std::printf("pass %-11s %.3f ms (%.1f ns/entity)\n", names[p], best[p], best[p] * 1e6 / (kInstances * kTree));
  }
  std::printf("instantiate / manual %.2f, deferred / manual %.2f\n", best[0] / best[2], best[1] / best[2]);
  return EXIT_SUCCESS;
}
