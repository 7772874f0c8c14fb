// rollback_costs.cpp - what a rollback session costs on a 10,000-entity
// world (Position + Velocity, f32; one system: pos += vel), each row beside
// its floor, timed natively and inside wasm (built twice from this file:
// build/native-release/laige_rollback_costs and
// build/wasm/laige_rollback_costs.js, run under node). docs/benchmarks.md
// has the figures.
//
// Rows (per call):
//   tick                  World::runSystems alone: the plain tick
//   memcpy                memcpy of the snapshot's byte count (the copy floor)
//   memcpy_ring           the same into the slots of a ring laid out as a
//                         session's (depth + 1 slots of 2 x the bytes, one
//                         after the other): the copy floor of a ring whose
//                         slots are no longer in the cache
//   tick_memcpy_ring      a tick, then memcpy_ring: a predicted advance's floor
//                         when it copies the whole state
//   memcpy_ring_changed   memcpy of the bytes the tick changes (the Position
//                         column, 80,000 bytes) into the ring's slots
//   tick_memcpy_ring_changed  a tick, then memcpy_ring_changed: the floor of
//                         an advance that copies only what changed
//   tick_column_ring      a tick, then a memcpy of the column it wrote (the
//                         world's Position column) to that section's offset
//                         in the ring's next slot: what a session's snapshot
//                         copies after a tick, from where it copies it
//   tick_snapshot_ring_full / tick_snapshot_ring_changed  a tick, then an
//                         unsealed snapshot into the next slot of a ring
//                         of 13: the whole state (what a session did before
//                         it copied only what changed), or only the
//                         sections written since that slot was written
//                         (what a session does now); one world, alternately
//   xxh3_bytes            64-bit XXH3 of the snapshot's bytes (the hash floor)
//   state_hash            World::stateHash (FNV-1a-64)
//   state_checksum        World::stateChecksum (64-bit XXH3, the canonical stream)
//   checksum_of_snapshot  World::stateChecksumOfSnapshot
//   snapshot, restore, snapshot_restore
//   column_checksum       columnChecksum (one XXH3 per column, then XXH3
//                         of the stream), uncached
//   tick_column_cached    a tick, then columnChecksumCached (the tick
//                         wrote Position: that column is hashed again,
//                         Velocity's hash is kept)
//   column_checksum_of_snapshot  columnChecksumOfSnapshot
//   snapshot_unsealed, restore_trusted, snapshot_restore_trusted
//                         what a rollback session does with its own ring:
//                         a snapshot without its checksum pass, a restore
//                         without the per-byte validation
//   advance_confirmed     advance() with every input known (each tick
//                         confirmed at once: snapshot + tick + checksum),
//                         Fast and StateHash sessions
//   advance_predicted     advance() with the remote player silent (nothing
//                         confirmed: snapshot + tick)
//   advance_late_hit      the remote input arrives 8 ticks late and matches
//                         the prediction (snapshot + tick + the checksum of
//                         a confirmed tick from the ring)
//   advance_rollback_8    the remote input arrives 8 ticks late and differs:
//                         restore + 9 x (snapshot + tick), the confirmed
//                         tick checksummed (Fast, Columns) or every tick
//                         hashed (StateHash)
//   floor_confirmed_columns  a confirmed Columns advance's floor in
//                         sequence: tick_column_ring, then the column hash
//   floor_rollback_8_columns, floor_rollback_8_fast  the 8-tick rollback's
//                         floor done in sequence on one world: the written
//                         column copied back, 9 x tick_column_ring, then
//                         the confirmed tick's checksum (the column's hash;
//                         state_checksum), so that the copies and the ticks
//                         slow each other down as they do in a rollback
// Floors: tick + memcpy (what an advance must at least do: keep the state
// and run the tick), tick + memcpy + xxh3 (and hash the state once), the
// same with the ring's copy (tick_memcpy_ring), and for the rollback
// 9 x (tick + memcpy_ring) + a trusted restore (+ the confirmed tick's
// state checksum); with copies of what changed only: tick +
// memcpy_ring_changed, and for the rollback 9 x (tick + memcpy_ring_changed)
// + memcpy_ring_changed (the changed bytes copied back); and the floor a
// session's rollback cannot go below on this world: 9 x tick_column_ring +
// memcpy_ring_changed, plus the confirmed tick's checksum (Columns: the
// hash of the written column, tick_column_cached - tick; Fast:
// state_checksum).
//
// Rounds alternate the rows (ROUNDS, default 15; ROWS=name,name runs only
// those rows, for a profiler); each row's time in a
// round is the mean of a block of calls; reported: the best and the median
// round, and each ratio as the median of the per-round ratios. Asserts
// nothing; prints `uptime`-style load natively.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "bench_components.h"
#include "laige/logging.h"
#include "laige/rollback.h"
#include "laige/state_hash.h"
#include "laige/system.h"
#include "laige/world.h"
#include "snapshot/snapshot_internal.h"

