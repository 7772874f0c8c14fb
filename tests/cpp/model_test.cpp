// model_test.cpp - the randomized model test: long random sequences of
// create / destroy / add / remove / get / has / each (with legal and illegal
// mutations inside each) and clear / beginFrame, checked step by step
// against a deliberately simple reference model: std::map slot ->
// (generation, map<component, bytes>), archetype ids assigned in first-seen
// order, visit order computed from sorted containers. Same handles, same
// values, same visit order, same errors, same churn. It is the proof that
// the deferred row ordering (append + tombstone + normalise) keeps the
// visit contract (docs/query.md).
//
// Seed: LAIGE_TEST_SEED (default 0x1F055EED); every failure prints it.
// Native debug builds skip the operations that assert by design (stale
// mutations, illegal mutations inside each); release and wasm run them all.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <map>
#include <set>
#include <vector>

#include "laige/assert.h"
#include "laige/prng.h"
#include "laige/world.h"

namespace laige {
namespace {

struct MA { std::int32_t v; };
LAIGE_COMPONENT(MA, v);
struct MB { float x, y; };
LAIGE_COMPONENT(MB, x, y);
struct MC { std::uint16_t a, b, c, d; };
LAIGE_COMPONENT(MC, a, b, c, d);
struct MBig { std::int64_t q[5]; };
LAIGE_COMPONENT(MBig, q);
struct MTag {};
LAIGE_COMPONENT(MTag);
struct MOdd { std::uint8_t v[3]; };
LAIGE_COMPONENT(MOdd, v);

constexpr std::uint32_t kComponents = 6;  // ids 1..6 in the order above
constexpr std::uint32_t kSizes[kComponents + 1] = {0, 4, 8, 8, 40, 0, 3};
constexpr bool kDebug = LAIGE_DEBUG_ASSERTS != 0;

using Bytes = std::vector<std::uint8_t>;
using Set = std::set<ComponentTypeId>;

// The reference: no archetypes, no rows - just what the contract promises.
struct Model {
  struct Slot {
    bool alive = false;
    std::uint16_t generation = 1;
    std::map<ComponentTypeId, Bytes> comps;
  };
  std::uint32_t capacity;
  std::uint32_t fresh = 0;
  std::uint32_t live = 0;
  std::vector<std::uint16_t> freeStack;  // top = back
  std::map<std::uint16_t, Slot> slots;
  std::map<Set, ArchetypeId> archetypes;  // first-seen order
  std::uint64_t adds = 0, removes = 0, churn = 0;

  explicit Model(std::uint32_t cap) : capacity(cap) {}
  Entity handle(std::uint16_t s) { return Entity(s, slots[s].generation); }
  bool alive(Entity e) {
    auto it = slots.find(e.id());
    return it != slots.end() && it->second.alive && it->second.generation == e.generation();
  }
  Set setOf(std::uint16_t s) {
    Set out;
    for (const auto& kv : slots[s].comps) out.insert(kv.first);
    return out;
  }
  ArchetypeId idOf(const Set& set) {
    if (set.empty()) return kNoArchetype;
    auto it = archetypes.find(set);
    return it == archetypes.end() ? kNoArchetype : it->second;
  }
  void enter(const Set& set) {  // a successful move: first sighting names the set
    if (!set.empty() && archetypes.count(set) == 0) {
      const auto id = static_cast<ArchetypeId>(archetypes.size() + 1);
      archetypes[set] = id;
    }
  }
  Entity create() {
    std::uint16_t s;
    if (!freeStack.empty()) {
      s = freeStack.back();
      freeStack.pop_back();
    } else {
      s = static_cast<std::uint16_t>(fresh++);
      slots[s].generation = 1;
    }
    slots[s].alive = true;
    ++live;
    return handle(s);
  }
  void destroy(std::uint16_t s) {
    Slot& x = slots[s];
    x.alive = false;
    x.comps.clear();
    x.generation = static_cast<std::uint16_t>(x.generation + 1);
    if (x.generation == 0) x.generation = 1;
    freeStack.push_back(s);
    --live;
  }
  void clear() {
    for (auto& kv : slots) {
      if (kv.second.alive) destroy(kv.first);
    }
    freeStack.clear();
    for (std::uint32_t i = fresh; i-- > 0;) freeStack.push_back(static_cast<std::uint16_t>(i));
  }
  std::vector<std::uint16_t> liveSlots() {
    std::vector<std::uint16_t> out;
    for (auto& kv : slots) {
      if (kv.second.alive) out.push_back(kv.first);
    }
    return out;
  }
};

// Typed dispatch over the six components.
template <class F>
void withType(ComponentTypeId c, F&& f) {
  switch (c) {
    case 1: f(MA{}); break;
    case 2: f(MB{}); break;
    case 3: f(MC{}); break;
    case 4: f(MBig{}); break;
    case 5: f(MTag{}); break;
    default: f(MOdd{}); break;
  }
}

std::uint64_t baseSeed() {
  const char* env = std::getenv("LAIGE_TEST_SEED");
  return env != nullptr ? std::strtoull(env, nullptr, 0) : 0x1F055EEDull;
}

class Runner {
 public:
  Runner(std::uint32_t capacity, std::uint64_t seed)
      : world_(makeWorld(capacity)), model_(capacity), rng_(seed) {}

