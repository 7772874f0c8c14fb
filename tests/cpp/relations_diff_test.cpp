// relations_diff_test.cpp - relations in World::stateDiff
// (docs/relations.md#relations-in-a-state-diff): a relation item names its
// source, the relation and both targets (in fields and in words from
// formatRelationDiff), "(none)" for a side without the relation, a payload
// difference is noted, and plain component items stay plain.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "laige/relations.h"
#include "laige/state_hash.h"
#include "laige/world.h"

namespace laige {
namespace {

struct ChildOf {
  Entity target;
};
LAIGE_COMPONENT(ChildOf, target);
struct Likes {
  Entity target;
  std::int32_t weight;
};
LAIGE_COMPONENT(Likes, target, weight);
struct XPos {
  std::int32_t x;
};
LAIGE_COMPONENT(XPos, x);

// Two worlds set up the same way: four entities (a parent pair, a child,
// a spare), ChildOf (destroy cascade), Likes (remove) and a plain XPos.
struct Pair {
  World a = World::create(16).takeValue();
  World b = World::create(16).takeValue();
  ComponentTypeId childOf = 0, likes = 0;
  Entity p1, p2, child, spare;
  Pair() {
    RelationOptions destroy;
    destroy.onTargetDestroyed = OnTargetDestroyed::Destroy;
    for (World* w : {&a, &b}) {
      childOf = registerRelation<ChildOf>(*w, destroy).value();
      likes = registerRelation<Likes>(*w, RelationOptions{}).value();
      EXPECT_TRUE(w->registerComponent<XPos>().ok());
      p1 = w->create().value();
      p2 = w->create().value();
      child = w->create().value();
      spare = w->create().value();
    }
  }
};

struct Item {
  StateDiffItem item;
  std::string text;
};

std::vector<Item> diff(const World& a, const World& b, std::uint32_t* total = nullptr) {
  std::vector<Item> out;
  const std::uint32_t n = a.stateDiff(b, 16, [&](const StateDiffItem& it) {
    char text[kRelationDiffTextCapacity];
    const std::size_t len = formatRelationDiff(a, it, text, sizeof text);
    out.push_back({it, std::string(text, len)});
    out.back().item.bytesA = out.back().item.bytesB = nullptr;  // views die with the callback
  });
  if (total != nullptr) *total = n;
  return out;
}

TEST(RelationsDiff, OneDifferentParentIsOneItemInWords) {
  Pair w;
  ASSERT_TRUE(addRelation(w.a, w.child, w.childOf, w.p1).ok());
  ASSERT_TRUE(addRelation(w.b, w.child, w.childOf, w.p2).ok());
  std::uint32_t total = 0;
  const std::vector<Item> items = diff(w.a, w.b, &total);
  ASSERT_EQ(total, 1u);
  ASSERT_EQ(items.size(), 1u);
  const StateDiffItem& it = items[0].item;
  EXPECT_EQ(it.slot, w.child.id());
  EXPECT_EQ(it.componentId, w.childOf);
  EXPECT_TRUE(it.presentInA && it.presentInB);
  EXPECT_TRUE(it.relation);
  EXPECT_EQ(it.entityA, w.child);
  EXPECT_EQ(it.entityB, w.child);
  EXPECT_EQ(it.targetA, w.p1);
  EXPECT_EQ(it.targetB, w.p2);
  EXPECT_EQ(items[0].text, toString(w.child) + " ChildOf " + toString(w.p1) + " -> " + toString(w.p2));
  // The words with the handles spelled out (slots 2, 0, 1 of fresh worlds).
  EXPECT_EQ(items[0].text, "Entity(2, " + std::to_string(w.child.generation()) + ") ChildOf Entity(0, " +
                               std::to_string(w.p1.generation()) + ") -> Entity(1, " +
                               std::to_string(w.p2.generation()) + ")");
}

TEST(RelationsDiff, EqualWorldsHaveNoItems) {
  Pair w;
  for (World* x : {&w.a, &w.b}) {
    ASSERT_TRUE(addRelation(*x, w.child, w.childOf, w.p1).ok());
    ASSERT_TRUE(addRelation(*x, w.spare, w.likes, w.p2).ok());
  }
  std::uint32_t total = 7;
  EXPECT_TRUE(diff(w.a, w.b, &total).empty());
  EXPECT_EQ(total, 0u);
  EXPECT_EQ(w.a.stateHash(0), w.b.stateHash(0));
}

TEST(RelationsDiff, ARelationOnOneSideOnlyShowsNone) {
  Pair w;
  ASSERT_TRUE(addRelation(w.a, w.child, w.childOf, w.p1).ok());
  std::vector<Item> items = diff(w.a, w.b);
  ASSERT_EQ(items.size(), 1u);
  EXPECT_TRUE(items[0].item.relation);
  EXPECT_TRUE(items[0].item.presentInA);
  EXPECT_FALSE(items[0].item.presentInB);
  EXPECT_EQ(items[0].item.targetA, w.p1);
  EXPECT_EQ(items[0].item.targetB, Entity{});
  EXPECT_EQ(items[0].text, toString(w.child) + " ChildOf " + toString(w.p1) + " -> (none)");
  // The other way round: the source is B's handle, A's side is (none).
  items = diff(w.b, w.a);
  ASSERT_EQ(items.size(), 1u);
  EXPECT_EQ(items[0].item.targetA, Entity{});
  EXPECT_EQ(items[0].item.targetB, w.p1);
  EXPECT_EQ(items[0].text, toString(w.child) + " ChildOf (none) -> " + toString(w.p1));
}

TEST(RelationsDiff, APayloadDifferenceIsNoted) {
  Pair w;
  ASSERT_TRUE(w.a.addComponent(w.spare, Likes{w.p1, 3}).ok());
  ASSERT_TRUE(w.b.addComponent(w.spare, Likes{w.p1, 4}).ok());
  const std::vector<Item> items = diff(w.a, w.b);
  ASSERT_EQ(items.size(), 1u);
  EXPECT_TRUE(items[0].item.relation);
  EXPECT_EQ(items[0].item.targetA, items[0].item.targetB);
  EXPECT_EQ(items[0].text, toString(w.spare) + " Likes " + toString(w.p1) + " -> " + toString(w.p1) +
                               " (payload differs)");
}

TEST(RelationsDiff, PlainComponentsAndPresenceItemsStayPlain) {
  Pair w;
  ASSERT_TRUE(w.a.addComponent(w.spare, XPos{1}).ok());
  ASSERT_TRUE(w.b.addComponent(w.spare, XPos{2}).ok());
  ASSERT_TRUE(w.b.destroy(w.p2).ok());
  const std::vector<Item> items = diff(w.a, w.b);
  ASSERT_EQ(items.size(), 2u);
  EXPECT_EQ(items[0].item.componentId, 0u);  // p2's presence (slot 1) first
  EXPECT_FALSE(items[0].item.relation);
  EXPECT_EQ(items[0].item.entityA, w.p2);
  EXPECT_EQ(items[0].item.entityB, Entity{});
  EXPECT_EQ(items[0].text, "");
  EXPECT_FALSE(items[1].item.relation);
  EXPECT_EQ(items[1].item.entityA, w.spare);
  EXPECT_EQ(items[1].text, "");
}

TEST(RelationsDiff, ACascadeShowsAsPresenceAndRelationItems) {
  Pair w;
  for (World* x : {&w.a, &w.b}) ASSERT_TRUE(addRelation(*x, w.child, w.childOf, w.p1).ok());
  ASSERT_TRUE(addRelation(w.a, w.spare, w.likes, w.p2).ok());
  ASSERT_TRUE(addRelation(w.b, w.spare, w.likes, w.p2).ok());
  ASSERT_TRUE(w.b.destroy(w.p2).ok());  // Likes: remove, the spare loses its relation
  const std::vector<Item> items = diff(w.a, w.b);
  ASSERT_EQ(items.size(), 2u);
  EXPECT_EQ(items[0].item.slot, w.p2.id());
  EXPECT_EQ(items[0].item.componentId, 0u);
  EXPECT_EQ(items[1].text, toString(w.spare) + " Likes " + toString(w.p2) + " -> (none)");
}

TEST(RelationsDiff, TheWordsTruncateSafely) {
  Pair w;
  ASSERT_TRUE(addRelation(w.a, w.child, w.childOf, w.p1).ok());
  ASSERT_TRUE(addRelation(w.b, w.child, w.childOf, w.p2).ok());
  std::string full, cut;
  char small[10];
  (void)w.a.stateDiff(w.b, 1, [&](const StateDiffItem& it) {
    char text[kRelationDiffTextCapacity];
    full.assign(text, formatRelationDiff(w.a, it, text, sizeof text));
    cut.assign(small, formatRelationDiff(w.a, it, small, sizeof small));
    EXPECT_EQ(formatRelationDiff(w.a, it, nullptr, 4), 0u);
  });
  EXPECT_EQ(cut, full.substr(0, 9));
  EXPECT_EQ(small[9], '\0');
}

}  // namespace
}  // namespace laige
