// changes_model_test.cpp - change tracking and observers against a plain
// reference (docs/changes.md): random creates, destroys, structural adds,
// overwrites, removes, Write refs, Write walks, moves between archetypes
// (another component added or removed), snapshots and restores, and
// Changed / Added query runs whose answers are compared with a reference
// that records, per entity, when Pos was added and last written; the
// observer events of every operation are compared too. 0 divergences.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "laige/changes.h"
#include "laige/prng.h"
#include "laige/query_object.h"
#include "laige/world.h"

namespace laige {
namespace {

struct MPos {
  std::int32_t x, y;
};
LAIGE_COMPONENT(MPos, x, y);
struct MVel {
  std::int32_t x;
};
LAIGE_COMPONENT(MVel, x);

struct RefEntity {
  bool alive = false;
  Entity handle;
  bool hasPos = false;
  bool hasVel = false;
  std::uint32_t added = 0;
  std::uint32_t changed = 0;
};

struct Ref {
  std::vector<RefEntity> slots;
  std::uint32_t stamp = 1;
};

struct Event {
  std::uint8_t ev;
  std::uint16_t slot;
  bool operator==(const Event&) const = default;
};
std::vector<Event>* gEvents = nullptr;
Status record(ObserverContext& ctx) {
  gEvents->push_back(Event{static_cast<std::uint8_t>(ctx.event), ctx.entity.id()});
  return Status{};
}

using ChangedQ = Query<Reads<MPos>, Changed<MPos>>;
using AddedQ = Query<Reads<MPos>, Added<MPos>>;
using ChangedWithVelQ = Query<Reads<MPos>, With<MVel>, Changed<MPos>>;

TEST(ChangesModel, RandomOperationsMatchThePlainReference) {
  constexpr std::uint32_t kCap = 48;
  World::Options o;
  o.capacity = kCap;
  o.churnPerFrameBudget = 0;
  World w = World::create(o).takeValue();
  ASSERT_EQ(w.registerComponent<MPos>().value(), 1u);
  ASSERT_EQ(w.registerComponent<MVel>().value(), 2u);
  ASSERT_TRUE(trackChanges(w, 1).ok());
  std::vector<Event> events;
  gEvents = &events;
  for (std::uint8_t ev = 0; ev < 3; ++ev) {
    ASSERT_TRUE(observe(w, static_cast<ObserverEvent>(ev), 1, &record).ok());
  }
  Ref ref;
  ref.slots.resize(kCap);
  ChangedQ changedQ;
  AddedQ addedQ;
  ChangedWithVelQ velQ;
  std::uint32_t lastChanged = 0, lastAdded = 0, lastVel = 0;  // the reference's query sinces
  std::vector<std::uint8_t> saved;
  Ref savedRef;
  Prng rng(2024);
  std::uint64_t divergences = 0;
  std::uint64_t answers = 0;
  std::uint64_t nonEmpty = 0;

  auto liveSlot = [&]() -> int {
    std::vector<int> live;
    for (std::uint32_t i = 0; i < kCap; ++i) {
      if (ref.slots[i].alive) live.push_back(static_cast<int>(i));
    }
    if (live.empty()) return -1;
    return live[rng.next_range(0, static_cast<std::uint32_t>(live.size()))];
  };
  auto runQuery = [&](auto& q, std::uint32_t& since, bool added, bool needVel) {
    std::vector<std::uint16_t> got;
    ASSERT_TRUE(q.each(w, [&](Entity e, const MPos&) { got.push_back(e.id()); }).ok());
    std::sort(got.begin(), got.end());
    std::vector<std::uint16_t> want;
    for (std::uint32_t i = 0; i < kCap; ++i) {
      const RefEntity& r = ref.slots[i];
      if (!r.alive || !r.hasPos || (needVel && !r.hasVel)) continue;
      if ((added ? r.added : r.changed) > since) want.push_back(static_cast<std::uint16_t>(i));
    }
    since = ref.stamp++;
    ++answers;
    if (!want.empty()) ++nonEmpty;
    if (got != want) ++divergences;
    EXPECT_EQ(got, want);
  };

  for (int step = 0; step < 20000 && !::testing::Test::HasFatalFailure(); ++step) {
    events.clear();
    std::vector<Event> want;
    const std::uint32_t op = rng.next_range(0, 13);
    const int s = liveSlot();
    switch (op) {
      case 0: {  // create
        auto e = w.create();
        if (!e.ok()) break;
        RefEntity& r = ref.slots[e.value().id()];
        r = RefEntity{};
        r.alive = true;
        r.handle = e.value();
        break;
      }
      case 1: {  // destroy
        if (s < 0) break;
        RefEntity& r = ref.slots[static_cast<std::size_t>(s)];
        ASSERT_TRUE(w.destroy(r.handle).ok());
        if (r.hasPos) want.push_back(Event{2, static_cast<std::uint16_t>(s)});
        r.alive = false;
        break;
      }
      case 2:
      case 3: {  // add Pos (structural or overwrite)
        if (s < 0) break;
        RefEntity& r = ref.slots[static_cast<std::size_t>(s)];
        ASSERT_TRUE(w.addComponent(r.handle, MPos{step, 0}).ok());
        want.push_back(Event{static_cast<std::uint8_t>(r.hasPos ? 1 : 0), static_cast<std::uint16_t>(s)});
        if (!r.hasPos) r.added = ref.stamp;
        r.changed = ref.stamp;
        r.hasPos = true;
        break;
      }
      case 4: {  // remove Pos
        if (s < 0) break;
        RefEntity& r = ref.slots[static_cast<std::size_t>(s)];
        ASSERT_TRUE(w.removeComponent<MPos>(r.handle).ok());
        if (r.hasPos) want.push_back(Event{2, static_cast<std::uint16_t>(s)});
        r.hasPos = false;
        break;
      }
      case 5: {  // add or remove Vel: a move that carries Pos's ticks
        if (s < 0) break;
        RefEntity& r = ref.slots[static_cast<std::size_t>(s)];
        if (r.hasVel) ASSERT_TRUE(w.removeComponent<MVel>(r.handle).ok());
        else ASSERT_TRUE(w.addComponent(r.handle, MVel{1}).ok());
        r.hasVel = !r.hasVel;
        break;
      }
      case 6: {  // a Write ref (non-const get) and a read (const get)
        if (s < 0) break;
        RefEntity& r = ref.slots[static_cast<std::size_t>(s)];
        if (rng.next_range(0, 2) == 0) {
          if (MPos* p = w.get<MPos>(r.handle)) {
            p->y += 1;
            r.changed = ref.stamp;
          }
        } else {
          (void)std::as_const(w).get<MPos>(r.handle);
        }
        break;
      }
      case 7: {  // a Write walk over Pos (with or without Vel)
        if (rng.next_range(0, 2) == 0) {
          ASSERT_TRUE(w.each<MPos>([](Entity, MPos& p) { p.x += 1; }, Write{}).ok());
          for (RefEntity& r : ref.slots) {
            if (r.alive && r.hasPos) r.changed = ref.stamp;
          }
        } else {
          ASSERT_TRUE((w.each<MPos, MVel>([](Entity, MPos& p, const MVel&) { p.x += 2; }, Write{}, Read{}).ok()));
          for (RefEntity& r : ref.slots) {
            if (r.alive && r.hasPos && r.hasVel) r.changed = ref.stamp;
          }
        }
        break;
      }
      case 8: runQuery(changedQ, lastChanged, false, false); break;
      case 9: runQuery(addedQ, lastAdded, true, false); break;
      case 10: runQuery(velQ, lastVel, false, true); break;
      case 11: {  // snapshot (the query sinces are the caller's: not saved)
        saved.assign(w.snapshotSize(), 0);
        ASSERT_TRUE(w.snapshot(saved).ok());
        savedRef = ref;
        break;
      }
      case 12: {  // restore the last snapshot
        if (saved.empty()) break;
        ASSERT_TRUE(w.restore(saved).ok());
        ref = savedRef;
        break;
      }
      default: break;
    }
    if (events != want) ++divergences;
    ASSERT_EQ(events.size(), want.size()) << "step " << step << " op " << op;
  }
  EXPECT_EQ(divergences, 0u);
  EXPECT_GT(answers, 3000u);
  EXPECT_GT(nonEmpty, 1000u);
  gEvents = nullptr;
}

}  // namespace
}  // namespace laige
