// rollback_advance.cpp - RollbackSession::advance(): the snapshot ring, the
// rollback (restore + re-simulation), the new tick, the undo of a failed
// advance, and confirmation. docs/rollback.md.
#include <cstdint>
#include <cstring>
#include <memory>

#include "laige/assert.h"
#include "laige/changes.h"
#include "laige/logging.h"
#include "laige/rollback.h"
#include "laige/system.h"
#include "laige/world.h"
#include "logging/log_texts.h"
#include "rollback/rollback_internal.h"
#include "snapshot/snapshot_internal.h"

namespace laige {

Status detail::runCombinedTick(RollbackState& s, std::uint64_t t, const RollbackTickInputs& inputs) noexcept {
  std::uint32_t written = 0;
  const std::span<std::uint8_t> out(s.combined.get(), s.o.maxCombinedBytes);
  if (Status st = s.o.combine(s.o.combineContext, t, inputs, out, written); st.isError()) return st;
  if (written > out.size()) {
    return Status::failure(ErrorCode::BudgetExhausted, "combined_input_too_large")
        .with("size", written)
        .with("max", static_cast<std::uint64_t>(out.size()));
  }
  TickInput payload;
  payload.data = written != 0 ? s.combined.get() : nullptr;
  payload.size = written;
  s.world->beginFrame();
  if (Status st = s.world->runSystems(*s.schedule, payload); st.isError()) return st;
  if (s.o.afterTick != nullptr) return s.o.afterTick(s.o.afterTickContext, *s.world, t);
  return Status{};
}

namespace {

// Marks the session as inside advance() for the call's whole duration.
struct AdvanceScope {
  bool& flag;
  explicit AdvanceScope(bool& f) noexcept : flag(f) { flag = true; }
  ~AdvanceScope() { flag = false; }
  AdvanceScope(const AdvanceScope&) = delete;
  AdvanceScope& operator=(const AdvanceScope&) = delete;
};

// Snapshots the world into ring slot `slot`, growing every slot first when
// the state no longer fits (the one allocation advance() may make).
Status takeSnapshot(detail::RollbackState& s, std::uint32_t slot) noexcept {
  const std::size_t need = s.world->snapshotSize();
  if (need > s.snapCapacity) {
    // In 64 bits: in wasm (32-bit size_t) the ring's size can pass SIZE_MAX.
    const std::uint64_t cap = ((std::uint64_t{need} * 2) + 7) & ~std::uint64_t{7};
    const std::uint64_t ringBytes = cap * s.snapSlots;
    std::unique_ptr<std::uint8_t[]> grown;
    if (ringBytes <= SIZE_MAX) grown = detail::allocArray<std::uint8_t>(static_cast<std::size_t>(ringBytes));
    if (!grown) return Status::failure(ErrorCode::BudgetExhausted, "rollback_alloc_failed").with("bytes", ringBytes);
    const auto slotBytes = static_cast<std::size_t>(cap);  // <= ringBytes <= SIZE_MAX
    for (std::uint32_t i = 0; i < s.snapSlots; ++i) {
      if (s.snapSize[i] != 0) std::memcpy(grown.get() + i * slotBytes, s.snapAt(i), s.snapSize[i]);
    }
    s.snapBytes = std::move(grown);
    s.snapCapacity = slotBytes;
    s.o.snapshotCapacity = slotBytes;
    ++s.stats.ringGrowths;
    LAIGE_LOG_WARN("rollback", "rollback_ring_grown", log::texts::RollbackRingGrown, log::field("needed", static_cast<std::uint64_t>(need)),
                   log::field("capacity", cap));
  }
  // Unsealed: only this session's trusted restore reads its ring. Only
  // the sections changed since the slot was last written are copied.
  detail::RingCopy copy{s.snapSize[slot] != 0 ? s.snapClock[slot] : 0, 0};
  const Status st =
      detail::writeSnapshot(*s.world, std::span<std::uint8_t>(s.snapAt(slot), s.snapCapacity), false, &copy);
  s.snapSize[slot] = st.ok() ? need : 0;
  s.snapClock[slot] = st.ok() ? copy.taken : 0;
  return st;
}

Status restoreSlot(detail::RollbackState& s, std::uint32_t slot) noexcept {
  // Trusted: the session wrote these bytes and nothing else writes its ring
  // (docs/snapshots.md#trusted-restores).
  // Sections unchanged since the slot was written are not copied back.
  const Status st = detail::restoreSnapshot(*s.world, std::span<const std::uint8_t>(s.snapAt(slot), s.snapSize[slot]),
                                            true, s.snapClock[slot]);
  if (s.o.onRestore != nullptr) s.o.onRestore(s.o.onRestoreContext, *s.world);
  return st;
}

// Runs tick `t`: each player's input (received, else the prediction: the
// bytes the player's tick t - 1 ran with), runCombinedTick, the hash.
Status runTick(detail::RollbackState& s, std::uint64_t t) noexcept {
  RollbackTickInputs inputs;
  inputs.players = s.o.players;
  for (std::uint32_t p = 0; p < s.o.players; ++p) {
    const std::size_t slot = s.slotOf(p, t);
    s.claim(slot, t);
    std::uint8_t* used = s.usedAt(slot);
    if (s.inKnown[slot] != 0) {
      s.usedSize[slot] = s.inSize[slot];
      if (s.inSize[slot] != 0) std::memcpy(used, s.bytesAt(slot), s.inSize[slot]);
    } else {
      const std::size_t prev = s.slotOf(p, t - 1);
      const bool have = t > 1 && s.inTick[prev] == t - 1;
      const std::uint16_t n = have ? s.usedSize[prev] : 0;
      s.usedSize[slot] = n;
      if (n != 0) std::memcpy(used, s.usedAt(prev), n);
    }
    inputs.input[p] = std::span<const std::uint8_t>(used, s.usedSize[slot]);
  }
  if (Status st = detail::runCombinedTick(s, t, inputs); st.isError()) return st;
  const std::uint32_t h = static_cast<std::uint32_t>(t % s.hashSlots);
  s.hashTick[h] = t;
  s.hashReady[h] = 0;
  if (s.o.checksum == RollbackChecksum::StateHash) {
    s.hashValue[h] = s.world->stateHash(s.world->systemTicksRun());
    s.hashReady[h] = 1;
  } else if (t <= s.givenByAll) {
    const std::uint64_t ticks = s.world->systemTicksRun();
    s.hashValue[h] = s.o.checksum == RollbackChecksum::Columns ? columnChecksumCached(*s.world, ticks)
                                                              : s.world->stateChecksum(ticks);
    s.hashReady[h] = 1;
  }
  return Status{};
}

// The checksum of confirmed tick `t` that ran as a prediction (Fast): the
// state after it is in ring slot t % (depth + 1) (taken before tick t + 1
// ran; a confirmable tick is never older than oldest(), so still there).
bool checksumFromRing(detail::RollbackState& s, std::uint64_t t, std::uint64_t& value) noexcept {
  const auto slot = static_cast<std::uint32_t>(t % (s.o.depth + 1));
  const std::span<const std::uint8_t> bytes(s.snapAt(slot), s.snapSize[slot]);
  const Result<std::uint64_t> r = s.o.checksum == RollbackChecksum::Columns ? columnChecksumOfSnapshot(*s.world, bytes)
                                                                           : s.world->stateChecksumOfSnapshot(bytes);
  if (!r.ok()) return false;
  value = r.value();
  return true;
}

// The advance's work after the checks: an error leaves the undo to the caller.
Status rollAndRun(detail::RollbackState& s, std::uint64_t& rolledBack) noexcept {
  const std::uint32_t ring = s.o.depth + 1;
  const std::uint64_t next = s.current + 1;
  if (s.pending == 0) return runTick(s, next);
  const std::uint64_t from = s.pending;
  // addRemoteInput admits no tick before oldest(), so the state after
  // from - 1 is still in the ring.
  if (Status st = restoreSlot(s, static_cast<std::uint32_t>((from - 1) % ring)); st.isError()) return st;
  rolledBack = s.current - from + 1;
  for (std::uint64_t t = from; t <= next; ++t) {
    if (t > from) {
      const auto slot = static_cast<std::uint32_t>((t - 1) % ring);
      if (t <= s.givenByAll) {
        // Every player's input for tick t is known and t runs with it, so
        // no input can miss at t or before again: nothing will restore the
        // state after t - 1, and its checksum (t - 1 <= givenByAll) is
        // taken by runTick, not from the ring. Its snapshot is skipped;
        // the slot is marked empty so that nothing reads its old bytes.
        s.snapSize[slot] = 0;
      } else if (Status st = takeSnapshot(s, slot); st.isError()) {
        return st;
      }
    }
    // Ticks run before are re-simulated: observers see the flag (docs/changes.md#rollback).
    setResimulating(*s.world, t < next);
    const Status st = runTick(s, t);
    setResimulating(*s.world, false);
    if (st.isError()) return st;
  }
  return Status{};
}

}  // namespace

Status RollbackSession::advance() noexcept {
  if (!s_) return Status::failure(ErrorCode::InvalidArgument, "session_moved_from");
  detail::RollbackState& s = *s_;
  if (Status st = s.world->tickAllowed(); st.isError()) return st;
  if (s.inAdvance) {
    return Status::failure(ErrorCode::InvalidArgument, "tick_inside_callback").with("callback", "rollback_hook");
  }
  const std::uint64_t next = s.current + 1;
  const std::size_t local = s.slotOf(s.o.localPlayer, next);
  if (s.inTick[local] != next || s.inKnown[local] == 0) {
    return Status::failure(ErrorCode::InvalidArgument, "local_input_missing").with("tick", next);
  }
  if (s.o.maxPredictionTicks != 0 && s.current - s.confirmable() >= s.o.maxPredictionTicks) {
    return Status::failure(ErrorCode::InvalidArgument, "prediction_limit")
        .with("current", s.current)
        .with("confirmed", s.confirmable())
        .with("limit", s.o.maxPredictionTicks);
  }
  const AdvanceScope scope(s.inAdvance);
  s.givenByAll = s.frontier[0];
  for (std::uint32_t p = 1; p < s.o.players; ++p) {
    if (s.frontier[p] < s.givenByAll) s.givenByAll = s.frontier[p];
  }
  const bool rolling = s.pending != 0;
  const std::uint32_t startSlot = s.o.depth + 1;
  // The state this call starts from: the ring slot of the current tick (the
  // state a later rollback to tick current + 1 restores), or, for a rolling
  // advance, the extra slot that undoes a failure. A failure here changed
  // nothing.
  const std::uint32_t undo = rolling ? startSlot : static_cast<std::uint32_t>(s.current % (s.o.depth + 1));
  if (Status st = takeSnapshot(s, undo); st.isError()) return st;
  std::uint64_t rolledBack = 0;
  if (Status st = rollAndRun(s, rolledBack); st.isError()) {
    const Status back = restoreSlot(s, undo);
    if (back.isError()) LAIGE_MISUSE("RollbackSession::advance: the undo restore failed");
    return st;
  }
  s.current = next;
  s.pending = 0;
  RollbackStats& k = s.stats;
  ++k.advances;
  k.lastAdvanceRolledBackTicks = rolledBack;
  k.lastAdvanceResimulatedTicks = rolledBack;
  if (rolledBack != 0) {
    ++k.rollbacks;
    k.resimulatedTicks += rolledBack;
    if (rolledBack > k.deepestRollback) k.deepestRollback = rolledBack;
  }
  // Confirmation: every player gave every tick up to confirmable(), and
  // each of those ticks ran with exactly those inputs (a miss rolled back
  // above), so the hash of its last run is final.
  const std::uint64_t upTo = s.confirmable();
  while (s.confirmed < upTo) {
    const std::uint64_t t = ++s.confirmed;
    const std::uint32_t h = static_cast<std::uint32_t>(t % s.hashSlots);
    if (s.hashTick[h] != t) {
      LAIGE_MISUSE("RollbackSession::advance: a confirmed tick's hash left the history");
      continue;
    }
    if (s.hashReady[h] == 0) {
      if (!checksumFromRing(s, t, s.hashValue[h])) {
        LAIGE_MISUSE("RollbackSession::advance: a confirmed tick's snapshot left the ring");
        continue;
      }
      s.hashReady[h] = 1;
    }
    const std::uint32_t c = static_cast<std::uint32_t>(t % s.confirmedSlots);
    s.confirmedTick[c] = t;
    s.confirmedValue[c] = s.hashValue[h];
    if (s.o.onConfirmed != nullptr) s.o.onConfirmed(s.o.onConfirmedContext, t, s.hashValue[h]);
  }
  return Status{};
}

}  // namespace laige