  // hashEvery: compare World::stateHash with the model's hash after every
  // hashEvery-th operation (0: never). Debug builds never compare: random
  // float bytes make NaNs, and a NaN reaching the hash asserts there.
  void run(std::uint32_t ops, std::uint32_t hashEvery = 0) {
    for (op_ = 0; op_ < ops && !::testing::Test::HasFatalFailure(); ++op_) {
      step();
      if (op_ % 64 == 0) fullCheck();
      if (!kDebug && hashEvery != 0 && op_ % hashEvery == 0) checkHash();
    }
    fullCheck();
    if (!kDebug && hashEvery != 0) checkHash();
  }

 private:
  static World makeWorld(std::uint32_t capacity) {
    World::Options o;
    o.capacity = capacity;
    o.churnPerFrameBudget = 0;
    World w = World::create(o).takeValue();
    EXPECT_EQ(w.registerComponent<MA>().value(), 1u);
    EXPECT_EQ(w.registerComponent<MB>().value(), 2u);
    EXPECT_EQ(w.registerComponent<MC>().value(), 3u);
    EXPECT_EQ(w.registerComponent<MBig>().value(), 4u);
    EXPECT_EQ(w.registerComponent<MTag>().value(), 5u);
    EXPECT_EQ(w.registerComponent<MOdd>().value(), 6u);
    return w;
  }

  std::uint32_t pick(std::uint32_t n) { return rng_.next_range(0, n); }
  Bytes randomBytes(ComponentTypeId c) {
    Bytes b(kSizes[c]);
    for (auto& x : b) x = static_cast<std::uint8_t>(rng_.next_u32());
    return b;
  }
  // A live handle (most of the time), else a stale or never-issued one.
  Entity target(bool allowStale) {
    const auto live = model_.liveSlots();
    if (allowStale && (live.empty() || pick(16) == 0)) {
      if (!retired_.empty() && pick(4) != 0) return retired_[pick(static_cast<std::uint32_t>(retired_.size()))];
      return Entity(static_cast<std::uint16_t>(60000 + pick(100)), 1);
    }
    if (live.empty()) return Entity{};
    return model_.handle(live[pick(static_cast<std::uint32_t>(live.size()))]);
  }

  // --- the operations, each checked against the model ------------------------

  void doCreate() {
    const auto r = world_.create();
    if (model_.live == model_.capacity) {
      ASSERT_TRUE(r.isError());
      EXPECT_EQ(r.error(), ErrorCode::BudgetExhausted);
      return;
    }
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r.value(), model_.create());
    if (guard_.active) bornDuring_.insert(r.value().id());  // not visited by the live each<>()
  }

  // Predicts destroy's Status; `guard` is the live iteration's rule.
  void doDestroy(Entity e) {
    const bool alive = model_.alive(e);
    if (!alive && kDebug) return;  // asserts by design
    const bool legal = !alive || !guardMatched(model_.idOf(model_.setOf(e.id())));
    if (!legal && kDebug) return;
    const Status s = world_.destroy(e);
    if (!alive || !legal) {
      EXPECT_EQ(s.codeValue(), static_cast<std::uint32_t>(ErrorCode::InvalidArgument));
      return;
    }
    EXPECT_TRUE(s.ok());
    model_.destroy(e.id());
    retired_.push_back(e);
  }

