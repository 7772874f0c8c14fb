// rollback_pin.cpp - pinRollbackTick (laige/desync_exchange.h,
// docs/desync.md#across-peers): a confirmed tick re-run from the session's
// snapshot ring with per-system checkpoints on, its state kept, the world
// put back. A cold path: it allocates the pin and the saved state.
#include <cstring>
#include <vector>

#include "laige/changes.h"
#include "laige/desync.h"
#include "laige/desync_exchange.h"
#include "laige/rollback.h"
#include "laige/state_hash.h"
#include "laige/world.h"
#include "rollback/rollback_internal.h"
#include "setup_code.h"
#include "snapshot/snapshot_internal.h"

namespace laige {

namespace {

Status unavailable(const detail::RollbackState& s, std::uint64_t tick) noexcept {
  return Status::failure(ErrorCode::InvalidArgument, "desync_tick_unavailable")
      .with("tick", tick)
      .with("oldest", s.oldest())
      .with("confirmed", s.confirmed);
}

// Tick t again with the bytes each player's tick t last ran with (for a
// confirmed tick: the received inputs), without touching the session's
// hashes or input ring.
Status rerunTick(detail::RollbackState& s, std::uint64_t t) noexcept {
  RollbackTickInputs inputs;
  inputs.players = s.o.players;
  for (std::uint32_t p = 0; p < s.o.players; ++p) {
    const std::size_t slot = s.slotOf(p, t);
    inputs.input[p] = std::span<const std::uint8_t>(s.usedAt(slot), s.usedSize[slot]);
  }
  return detail::runCombinedTick(s, t, inputs);
}

// The checksum the session keeps (Options::checksum) of the world's state,
// whose snapshot is `bytes`.
std::uint64_t sessionChecksum(const detail::RollbackState& s, std::span<const std::uint8_t> bytes) noexcept {
  World& w = *s.world;
  switch (s.o.checksum) {
    case RollbackChecksum::StateHash: return w.stateHash(w.systemTicksRun());
    case RollbackChecksum::Columns: {
      const Result<std::uint64_t> r = columnChecksumOfSnapshot(w, bytes);
      return r.ok() ? r.value() : 0;
    }
    case RollbackChecksum::Fast: break;
  }
  return w.stateChecksum(w.systemTicksRun());
}

// From the restored ring state after tick `from` - 1, ticks from..tick with
// checkpoints on; the state after `tick` and its checkpoints into `out`.
Status rerunInto(detail::RollbackState& s, std::uint64_t from, std::uint64_t tick, DesyncPin& out) noexcept {
  if (Status st = setSystemCheckpoints(*s.world, true); st.isError()) return st;
  for (std::uint64_t t = from; t <= tick; ++t) {
    setResimulating(*s.world, true);
    const Status st = rerunTick(s, t);
    setResimulating(*s.world, false);
    if (st.isError()) return st;
  }
  const std::span<const SystemCheckpoint> cps = systemCheckpoints(*s.world);
  out.checkpoints.assign(cps.begin(), cps.end());
  out.snapshot.resize(s.world->snapshotSize());
  if (Status st = s.world->snapshot(out.snapshot); st.isError()) return st;
  out.tick = tick;
  const std::uint64_t expected = s.confirmedValue[tick % s.confirmedSlots];
  const std::uint64_t got = sessionChecksum(s, out.snapshot);
  if (got != expected) {
    return Status::failure(ErrorCode::InvalidArgument, "desync_pin_mismatch")
        .with("tick", tick)
        .with("expected", expected)
        .with("got", got);
  }
  return Status{};
}

}  // namespace

LAIGE_SETUP_CODE Status pinRollbackTick(RollbackSession& session, std::uint64_t tick, DesyncPin& out) noexcept {
  if (!session.s_) return Status::failure(ErrorCode::InvalidArgument, "session_moved_from");
  detail::RollbackState& s = *session.s_;
  if (s.inAdvance) {
    return Status::failure(ErrorCode::InvalidArgument, "tick_inside_callback").with("callback", "rollback_hook");
  }
  if (Status st = s.world->tickAllowed(); st.isError()) return st;
  if (tick == 0 || tick > s.confirmed || s.confirmedTick[tick % s.confirmedSlots] != tick) return unavailable(s, tick);
  // The newest ring state at or before tick - 1 (ring slot t % (depth + 1)
  // holds the state after t for t in current - depth .. current - 1; a slot
  // of size 0 was skipped by a rollback), and the inputs of every tick
  // from there on (the input ring covers current - depth onwards).
  const std::uint32_t ring = s.o.depth + 1;
  const std::uint64_t lowest = s.current > s.o.depth ? s.current - s.o.depth : 0;
  std::uint64_t from = 0;
  bool found = false;
  for (std::uint64_t prev = tick - 1; prev >= lowest; --prev) {
    if (s.snapSize[prev % ring] != 0) {
      from = prev + 1;
      found = true;
      break;
    }
    if (prev == 0) break;
  }
  if (!found) return unavailable(s, tick);
  for (std::uint64_t t = from; t <= tick; ++t) {
    for (std::uint32_t p = 0; p < s.o.players; ++p) {
      if (s.inTick[s.slotOf(p, t)] != t) return unavailable(s, tick);
    }
  }
  // The world as it is now, to put back whatever happens.
  std::vector<std::uint8_t> saved(s.world->snapshotSize());
  if (Status st = s.world->snapshot(saved); st.isError()) return st;
  const bool checkpointsWereOn = systemCheckpointsOn(*s.world);
  const std::uint32_t slot = static_cast<std::uint32_t>((from - 1) % ring);
  Status st = detail::restoreSnapshot(*s.world, std::span<const std::uint8_t>(s.snapAt(slot), s.snapSize[slot]), true);
  if (s.o.onRestore != nullptr) s.o.onRestore(s.o.onRestoreContext, *s.world);
  DesyncPin pin;
  if (st.ok()) st = rerunInto(s, from, tick, pin);
  const Status back = s.world->restore(saved);
  if (s.o.onRestore != nullptr) s.o.onRestore(s.o.onRestoreContext, *s.world);
  (void)setSystemCheckpoints(*s.world, checkpointsWereOn);
  if (st.isError()) return st;
  if (back.isError()) return back;
  out = std::move(pin);
  return Status{};
}

}  // namespace laige
