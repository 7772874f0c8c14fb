// laige/rollback.h - rollback sessions: per-player input per tick,
// prediction of the inputs that have not arrived, and restore +
// re-simulation when a prediction turns out wrong (docs/rollback.md).
//
// A RollbackSession drives a World's schedule one tick per advance(), like a
// GameLoop does, but every tick's input is built from the players' inputs for
// that tick. The local player's input is given ahead of time
// (setLocalInput); the remote players' inputs arrive late, out of order or
// twice (addRemoteInput). A tick whose remote input is missing runs with a
// prediction (the player's input of the tick before, "repeat the last
// known"). When a remote input arrives for a tick already run and differs
// from the prediction that tick used, the next advance() restores the
// snapshot taken before that tick and re-runs every tick from there to the
// present, then runs the next tick: the world ends exactly where a run that
// had every input in time would be (snapshots restore bit-exactly,
// docs/snapshots.md). A tick whose inputs are all known and whose state has
// been computed from known inputs only is confirmed; its state hash is what
// two peers compare.
//
// Everything is allocated by create(): the ring of snapshots (one per tick,
// `depth` + 2 slots), the per-player input ring and the hash history. The
// snapshot slots grow (an allocation, counted in stats().ringGrowths) only
// when the world's state outgrows them; size them with
// Options::snapshotCapacity to rule that out. Hooks are plain function
// pointers with a context pointer, like GameLoop's: no std::function.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

#include "laige/result.h"