  void doAdd(Entity e, ComponentTypeId c, const Bytes& value) {
    const bool alive = model_.alive(e);
    if (!alive && kDebug) return;
    bool legal = true;
    Set to;
    if (alive) {
      auto& comps = model_.slots[e.id()].comps;
      if (comps.count(c) != 0) {
        legal = !guard_.active || readSet_.count(c) == 0;
      } else {
        to = model_.setOf(e.id());
        to.insert(c);
        legal = !guard_.active || (!guardMatched(model_.idOf(model_.setOf(e.id()))) &&
                                   !guardMatched(model_.idOf(to)));
      }
    }
    if (!legal && kDebug) return;
    Status s;
    if (pick(3) == 0) {
      s = world_.addComponentBytes(e, c, value.data(), kSizes[c]);
    } else {
      withType(c, [&](auto t) {
        if (kSizes[c] != 0) std::memcpy(static_cast<void*>(&t), value.data(), kSizes[c]);
        s = world_.addComponent(e, t);
      });
    }
    if (!alive || !legal) {
      EXPECT_EQ(s.codeValue(), static_cast<std::uint32_t>(ErrorCode::InvalidArgument));
      return;
    }
    ASSERT_TRUE(s.ok());
    if (!to.empty()) model_.enter(to);
    model_.slots[e.id()].comps[c] = value;
    ++model_.adds;
    ++model_.churn;
  }

  void doRemove(Entity e, ComponentTypeId c) {
    const bool alive = model_.alive(e);
    if (!alive && kDebug) return;
    bool legal = true;
    bool present = false;
    Set to;
    if (alive) {
      present = model_.slots[e.id()].comps.count(c) != 0;
      if (present) {
        to = model_.setOf(e.id());
        to.erase(c);
        legal = !guard_.active || (!guardMatched(model_.idOf(model_.setOf(e.id()))) &&
                                   !guardMatched(model_.idOf(to)));
      }
    }
    if (!legal && kDebug) return;
    Status s;
    if (pick(3) == 0) {
      s = world_.removeComponentById(e, c);
    } else {
      withType(c, [&](auto t) { s = world_.removeComponent<decltype(t)>(e); });
    }
    if (!alive || !legal) {
      EXPECT_EQ(s.codeValue(), static_cast<std::uint32_t>(ErrorCode::InvalidArgument));
      return;
    }
    ASSERT_TRUE(s.ok());
    if (!present) return;
    model_.enter(to);
    model_.slots[e.id()].comps.erase(c);
    ++model_.removes;
    ++model_.churn;
  }

  void doClear() {
    bool legal = true;
    if (guard_.active) {
      for (std::uint16_t s : model_.liveSlots()) legal = legal && !guardMatched(model_.idOf(model_.setOf(s)));
    }
    if (!legal && kDebug) return;
    const Status s = world_.clear();
    if (!legal) {
      EXPECT_EQ(s.codeValue(), static_cast<std::uint32_t>(ErrorCode::InvalidArgument));
      return;
    }
    EXPECT_TRUE(s.ok());
    for (std::uint16_t slot : model_.liveSlots()) retired_.push_back(model_.handle(slot));
    model_.clear();
  }

  void checkEntity(Entity e) {
    const bool alive = model_.alive(e);
    ASSERT_EQ(world_.isValid(e), alive) << "entity " << e.id() << "/" << e.generation();
    if (!alive) return;
    const Set set = model_.setOf(e.id());
    ASSERT_EQ(world_.archetypeOf(e), model_.idOf(set));
    for (ComponentTypeId c = 1; c <= kComponents; ++c) {
      const auto& comps = model_.slots[e.id()].comps;
      const bool has = comps.count(c) != 0;
      ASSERT_EQ(world_.hasComponent(e, c), has) << "component " << c;
      const void* bytes = world_.getBytes(e, c);
      ASSERT_EQ(bytes != nullptr, has);
      if (has && kSizes[c] != 0) {
        ASSERT_EQ(std::memcmp(bytes, comps.at(c).data(), kSizes[c]), 0);
      }
      withType(c, [&](auto t) { ASSERT_EQ(world_.has<decltype(t)>(e), has); });
    }
  }

