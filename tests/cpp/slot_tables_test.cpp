// The per-slot tables and column base places the TypeScript field handles
// read without a call (World::archetypeTable, rowTable, columnDataRef):
// they locate exactly the bytes getBytes returns, through moves, removals,
// normalisation and column growth; they are stable for the world's
// lifetime; unknown archetypes and absent components give nullptr.
#include <gtest/gtest.h>

#include <cstdint>
#include <utility>
#include <vector>

#include "laige/world.h"

namespace laige {
namespace {

struct SPos {
  float x, y;
};
LAIGE_COMPONENT(SPos, x, y);
struct SHp {
  std::int32_t v;
};
LAIGE_COMPONENT(SHp, v);

World makeWorld(std::uint32_t capacity) {
  World::Options o;
  o.capacity = capacity;
  o.churnPerFrameBudget = 0;
  World w = World::create(o).takeValue();
  EXPECT_EQ(w.registerComponent<SPos>().value(), 1u);
  EXPECT_EQ(w.registerComponent<SHp>().value(), 2u);
  return w;
}

// What the tables say about (e, c): the address of e's bytes of c, or nullptr.
const void* viaTables(const World& w, Entity e, ComponentTypeId c) {
  const ArchetypeId a = w.archetypeTable()[e.id()];
  if (a == kNoArchetype) return nullptr;
  std::uint8_t* const* place = w.columnDataRef(a, c);
  if (place == nullptr) return nullptr;
  return *place + std::size_t{w.rowTable()[e.id()]} * w.componentInfo(c).value().size;
}

TEST(SlotTables, LocateWhatGetBytesReturnsThroughMovesAndGrowth) {
  World w = makeWorld(2048);
  const ArchetypeId* archetypes = w.archetypeTable();
  const std::uint32_t* rows = w.rowTable();
  ASSERT_NE(archetypes, nullptr);
  ASSERT_NE(rows, nullptr);
  std::vector<Entity> live;
  std::uint32_t bits = 12345;
  for (int step = 0; step < 4000; ++step) {
    bits = bits * 1664525u + 1013904223u;
    const std::uint32_t op = (bits >> 8) % 6;
    if (op < 2 || live.empty()) {
      const Entity e = w.create().value();
      live.push_back(e);
      ASSERT_TRUE(w.addComponent(e, SPos{static_cast<float>(step), 1.0f}).ok());
      if ((bits & 1) != 0) {
        ASSERT_TRUE(w.addComponent(e, SHp{step}).ok());
      }
    } else {
      const std::size_t k = (bits >> 12) % live.size();
      const Entity e = live[k];
      if (op == 2) {
        ASSERT_TRUE(w.removeComponent<SPos>(e).ok());
      } else if (op == 3) {
        ASSERT_TRUE(w.addComponent(e, SHp{-step}).ok());
      } else if (op == 4) {
        ASSERT_TRUE(w.removeComponent<SHp>(e).ok());
      } else {
        ASSERT_TRUE(w.destroy(e).ok());
        EXPECT_EQ(archetypes[e.id()], kNoArchetype) << "a destroyed slot has no archetype";
        live.erase(live.begin() + static_cast<std::ptrdiff_t>(k));
      }
    }
    if (step % 700 == 0) (void)w.stateHash(0);  // normalises every archetype: rows move
  }
  for (const Entity e : live) {
    for (ComponentTypeId c = 1; c <= 2; ++c) {
      EXPECT_EQ(viaTables(w, e, c), std::as_const(w).getBytes(e, c)) << "slot " << e.id() << " component " << c;
    }
  }
  EXPECT_EQ(w.archetypeTable(), archetypes) << "allocated at creation: stable";
  EXPECT_EQ(w.rowTable(), rows);
}

TEST(SlotTables, ColumnPlacesAreStableAndNullForUnknowns) {
  World w = makeWorld(4096);
  const Entity first = w.create().value();
  ASSERT_TRUE(w.addComponent(first, SPos{1.0f, 2.0f}).ok());
  const ArchetypeId a = w.archetypeTable()[first.id()];
  std::uint8_t* const* place = w.columnDataRef(a, 1);
  ASSERT_NE(place, nullptr);
  std::uint8_t* const before = *place;
  for (int i = 0; i < 3000; ++i) ASSERT_TRUE(w.addComponent(w.create().value(), SPos{0.0f, 0.0f}).ok());
  EXPECT_EQ(w.columnDataRef(a, 1), place) << "the place of the base pointer does not move";
  EXPECT_NE(*place, before) << "the column itself grew and moved";
  EXPECT_EQ(viaTables(w, first, 1), std::as_const(w).getBytes(first, 1));
  EXPECT_EQ(w.columnDataRef(a, 2), nullptr) << "the archetype lacks SHp";
  EXPECT_EQ(w.columnDataRef(a, 0), nullptr);
  EXPECT_EQ(w.columnDataRef(a, 257), nullptr);
  EXPECT_EQ(w.columnDataRef(kNoArchetype, 1), nullptr);
  EXPECT_EQ(w.columnDataRef(static_cast<ArchetypeId>(a + 1), 1), nullptr) << "not created";
  World moved = std::move(w);
  EXPECT_EQ(w.archetypeTable(), nullptr);  // NOLINT(bugprone-use-after-move): moved-from is defined
  EXPECT_EQ(w.rowTable(), nullptr);        // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(w.columnDataRef(a, 1), nullptr);  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(moved.columnDataRef(a, 1), place);
}

}  // namespace
}  // namespace laige