namespace {

using bench::Position;
using bench::Velocity;
using laige::Entity;
using laige::RollbackChecksum;
using laige::RollbackSession;
using laige::World;
using Clock = std::chrono::steady_clock;

constexpr std::uint32_t kEntities = 10000;

void moveSystem(World& w, laige::SystemContext&) {
  (void)w.each<Position, Velocity>(
      [](Entity, Position& p, const Velocity& v) {
        p.x += v.x;
        p.y += v.y;
      },
      laige::Write{}, laige::Read{});
}

struct Sim {
  World world;
  laige::SystemSchedule schedule;
};

std::unique_ptr<Sim> makeSim() {
  auto s = std::make_unique<Sim>();
  World::Options o;
  o.capacity = kEntities;
  o.churnPerFrameBudget = 0;
  s->world = World::create(o).takeValue();
  (void)s->world.registerComponent<Position>();
  (void)s->world.registerComponent<Velocity>();
  for (std::uint32_t i = 0; i < kEntities; ++i) {
    const Entity e = s->world.create().value();
    (void)s->world.addComponent(e, Position{static_cast<float>(i), 0.0f});
    (void)s->world.addComponent(e, Velocity{0.25f, -0.5f});
  }
  laige::SystemDef def{"Move", &moveSystem, laige::fpx16_16::fromInt32(1000), nullptr, nullptr};
  (void)s->world.registerSystem(def, laige::Io<Position, laige::Write>{}, laige::Io<Velocity, laige::Read>{});
  (void)s->world.scheduleSystems(s->schedule);
  return s;
}

// A session over its own world: 2 players, the remote one (1) as `mode` says.
struct Session {
  std::unique_ptr<Sim> sim = makeSim();
  RollbackSession s;
  Session(RollbackChecksum checksum) {
    RollbackSession::Options o;
    o.players = 2;
    o.depth = 12;
    o.maxInputBytes = 4;
    o.checksum = checksum;
    o.combine = &RollbackSession::combineConcatenated;
    s = RollbackSession::create(sim->world, sim->schedule, o).takeValue();
  }
  std::uint8_t input(std::uint64_t t) const { return static_cast<std::uint8_t>(t * 7 + 1); }
  void local() {
    const std::uint8_t b = 0;
    (void)s.setLocalInput(s.currentTick() + 1, std::span<const std::uint8_t>(&b, 1));
  }
  // Every input known: the remote input of the next tick first.
  void confirmed() {
    local();
    const std::uint8_t b = 3;
    (void)s.addRemoteInput(1, s.currentTick() + 1, std::span<const std::uint8_t>(&b, 1));
    (void)s.advance();
  }
  void predicted() {
    local();
    (void)s.advance();
  }
  // The remote input of tick current - 7 arrives now: the same byte as the
  // tick before it (a hit: predictions repeat the last input) or another.
  void late(bool hit) {
    local();
    const std::uint64_t t = s.currentTick() - 7;
    const std::uint8_t b = hit ? 3 : input(t);
    (void)s.addRemoteInput(1, t, std::span<const std::uint8_t>(&b, 1));
    (void)s.advance();
  }
};

// A session's floors done in sequence on a world and a ring of their own
// (as each session row has its own), so that a floor row starts a block
// with caches as cold as its session's: a tick, then the column it wrote
// copied to its offset in the ring's next slot (depth + 2 slots of twice
// the snapshot's bytes, as a depth-12 session keeps). Summing rows timed
// apart leaves out how the copies and the ticks slow each other down (the
// ticks read what the copies just moved); these do not.
struct FloorSequence {
  std::unique_ptr<Sim> sim = makeSim();
  std::size_t bytes = sim->world.snapshotSize();
  static constexpr std::size_t kSlots = 14;
  std::vector<std::uint8_t> ring = std::vector<std::uint8_t>(kSlots * 2 * bytes);
  std::size_t changed = std::size_t{kEntities} * sizeof(Position);
  std::size_t at = bytes - 2 * changed;  // the Position section's offset
  std::uint8_t* column = sim->world.archetypeColumn(sim->world.archetypeOf(sim->world.handleAt(0)),
                                                    sim->world.componentId<Position>());
  std::size_t next = 0;
  std::uint64_t sink = 0;