  void fullCheck() {
    SCOPED_TRACE(::testing::Message() << "op " << op_);
    ASSERT_EQ(world_.entityCount(), model_.live);
    for (const auto& kv : model_.slots) checkEntity(Entity(kv.first, kv.second.generation));
    const ArchetypeStats st = world_.archetypeStats();
    std::uint32_t rows = 0;
    for (std::uint16_t s : model_.liveSlots()) rows += model_.slots[s].comps.empty() ? 0u : 1u;
    ASSERT_EQ(st.rowsLive, rows);
    ASSERT_EQ(st.archetypeCount, model_.archetypes.size());
    ASSERT_EQ(st.totalAdds, model_.adds);
    ASSERT_EQ(st.totalRemoves, model_.removes);
    ASSERT_EQ(world_.guardrailStats().frameChurn, model_.churn);
  }

  // The state hash (laige/state_hash.h), recomputed from the
  // model's maps alone: FNV-1a 64 over a byte stream, words big-endian. No
  // archetypes, rows or storage of the world are used: live slots ascending,
  // then the non-empty component sets in lexicographic order of their
  // ascending id lists, each with its rows in slot order and the bytes of
  // its sized components in id order (f32 NaNs as the canonical quiet NaN).
  std::uint64_t modelHash(std::uint64_t tick) {
    std::uint64_t h = 14695981039346656037ull;           // FNV-1a 64 offset basis
    auto byte = [&h](std::uint8_t b) { h = (h ^ b) * 1099511628211ull; };  // FNV prime
    auto word = [&byte](std::uint64_t w) {
      for (int shift = 56; shift >= 0; shift -= 8) byte(static_cast<std::uint8_t>(w >> shift));
    };
    word(tick);
    word(model_.live);
    std::map<Set, std::vector<std::uint16_t>> bySet;
    for (const auto& kv : model_.slots) {
      if (!kv.second.alive) continue;
      word((std::uint64_t{kv.first} << 16) | kv.second.generation);
      if (!kv.second.comps.empty()) bySet[model_.setOf(kv.first)].push_back(kv.first);
    }
    for (const auto& [set, rows] : bySet) {
      for (ComponentTypeId c : set) word(c);
      word(rows.size());
      for (std::uint16_t s : rows) {
        for (ComponentTypeId c : set) {
          Bytes v = model_.slots[s].comps.at(c);
          if (c == 2) {  // MB: two f32 fields
            for (std::size_t at = 0; at + 4 <= v.size(); at += 4) {
              std::uint32_t bits = 0;
              std::memcpy(&bits, v.data() + at, 4);
              if ((bits & 0x7f800000u) == 0x7f800000u && (bits & 0x007fffffu) != 0) {
                const std::uint32_t quiet = 0x7fc00000u;
                std::memcpy(v.data() + at, &quiet, 4);
              }
            }
          }
          for (std::uint8_t b : v) byte(b);
        }
      }
    }
    return h;
  }

  void checkHash() {
    const std::uint64_t tick = op_ * 2654435761ull;
    ASSERT_EQ(world_.stateHash(tick), modelHash(tick)) << "op " << op_;
  }

  // --- each ---------------------------------------------------------------------

  struct Guard {
    bool active = false;
    std::set<ArchetypeId> matched;
  };
  bool guardMatched(ArchetypeId id) const { return guard_.active && guard_.matched.count(id) != 0; }

  // One random mutation from inside a callback (legal or not).
  void mutateInside() {
    const std::uint32_t what = pick(20);
    const ComponentTypeId c = 1 + pick(kComponents);
    if (what < 7) doAdd(target(!kDebug), c, randomBytes(c));
    else if (what < 12) doRemove(target(!kDebug), c);
    else if (what < 15) doDestroy(target(!kDebug));
    else if (what < 18) doCreate();
    else if (what == 18 && pick(8) == 0) doClear();
    else if (!kDebug) {
      EXPECT_EQ(world_.each<>([](Entity) {}).codeValue(), static_cast<std::uint32_t>(ErrorCode::InvalidArgument));
    }
  }

