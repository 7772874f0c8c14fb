// state_tree_test.cpp - the state hash tree (laige/desync.h,
// docs/desync.md#the-state-hash-tree): every node against a plain reference
// (leaf payloads built from the public API, hashes with XXH3 directly), a
// known answer (the same natively and in wasm), independence of history and
// archetype layout, NaN canonicalisation, findDifferingRows against
// stateDiff on random perturbations with O(log n) exchanged hashes, bad
// input refused with nothing changed, and zero allocation.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <set>
#include <utility>
#include <vector>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "laige/desync.h"
#include "laige/prng.h"
#include "support/counting_allocator.h"
#include "support/desync_scene.h"

namespace laige {
namespace {

using test::DHp;
using test::DPos;
using test::DVel;
using test::makeDesyncWorld;

struct TFloat {
  float v;
};
LAIGE_COMPONENT(TFloat, v);
struct TTag {};
LAIGE_COMPONENT(TTag);

void putU32(std::vector<std::uint8_t>& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}

// The leaf payload of docs/desync.md#the-state-hash-tree from the public API.
std::vector<std::uint8_t> referenceChunk(const World& w, std::uint32_t part, std::uint32_t chunk) {
  std::vector<std::uint8_t> out;
  for (std::uint32_t s = chunk * 64; s < chunk * 64 + 64 && s < w.capacity(); ++s) {
    const Entity e = w.handleAt(static_cast<std::uint16_t>(s));
    if (!w.isValid(e)) continue;
    if (part == 0) {
      putU32(out, s);
      putU32(out, e.generation());
      continue;
    }
    if (!w.hasComponent(e, part)) continue;
    putU32(out, s);
    const auto* bytes = static_cast<const std::uint8_t*>(w.getBytes(e, part));
    out.insert(out.end(), bytes, bytes + w.componentInfo(part).value().size);
  }
  return out;
}

std::uint64_t hashOf(const std::vector<std::uint8_t>& bytes) {
  return bytes.empty() ? 0 : XXH3_64bits(bytes.data(), bytes.size());
}
std::uint64_t combine(const std::vector<std::uint64_t>& h) {
  for (std::uint64_t x : h) {
    if (x != 0) return XXH3_64bits(h.data(), h.size() * 8);  // little-endian targets only (as every target is)
  }
  return 0;
}

TEST(StateTree, EveryNodeMatchesThePlainReference) {
  SystemSchedule sched;
  World w = makeDesyncWorld(300, 11, nullptr, sched);
  for (int i = 0; i < 25; ++i) ASSERT_TRUE(w.runSystems(sched).ok());
  // Free a few slots so that chunks hold gaps.
  for (std::uint16_t s : {3, 64, 65, 200}) ASSERT_TRUE(w.destroy(w.handleAt(s)).ok());
  const std::uint32_t parts = w.componentCount() + 2;
  std::vector<std::uint64_t> root(parts);
  ASSERT_EQ(stateTreeChildren(w, {0, 0, 0}, root).value(), parts);
  std::vector<std::uint8_t> leaf(stateTreeLeafCapacity(w));
  for (std::uint32_t p = 0; p + 1 < parts; ++p) {
    std::vector<std::uint64_t> groups(32);
    ASSERT_EQ(stateTreeChildren(w, {1, p, 0}, groups).value(), 32u);
    for (std::uint32_t g = 0; g < 32; ++g) {
      std::vector<std::uint64_t> chunks(32);
      ASSERT_EQ(stateTreeChildren(w, {2, p, g}, chunks).value(), 32u);
      for (std::uint32_t k = 0; k < 32; ++k) {
        const std::vector<std::uint8_t> ref = referenceChunk(w, p, g * 32 + k);
        const Result<std::size_t> n = stateTreeLeaf(w, {3, p, g * 32 + k}, leaf);
        ASSERT_TRUE(n.ok());
        ASSERT_EQ(n.value(), ref.size());
        EXPECT_TRUE(ref.empty() || std::memcmp(leaf.data(), ref.data(), ref.size()) == 0);
        EXPECT_EQ(chunks[k], hashOf(ref)) << p << " " << g << " " << k;
      }
      EXPECT_EQ(groups[g], combine(chunks));
    }
    EXPECT_EQ(root[p], combine(groups));
  }
  // The systems leaf: count, then per system id, has, seed, state words.
  const Result<std::size_t> n = stateTreeLeaf(w, {1, parts - 1, 0}, leaf);
  ASSERT_TRUE(n.ok());
  std::vector<std::uint8_t> ref;
  putU32(ref, w.systemCount());
  for (std::uint32_t id = 1; id <= w.systemCount(); ++id) {
    const SystemRngState st = w.systemRngState(SystemId{id}).value();
    putU32(ref, id);
    putU32(ref, st.hasSubstream ? 1 : 0);
    for (std::uint64_t word : {st.seed, st.state1, st.state2}) {
      putU32(ref, static_cast<std::uint32_t>(word));
      putU32(ref, static_cast<std::uint32_t>(word >> 32));
    }
  }
  ASSERT_EQ(n.value(), ref.size());
  EXPECT_TRUE(ref.empty() || std::memcmp(leaf.data(), ref.data(), ref.size()) == 0);
  EXPECT_EQ(root[parts - 1], hashOf(ref));
}

TEST(StateTree, KnownAnswer) {
  World w = World::create(100).takeValue();
  ASSERT_TRUE(w.registerComponent<DPos>().ok());
  ASSERT_TRUE(w.registerComponent<TTag>().ok());
  ASSERT_TRUE(w.registerComponent<TFloat>().ok());
  EXPECT_EQ(stateTreeRoot(w, 0), 0xc865296560751c6dull) << std::hex << stateTreeRoot(w, 0);
  const Entity a = w.create().value();
  const Entity b = w.create().value();
  ASSERT_TRUE(w.addComponent(a, DPos{1, -2}).ok());
  ASSERT_TRUE(w.addComponent(b, TTag{}).ok());
  ASSERT_TRUE(w.addComponent(b, TFloat{0.5f}).ok());
  // A tag contributes its slots, a float its canonical bytes.
  std::vector<std::uint8_t> leaf(stateTreeLeafCapacity(w));
  for (std::uint32_t p = 0; p <= 3; ++p) {
    const std::vector<std::uint8_t> ref = referenceChunk(w, p, 0);
    const Result<std::size_t> n = stateTreeLeaf(w, {3, p, 0}, leaf);
    ASSERT_TRUE(n.ok());
    ASSERT_EQ(n.value(), ref.size()) << p;
    EXPECT_TRUE(ref.empty() || std::memcmp(leaf.data(), ref.data(), ref.size()) == 0) << p;
  }
  EXPECT_EQ(stateTreeRoot(w, 7), 0xcda1081b0201f055ull) << std::hex << stateTreeRoot(w, 7);
  World gone = std::move(w);
  World empty = World::create(10).takeValue();
  EXPECT_EQ(stateTreeRoot(w, 0), stateTreeRoot(empty, 0));  // a moved-from world is the empty world
  EXPECT_EQ(stateTreeRoot(w, 0), 0x82daac3190cf1615ull) << std::hex << stateTreeRoot(w, 0);
}

TEST(StateTree, DependsOnTheLiveStateOnly) {
  // The same live state reached in two orders (other archetype ids, other
  // row orders, another capacity) has the same tree; NaN payloads are one NaN.
  World::Options o;
  o.capacity = 200;
  World a = World::create(o).takeValue();
  o.capacity = 300;
  World b = World::create(o).takeValue();
  for (World* w : {&a, &b}) {
    ASSERT_TRUE(w->registerComponent<DPos>().ok());
    ASSERT_TRUE(w->registerComponent<DVel>().ok());
    ASSERT_TRUE(w->registerComponent<TFloat>().ok());
    for (int i = 0; i < 150; ++i) (void)w->create().value();
  }
  for (std::uint16_t s = 0; s < 150; ++s) {
    const std::uint16_t t = static_cast<std::uint16_t>(149 - s);
    ASSERT_TRUE(a.addComponent(a.handleAt(s), DPos{s, 1}).ok());
    if (s % 2 == 0) {
      ASSERT_TRUE(a.addComponent(a.handleAt(s), DVel{1, s}).ok());
    }
    if (t % 2 == 0) {
      ASSERT_TRUE(b.addComponent(b.handleAt(t), DVel{1, t}).ok());
    }
    ASSERT_TRUE(b.addComponent(b.handleAt(t), DPos{t, 1}).ok());
  }
  std::uint32_t nanA = 0x7fc00001u;
  std::uint32_t nanB = 0xffc12345u;
  float fa;
  float fb;
  std::memcpy(&fa, &nanA, 4);
  std::memcpy(&fb, &nanB, 4);
  ASSERT_TRUE(a.addComponent(a.handleAt(7), TFloat{fa}).ok());
  ASSERT_TRUE(b.addComponent(b.handleAt(7), TFloat{fb}).ok());
  EXPECT_EQ(stateTreeRoot(a, 3), stateTreeRoot(b, 3));
  EXPECT_NE(stateTreeRoot(a, 3), stateTreeRoot(a, 4));
  ASSERT_TRUE(b.addComponent(b.handleAt(7), TFloat{1.0f}).ok());
  EXPECT_NE(stateTreeRoot(a, 3), stateTreeRoot(b, 3));
}

struct Collected {
  std::vector<StateTreeDifference> items;
};
void collect(void* context, const StateTreeDifference& d) noexcept {
  static_cast<Collected*>(context)->items.push_back(d);
}

TEST(StateTree, FindsOneDifferingRowWithLogarithmicHashes) {
  SystemSchedule sa;
  SystemSchedule sb;
  World a = makeDesyncWorld(10000, 3, nullptr, sa);
  World b = makeDesyncWorld(10000, 3, nullptr, sb);
  b.get<DVel>(b.handleAt(6789))->dy ^= 1 << 20;
  std::vector<std::uint8_t> scratch(2 * stateTreeLeafCapacity(a));
  Collected found;
  StateTreeWalkStats stats;
  const Result<std::uint32_t> n =
      findDifferingRows(a, stateTreeSourceOf(a), stateTreeSourceOf(b), scratch, 10, &collect, &found, &stats);
  ASSERT_TRUE(n.ok()) << n.status().reason();
  ASSERT_EQ(n.value(), 1u);
  ASSERT_EQ(found.items.size(), 1u);
  const StateTreeDifference& d = found.items[0];
  EXPECT_EQ(d.slot, 6789u);
  EXPECT_EQ(d.componentId, a.componentId<DVel>());
  EXPECT_TRUE(d.presentInA && d.presentInB);
  EXPECT_EQ(d.size, sizeof(DVel));
  DVel va;
  DVel vb;
  std::memcpy(&va, d.bytesA, sizeof va);
  std::memcpy(&vb, d.bytesB, sizeof vb);
  EXPECT_EQ(va.dy ^ vb.dy, 1 << 20);
  EXPECT_EQ(firstDifferingField(a, d.componentId, d.bytesA, d.bytesB), 1u);
  // Root (5 parts), one part (32 groups), one group (32 chunks), one leaf.
  EXPECT_EQ(stats.childQueries, 3u);
  EXPECT_EQ(stats.leafQueries, 1u);
  EXPECT_EQ(stats.hashes, 5u + 32u + 32u);
  EXPECT_LE(stats.leafBytesB, 64u * (4 + sizeof(DVel)));
}

// Random perturbations: the walk finds exactly the (slot, component) pairs
// stateDiff reports (a presence item is the entity part's row).
TEST(StateTree, FindsWhatStateDiffFinds) {
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    SystemSchedule sa;
    SystemSchedule sb;
    World a = makeDesyncWorld(700, seed, nullptr, sa);
    World b = makeDesyncWorld(700, seed, nullptr, sb);
    for (int i = 0; i < 5; ++i) {
      ASSERT_TRUE(a.runSystems(sa).ok());
      ASSERT_TRUE(b.runSystems(sb).ok());
    }
    Prng rng(seed);
    const std::uint32_t changes = rng.next_range(1, 12);
    for (std::uint32_t i = 0; i < changes; ++i) {
      const Entity e = b.handleAt(static_cast<std::uint16_t>(rng.next_range(0, 700)));
      if (!b.isValid(e)) continue;  // a stale handle is misuse (debug asserts)
      switch (rng.next_range(0, 5)) {
        case 0: if (DPos* p = b.get<DPos>(e)) p->x += 1; break;
        case 1: (void)b.removeComponent<DHp>(e); break;
        case 2: (void)b.addComponent(e, DHp{1, 2}); break;
        case 3: (void)b.destroy(e); break;
        default: (void)b.create(); break;
      }
    }
    std::set<std::pair<std::uint32_t, std::uint32_t>> expected;
    const std::uint32_t total = a.stateDiff(b, 100000, [&](const StateDiffItem& item) {
      expected.insert({item.slot, item.componentId});
    });
    std::vector<std::uint8_t> scratch(2 * stateTreeLeafCapacity(a));
    Collected found;
    const Result<std::uint32_t> n =
        findDifferingRows(a, stateTreeSourceOf(a), stateTreeSourceOf(b), scratch, 100000, &collect, &found);
    ASSERT_TRUE(n.ok());
    std::set<std::pair<std::uint32_t, std::uint32_t>> got;
    for (const StateTreeDifference& d : found.items) {
      ASSERT_NE(d.part, a.componentCount() + 1) << "systems are equal here";
      got.insert({d.slot, d.componentId});
    }
    EXPECT_EQ(got, expected) << "seed " << seed;
    EXPECT_EQ(n.value(), total);
  }
}

TEST(StateTree, FindsADifferingSystemStream) {
  SystemSchedule sa;
  SystemSchedule sb;
  World a = makeDesyncWorld(50, 2, nullptr, sa);
  World b = makeDesyncWorld(50, 3, nullptr, sb);  // another seed: other substreams (and other rows)
  std::vector<std::uint8_t> scratch(2 * stateTreeLeafCapacity(a));
  Collected found;
  ASSERT_TRUE(findDifferingRows(a, stateTreeSourceOf(a), stateTreeSourceOf(b), scratch, 100000, &collect, &found).ok());
  std::set<std::uint32_t> systems;
  for (const StateTreeDifference& d : found.items) {
    if (d.part == a.componentCount() + 1) systems.insert(d.slot);
  }
  EXPECT_EQ(systems, (std::set<std::uint32_t>{1, 2, 3}));
}

TEST(StateTree, BadInputRefusedWithNothingChanged) {
  SystemSchedule sched;
  World w = makeDesyncWorld(100, 5, nullptr, sched);
  const std::uint64_t hash = w.stateHash(0);
  const std::uint64_t root = stateTreeRoot(w, 0);
  std::vector<std::uint64_t> out(300, 0xabababababababab);
  std::vector<std::uint8_t> leaf(stateTreeLeafCapacity(w), 0xab);
  const StateTreeNode invalid[] = {{0, 1, 0}, {0, 0, 1}, {1, 5, 0}, {1, 0, 1}, {2, 4, 0}, {2, 0, 32},
                                   {3, 0, 1024}, {3, 4, 0}, {4, 0, 0}, {0xFFFFFFFFu, 0, 0}};
  for (const StateTreeNode& node : invalid) {
    const Result<std::uint32_t> c = stateTreeChildren(w, node, out);
    ASSERT_FALSE(c.ok());
    EXPECT_STREQ(c.status().reason(), "state_tree_node_invalid");
    const Result<std::size_t> l = stateTreeLeaf(w, node, leaf);
    ASSERT_FALSE(l.ok());
    EXPECT_STREQ(l.status().reason(), "state_tree_node_invalid");
  }
  for (const StateTreeNode& node : {StateTreeNode{3, 1, 0}, StateTreeNode{1, 4, 0}}) {
    EXPECT_STREQ(stateTreeChildren(w, node, out).status().reason(), "state_tree_node_is_leaf");
  }
  for (const StateTreeNode& node : {StateTreeNode{0, 0, 0}, StateTreeNode{1, 1, 0}, StateTreeNode{2, 1, 0}}) {
    EXPECT_STREQ(stateTreeLeaf(w, node, leaf).status().reason(), "state_tree_node_invalid");
  }
  const Result<std::uint32_t> small = stateTreeChildren(w, {0, 0, 0}, std::span(out).first(4));
  ASSERT_FALSE(small.ok());
  EXPECT_STREQ(small.status().reason(), "state_tree_buffer_too_small");
  EXPECT_EQ(small.status().error(), ErrorCode::BudgetExhausted);
  const Result<std::size_t> shortLeaf = stateTreeLeaf(w, {3, 1, 0}, std::span(leaf).first(10));
  ASSERT_FALSE(shortLeaf.ok());
  EXPECT_STREQ(shortLeaf.status().reason(), "state_tree_buffer_too_small");
  for (std::uint64_t x : out) EXPECT_EQ(x, 0xabababababababab);
  for (std::uint8_t x : leaf) EXPECT_EQ(x, 0xab);
  // The walk: a short scratch, a missing answer function, a mismatched shape,
  // a malformed leaf.
  std::vector<std::uint8_t> scratch(2 * stateTreeLeafCapacity(w));
  Collected found;
  const StateTreeSource good = stateTreeSourceOf(w);
  EXPECT_STREQ(findDifferingRows(w, good, good, std::span(scratch).first(16), 10, &collect, &found).status().reason(),
               "state_tree_buffer_too_small");
  StateTreeSource broken = good;
  broken.leaf = nullptr;
  EXPECT_STREQ(findDifferingRows(w, good, broken, scratch, 10, &collect, &found).status().reason(),
               "state_tree_source_invalid");
  World other = World::create(100).takeValue();
  ASSERT_TRUE(other.registerComponent<DPos>().ok());
  EXPECT_STREQ(findDifferingRows(w, good, stateTreeSourceOf(other), scratch, 10, &collect, &found).status().reason(),
               "state_tree_shape_mismatch");
  // A remote whose leaves list slots out of order.
  StateTreeSource liar = good;
  liar.children = [](void* context, StateTreeNode node, std::span<std::uint64_t> o) noexcept {
    Result<std::uint32_t> r = stateTreeChildren(*static_cast<const World*>(context), node, o);
    if (r.ok()) o[0] ^= 1;  // every first child differs
    return r;
  };
  liar.leaf = [](void*, StateTreeNode, std::span<std::uint8_t> o) noexcept -> Result<std::size_t> {
    const std::uint8_t bytes[16] = {5, 0, 0, 0, 1, 0, 0, 0, 4, 0, 0, 0, 1, 0, 0, 0};
    std::memcpy(o.data(), bytes, 16);
    return std::size_t{16};
  };
  const Result<std::uint32_t> lied = findDifferingRows(w, good, liar, scratch, 10, &collect, &found);
  ASSERT_FALSE(lied.ok());
  EXPECT_STREQ(lied.status().reason(), "state_tree_leaf_malformed");
  EXPECT_EQ(lied.status().error(), ErrorCode::MalformedInput);
  EXPECT_TRUE(found.items.empty());
  World gone = std::move(other);
  EXPECT_STREQ(stateTreeChildren(other, {0, 0, 0}, out).status().reason(), "world_moved_from");
  EXPECT_STREQ(stateTreeLeaf(other, {3, 0, 0}, leaf).status().reason(), "world_moved_from");
  EXPECT_STREQ(findDifferingRows(other, good, good, scratch, 10, &collect, &found).status().reason(),
               "world_moved_from");
  EXPECT_EQ(w.stateHash(0), hash);
  EXPECT_EQ(stateTreeRoot(w, 0), root);
}

TEST(StateTree, AllocatesNothing) {
  SystemSchedule sa;
  SystemSchedule sb;
  World a = makeDesyncWorld(2000, 8, nullptr, sa);
  World b = makeDesyncWorld(2000, 8, nullptr, sb);
  b.get<DPos>(b.handleAt(1500))->x += 3;
  std::vector<std::uint8_t> scratch(2 * stateTreeLeafCapacity(a));
  std::vector<std::uint64_t> out(64);
  std::uint32_t count = 0;
  const auto counter = [](void* context, const StateTreeDifference&) noexcept { ++*static_cast<std::uint32_t*>(context); };
  test::AllocationWindow window;
  const std::uint64_t root = stateTreeRoot(a, 1);
  const Result<std::uint32_t> children = stateTreeChildren(a, {1, 1, 0}, out);
  const Result<std::size_t> leaf = stateTreeLeaf(a, {3, 1, 3}, scratch);
  const Result<std::uint32_t> n = findDifferingRows(a, stateTreeSourceOf(a), stateTreeSourceOf(b), scratch, 10,
                                                    counter, &count);
  EXPECT_EQ(window.allocations(), 0u);
  EXPECT_NE(root, 0u);
  EXPECT_TRUE(children.ok());
  EXPECT_TRUE(leaf.ok());
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(n.value(), 1u);
  EXPECT_EQ(count, 1u);
}

}  // namespace
}  // namespace laige
