// rollback_internal.h - the state behind a RollbackSession (rollback.cpp:
// creation and inputs; rollback_advance.cpp: advance, confirmation).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>

#include "laige/rollback.h"
#include "laige/world.h"

namespace laige::detail {

// An array allocated without throwing; nullptr when the allocation failed.
template <class T>
std::unique_ptr<T[]> allocArray(std::size_t n) noexcept {
  return std::unique_ptr<T[]>(new (std::nothrow) T[n == 0 ? 1 : n]());
}

struct RollbackState {
  World* world = nullptr;
  const SystemSchedule* schedule = nullptr;
  RollbackSession::Options o;

  // Snapshot ring: slot t % (depth + 1) holds the state after tick t, for
  // the ticks currentTick - depth .. currentTick - 1 (taken before running
  // tick t + 1); slot depth + 1 holds the state at the start of a rolling
  // advance (its undo when something fails).
  std::uint32_t snapSlots = 0;
  std::size_t snapCapacity = 0;
  std::unique_ptr<std::uint8_t[]> snapBytes;
  std::unique_ptr<std::size_t[]> snapSize;
  // Per slot: the world's copy clock its bytes hold (detail::RingCopy; 0 =
  // none): a snapshot into the slot copies only what changed since.
  std::unique_ptr<std::uint64_t[]> snapClock;

  // Input ring, per player: slot tick % inputSlots describes tick `inTick`
  // (a slot holding another tick is empty for this one). known: received
  // (or given locally); used: the bytes the tick last ran with (the input,
  // or the prediction). The window: currentTick - depth .. currentTick +
  // inputLead, which inputSlots = depth + inputLead + 1 covers without
  // aliasing.
  std::uint32_t inputSlots = 0;
  std::uint32_t stride = 1;  // max(maxInputBytes, 1)
  std::unique_ptr<std::uint64_t[]> inTick;
  std::unique_ptr<std::uint8_t[]> inKnown;
  std::unique_ptr<std::uint16_t[]> inSize;
  std::unique_ptr<std::uint16_t[]> usedSize;
  std::unique_ptr<std::uint8_t[]> inBytes;
  std::unique_ptr<std::uint8_t[]> usedBytes;
  // Per player: every tick 1..frontier has been received.
  std::uint64_t frontier[kMaxRollbackPlayers] = {};

  // Run hashes: slot tick % hashSlots (depth + 2) holds (tick, checksum)
  // as the tick last ran; hashReady 0 = not computed (a Fast session's
  // predicted tick: computed from its ring snapshot if it is confirmed). A
  // tick is confirmed within depth + 1 ticks of its run (addRemoteInput
  // refuses older ones), so that is enough.
  std::uint32_t hashSlots = 0;
  std::unique_ptr<std::uint64_t[]> hashTick;
  std::unique_ptr<std::uint64_t[]> hashValue;
  std::unique_ptr<std::uint8_t[]> hashReady;
  // During advance(): the last tick every player has given (uncapped); a
  // Fast session checksums a tick it runs only when it is <= this (the
  // advance's end confirms it).
  std::uint64_t givenByAll = 0;
  // Confirmed hashes: slot tick % confirmedSlots (hashHistory).
  std::uint32_t confirmedSlots = 0;
  std::unique_ptr<std::uint64_t[]> confirmedTick;
  std::unique_ptr<std::uint64_t[]> confirmedValue;

  std::unique_ptr<std::uint8_t[]> combined;

  std::uint64_t current = 0;
  std::uint64_t confirmed = 0;
  std::uint64_t pending = 0;  // earliest tick to re-run, 0 = none
  RollbackStats stats;
  bool inAdvance = false;

  // The input slot of (player, tick).
  std::size_t slotOf(std::uint32_t player, std::uint64_t tick) const noexcept {
    return std::size_t{player} * inputSlots + static_cast<std::size_t>(tick % inputSlots);
  }
  std::uint8_t* bytesAt(std::size_t slot) noexcept { return inBytes.get() + slot * stride; }
  std::uint8_t* usedAt(std::size_t slot) noexcept { return usedBytes.get() + slot * stride; }
  std::uint8_t* snapAt(std::uint32_t slot) noexcept { return snapBytes.get() + slot * snapCapacity; }
  // Makes `slot` describe `tick` (empty) when it describes another tick.
  void claim(std::size_t slot, std::uint64_t tick) noexcept {
    if (inTick[slot] == tick) return;
    inTick[slot] = tick;
    inKnown[slot] = 0;
    inSize[slot] = 0;
    usedSize[slot] = 0;
  }
  // The last tick every player has given, capped at the ticks run.
  std::uint64_t confirmable() const noexcept {
    std::uint64_t upTo = current;
    for (std::uint32_t p = 0; p < o.players; ++p) {
      if (frontier[p] < upTo) upTo = frontier[p];
    }
    return upTo;
  }
  std::uint64_t oldest() const noexcept {
    return current > o.depth ? current - o.depth + 1 : 1;
  }
  // Raises player p's frontier over the ticks received contiguously.
  void raiseFrontier(std::uint32_t p) noexcept {
    for (;;) {
      const std::uint64_t next = frontier[p] + 1;
      const std::size_t s = slotOf(p, next);
      if (inTick[s] != next || inKnown[s] == 0) return;
      frontier[p] = next;
    }
  }
};

/// Tick `t` of the session's world with `inputs` (one span per player):
/// the combiner, its size check (combined_input_too_large), beginFrame,
/// the schedule with the combined bytes, then Options::afterTick. The first
/// error is returned as is; the world may then be between states (the
/// caller restores). Used by advance() and by pinRollbackTick's re-run.
Status runCombinedTick(RollbackState& s, std::uint64_t t, const RollbackTickInputs& inputs) noexcept;

}  // namespace laige::detail
