// entity_test.cpp - the 32-bit handle and the Entities allocator (docs/entity.md).
#include "laige/entity.h"

#include <gtest/gtest.h>

#include <unordered_set>

#include "support/counting_allocator.h"

namespace laige {
namespace {

TEST(Entity, IsThirtyTwoBitsIdHighGenerationLow) {
  static_assert(sizeof(Entity) == 4);
  const Entity e(3, 7);
  EXPECT_EQ(e.id(), 3);
  EXPECT_EQ(e.index(), 3);
  EXPECT_EQ(e.generation(), 7);
  EXPECT_EQ(e.bits(), (3u << 16) | 7u);
  EXPECT_EQ(Entity::fromBits(e.bits()), e);
  EXPECT_EQ(Entity(0xFFFF, 0xFFFF).bits(), 0xFFFFFFFFu);
}

TEST(Entity, SeedExampleDefaultsGenerationToZero) {
  const Entity handle(3);
  EXPECT_EQ(handle, Entity(3, 0));
  EXPECT_EQ(handle.generation(), 0);
  EXPECT_TRUE(Entity{}.isNull());
  EXPECT_FALSE(handle.isNull());
}

TEST(Entity, EqualityOrderAndHash) {
  EXPECT_NE(Entity(1, 1), Entity(1, 2));
  EXPECT_NE(Entity(1, 1), Entity(2, 1));
  EXPECT_LT(Entity(1, 9), Entity(2, 0));
  std::unordered_set<Entity> set{Entity(1, 1), Entity(1, 1), Entity(1, 2)};
  EXPECT_EQ(set.size(), 2u);
  EXPECT_EQ(std::hash<Entity>{}(Entity(5, 6)), std::hash<std::uint32_t>{}(Entity(5, 6).bits()));
}

TEST(Entity, PrintableForm) {
  EXPECT_EQ(toString(Entity(12, 3)), "Entity(12, 3)");
  EXPECT_EQ(toString(Entity(65535, 65535)), "Entity(65535, 65535)");
  char buf[8];
  const std::size_t n = formatEntity(Entity(12, 3), buf, sizeof buf);
  EXPECT_EQ(n, 7u);
  EXPECT_STREQ(buf, "Entity(");  // truncated, still NUL-terminated
  EXPECT_EQ(formatEntity(Entity(1, 1), nullptr, 10), 0u);
}

TEST(Entities, SeedExample) {
  Entities entities;
  const Entity first = entities.spawn().value();
  const Entity second = entities.spawn().value();
  EXPECT_EQ(first, Entity(0, 0));
  EXPECT_EQ(second, Entity(1, 0));
  EXPECT_TRUE(entities.despawn(first));
  EXPECT_FALSE(entities.isAlive(first));
  const Entity reused = entities.spawn().value();
  EXPECT_EQ(reused, Entity(0, 1));
  EXPECT_EQ(entities.length(), 2u);
  EXPECT_TRUE(entities.isAlive(second));
}

TEST(Entities, FreshAscendingFreedLifo) {
  Entities es(16);
  Entity h[6];
  for (int i = 0; i < 6; ++i) h[i] = es.spawn().value();
  for (int i = 0; i < 6; ++i) EXPECT_EQ(h[i].id(), i);
  EXPECT_TRUE(es.despawn(h[1]));
  EXPECT_TRUE(es.despawn(h[4]));
  EXPECT_TRUE(es.despawn(h[2]));
  // LIFO: the one freed last first.
  EXPECT_EQ(es.spawn().value(), Entity(2, 1));
  EXPECT_EQ(es.spawn().value(), Entity(4, 1));
  EXPECT_EQ(es.spawn().value(), Entity(1, 1));
  // Then fresh ascending again.
  EXPECT_EQ(es.spawn().value(), Entity(6, 0));
}

TEST(Entities, StaleNeverIssuedAndDoubleDespawnChangeNothing) {
  Entities es(4);
  const Entity a = es.spawn().value();
  EXPECT_FALSE(es.despawn(Entity(3, 0)));  // never issued
  EXPECT_FALSE(es.despawn(Entity(0, 5)));  // wrong generation
  EXPECT_TRUE(es.despawn(a));
  EXPECT_FALSE(es.despawn(a));  // already despawned
  EXPECT_EQ(es.length(), 0u);
  const Entity b = es.spawn().value();
  EXPECT_EQ(b, Entity(0, 1));
  EXPECT_FALSE(es.despawn(a));  // stale: the slot is alive at a newer generation
  EXPECT_TRUE(es.isAlive(b));
  EXPECT_EQ(es.length(), 1u);
}

TEST(Entities, CapacityIsABudget) {
  Entities es(2);
  ASSERT_TRUE(es.spawn().ok());
  ASSERT_TRUE(es.spawn().ok());
  const auto r = es.spawn();
  ASSERT_TRUE(r.isError());
  EXPECT_EQ(r.error(), ErrorCode::BudgetExhausted);
  EXPECT_EQ(es.length(), 2u);
  Entities zero(0);
  EXPECT_EQ(zero.spawn().error(), ErrorCode::BudgetExhausted);
  EXPECT_EQ(Entities(1u << 20).capacity(), Entity::kMaxEntities);
}

TEST(Entities, GenerationWrapsToTheFirstGeneration) {
  Entities allocator(1, 0);
  Entities world(1, 1);
  for (int i = 0; i < 65535; ++i) {
    ASSERT_TRUE(allocator.despawn(allocator.spawn().value()));
    ASSERT_TRUE(world.despawn(world.spawn().value()));
  }
  EXPECT_EQ(allocator.spawn().value(), Entity(0, 65535));
  // World mode skips the reserved 0: 65535 -> 1 after one more release.
  EXPECT_EQ(world.spawn().value(), Entity(0, 1));  // 1 + 65535 releases, wrapped past 0
}

TEST(Entities, DespawnAllHandsOutLowestFirst) {
  Entities es(8);
  Entity h[5];
  for (auto& e : h) e = es.spawn().value();
  es.despawn(h[3]);
  es.despawn(h[1]);
  es.despawnAll();
  EXPECT_EQ(es.length(), 0u);
  for (const auto& e : h) EXPECT_FALSE(es.isAlive(e));
  for (std::uint16_t i = 0; i < 5; ++i) EXPECT_EQ(es.spawn().value(), Entity(i, 1)) << i;
  EXPECT_EQ(es.spawn().value(), Entity(5, 0));
}

TEST(Entities, SameOperationsSameState) {
  Entities a(8), b(8);
  for (Entities* es : {&a, &b}) {
    const Entity x = es->spawn().value();
    ASSERT_TRUE(es->spawn().ok());
    es->despawn(x);
    ASSERT_TRUE(es->spawn().ok());
  }
  EXPECT_TRUE(a == b);
  ASSERT_TRUE(b.spawn().ok());
  EXPECT_FALSE(a == b);
}

TEST(Entities, MovedFromIsEmpty) {
  Entities a(4);
  const Entity e = a.spawn().value();
  Entities b(std::move(a));
  EXPECT_TRUE(b.isAlive(e));
  EXPECT_EQ(a.capacity(), 0u);  // NOLINT(bugprone-use-after-move): documented state
  EXPECT_FALSE(a.isAlive(e));
  EXPECT_EQ(a.spawn().error(), ErrorCode::BudgetExhausted);
  EXPECT_FALSE(a.despawn(e));
}

TEST(Entities, SpawnAndDespawnAllocateNothing) {
  Entities es(1024);
  test::AllocationWindow w;
  for (int round = 0; round < 4; ++round) {
    Entity hs[1024];
    for (auto& h : hs) h = es.spawn().value();
    for (auto& h : hs) es.despawn(h);
  }
  EXPECT_EQ(w.allocations(), 0u);
}

}  // namespace
}  // namespace laige