namespace laige {

class World;
struct SystemSchedule;
struct DesyncPin;
class RollbackSession;
Status pinRollbackTick(RollbackSession& session, std::uint64_t tick, DesyncPin& out) noexcept;

/// The most players a session has.
inline constexpr std::uint32_t kMaxRollbackPlayers = 8;
/// The default ring depth: how many past ticks a late input can still rewrite.
inline constexpr std::uint32_t kDefaultRollbackDepth = 12;
/// The deepest ring a session accepts.
inline constexpr std::uint32_t kMaxRollbackDepth = 120;
/// The default per-player input limit in bytes.
inline constexpr std::uint32_t kDefaultRollbackInputBytes = 16;
/// The largest per-player input (the default combiner's length prefix is a u8).
inline constexpr std::uint32_t kMaxRollbackInputBytes = 255;
/// The default input lead: how many ticks past currentTick() an input may be given.
inline constexpr std::uint32_t kDefaultRollbackInputLead = 32;
/// The largest input lead.
inline constexpr std::uint32_t kMaxRollbackInputLead = 1024;
/// The default number of confirmed hashes confirmedHash() can still look up.
inline constexpr std::uint32_t kDefaultRollbackHashHistory = 64;
/// The largest hash history.
inline constexpr std::uint32_t kMaxRollbackHashHistory = 4096;

/// The checksum a rollback session keeps of each confirmed tick (what two
/// peers compare; `docs/rollback.md#checksums`).
enum class RollbackChecksum : std::uint8_t {
  /// World::stateChecksum (64-bit XXH3 over the canonical state, at memory
  /// speed), computed once per tick that becomes confirmed. The default.
  Fast = 0,
  /// World::stateHash (FNV-1a-64, the replay and detcheck hash), computed
  /// after every tick run, as sessions did before the fast checksum.
  StateHash = 1,
  /// columnChecksumCached (state_hash.h): Fast's schedule, with one XXH3
  /// per column kept in the world, so a tick hashes again only the columns
  /// written since the last checksum. Another value than Fast.
  Columns = 2,
};

/// The players' inputs for one tick, as a combine hook sees them: input[p]
/// is player p's payload (received, or the prediction), for p < players.
/// The spans are valid during the call only.
struct RollbackTickInputs {
  /// Options::players.
  std::uint32_t players = 0;
  /// Player p's bytes for the tick (empty = no input).
  std::span<const std::uint8_t> input[kMaxRollbackPlayers];
};

/// The session's counters since creation.
struct RollbackStats {
  /// Successful advance() calls (== currentTick()).
  std::uint64_t advances = 0;
  /// advance() calls that restored a snapshot and re-ran ticks.
  std::uint64_t rollbacks = 0;
  /// Ticks re-run by rollbacks (the new tick of each advance not included).
  std::uint64_t resimulatedTicks = 0;
  /// Remote inputs that arrived for a tick already run and differed from the
  /// input that tick was run with (each one asks for a rollback).
  std::uint64_t predictionMisses = 0;
  /// Remote inputs that arrived for a tick already run and matched it.
  std::uint64_t predictionHits = 0;
  /// Inputs given again with the same bytes (ignored).
  std::uint64_t duplicateInputs = 0;
  /// The most ticks one rollback re-ran.
  std::uint64_t deepestRollback = 0;
  /// Ticks the last successful advance() rolled back (0 = none).
  std::uint64_t lastAdvanceRolledBackTicks = 0;
  /// Ticks the last successful advance() re-ran (== its rolled-back ticks).
  std::uint64_t lastAdvanceResimulatedTicks = 0;
  /// Times the snapshot ring was reallocated because a state outgrew its slots.
  std::uint64_t ringGrowths = 0;
};

namespace detail {
struct RollbackState;
}

/// A rollback session over a world and its schedule (for a reference
/// scenario: ScenarioRun::world() and schedule()). Move-only; holds
/// non-owning views of the world and the schedule (both must outlive it and
/// stay at their addresses). A moved-from session refuses every call with
/// InvalidArgument `session_moved_from`. One owner thread (the world's).
///
/// Ticks are numbered from 1: tick t is the t-th advance() of the session.
/// The world's own tick count (World::systemTicksRun()) is the count it had
/// at create() plus the session's.
///
/// The rule every member keeps: it does all it says, or it fails with a
/// reason and changes nothing (no input stored, no tick counted, the world's
/// state hash unchanged).
class RollbackSession {
 public:
  /// Builds tick `tick`'s single payload (SystemContext::input) from the
  /// players' inputs: writes at most out.size() bytes to `out` and their
  /// count to `written`. It must be a pure function of (tick, inputs): it
  /// runs again for every re-simulated tick. An error Status fails the
  /// advance() that called it (nothing changes). Called inside advance().
  using CombineFn = Status (*)(void* ctx, std::uint64_t tick, const RollbackTickInputs& inputs,
                               std::span<std::uint8_t> out, std::uint32_t& written) noexcept;
  /// Called after every tick run (re-simulated ones included) with the
  /// session tick. An error Status fails the advance() (the world is put
  /// back as it was before the call). The wasm bindings use it to stop at a
  /// TypeScript system that threw.
  using AfterTickFn = Status (*)(void* ctx, World& world, std::uint64_t tick) noexcept;
  /// Called after every restore the session makes (the start of a rollback,
  /// and the undo of a failed advance): caches keyed by archetype ids or
  /// column addresses rebuild (World::structureEpoch()).
  using RestoreFn = void (*)(void* ctx, World& world) noexcept;
  /// Called once per newly confirmed tick, in tick order, at the end of the
  /// advance() that confirmed it, with the checksum of that tick
  /// (Options::checksum: World::stateChecksum or World::stateHash of the
  /// state after it, with the world's tick count as `tick` argument).
  using ConfirmedFn = void (*)(void* ctx, std::uint64_t tick, std::uint64_t hash) noexcept;

