// relations_timing.cpp - transform propagation down a hierarchy
// (docs/relations.md#costs), natively and inside wasm, from this one file
// (build/native-release/laige_relations_timing, build/wasm/
// laige_relations_timing.js under node).
//
// A seeded forest of N entities (a world's maximum, 65,536: depth up to 8,
// random fan-out: each entity's parent is a random earlier entity of depth
// < 8, or none with probability 1/64), each with a Local and a World 2-D
// transform in Q16.16 (cos, sin, x, y) and ChildOf its parent. Passes, the
// fastest of their rounds, alternating round by round in one run:
//   query     the cascade query option: one Query<Reads<Local>,
//             Writes<World>>::eachCascade<World>(ChildOf) pass, World =
//             up World x Local (roots: World = Local), the order cached
//   rebuild   the same pass right after a row move (a tag component added
//             to or removed from one entity), so it rebuilds the order first
//   recheck   the same pass right after an in-place add (no row moved): it
//             checks the order instead of rebuilding it
//   cascade   roots' World = Local, then eachCascade(ChildOf): World =
//             parent World x Local (reads through ComponentReader, the
//             write through get<World>)
//   walk      eachCascade alone (a callback that only reads the handles)
//   floor     the same products over flat arrays in the same parent-first
//             order (parent index per entry): the memory-bound floor
// Output: "pass <name> <ms> ms/tick (<ns> ns/entity)", the per-round and
// best ratios to the floor, the figures scaled to 100,000 entities, and the
// load average (natively; under node the caller prints `uptime`). Asserts
// only that every pass computes the same transforms.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "laige/logging.h"
#include "laige/prng.h"
#include "laige/query_object.h"
#include "laige/relations.h"
#include "laige/world.h"

namespace {

using laige::Entity;
using laige::World;
using Clock = std::chrono::steady_clock;

struct Xf {
  std::int32_t c, s, x, y;  // Q16.16 raw: rotation cos, sin; translation
};
struct LocalXf {
  std::int32_t c, s, x, y;
};
LAIGE_COMPONENT(LocalXf, c, s, x, y);
struct WorldXf {
  std::int32_t c, s, x, y;
};
LAIGE_COMPONENT(WorldXf, c, s, x, y);
struct ChildOf {
  Entity target;
};
LAIGE_COMPONENT(ChildOf, target);
struct Marked {
  std::int32_t v;
};
LAIGE_COMPONENT(Marked, v);

// Q16.16 product (round toward minus infinity, like an arithmetic shift).
inline std::int32_t q(std::int32_t a, std::int32_t b) noexcept {
  return static_cast<std::int32_t>((static_cast<std::int64_t>(a) * b) >> 16);
}
template <class P, class L, class O>
inline void compose(const P& p, const L& l, O& o) noexcept {
  o.c = q(p.c, l.c) - q(p.s, l.s);
  o.s = q(p.s, l.c) + q(p.c, l.s);
  o.x = p.x + q(p.c, l.x) - q(p.s, l.y);
  o.y = p.y + q(p.s, l.x) + q(p.c, l.y);
}

void printLoad(const char* when) {
  std::FILE* f = std::fopen("/proc/loadavg", "r");
  char buf[64] = "n/a (not readable here)";
  if (f != nullptr) {
    if (std::fgets(buf, sizeof buf, f) == nullptr) buf[0] = 0;
    std::fclose(f);
    for (char* c = buf; *c != 0; ++c) {
      if (*c == '\n') *c = 0;
    }
  }
  std::printf("load %s: %s\n", when, buf);
}

double nowNs() { return std::chrono::duration<double, std::nano>(Clock::now().time_since_epoch()).count(); }

}  // namespace