  template <class... Ts, class... Tags>
  void query(Tags... tags) {
    const ComponentTypeId ids[] = {world_.componentId<Ts>()...};
    const bool reads[] = {(detail::kAccessOf<Tags> == Access::Read)...};
    Set listed(std::begin(ids), std::end(ids));
    guard_.matched.clear();
    readSet_.clear();
    for (std::size_t i = 0; i < sizeof...(Ts); ++i) {
      if (reads[i]) readSet_.insert(ids[i]);
    }
    for (const auto& kv : model_.archetypes) {
      if (std::includes(kv.first.begin(), kv.first.end(), listed.begin(), listed.end())) guard_.matched.insert(kv.second);
    }
    // The expected visit sequence: matched ids ascending, slots ascending.
    std::map<ArchetypeId, std::vector<Entity>> byArchetype;  // ids ascending
    for (std::uint16_t s : model_.liveSlots()) {                // slots ascending
      const ArchetypeId a = model_.idOf(model_.setOf(s));
      if (guard_.matched.count(a) != 0) byArchetype[a].push_back(model_.handle(s));
    }
    std::vector<Entity> expect;
    for (const auto& kv : byArchetype) expect.insert(expect.end(), kv.second.begin(), kv.second.end());
    std::size_t k = 0;
    guard_.active = true;
    const Status st = world_.each<Ts...>([&](Entity e, auto&... refs) {
      ASSERT_LT(k, expect.size());
      ASSERT_EQ(e, expect[k]) << "visit " << k;
      ++k;
      std::size_t i = 0;
      auto visitOne = [&](auto& ref) {
        const ComponentTypeId c = ids[i];
        const bool writable = !std::is_const_v<std::remove_reference_t<decltype(ref)>>;
        ++i;
        if (kSizes[c] == 0) return;
        ASSERT_EQ(std::memcmp(&ref, model_.slots[e.id()].comps.at(c).data(), kSizes[c]), 0) << "component " << c;
        if constexpr (!std::is_const_v<std::remove_reference_t<decltype(ref)>>) {
          if (writable && pick(4) == 0) {  // the intended write path
            const Bytes b = randomBytes(c);
            std::memcpy(static_cast<void*>(&ref), b.data(), kSizes[c]);
            model_.slots[e.id()].comps[c] = b;
          }
        }
      };
      (visitOne(refs), ...);
      if (pick(3) == 0) mutateInside();
    }, tags...);
    guard_.active = false;
    EXPECT_TRUE(st.ok());
    EXPECT_EQ(k, expect.size());
  }

  void queryAll() {
    const std::uint32_t highWater = model_.fresh;
    std::int32_t last = -1;
    bornDuring_.clear();
    guard_.active = true;
    guard_.matched.clear();
    readSet_.clear();
    const Status st = world_.each<>([&](Entity e) {
      std::int32_t next = -1;
      for (const auto& kv : model_.slots) {
        if (kv.second.alive && kv.first > last && kv.first < highWater && bornDuring_.count(kv.first) == 0) {
          next = kv.first;
          break;
        }
      }
      ASSERT_EQ(e, model_.handle(static_cast<std::uint16_t>(next)));
      last = next;
      if (pick(3) == 0) mutateInside();
    });
    guard_.active = false;
    EXPECT_TRUE(st.ok());
    for (const auto& kv : model_.slots) {
      if (kv.second.alive && kv.first > last && kv.first < highWater && bornDuring_.count(kv.first) == 0) {
        ADD_FAILURE() << "slot " << kv.first << " skipped";
      }
    }
  }

  void doQuery() {
    switch (pick(8)) {
      case 0: queryAll(); break;
      case 1: query<MA>(Write{}); break;
      case 2: query<MA, MB>(Read{}, Write{}); break;
      case 3: query<MB>(Read{}); break;
      case 4: query<MC, MBig>(Write{}, Read{}); break;
      case 5: query<MTag>(Read{}); break;
      case 6: query<MOdd, MA>(Read{}, Read{}); break;
      default: query<MBig, MTag, MC>(Read{}, Read{}, Write{}); break;
    }
  }