  void tickColumn() {
    (void)sim->world.runSystems(sim->schedule);
    std::uint8_t* slot = ring.data() + (next++ % kSlots) * 2 * bytes;
    std::memcpy(slot + at, column, changed);
    sink += slot[at + changed / 2];
  }
  // A confirmed Columns advance: the tick, its column, the column's hash.
  void confirmed() {
    tickColumn();
    sink += laige::columnChecksumCached(sim->world, 1);
  }
  // An 8-tick rollback: the column copied back into the world's column
  // (written through its pointer, as a restore writes it; the ticks after
  // it mark it written), 9 x (tick + column), the confirmed tick's checksum.
  void rollback(bool fast) {
    std::memcpy(column, ring.data() + ((next + 4) % kSlots) * 2 * bytes + at, changed);
    for (int t = 0; t < 9; ++t) tickColumn();
    sink += fast ? sim->world.stateChecksum(1) : laige::columnChecksumCached(sim->world, 1);
  }
};

struct Row {
  std::string name;
  int calls;
  std::function<void()> run;
  std::vector<double> ns;  // per round, mean per call
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main() {
  laige::log::Logger::instance().setGlobalMinimum(laige::log::Level::Off);
  const char* roundsEnv = std::getenv("ROUNDS");
  const int rounds = roundsEnv != nullptr ? std::atoi(roundsEnv) : 15;

  auto plain = makeSim();
  World& w = plain->world;
  const std::size_t bytes = w.snapshotSize();
  volatile std::uint64_t sink = 0;
  std::vector<std::uint8_t> snapA(bytes), snapB(bytes), copy(bytes);
  // A ring like a session's (depth 12: 13 slots, each 2 x the bytes).
  constexpr std::size_t kRingSlots = 13;
  std::vector<std::uint8_t> ring(kRingSlots * 2 * bytes);
  std::size_t ringNext = 0;
  const auto copyToRing = [&] {
    std::memcpy(ring.data() + (ringNext % kRingSlots) * 2 * bytes, snapA.data(), bytes);
    sink = sink + ring[(ringNext % kRingSlots) * 2 * bytes + bytes / 2];
    ++ringNext;
  };
  (void)w.snapshot(snapA);
  // The bytes a tick changes: the Position column (its section's offset
  // does not matter to a copy's cost; the slot's start is used).
  const std::size_t changedBytes = std::size_t{kEntities} * sizeof(Position);
  std::size_t ringChangedNext = 0;
  const auto copyChangedToRing = [&] {
    std::uint8_t* slot = ring.data() + (ringChangedNext % kRingSlots) * 2 * bytes;
    std::memcpy(slot, snapA.data() + bytes - changedBytes, changedBytes);
    sink = sink + slot[changedBytes / 2];
    ++ringChangedNext;
  };
  // The world's Position column: the last section of the snapshot but one
  // (the archetype {Position, Velocity} is the last, Velocity after it).
  const std::uint8_t* positionColumn = nullptr;
  {
    const laige::ComponentTypeId pid = w.componentId<Position>();
    positionColumn = w.archetypeColumn(w.archetypeOf(w.handleAt(0)), pid);
  }
  const std::size_t positionAt = bytes - 2 * changedBytes;
  std::size_t columnRingNext = 0;
  const auto tickColumnToRing = [&] {
    (void)w.runSystems(plain->schedule);
    std::uint8_t* slot = ring.data() + (columnRingNext++ % kRingSlots) * 2 * bytes;
    std::memcpy(slot + positionAt, positionColumn, changedBytes);
    sink = sink + slot[positionAt + changedBytes / 2];
  };
  // Rings of snapshots as a session keeps them (one for each kind of
  // copy), over a world of their own.
  auto ringSim = makeSim();
  std::vector<std::uint8_t> ringFull(kRingSlots * 2 * bytes), ringChanged(kRingSlots * 2 * bytes);
  std::uint64_t ringChangedClock[kRingSlots] = {};
  std::size_t ringFullNext = 0, ringChangedSnapNext = 0;
  const auto tickSnapshotRing = [&](bool changedOnly) {
    (void)ringSim->world.runSystems(ringSim->schedule);
    if (!changedOnly) {
      const std::size_t k = ringFullNext++ % kRingSlots;
      (void)laige::detail::writeSnapshot(ringSim->world, std::span<std::uint8_t>(ringFull.data() + k * 2 * bytes, 2 * bytes), false);
      return;
    }
    const std::size_t k = ringChangedSnapNext++ % kRingSlots;
    laige::detail::RingCopy c{ringChangedClock[k], 0};
    (void)laige::detail::writeSnapshot(ringSim->world, std::span<std::uint8_t>(ringChanged.data() + k * 2 * bytes, 2 * bytes), false, &c);
    ringChangedClock[k] = c.taken;
  };

  // Sessions warmed past the ring depth; the late ones with every tick up
  // to current - 8 given, so each late input confirms one tick.
  Session fastConfirmed(RollbackChecksum::Fast), hashConfirmed(RollbackChecksum::StateHash);
  Session fastPredicted(RollbackChecksum::Fast);
  Session fastHit(RollbackChecksum::Fast), fastRoll(RollbackChecksum::Fast), hashRoll(RollbackChecksum::StateHash);
  Session colConfirmed(RollbackChecksum::Columns), colHit(RollbackChecksum::Columns), colRoll(RollbackChecksum::Columns);
  for (int i = 0; i < 20; ++i) {
    fastConfirmed.confirmed();
    hashConfirmed.confirmed();
    fastPredicted.predicted();
    colConfirmed.confirmed();
  }
  for (Session* s : {&fastHit, &fastRoll, &hashRoll, &colHit, &colRoll}) {
    for (int i = 0; i < 8; ++i) s->predicted();
    for (int i = 0; i < 20; ++i) s->late(s == &fastHit || s == &colHit);
  }

  FloorSequence floorConfirmed, floorRollFast, floorRollColumns;
  std::vector<Row> rows;
  rows.push_back({"tick", 50, [&] { (void)w.runSystems(plain->schedule); }, {}});
  rows.push_back({"memcpy", 50, [&] { std::memcpy(copy.data(), snapA.data(), bytes); sink = sink + copy[bytes / 2]; }, {}});
  rows.push_back({"memcpy_ring", 50, copyToRing, {}});
  rows.push_back({"tick_memcpy_ring", 50, [&] {
                    (void)w.runSystems(plain->schedule);
                    copyToRing();
                  }, {}});
  rows.push_back({"memcpy_ring_changed", 50, copyChangedToRing, {}});
  rows.push_back({"tick_memcpy_ring_changed", 50, [&] {
                    (void)w.runSystems(plain->schedule);
                    copyChangedToRing();
                  }, {}});
  rows.push_back({"tick_column_ring", 50, tickColumnToRing, {}});
  rows.push_back({"tick_snapshot_ring_full", 50, [&] { tickSnapshotRing(false); }, {}});
  rows.push_back({"tick_snapshot_ring_changed", 50, [&] { tickSnapshotRing(true); }, {}});
  rows.push_back({"xxh3_bytes", 50, [&] { sink = sink + XXH3_64bits(snapA.data(), bytes); }, {}});
  rows.push_back({"state_hash", 5, [&] { sink = sink + w.stateHash(1); }, {}});
  rows.push_back({"state_checksum", 50, [&] { sink = sink + w.stateChecksum(1); }, {}});
  rows.push_back({"checksum_of_snapshot", 50, [&] { sink = sink + w.stateChecksumOfSnapshot(snapA).value(); }, {}});
  rows.push_back({"snapshot", 50, [&] { (void)w.snapshot(snapB); }, {}});
  rows.push_back({"restore", 50, [&] { (void)w.restore(snapA); }, {}});
  rows.push_back({"snapshot_restore", 50, [&] {
                    (void)w.snapshot(snapB);
                    (void)w.restore(snapA);
                  }, {}});
  rows.push_back({"column_checksum", 50, [&] { sink = sink + laige::columnChecksum(w, 1); }, {}});
  rows.push_back({"tick_column_cached", 50, [&] {
                    (void)w.runSystems(plain->schedule);
                    sink = sink + laige::columnChecksumCached(w, 1);
                  }, {}});
  rows.push_back({"column_checksum_of_snapshot", 50, [&] { sink = sink + laige::columnChecksumOfSnapshot(w, snapA).value(); }, {}});
  rows.push_back({"snapshot_unsealed", 50, [&] { (void)laige::detail::writeSnapshot(w, snapB, false); }, {}});
  rows.push_back({"restore_trusted", 50, [&] { (void)laige::detail::restoreSnapshot(w, snapA, true); }, {}});
  rows.push_back({"snapshot_restore_trusted", 50, [&] {
                    (void)laige::detail::writeSnapshot(w, snapB, false);
                    (void)laige::detail::restoreSnapshot(w, snapA, true);
                  }, {}});
  rows.push_back({"advance_confirmed_fast", 50, [&] { fastConfirmed.confirmed(); }, {}});
  rows.push_back({"advance_confirmed_columns", 50, [&] { colConfirmed.confirmed(); }, {}});
  rows.push_back({"floor_confirmed_columns", 50, [&] { floorConfirmed.confirmed(); }, {}});
  rows.push_back({"advance_confirmed_statehash", 5, [&] { hashConfirmed.confirmed(); }, {}});
  rows.push_back({"advance_predicted_fast", 50, [&] { fastPredicted.predicted(); }, {}});
  rows.push_back({"advance_late_hit_fast", 50, [&] { fastHit.late(true); }, {}});
  rows.push_back({"advance_late_hit_columns", 50, [&] { colHit.late(true); }, {}});
  // Each sequence floor right after its rollback: a row that follows one
  // with a larger footprint (the StateHash rollback) starts with colder
  // caches, so both of a pair follow a row of about their own footprint.
  rows.push_back({"advance_rollback_8_fast", 10, [&] { fastRoll.late(false); }, {}});
  rows.push_back({"floor_rollback_8_fast", 10, [&] { floorRollFast.rollback(true); }, {}});
  rows.push_back({"advance_rollback_8_columns", 10, [&] { colRoll.late(false); }, {}});
  rows.push_back({"floor_rollback_8_columns", 10, [&] { floorRollColumns.rollback(false); }, {}});
  rows.push_back({"advance_rollback_8_statehash", 2, [&] { hashRoll.late(false); }, {}});

  if (const char* only = std::getenv("ROWS"); only != nullptr) {
    const std::string list = std::string(",") + only + ",";
    std::erase_if(rows, [&](const Row& row) {
      return row.name != "tick" && row.name != "memcpy" && row.name != "restore" && row.name != "xxh3_bytes" &&
             row.name != "memcpy_ring" && row.name != "tick_memcpy_ring" && row.name != "restore_trusted" &&
             row.name != "state_checksum" && row.name != "memcpy_ring_changed" &&
             row.name != "tick_memcpy_ring_changed" && row.name != "tick_column_ring" &&
             row.name != "tick_column_cached" && row.name != "floor_rollback_8_columns" &&
             row.name != "floor_rollback_8_fast" && row.name != "floor_confirmed_columns" &&
             list.find("," + row.name + ",") == std::string::npos;
    });
  }
  for (int r = -1; r < rounds; ++r) {  // one warm-up round
    for (Row& row : rows) {
      const auto t0 = Clock::now();
      for (int k = 0; k < row.calls; ++k) row.run();
      const double ns = std::chrono::duration<double, std::nano>(Clock::now() - t0).count() / row.calls;
      if (r >= 0) row.ns.push_back(ns);
    }
  }
  if (fastRoll.s.stats().lastAdvanceRolledBackTicks != 8 || hashRoll.s.stats().lastAdvanceRolledBackTicks != 8 ||
      fastHit.s.stats().lastAdvanceRolledBackTicks != 0 || fastConfirmed.s.confirmedTick() != fastConfirmed.s.currentTick() ||
      colRoll.s.stats().lastAdvanceRolledBackTicks != 8 || colHit.s.stats().lastAdvanceRolledBackTicks != 0 ||
      colConfirmed.s.confirmedTick() != colConfirmed.s.currentTick() ||
      laige::columnChecksumCached(w, 3) != laige::columnChecksum(w, 3)) {
    std::printf("error: the sessions did not do what the rows say\n");
    return 1;
  }
  std::printf("info entities %u snapshot_bytes %zu rounds %d\n", kEntities, bytes, rounds);
  auto find = [&](const char* name) -> Row& {
    for (Row& row : rows) {
      if (row.name == name) return row;
    }
    std::abort();
  };
  const auto has = [&](const char* name) {
    return std::any_of(rows.begin(), rows.end(), [&](const Row& row) { return row.name == name; });
  };
  // Per-round ratio of a row to a sum of base rows, median over rounds.
  auto ratio = [&](const Row& row, std::initializer_list<const char*> base) {
    std::vector<double> v;
    for (std::size_t k = 0; k < row.ns.size(); ++k) {
      double b = 0;
      for (const char* n : base) b += find(n).ns[k];
      v.push_back(row.ns[k] / b);
    }
    return median(v);
  };
  for (const Row& row : rows) {
    std::printf("row %-30s best %10.0f ns  median %10.0f ns  x_tick %7.2f  x_memcpy %7.2f\n", row.name.c_str(),
                *std::min_element(row.ns.begin(), row.ns.end()), median(row.ns), ratio(row, {"tick"}),
                ratio(row, {"memcpy"}));
  }
  const Row& tick = find("tick");
  std::printf("floor tick+memcpy x_tick %.2f\n", 1.0 + ratio(find("memcpy"), {"tick"}));
  std::printf("floor tick+memcpy+xxh3 x_tick %.2f\n",
              1.0 + ratio(find("memcpy"), {"tick"}) + ratio(find("xxh3_bytes"), {"tick"}));
  std::printf("floor 9x(tick+memcpy)+restore x_tick %.2f\n",
              9.0 * (1.0 + ratio(find("memcpy"), {"tick"})) + ratio(find("restore"), {"tick"}));
  std::printf("floor tick+memcpy_ring x_tick %.2f\n", ratio(find("tick_memcpy_ring"), {"tick"}));
  // What a rollback session's 8-tick rollback must at least do: 9 ticks and
  // 9 copies into its ring, one trusted restore (and, Fast, the checksum of
  // the tick the late input confirms).
  const double rollFloor = 9.0 * ratio(find("tick_memcpy_ring"), {"tick"}) + ratio(find("restore_trusted"), {"tick"});
  std::printf("floor 9x(tick+memcpy_ring)+restore_trusted x_tick %.2f\n", rollFloor);
  std::printf("floor 9x(tick+memcpy_ring)+restore_trusted+state_checksum x_tick %.2f\n",
              rollFloor + ratio(find("state_checksum"), {"tick"}));
  std::printf("floor tick+memcpy_ring_changed x_tick %.2f\n", ratio(find("tick_memcpy_ring_changed"), {"tick"}));
  std::printf("floor 9x(tick+memcpy_ring_changed)+memcpy_ring_changed x_tick %.2f\n",
              9.0 * ratio(find("tick_memcpy_ring_changed"), {"tick"}) + ratio(find("memcpy_ring_changed"), {"tick"}));
  // The session's own floor: its snapshots copy the written column from
  // the world into the ring (tick_column_ring), its restore copies it back.
  const double sessionFloor = 9.0 * ratio(find("tick_column_ring"), {"tick"}) + ratio(find("memcpy_ring_changed"), {"tick"});
  std::printf("floor 9x(tick+column_ring)+memcpy_ring_changed x_tick %.2f\n", sessionFloor);
  std::printf("floor 9x(tick+column_ring)+memcpy_ring_changed+column hash (Columns) x_tick %.2f\n",
              sessionFloor + ratio(find("tick_column_cached"), {"tick"}) - 1.0);
  std::printf("floor 9x(tick+column_ring)+memcpy_ring_changed+state_checksum (Fast) x_tick %.2f\n",
              sessionFloor + ratio(find("state_checksum"), {"tick"}));
  // The same floors done in sequence on one world (floor_rollback_8_*),
  // and each rollback against its own.
  std::printf("floor sequence: column back + 9x(tick+column_ring) + column hash (Columns) x_tick %.2f\n",
              ratio(find("floor_rollback_8_columns"), {"tick"}));
  std::printf("floor sequence: column back + 9x(tick+column_ring) + state_checksum (Fast) x_tick %.2f\n",
              ratio(find("floor_rollback_8_fast"), {"tick"}));
  if (has("advance_confirmed_columns")) {
    std::printf("advance_confirmed_columns over its floor sequence (tick + column_ring + column hash): %.2f\n",
                ratio(find("advance_confirmed_columns"), {"floor_confirmed_columns"}));
  }
  if (has("advance_rollback_8_columns") && has("advance_rollback_8_fast")) {
    std::printf("rollback_8 over its floor sequence: Columns %.2f, Fast %.2f\n",
                ratio(find("advance_rollback_8_columns"), {"floor_rollback_8_columns"}),
                ratio(find("advance_rollback_8_fast"), {"floor_rollback_8_fast"}));
  }
  (void)tick;
  if (has("snapshot_restore") && has("snapshot_restore_trusted")) {
    std::printf("target snapshot_restore x_memcpy %.2f, trusted %.2f (natively <= 4, wasm <= 6)\n",
                ratio(find("snapshot_restore"), {"memcpy"}), ratio(find("snapshot_restore_trusted"), {"memcpy"}));
  }
  return sink + floorConfirmed.sink + floorRollFast.sink + floorRollColumns.sink == 42 ? 2 : 0;
}