int main() {
  laige::log::Logger::instance().setGlobalMinimum(laige::log::Level::Off);
  constexpr std::uint32_t kN = laige::Entity::kMaxEntities;
  World::Options o;
  o.capacity = kN;
  o.churnPerFrameBudget = 0;
  World w = World::create(o).takeValue();
  (void)w.registerComponent<LocalXf>();
  (void)w.registerComponent<WorldXf>();
  (void)w.registerComponent<Marked>();
  laige::RelationOptions ro;
  ro.onTargetDestroyed = laige::OnTargetDestroyed::Destroy;
  const laige::ComponentTypeId childOf = laige::registerRelation<ChildOf>(w, ro).value();

  laige::Prng rng(2026);
  std::vector<Entity> handle(kN);
  std::vector<std::int32_t> parent(kN, -1);
  std::vector<std::uint8_t> depth(kN, 0);
  std::vector<Entity> roots;
  for (std::uint32_t i = 0; i < kN; ++i) {
    handle[i] = w.create().value();
    const std::uint64_t r = rng.next_u64();
    LocalXf l{static_cast<std::int32_t>(0x10000 - (r & 0x3FF)), static_cast<std::int32_t>((r >> 10) & 0x3FF),
              static_cast<std::int32_t>((r >> 20) & 0xFFFFF), static_cast<std::int32_t>((r >> 40) & 0xFFFFF)};
    (void)w.addComponent(handle[i], l);
    (void)w.addComponent(handle[i], WorldXf{});
    if (i == 0 || (r >> 58) == 0) {
      roots.push_back(handle[i]);
      continue;
    }
    std::uint32_t p = static_cast<std::uint32_t>(rng.next_u64() % i);
    while (depth[p] >= 7 && parent[p] >= 0) p = static_cast<std::uint32_t>(parent[p]);
    if (depth[p] >= 7) {
      roots.push_back(handle[i]);
      continue;
    }
    parent[i] = static_cast<std::int32_t>(p);
    depth[i] = static_cast<std::uint8_t>(depth[p] + 1);
    if (!laige::addRelation(w, handle[i], childOf, handle[p]).ok()) return 1;
  }
  // The floor's arrays: the entities in the cascade's order (roots first).
  std::vector<std::uint32_t> order;
  for (Entity r : roots) order.push_back(r.id());
  (void)laige::eachCascade(w, childOf, [&](Entity s, Entity) { order.push_back(s.id()); });
  std::vector<std::uint32_t> pos(kN);
  for (std::uint32_t k = 0; k < kN; ++k) pos[order[k]] = k;
  std::vector<Xf> local(kN), world(kN);
  std::vector<std::int32_t> parentAt(kN);
  for (std::uint32_t k = 0; k < kN; ++k) {
    const LocalXf& l = *w.get<LocalXf>(handle[order[k]]);
    local[k] = Xf{l.c, l.s, l.x, l.y};
    parentAt[k] = parent[order[k]] < 0 ? -1 : static_cast<std::int32_t>(pos[static_cast<std::uint32_t>(parent[order[k]])]);
  }
  std::uint32_t maxDepth = 0;
  for (std::uint8_t d : depth) maxDepth = std::max<std::uint32_t>(maxDepth, d);

  const auto cascade = [&] {
    const auto localOf = w.reader<LocalXf>();
    for (Entity r : roots) {
      const LocalXf& l = *localOf.get(r);
      *w.get<WorldXf>(r) = WorldXf{l.c, l.s, l.x, l.y};
    }
    (void)laige::eachCascade(w, childOf, [&](Entity s, Entity p) {
      const WorldXf pw = *w.get<WorldXf>(p);
      compose(pw, *localOf.get(s), *w.get<WorldXf>(s));
    });
  };
  const auto floor = [&] {
    for (std::uint32_t k = 0; k < kN; ++k) {
      if (parentAt[k] < 0) world[k] = local[k];
      else compose(world[static_cast<std::uint32_t>(parentAt[k])], local[k], world[k]);
    }
  };
  std::uint64_t visits = 0;
  const auto walk = [&] {
    (void)laige::eachCascade(w, childOf, [&](Entity s, Entity p) { visits += s.bits() ^ p.bits(); });
  };
  laige::Query<laige::Reads<LocalXf>, laige::Writes<WorldXf>> xf(w);
  const auto query = [&] {
    (void)xf.eachCascade<WorldXf>(w, childOf, [](Entity, const LocalXf& l, WorldXf& o, const WorldXf* up) {
      if (up == nullptr) o = WorldXf{l.c, l.s, l.x, l.y};
      else compose(*up, l, o);
    });
  };
  const LocalXf keep = *w.get<LocalXf>(handle[0]);
  const auto overwrite = [&] { (void)w.addComponent(handle[0], keep); };  // in place: no row moves
  bool marked = false;
  const auto move = [&] {  // one row moves (to the tagged archetype and back)
    if (marked) (void)w.removeComponent<Marked>(handle[kN / 2]);
    else (void)w.addComponent(handle[kN / 2], Marked{1});
    marked = !marked;
  };
  // Every pass computes the floor's transforms (checked before and after timing).
  const auto same = [&](const char* name) {
    for (std::uint32_t k = 0; k < kN; ++k) {
      const WorldXf& a = *w.get<WorldXf>(handle[order[k]]);
      if (a.c != world[k].c || a.s != world[k].s || a.x != world[k].x || a.y != world[k].y) {
        std::printf("MISMATCH %s at %u\n", name, k);
        return false;
      }
    }
    return true;
  };
  const auto reset = [&] {
    for (Entity h : handle) *w.get<WorldXf>(h) = WorldXf{};
  };
  floor();
  reset();
  query();
  if (!same("query")) return 1;
  reset();
  cascade();
  if (!same("cascade")) return 1;
  printLoad("before");
  double bestCascade = 1e30, bestFloor = 1e30, bestWalk = 1e30, bestQuery = 1e30, bestRebuild = 1e30,
         bestRecheck = 1e30;
  constexpr int kRounds = 15;
  for (int round = 0; round < kRounds; ++round) {
    double t0 = nowNs();
    walk();
    const double tw = nowNs() - t0;
    t0 = nowNs();
    cascade();
    const double tc = nowNs() - t0;
    t0 = nowNs();
    query();
    const double tq = nowNs() - t0;
    move();
    t0 = nowNs();
    query();
    const double tr = nowNs() - t0;
    overwrite();
    t0 = nowNs();
    query();
    const double tk = nowNs() - t0;
    t0 = nowNs();
    floor();
    const double tf = nowNs() - t0;
    std::printf("round %2d query %.3f rebuild %.3f recheck %.3f cascade %.3f walk %.3f floor %.3f ms; query/floor %.2f "
                "cascade/floor %.2f cascade/query %.1f\n",
                round, tq / 1e6, tr / 1e6, tk / 1e6, tc / 1e6, tw / 1e6, tf / 1e6, tq / tf, tc / tf, tc / tq);
    bestWalk = std::min(bestWalk, tw);
    bestCascade = std::min(bestCascade, tc);
    bestQuery = std::min(bestQuery, tq);
    bestRebuild = std::min(bestRebuild, tr);
    bestRecheck = std::min(bestRecheck, tk);
    bestFloor = std::min(bestFloor, tf);
  }
  printLoad("after");
  if (!same("query (timed)")) return 1;
  std::printf("forest %u entities, %zu roots, max depth %u\n", kN, roots.size(), maxDepth);
  std::printf("pass query %.3f ms/tick (%.2f ns/entity)\n", bestQuery / 1e6, bestQuery / kN);
  std::printf("pass rebuild %.3f ms/tick (%.2f ns/entity)\n", bestRebuild / 1e6, bestRebuild / kN);
  std::printf("pass recheck %.3f ms/tick (%.2f ns/entity)\n", bestRecheck / 1e6, bestRecheck / kN);
  std::printf("pass cascade %.3f ms/tick (%.2f ns/entity)\n", bestCascade / 1e6, bestCascade / kN);
  std::printf("pass walk %.3f ms/tick (%.2f ns/entity; %llu)\n", bestWalk / 1e6, bestWalk / kN,
              static_cast<unsigned long long>(visits & 1));
  std::printf("pass floor %.3f ms/tick (%.2f ns/entity)\n", bestFloor / 1e6, bestFloor / kN);
  std::printf("ratio query/floor %.2f rebuild/floor %.2f cascade/floor %.2f\n", bestQuery / bestFloor,
              bestRebuild / bestFloor, bestCascade / bestFloor);
  const auto scaled = [&](double ns) { return ns / kN * 100000 / 1e6; };
  std::printf("scaled_100k query %.3f rebuild %.3f recheck %.3f cascade %.3f floor %.3f ms/tick\n",
              scaled(bestQuery), scaled(bestRebuild), scaled(bestRecheck), scaled(bestCascade), scaled(bestFloor));
  return 0;
}