  /// How a session runs (`docs/rollback.md#options`).
  struct Options {
    /// Players in the session, 1..kMaxRollbackPlayers.
    std::uint32_t players = 2;
    /// This peer's player, 0..players-1 (its input: setLocalInput).
    std::uint32_t localPlayer = 0;
    /// Ring depth: the ticks a late input can still rewrite, 1..kMaxRollbackDepth.
    std::uint32_t depth = kDefaultRollbackDepth;
    /// The largest input of one player for one tick, 0..kMaxRollbackInputBytes.
    std::uint32_t maxInputBytes = kDefaultRollbackInputBytes;
    /// How many ticks past currentTick() an input may be given, 1..kMaxRollbackInputLead.
    std::uint32_t inputLead = kDefaultRollbackInputLead;
    /// 0 = advance() never waits; else advance() refuses (reason
    /// `prediction_limit`) while currentTick() minus the last tick every
    /// player has given (what the next advance() confirms) is >= this
    /// (1..depth). With it, no remote input can ever be too late.
    std::uint32_t maxPredictionTicks = 0;
    /// How many confirmed hashes confirmedHash() keeps, 1..kMaxRollbackHashHistory
    /// (at least depth + 2 are kept: all the ticks one advance() can confirm).
    std::uint32_t hashHistory = kDefaultRollbackHashHistory;
    /// The checksum kept per confirmed tick (confirmedHash, onConfirmed).
    /// Fast: World::stateChecksum, computed only for ticks that become
    /// confirmed (from the snapshot ring for a predicted tick confirmed
    /// later), never for a re-simulated tick that is predicted. StateHash:
    /// World::stateHash after every tick run. Peers must use the same.
    RollbackChecksum checksum = RollbackChecksum::Fast;
    /// Bytes per snapshot slot; 0 = max(2 x, 64 KiB +) the world's
    /// snapshotSize() at create(). A larger state reallocates the ring once.
    std::size_t snapshotCapacity = 0;
    /// The combined payload's capacity; 0 = players x (1 + maxInputBytes),
    /// what the default combiner needs.
    std::uint32_t maxCombinedBytes = 0;
    /// The combiner (nullptr = combineLengthPrefixed).
    CombineFn combine = nullptr;
    /// Passed to combine.
    void* combineContext = nullptr;
    /// The after-tick hook (nullptr = none).
    AfterTickFn afterTick = nullptr;
    /// Passed to afterTick.
    void* afterTickContext = nullptr;
    /// The after-restore hook (nullptr = none).
    RestoreFn onRestore = nullptr;
    /// Passed to onRestore.
    void* onRestoreContext = nullptr;
    /// The confirmation hook (nullptr = none; confirmedHash() still works).
    ConfirmedFn onConfirmed = nullptr;
    /// Passed to onConfirmed.
    void* onConfirmedContext = nullptr;
  };

  /// Validates `options` and allocates the session. Errors: a value out of
  /// range -> InvalidArgument `rollback_option_invalid` (fields option,
  /// value, min, max); a moved-from world -> InvalidArgument
  /// `world_moved_from`; an allocation that failed -> BudgetExhausted
  /// `rollback_alloc_failed` (field bytes). Allocates the whole session
  /// (about (depth + 2) x snapshotCapacity bytes). Does not touch the world.
  [[nodiscard]] static Result<RollbackSession> create(World& world, const SystemSchedule& schedule,
                                                      const Options& options) noexcept;

  /// The default combiner: for each player in order, one byte holding the
  /// input's length, then its bytes (players x (1 + length) bytes; always
  /// that long, so a system can find player p's input at a fixed walk).
  static Status combineLengthPrefixed(void* ctx, std::uint64_t tick, const RollbackTickInputs& inputs,
                                      std::span<std::uint8_t> out, std::uint32_t& written) noexcept;
  /// A stock combiner: the players' inputs concatenated in player order,
  /// without lengths (for payloads made of fixed-size records, such as the
  /// `input` scenario's 6-byte commands).
  static Status combineConcatenated(void* ctx, std::uint64_t tick, const RollbackTickInputs& inputs,
                                    std::span<std::uint8_t> out, std::uint32_t& written) noexcept;

  /// A moved-from session.
  RollbackSession() noexcept;
  RollbackSession(RollbackSession&& other) noexcept;
  RollbackSession& operator=(RollbackSession&& other) noexcept;
  RollbackSession(const RollbackSession&) = delete;
  RollbackSession& operator=(const RollbackSession&) = delete;
  ~RollbackSession();

  /// The local player's input for `tick` (must come before the advance()
  /// that runs it). Errors, nothing stored: `input_too_large` (size, max);
  /// `input_too_early` (tick > currentTick() + inputLead; fields tick,
  /// newest); the same tick given before with other bytes ->
  /// `input_conflict` (player, tick, confirmed); `local_input_passed` for
  /// a tick already run, unless with the bytes it ran with (tick, current); inside advance() (from a hook or a
  /// system) -> `input_inside_advance`. The same bytes again: ok, no-op.
  /// O(bytes), no allocation.
  Status setLocalInput(std::uint64_t tick, std::span<const std::uint8_t> bytes) noexcept;
  /// Remote player `player`'s input for `tick`, in any order. For a tick not
  /// run yet it is stored; for a tick already run it is compared with the
  /// input that tick ran with and, when it differs, the next advance() rolls
  /// back to it (a prediction miss). Errors, nothing stored:
  /// `player_invalid` (player out of range, or the local player; fields
  /// player, players, local); `input_too_large`; `input_too_early`;
  /// `input_conflict` (the tick's input of that player arrived before with
  /// other bytes: received inputs never change, confirmed or not);
  /// `input_too_late` for a tick before oldestTick() that was never
  /// received (fields tick, oldest): it can no longer be rolled back to,
  /// and the ticks from it on can never be confirmed;
  /// `input_inside_advance`. The same bytes again: ok, no-op (also for a
  /// tick so old its bytes are gone: a duplicate of a received tick).
  /// O(bytes), no allocation.
  Status addRemoteInput(std::uint32_t player, std::uint64_t tick, std::span<const std::uint8_t> bytes) noexcept;