  void step() {
    SCOPED_TRACE(::testing::Message() << "op " << op_);
    const std::uint32_t r = pick(1000);
    const ComponentTypeId c = 1 + pick(kComponents);
    if (r < 120) doCreate();
    else if (r < 200) doDestroy(target(!kDebug));
    else if (r < 500) doAdd(target(!kDebug), c, randomBytes(c));
    else if (r < 700) doRemove(target(!kDebug), c);
    else if (r < 900) {
      const Entity e = target(true);
      checkEntity(e);
    } else if (r < 990) doQuery();
    else if (r < 998) {
      world_.beginFrame();
      model_.churn = 0;
    } else doClear();
  }

  World world_;
  Model model_;
  Prng rng_;
  Guard guard_;
  Set readSet_;
  std::set<std::uint32_t> bornDuring_;  // slots created during the live each<>()
  std::vector<Entity> retired_;
  std::uint32_t op_ = 0;
};

#if defined(__EMSCRIPTEN__)
constexpr std::uint32_t kScale = 2;  // the wasm run under node keeps half
#else
constexpr std::uint32_t kScale = 1;
#endif

TEST(ModelTest, SmallWorldLongHistory) {
  const std::uint64_t seed = baseSeed();
  SCOPED_TRACE(::testing::Message() << "LAIGE_TEST_SEED=" << seed);
  Runner r(64, Prng::deriveSubstream(seed, 3001).next_u64());
  r.run(200000 / kScale);
}

TEST(ModelTest, LargeArchetypesGrowAndCompact) {
  const std::uint64_t seed = baseSeed();
  SCOPED_TRACE(::testing::Message() << "LAIGE_TEST_SEED=" << seed);
  Runner r(1000, Prng::deriveSubstream(seed, 3002).next_u64());
  r.run(60000 / kScale);
}

TEST(ModelTest, TinyWorldAtItsBudget) {
  const std::uint64_t seed = baseSeed();
  SCOPED_TRACE(::testing::Message() << "LAIGE_TEST_SEED=" << seed);
  Runner r(3, Prng::deriveSubstream(seed, 3003).next_u64());
  r.run(30000 / kScale);
}

// The long run: several seeds, every operation followed by a
// stateHash comparison with the model's independent hash. One million
// operations per seed in a native optimised build without sanitizers,
// 100,000 under wasm; debug and sanitizer builds keep a short run (their
// suites stay fast). LAIGE_MODEL_OPS overrides the count per seed.
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LAIGE_MODEL_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define LAIGE_MODEL_SANITIZED 1
#endif

std::uint32_t longRunOps() {
  if (const char* env = std::getenv("LAIGE_MODEL_OPS")) return static_cast<std::uint32_t>(std::strtoul(env, nullptr, 0));
#if defined(__EMSCRIPTEN__)
  return 100000;
#elif defined(LAIGE_MODEL_SANITIZED) || !defined(NDEBUG)
  return 20000;
#else
  return 1000000;
#endif
}

constexpr std::uint32_t kLongRunSeeds = 3;

TEST(ModelTest, LongRunStateHashEveryStepSeveralSeeds) {
  const std::uint64_t seed = baseSeed();
  const std::uint32_t ops = longRunOps();
  for (std::uint32_t k = 0; k < kLongRunSeeds && !HasFatalFailure(); ++k) {
    SCOPED_TRACE(::testing::Message() << "LAIGE_TEST_SEED=" << seed << " substream " << 3100 + k << " ops " << ops);
    Runner r(64, Prng::deriveSubstream(seed, 3100 + k).next_u64());
    r.run(ops, 1);
  }
}

TEST(ModelTest, LongRunLargeWorldStateHash) {
  const std::uint64_t seed = baseSeed();
  const std::uint32_t ops = longRunOps() / 4;
  SCOPED_TRACE(::testing::Message() << "LAIGE_TEST_SEED=" << seed << " ops " << ops);
  Runner r(1000, Prng::deriveSubstream(seed, 3200).next_u64());
  r.run(ops, 16);
}

}  // namespace
}  // namespace laige
