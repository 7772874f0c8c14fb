// query_model_test.cpp - query objects kept across a random stream of
// mutations (create, destroy, add, overwrite, remove, writes through a
// query, clear, world moves), checked after every step against an
// independent model: which live entities each query visits, in which order
// (ascending archetype id, then slot id), with which values and which
// optional pointers null, and that world.each visits the same rows. The
// idea of model_test.cpp, for cached queries.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <map>
#include <utility>
#include <vector>

#include "laige/prng.h"
#include "laige/query_object.h"
#include "laige/world.h"

namespace laige {
namespace {

struct QmA {
  std::int32_t v;
};
LAIGE_COMPONENT(QmA, v);
struct QmB {
  std::int32_t v;
};
LAIGE_COMPONENT(QmB, v);
struct QmC {
  std::int32_t v;
};
LAIGE_COMPONENT(QmC, v);
struct QmTag {};
LAIGE_COMPONENT(QmTag);

constexpr std::uint32_t kCapacity = 96;
enum : std::uint32_t { kA = 0, kB = 1, kC = 2, kTag = 3 };

// The model: per live slot its generation-free component values
// (index kA..kTag; the tag's value is unused).
struct ModelEntity {
  bool has[4] = {false, false, false, false};
  std::int32_t value[4] = {0, 0, 0, 0};
};
using Model = std::map<std::uint32_t, ModelEntity>;

struct Row {
  std::uint32_t slot;
  std::int32_t a, b;
  bool operator==(const Row&) const = default;
};

// The expected visits of a query: the model's entities that pass `match`,
// ordered by (the world's archetype id, slot id) - the order contract.
template <class Match, class Values>
std::vector<Row> expected(World& w, const Model& m, Match match, Values values) {
  std::vector<std::pair<std::pair<ArchetypeId, std::uint32_t>, Row>> rows;
  for (const auto& [slot, me] : m) {
    if (!match(me)) continue;
    const auto [a, b] = values(me);
    rows.push_back({{w.archetypeOf(w.handleAt(static_cast<std::uint16_t>(slot))), slot}, Row{slot, a, b}});
  }
  std::sort(rows.begin(), rows.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<Row> out;
  for (const auto& r : rows) out.push_back(r.second);
  return out;
}

World makeWorld() {
  World::Options o;
  o.capacity = kCapacity;
  o.churnPerFrameBudget = 0;
  World w = World::create(o).takeValue();
  (void)w.registerComponent<QmA>();
  (void)w.registerComponent<QmB>();
  (void)w.registerComponent<QmC>();
  (void)w.registerComponent<QmTag>();
  return w;
}

Status addTo(World& w, Entity e, std::uint32_t c, std::int32_t v) {
  switch (c) {
    case kA: return w.addComponent(e, QmA{v});
    case kB: return w.addComponent(e, QmB{v});
    case kC: return w.addComponent(e, QmC{v});
    default: return w.addComponent(e, QmTag{});
  }
}
Status removeFrom(World& w, Entity e, std::uint32_t c) {
  switch (c) {
    case kA: return w.removeComponent<QmA>(e);
    case kB: return w.removeComponent<QmB>(e);
    case kC: return w.removeComponent<QmC>(e);
    default: return w.removeComponent<QmTag>(e);
  }
}

TEST(QueryModel, QueriesStayRightAcrossARandomMutationStream) {
  World w = makeWorld();
  Model model;
  Prng rng(0x5eed);
  // Built once, before any archetype exists; kept across everything below.
  Query<Writes<QmA>, Without<QmC>> bumpA;
  Query<Reads<QmB>, Optional<QmA>, With<QmTag>> taggedB(w);
  Query<With<QmA>, Reads<QmB>, Without<QmTag>> plainAB(w);
  std::uint32_t checks = 0;
  for (std::uint32_t step = 0; step < 4000; ++step) {
    const std::uint32_t op = rng.next_range(0, 100);
    const auto pick = [&]() -> std::uint32_t {
      auto it = model.begin();
      std::advance(it, rng.next_range(0, static_cast<std::uint32_t>(model.size())));
      return it->first;
    };
    if (op < 25 && model.size() < kCapacity) {
      const Entity e = w.create().value();
      model[e.id()] = ModelEntity{};
    } else if (op < 35 && !model.empty()) {
      const std::uint32_t slot = pick();
      ASSERT_TRUE(w.destroy(w.handleAt(static_cast<std::uint16_t>(slot))).ok());
      model.erase(slot);
    } else if (op < 65 && !model.empty()) {
      const std::uint32_t slot = pick();
      const std::uint32_t c = rng.next_range(0, 4);
      const auto v = static_cast<std::int32_t>(rng.next_range(0, 1000));
      ASSERT_TRUE(addTo(w, w.handleAt(static_cast<std::uint16_t>(slot)), c, v).ok());
      model[slot].has[c] = true;
      model[slot].value[c] = c == kTag ? 0 : v;
    } else if (op < 85 && !model.empty()) {
      const std::uint32_t slot = pick();
      const std::uint32_t c = rng.next_range(0, 4);
      ASSERT_TRUE(removeFrom(w, w.handleAt(static_cast<std::uint16_t>(slot)), c).ok());
      model[slot].has[c] = false;
    } else if (op < 95) {
      // A write pass through a query: +1 on A wherever there is no C.
      ASSERT_TRUE(bumpA.each(w, [](Entity, QmA& a) { a.v += 1; }).ok());
      for (auto& [slot, me] : model) {
        if (me.has[kA] && !me.has[kC]) me.value[kA] += 1;
      }
    } else if (op < 97) {
      ASSERT_TRUE(w.clear().ok());
      model.clear();
    } else {
      World moved = std::move(w);  // the caches travel with the state
      w = std::move(moved);
    }
    // Check every query against the model.
    std::vector<Row> seen;
    ASSERT_TRUE(bumpA.each(w, [&](Entity e, QmA& a) { seen.push_back({e.id(), a.v, 0}); }).ok());
    ASSERT_EQ(seen, expected(w, model, [](const ModelEntity& me) { return me.has[kA] && !me.has[kC]; },
                             [](const ModelEntity& me) { return std::pair{me.value[kA], 0}; }))
        << "step " << step;
    seen.clear();
    ASSERT_TRUE(taggedB.each(w, [&](Entity e, const QmB& b, const QmA* a) {
                        seen.push_back({e.id(), b.v, a != nullptr ? a->v : -1});
                      }).ok());
    ASSERT_EQ(seen, expected(w, model, [](const ModelEntity& me) { return me.has[kB] && me.has[kTag]; },
                             [](const ModelEntity& me) {
                               return std::pair{me.value[kB], me.has[kA] ? me.value[kA] : -1};
                             }))
        << "step " << step;
    seen.clear();
    ASSERT_TRUE(plainAB.each(w, [&](Entity e, const QmB& b) { seen.push_back({e.id(), b.v, 0}); }).ok());
    const std::vector<Row> ab =
        expected(w, model, [](const ModelEntity& me) { return me.has[kA] && me.has[kB] && !me.has[kTag]; },
                 [](const ModelEntity& me) { return std::pair{me.value[kB], 0}; });
    ASSERT_EQ(seen, ab) << "step " << step;
    ASSERT_EQ(plainAB.count(w), ab.size());
    // world.each over {A, B} visits exactly the {A, B} supersets, in the same order.
    seen.clear();
    ASSERT_TRUE((w.each<QmA, QmB>([&](Entity e, const QmA&, const QmB& b) { seen.push_back({e.id(), b.v, 0}); },
                                  Read{}, Read{}).ok()));
    ASSERT_EQ(seen, expected(w, model, [](const ModelEntity& me) { return me.has[kA] && me.has[kB]; },
                             [](const ModelEntity& me) { return std::pair{me.value[kB], 0}; }))
        << "step " << step;
    ++checks;
  }
  EXPECT_EQ(checks, 4000u);
  EXPECT_GT(w.archetypeCount(), 8u);  // the stream did create many sets
}

}  // namespace
}  // namespace laige