  /// Runs the next tick (currentTick() + 1). First, when a remote input
  /// changed a tick already run, restores the snapshot from before the
  /// earliest such tick and re-runs every tick up to currentTick() with the
  /// inputs known now (predictions recomputed); then snapshots the state
  /// and runs the new tick. Per tick: World::beginFrame(), the combiner,
  /// World::runSystems(schedule, payload), the afterTick hook, and (see
  /// Options::checksum) the checksum kept for confirmation. Then reports the ticks that became
  /// confirmed (onConfirmed). Errors, refused before any change:
  /// `session_moved_from`; from a hook -> `tick_inside_callback` (field
  /// callback = rollback_hook); inside a system or an each of the world ->
  /// World::tickAllowed()'s `tick_inside_callback`; `local_input_missing`
  /// (tick) when setLocalInput has not given the new tick's input;
  /// `prediction_limit` (current, confirmed, limit). Errors after work
  /// began (a combiner, a system or afterTick failed, a snapshot did not
  /// fit and could not grow: `rollback_alloc_failed`): the world is
  /// restored to its state before the call, nothing is counted, and the
  /// pending rollback stays pending. Cost: 1 snapshot + 1 tick, plus one
  /// checksum per tick confirmed (Fast; StateHash: one state hash per tick
  /// run); a rollback of k ticks adds 1 restore + k x (snapshot + tick) + 1
  /// snapshot. A snapshot into the ring copies only the sections (columns,
  /// row sets, the entity table) written since its slot was last written,
  /// a restore only those changed since its slot was written
  /// (`docs/rollback.md#costs`): write component memory through a kept
  /// pointer only with markChanged before the next advance. No allocation
  /// (unless the ring grows, see Options::snapshotCapacity, or a restore
  /// must recreate archetypes).
  Status advance() noexcept;

  /// Ticks run (0 before the first advance()).
  [[nodiscard]] std::uint64_t currentTick() const noexcept;
  /// The last tick whose every player's input is known, as of the last
  /// advance() (0 = none). Every tick up to it is confirmed.
  [[nodiscard]] std::uint64_t confirmedTick() const noexcept;
  /// The earliest tick a late remote input may still be given for:
  /// max(1, currentTick() - depth + 1).
  [[nodiscard]] std::uint64_t oldestTick() const noexcept;
  /// The earliest tick the next advance() rolls back to (0 = none pending).
  [[nodiscard]] std::uint64_t pendingRollbackTick() const noexcept;
  /// The checksum of confirmed tick `tick` (Options::checksum of the state after it),
  /// for the last max(Options::hashHistory, depth + 2) confirmed ticks. Errors:
  /// InvalidArgument `hash_unavailable` (fields tick, confirmed, oldest).
  [[nodiscard]] Result<std::uint64_t> confirmedHash(std::uint64_t tick) const noexcept;
  /// The counters since creation.
  [[nodiscard]] RollbackStats stats() const noexcept;
  /// The options the session was created with (the snapshot capacity,
  /// maxCombinedBytes and combine as resolved).
  [[nodiscard]] Options options() const noexcept;
  /// The world (nullptr for a moved-from session).
  [[nodiscard]] World* world() const noexcept;
  /// False for a moved-from session.
  [[nodiscard]] bool isLive() const noexcept { return s_ != nullptr; }

 private:
  // laige/desync_exchange.h: re-runs a confirmed tick from the ring.
  friend Status pinRollbackTick(RollbackSession& session, std::uint64_t tick, DesyncPin& out) noexcept;
  explicit RollbackSession(std::unique_ptr<detail::RollbackState> s) noexcept;
  std::unique_ptr<detail::RollbackState> s_;
};

}  // namespace laige
