// archetype_move_test.cpp - the row move of add and remove keeps every
// value byte for byte, whatever the column sizes and the position of the
// added or removed column (docs/archetype.md). The move copies columns by
// position (the target's columns are the source's with one inserted or
// dropped); a set whose columns are all 4 or all 8 bytes takes one
// fixed-size move per column, other sets take 0, 4, 8, 12 and 16 bytes as
// fixed-size moves and every other size in a second pass, so the
// components here mix all kinds on both sides of every added or removed
// column.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <vector>

#include "laige/prng.h"
#include "laige/world.h"

namespace laige {
namespace {

// Byte sizes of the runtime components (0 = a tag); registered in this
// order, so the component ids ascend with the index.
constexpr std::array<std::uint32_t, 16> kSizes = {0, 1, 2, 3, 4, 5, 6, 8, 9, 12, 13, 16, 17, 20, 24, 40};
// Sets of one column size only (an archetype whose columns are all 4 or all
// 8 bytes takes the uniform-size move), mixed with their neighbours.
constexpr std::array<std::uint32_t, 8> kUniformSizes = {8, 8, 8, 8, 4, 4, 4, 4};
constexpr std::uint32_t kEntities = 48;

std::uint8_t patternByte(std::uint32_t entity, std::uint32_t component, std::uint32_t round,
                         std::uint32_t byte) {
  return static_cast<std::uint8_t>(entity * 31u + component * 7u + round * 13u + byte * 3u + 1u);
}

struct Model {
  bool has = false;
  std::uint32_t round = 0;  // the round whose pattern the value holds
};

// Toggles components of the given sizes on random entities (each entity a
// window of four consecutive components starting at i % windows) and checks
// every value byte for byte against a model.
template <std::size_t K>
void churnAndCheck(const std::array<std::uint32_t, K>& sizes, std::uint32_t windows,
                   std::uint32_t minArchetypes) {
  World w = World::create(kEntities).takeValue();
  std::vector<ComponentTypeId> ids;
  for (std::size_t k = 0; k < sizes.size(); ++k) {
    static const char* const names[] = {"C0", "C1", "C2",  "C3",  "C4",  "C5",  "C6",  "C7",
                                        "C8", "C9", "C10", "C11", "C12", "C13", "C14", "C15"};
    const ComponentField field[1] = {{"bytes", FieldKind::U8, sizes[k], 0}};
    ComponentDesc d;
    d.name = names[k];
    d.size = sizes[k];
    d.alignment = 1;
    if (sizes[k] != 0) d.fields = field;
    const Result<ComponentTypeId> id = w.registerComponentDesc(d);
    ASSERT_TRUE(id.ok()) << names[k];
    ids.push_back(id.value());
  }
  std::vector<Entity> es;
  for (std::uint32_t i = 0; i < kEntities; ++i) es.push_back(w.create().value());
  std::vector<std::array<Model, K>> model(kEntities);

  Prng rng(0xA11C0DEull);
  std::uint8_t value[64];
  for (std::uint32_t round = 1; round <= 4000; ++round) {
    const auto i = static_cast<std::uint32_t>(rng.next_range(0, kEntities));
    // Entity i toggles the four components from i % windows on: every size
    // meets neighbours on both sides, and the sets stay within the
    // archetype budget (windows x 16 subsets).
    const std::uint32_t k = i % windows + rng.next_range(0, 4);
    Model& m = model[i][k];
    if (m.has && rng.next_range(0, 2) == 0) {
      ASSERT_TRUE(w.removeComponentById(es[i], ids[k]).ok());
      m.has = false;
    } else {
      for (std::uint32_t b = 0; b < sizes[k]; ++b) value[b] = patternByte(i, k, round, b);
      ASSERT_TRUE(w.addComponentBytes(es[i], ids[k], value, sizes[k]).ok());
      m.has = true;
      m.round = round;
    }
    // Now and then an ordered read, so that moves also land in and leave
    // normalised archetypes.
    if (round % 97 == 0) {
      for (ArchetypeId a = 1; a <= w.archetypeCount(); ++a) (void)w.archetypeSlots(a);
    }
  }
  for (std::uint32_t i = 0; i < kEntities; ++i) {
    for (std::size_t k = 0; k < sizes.size(); ++k) {
      const Model& m = model[i][k];
      ASSERT_EQ(w.hasComponent(es[i], ids[k]), m.has) << "entity " << i << " component " << k;
      if (!m.has || sizes[k] == 0) continue;
      const auto* got = static_cast<const std::uint8_t*>(static_cast<const World&>(w).getBytes(es[i], ids[k]));
      ASSERT_NE(got, nullptr);
      for (std::uint32_t b = 0; b < sizes[k]; ++b) {
        ASSERT_EQ(got[b], patternByte(i, static_cast<std::uint32_t>(k), m.round, b))
            << "entity " << i << " component size " << sizes[k] << " byte " << b;
      }
    }
  }
  const ArchetypeStats st = w.archetypeStats();
  EXPECT_GT(st.archetypeCount, minArchetypes);  // the moves crossed many component sets
  EXPECT_GT(st.totalRemoves, 500u);
}

TEST(ArchetypeMove, EveryColumnSizeSurvivesAddAndRemoveAtEveryPosition) {
  churnAndCheck(kSizes, 13, 40u);
}

TEST(ArchetypeMove, UniformSizeSetsSurviveAddAndRemoveAtEveryPosition) {
  churnAndCheck(kUniformSizes, 5, 20u);
}

}  // namespace
}  // namespace laige
