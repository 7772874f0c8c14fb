// state_diff_test.cpp - World::stateDiff (docs/determinism.md#the-state-hash):
// canonical order (slots ascending, presence first, components ascending
// over the union), presence and one-sided items, raw-byte comparison, the
// bounded report with the exact total, and the byte views.
#include "laige/state_hash.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "laige/assert.h"
#include "laige/world.h"

namespace laige {
namespace {

struct DPos {
  std::int32_t x, y;
};
LAIGE_COMPONENT(DPos, x, y);
struct DVel {
  std::int32_t vx, vy;
};
LAIGE_COMPONENT(DVel, vx, vy);
struct DTag {};
LAIGE_COMPONENT(DTag);
struct DHp {
  std::uint16_t hp;
};
LAIGE_COMPONENT(DHp, hp);

World makeWorld() {
  World w = World::create(32).takeValue();
  EXPECT_TRUE(w.registerComponent<DPos>().ok());
  EXPECT_TRUE(w.registerComponent<DVel>().ok());
  EXPECT_TRUE(w.registerComponent<DTag>().ok());
  EXPECT_TRUE(w.registerComponent<DHp>().ok());
  return w;
}

std::vector<StateDiffItem> diffAll(const World& a, const World& b, std::uint32_t maxItems,
                                   std::uint32_t* total = nullptr) {
  std::vector<StateDiffItem> items;
  const std::uint32_t n = a.stateDiff(b, maxItems, [&](const StateDiffItem& it) { items.push_back(it); });
  if (total != nullptr) *total = n;
  return items;
}

TEST(StateDiff, IdenticalWorldsHaveNoDifference) {
  World a = makeWorld();
  World b = makeWorld();
  EXPECT_EQ(a.stateDiff(b, 16, [](const StateDiffItem&) { ADD_FAILURE(); }), 0u);
  for (World* w : {&a, &b}) {
    const Entity e = w->create().value();
    ASSERT_TRUE(w->addComponent(e, DPos{1, 2}).ok());
    ASSERT_TRUE(w->addComponent(e, DTag{}).ok());
  }
  EXPECT_EQ(a.stateDiff(b, 16, [](const StateDiffItem&) { ADD_FAILURE(); }), 0u);
  EXPECT_EQ(a.stateDiff(a, 16, [](const StateDiffItem&) { ADD_FAILURE(); }), 0u);
}

TEST(StateDiff, CanonicalOrderPresenceFirstThenTheUnionAscending) {
  World a = makeWorld();
  World b = makeWorld();
  const ComponentTypeId pos = a.componentId<DPos>();
  const ComponentTypeId vel = a.componentId<DVel>();
  const ComponentTypeId tag = a.componentId<DTag>();
  const ComponentTypeId hp = a.componentId<DHp>();
  // Slot 0: both live; A {Pos(1,2), Hp}, B {Pos(1,3), Vel, Tag}.
  // Slot 1: live in A only, with {Vel}.
  // Slot 2: live in B only, bare.
  // Slot 3: both live, same bytes: no item.
  Entity a0 = a.create().value(), a1 = a.create().value(), a2 = a.create().value(), a3 = a.create().value();
  Entity b0 = b.create().value(), b1 = b.create().value(), b2 = b.create().value(), b3 = b.create().value();
  ASSERT_TRUE(a.addComponent(a0, DPos{1, 2}).ok());
  ASSERT_TRUE(a.addComponent(a0, DHp{9}).ok());
  ASSERT_TRUE(b.addComponent(b0, DTag{}).ok());
  ASSERT_TRUE(b.addComponent(b0, DVel{5, 5}).ok());
  ASSERT_TRUE(b.addComponent(b0, DPos{1, 3}).ok());
  ASSERT_TRUE(a.addComponent(a1, DVel{7, 8}).ok());
  ASSERT_TRUE(b.destroy(b1).ok());
  ASSERT_TRUE(a.destroy(a2).ok());
  ASSERT_TRUE(a.addComponent(a3, DHp{4}).ok());
  ASSERT_TRUE(b.addComponent(b3, DHp{4}).ok());
  (void)b2;

  std::uint32_t total = 0;
  const auto items = diffAll(a, b, 64, &total);
  ASSERT_EQ(total, 7u);
  ASSERT_EQ(items.size(), 7u);
  // slot 0: Pos differs (both), Vel b_only, Tag b_only, Hp a_only.
  EXPECT_EQ(items[0].slot, 0);
  EXPECT_EQ(items[0].componentId, pos);
  EXPECT_TRUE(items[0].presentInA && items[0].presentInB);
  EXPECT_EQ(items[0].size, 8u);
  ASSERT_NE(items[0].bytesA, nullptr);
  ASSERT_NE(items[0].bytesB, nullptr);
  DPos pa{}, pb{};
  std::memcpy(&pa, items[0].bytesA, 8);
  std::memcpy(&pb, items[0].bytesB, 8);
  EXPECT_EQ(pa.y, 2);
  EXPECT_EQ(pb.y, 3);
  EXPECT_EQ(items[0].bytesA, static_cast<const std::uint8_t*>(a.getBytes(a0, pos)));
  EXPECT_EQ(items[1].componentId, vel);
  EXPECT_TRUE(!items[1].presentInA && items[1].presentInB);
  EXPECT_EQ(items[1].bytesA, nullptr);
  EXPECT_NE(items[1].bytesB, nullptr);
  EXPECT_EQ(items[2].componentId, tag);
  EXPECT_EQ(items[2].size, 0u);
  EXPECT_TRUE(!items[2].presentInA && items[2].presentInB);
  EXPECT_EQ(items[3].componentId, hp);
  EXPECT_EQ(items[3].size, 2u);
  EXPECT_TRUE(items[3].presentInA && !items[3].presentInB);
  // slot 1: presence (A only) first, then its Vel (A only).
  EXPECT_EQ(items[4].slot, 1);
  EXPECT_EQ(items[4].componentId, 0u);
  EXPECT_EQ(items[4].size, 0u);
  EXPECT_TRUE(items[4].presentInA && !items[4].presentInB);
  EXPECT_EQ(items[4].bytesA, nullptr);
  EXPECT_EQ(items[4].bytesB, nullptr);
  EXPECT_EQ(items[5].slot, 1);
  EXPECT_EQ(items[5].componentId, vel);
  EXPECT_TRUE(items[5].presentInA && !items[5].presentInB);
  // slot 2: presence (B only), no components.
  EXPECT_EQ(items[6].slot, 2);
  EXPECT_EQ(items[6].componentId, 0u);
  EXPECT_TRUE(!items[6].presentInA && items[6].presentInB);
  // The reverse diff mirrors the sides.
  const auto rev = diffAll(b, a, 64);
  ASSERT_EQ(rev.size(), 7u);
  EXPECT_TRUE(rev[4].presentInB && !rev[4].presentInA);
}

TEST(StateDiff, GenerationMismatchIsAPresenceItemOnBothSides) {
  World a = makeWorld();
  World b = makeWorld();
  (void)a.create();
  ASSERT_TRUE(b.destroy(b.create().value()).ok());
  (void)b.create();  // slot 0 again, generation 2
  const auto items = diffAll(a, b, 8);
  ASSERT_EQ(items.size(), 1u);
  EXPECT_EQ(items[0].componentId, 0u);
  EXPECT_TRUE(items[0].presentInA && items[0].presentInB);
}

TEST(StateDiff, BoundedReportExactTotal) {
  World a = makeWorld();
  World b = makeWorld();
  for (int i = 0; i < 20; ++i) {
    ASSERT_TRUE(a.addComponent(a.create().value(), DPos{i, 0}).ok());
    ASSERT_TRUE(b.addComponent(b.create().value(), DPos{i, 1}).ok());
  }
  std::uint32_t total = 0;
  auto items = diffAll(a, b, 5, &total);
  EXPECT_EQ(total, 20u);
  ASSERT_EQ(items.size(), 5u);
  for (std::uint16_t k = 0; k < 5; ++k) EXPECT_EQ(items[k].slot, k);  // the FIRST items
  items = diffAll(a, b, 0, &total);  // count only
  EXPECT_EQ(total, 20u);
  EXPECT_TRUE(items.empty());
  items = diffAll(a, b, 1000, &total);
  EXPECT_EQ(items.size(), 20u);
}

TEST(StateDiff, RowOrderDoesNotMatter) {
  // A's rows arrive in descending slot order (an unsorted tail), B's in
  // ascending order: the diff looks rows up by slot, so there is nothing.
  World a = makeWorld();
  World b = makeWorld();
  Entity ea[6], eb[6];
  for (int i = 0; i < 6; ++i) {
    ea[i] = a.create().value();
    eb[i] = b.create().value();
  }
  for (int i = 5; i >= 0; --i) ASSERT_TRUE(a.addComponent(ea[i], DVel{i, i}).ok());
  for (int i = 0; i < 6; ++i) ASSERT_TRUE(b.addComponent(eb[i], DVel{i, i}).ok());
  EXPECT_EQ(a.stateDiff(b, 8, [](const StateDiffItem&) { ADD_FAILURE(); }), 0u);
  EXPECT_EQ(a.stateHash(1), b.stateHash(1));
}

TEST(StateDiff, MovedFromWorldIsEmpty) {
  World a = makeWorld();
  (void)a.create();
  (void)a.create();
  const World empty;
  std::uint32_t total = 0;
  const auto items = diffAll(a, empty, 8, &total);
  EXPECT_EQ(total, 2u);
  ASSERT_EQ(items.size(), 2u);
  EXPECT_TRUE(items[1].presentInA && !items[1].presentInB);
}

TEST(StateDiff, AgreesWithTheHashes) {
  // Zero differences <=> equal component-state hashes, on a few mutations.
  World a = makeWorld();
  World b = makeWorld();
  for (int i = 0; i < 8; ++i) {
    for (World* w : {&a, &b}) ASSERT_TRUE(w->addComponent(w->create().value(), DHp{static_cast<std::uint16_t>(i)}).ok());
  }
  EXPECT_EQ(a.componentStateHash(0), b.componentStateHash(0));
  *b.get<DHp>(b.handleAt(6)) = DHp{600};
  EXPECT_NE(a.componentStateHash(0), b.componentStateHash(0));
  const auto items = diffAll(a, b, 8);
  ASSERT_EQ(items.size(), 1u);
  EXPECT_EQ(items[0].slot, 6);
  EXPECT_EQ(items[0].size, 2u);
}

#if LAIGE_DEBUG_ASSERTS && GTEST_HAS_DEATH_TEST
TEST(StateDiffDeathTest, MismatchedRegistriesAssertInDebug) {
  World a = makeWorld();
  World b = World::create(8).takeValue();
  ASSERT_TRUE(b.registerComponent<DHp>().ok());
  EXPECT_DEATH((void)a.stateDiff(b, 1, [](const StateDiffItem&) {}), "registered different components");
}
#endif

}  // namespace
}  // namespace laige
