// relations_model_test.cpp - relations against a plain reference
// (docs/relations.md): random creates, adds (new target, reparent, bad
// targets), removes, destroys (cascades) and snapshot / restore round
// trips on two relations (one Destroy, one Remove). After every op the
// world and the reference agree on liveness, handles and every target;
// periodically on sourcesOf, eachCascade's order and checkRelations.
// 100,000 ops x 5 seeds in the optimised builds (native release, wasm);
// 4,000 in the debug and sanitizer builds, where a run is 10-30x slower.
// LAIGE_RELATION_MODEL_OPS=n overrides (native).
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "laige/prng.h"
#include "laige/relations.h"
#include "laige/world.h"

namespace laige {
namespace {

struct MChildOf {
  Entity target;
};
LAIGE_COMPONENT(MChildOf, target);
struct MFollows {
  Entity target;
};
LAIGE_COMPONENT(MFollows, target);

constexpr std::uint32_t kCap = 128;
constexpr std::uint32_t kNone = 0xFFFFFFFFu;

// The reference: per slot liveness, handle and target slot per relation.
struct RefSlot {
  bool alive = false;
  Entity handle;
  std::uint32_t target[2] = {kNone, kNone};
};
struct Ref {
  std::vector<RefSlot> s = std::vector<RefSlot>(kCap);
  std::vector<std::uint32_t> sources(std::uint32_t t, int rel) const {
    std::vector<std::uint32_t> out;
    for (std::uint32_t i = 0; i < kCap; ++i) {
      if (s[i].alive && s[i].target[rel] == t) out.push_back(i);
    }
    return out;
  }
  bool reaches(std::uint32_t from, std::uint32_t to, int rel) const {
    for (std::uint32_t x = from; x != kNone; x = s[x].target[rel]) {
      if (x == to) return true;
    }
    return false;
  }
  // The documented cascade: destroy order breadth first through rel 0
  // (Destroy); rel 1 (Remove) sources of a destroyed entity lose it.
  std::vector<std::uint32_t> destroy(std::uint32_t root) {
    std::vector<std::uint32_t> order{root};
    std::vector<bool> in(kCap, false);
    in[root] = true;
    for (std::size_t i = 0; i < order.size(); ++i) {
      for (std::uint32_t c : sources(order[i], 0)) {
        if (!in[c]) {
          in[c] = true;
          order.push_back(c);
        }
      }
    }
    for (std::uint32_t x : order) {
      for (std::uint32_t c : sources(x, 1)) {
        if (!in[c]) s[c].target[1] = kNone;
      }
    }
    for (std::uint32_t x : order) s[x] = RefSlot{};
    return order;
  }
  std::vector<std::uint32_t> cascadeOrder(int rel) const {
    std::vector<std::uint32_t> q;
    for (std::uint32_t r = 0; r < kCap; ++r) {
      if (s[r].alive && s[r].target[rel] == kNone) {
        for (std::uint32_t c : sources(r, rel)) q.push_back(c);
      }
    }
    for (std::size_t i = 0; i < q.size(); ++i) {
      for (std::uint32_t c : sources(q[i], rel)) q.push_back(c);
    }
    return q;
  }
};

std::uint32_t opsPerSeed() {
  if (const char* env = std::getenv("LAIGE_RELATION_MODEL_OPS")) return static_cast<std::uint32_t>(std::strtoul(env, nullptr, 0));
#if defined(NDEBUG)
  return 100000;
#else
  return 4000;
#endif
}

// Returns the final state hash mixed with the eachCascade order of both relations.
std::uint64_t runSeed(std::uint64_t seed, std::uint32_t ops, std::uint32_t& divergences) {
  World w = World::create(kCap).value();
  RelationOptions destroy;
  destroy.onTargetDestroyed = OnTargetDestroyed::Destroy;
  const ComponentTypeId rel[2] = {registerRelation<MChildOf>(w, destroy).value(),
                                  registerRelation<MFollows>(w, RelationOptions{}).value()};
  Ref ref;
  Prng rng(seed);
  const auto below = [&](std::uint32_t n) { return static_cast<std::uint32_t>(rng.next_u64() % n); };
  const auto pickLive = [&]() -> std::uint32_t {
    for (int tries = 0; tries < 8; ++tries) {
      const std::uint32_t i = below(kCap);
      if (ref.s[i].alive) return i;
    }
    return kNone;
  };
  std::vector<std::uint8_t> saved;
  Ref savedRef;
  const auto diverge = [&](std::uint32_t op, const std::string& what) {
    if (divergences++ < 5) ADD_FAILURE() << "seed " << seed << " op " << op << ": " << what;
  };
  for (std::uint32_t op = 0; op < ops; ++op) {
    const std::uint32_t kind = below(100);
    if (kind < 25) {  // create
      Result<Entity> e = w.create();
      if (e.ok()) {
        RefSlot& slot = ref.s[e.value().id()];
        if (slot.alive) diverge(op, "create reused a live slot");
        slot = RefSlot{};
        slot.alive = true;
        slot.handle = e.value();
      }
    } else if (kind < 60) {  // add / reparent (sometimes to a stale or bad target)
      const std::uint32_t src = pickLive();
      if (src == kNone) continue;
      const int r = static_cast<int>(below(2));
      std::uint32_t t = below(kCap);
      Entity target = ref.s[t].alive ? ref.s[t].handle : Entity(static_cast<std::uint16_t>(t), 1);
      if (below(10) == 0 && ref.s[t].alive) target = Entity(target.id(), static_cast<std::uint16_t>(target.generation() + 1));
      const Status st = addRelation(w, ref.s[src].handle, rel[r], target);
      std::string expect = "ok";
      if (!ref.s[t].alive || ref.s[t].handle != target) expect = "relation_target_stale";
      else if (t == src) expect = "relation_self";
      else if (ref.reaches(t, src, r)) expect = "relation_cycle";
      const std::string got = st.ok() ? "ok" : st.reason();
      if (got != expect) diverge(op, "add: " + got + " vs " + expect);
      if (st.ok()) ref.s[src].target[r] = t;
    } else if (kind < 72) {  // remove
      const std::uint32_t src = pickLive();
      if (src == kNone) continue;
      const int r = static_cast<int>(below(2));
      if (!removeRelation(w, ref.s[src].handle, rel[r]).ok()) diverge(op, "remove failed");
      ref.s[src].target[r] = kNone;
    } else if (kind < 90) {  // destroy (a cascade)
      const std::uint32_t x = pickLive();
      if (x == kNone) continue;
      if (!w.destroy(ref.s[x].handle).ok()) diverge(op, "destroy failed");
      ref.destroy(x);
    } else if (kind < 95) {  // snapshot
      saved.assign(w.snapshotSize(), 0);
      if (!w.snapshot(saved).ok()) diverge(op, "snapshot failed");
      savedRef = ref;
    } else if (!saved.empty()) {  // restore
      if (!w.restore(saved).ok()) diverge(op, "restore failed");
      ref = savedRef;
    }
    // Every op: liveness, handles and targets.
    for (std::uint32_t i = 0; i < kCap; ++i) {
      const Entity h = w.handleAt(static_cast<std::uint16_t>(i));
      const RefSlot& rs = ref.s[i];
      if (rs.alive != (h != Entity{}) || (rs.alive && h != rs.handle)) {
        diverge(op, "liveness of slot " + std::to_string(i));
        continue;
      }
      if (!rs.alive) continue;
      for (int r = 0; r < 2; ++r) {
        const Entity t = targetOf(w, h, rel[r]);
        const Entity want = rs.target[r] == kNone ? Entity{} : ref.s[rs.target[r]].handle;
        if (t != want) diverge(op, "target of slot " + std::to_string(i));
      }
    }
    if (op % 64 == 0 || op + 1 == ops) {
      if (!checkRelations(w).ok()) diverge(op, std::string("checkRelations: ") + checkRelations(w).reason());
      for (int r = 0; r < 2; ++r) {
        std::vector<std::uint32_t> order;
        (void)eachCascade(w, rel[r], [&](Entity s, Entity) { order.push_back(s.id()); });
        if (order != ref.cascadeOrder(r)) diverge(op, "eachCascade order");
        for (std::uint32_t i = 0; i < kCap; ++i) {
          if (!ref.s[i].alive) continue;
          std::vector<std::uint32_t> got;
          (void)sourcesOf(w, ref.s[i].handle, rel[r], [&](Entity s) { got.push_back(s.id()); });
          if (got != ref.sources(i, r)) diverge(op, "sourcesOf slot " + std::to_string(i));
        }
      }
    }
  }
  std::uint64_t h = w.stateHash(0);
  for (int r = 0; r < 2; ++r) {
    (void)eachCascade(w, rel[r], [&](Entity s, Entity t) { h = (h ^ (std::uint64_t{s.bits()} << 32 | t.bits())) * 0x100000001b3ull; });
  }
  return h;
}

TEST(RelationsModel, RandomOperationsMatchThePlainReference) {
  std::uint32_t divergences = 0;
  for (std::uint64_t seed : {1ull, 2ull, 3ull, 4ull, 5ull}) runSeed(seed, opsPerSeed(), divergences);
  EXPECT_EQ(divergences, 0u);
}

// The same ops give the same state natively and in wasm (one golden value
// both binaries check).
TEST(RelationsModel, NativeAndWasmReachTheSameState) {
  std::uint32_t divergences = 0;
  const std::uint64_t h = runSeed(7, 3000, divergences);
  EXPECT_EQ(divergences, 0u);
  EXPECT_EQ(h, 0x8c8f3c642f76c6a8ull) << std::hex << h;
}

}  // namespace
}  // namespace laige
