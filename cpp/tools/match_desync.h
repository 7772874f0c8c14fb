// match_desync.h - a match's desync investigation (docs/netplay-protocol.md#desync-reports,
// docs/desync.md#the-match-server): when a player's confirmed hash of a tick
// differs from the server's, the server pins that tick of its authoritative
// run and answers the player's desync exchange (laige/desync_exchange.h)
// from it, so the player's session walks the two state hash trees and gets
// the report (tick, system, entities, components, fields, both values)
// against the authoritative state. The server only answers: it never walks.
//
// The pin re-runs the tick in a run of its own (a fresh ScenarioRun of the
// match's scenario and seed, the kept keyframe at or before the tick
// restored, the confirmed inputs since re-run with per-system checkpoints
// on): the match's world is never touched, so the authoritative stream
// cannot change whatever happens here. The re-run must reach the hash the
// match kept for that tick (else the server itself is not deterministic:
// `desync_pin_mismatch`).
//
// Bounded: a match has at most one investigation open; it keeps the
// exchange's scratch world and the pinned snapshot (about two copies of the
// match's state) and nothing per request; it answers at most
// kMaxDesyncRequests requests and kMaxDesyncAnswerBytes bytes of answers.
// Everything here is a cold path: it allocates, never during a tick.
//
// Not thread-safe: it belongs to its match (one worker thread).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "laige/result.h"
#include "laige/rollback.h"
#include "scenario.h"

namespace laige::serve {

/// The largest exchange message a player may send (`desync-msg`): an error
/// message with the longest reason (32 + 64 bytes). A player's exchange
/// only sends requests (16 or 28 bytes) and error messages to the server,
/// which never asks anything.
inline constexpr std::uint32_t kMaxDesyncRequestBytes = 96;
/// The most requests one investigation answers.
inline constexpr std::uint32_t kMaxDesyncRequests = 4096;
/// The most bytes of answers one investigation sends (before hex).
inline constexpr std::uint64_t kMaxDesyncAnswerBytes = std::uint64_t{8} << 20;

/// Player p's confirmed input of tick t, from the match's kept inputs.
using KeptInputFn = std::span<const std::uint8_t> (*)(const void* context, std::uint64_t tick,
                                                      std::uint32_t player) noexcept;

/// What pinning a tick of a match needs.
struct MatchPinSource {
  const Scenario* scenario = nullptr;
  std::uint64_t seed = 0;
  /// The kept snapshot of tick keyframeTick (at or before the pinned tick).
  std::span<const std::uint8_t> keyframe;
  std::uint64_t keyframeTick = 0;
  /// The confirmed inputs of ticks keyframeTick + 1 .. the pinned tick.
  KeptInputFn input = nullptr;
  const void* inputContext = nullptr;
  std::uint32_t players = 0;
  /// The match's combiner and the size of its combined payload.
  RollbackSession::CombineFn combine = nullptr;
  std::uint32_t combinedBytes = 0;
  /// The authoritative hash (World::stateHash) the match kept for the tick.
  std::uint64_t expected = 0;
};

/// One open investigation: a player's, of one tick.
class MatchInvestigation {
 public:
  /// Pins `tick` from `source` and opens the exchange that answers player
  /// `player` (on connection `conn`). Errors, nothing kept: the re-run's
  /// hash differs from source.expected -> InvalidArgument
  /// `desync_pin_mismatch` (fields tick, expected, got); the run's
  /// creation, the restore, a tick, the snapshot or the exchange failing
  /// -> its error. Cost: one scenario setup, one restore, up to
  /// tick - keyframeTick ticks with checkpoints on, a snapshot and the
  /// exchange's scratch world (all freed but the scratch world and the
  /// pinned snapshot).
  [[nodiscard]] static Result<MatchInvestigation> open(const MatchPinSource& source, std::uint64_t tick,
                                                       std::uint32_t player, std::uint64_t conn) noexcept;

  MatchInvestigation() noexcept;
  MatchInvestigation(MatchInvestigation&&) noexcept;
  MatchInvestigation& operator=(MatchInvestigation&&) noexcept;
  ~MatchInvestigation();

  /// One message of the player's exchange: answered from the pinned tick,
  /// each answer appended to `out` as `<conn> desync-msg <match> <hex>\n`
  /// (an error message answering a refused request too). Errors (nothing
  /// else changes): the request budget is used up -> BudgetExhausted
  /// `match_desync_budget` (fields requests, bytes; the caller closes the
  /// investigation); the exchange's refusals (`desync_message_malformed`,
  /// `desync_message_unknown_kind`, `desync_answer_unexpected`,
  /// `desync_remote_refused`, `desync_already_pinned`,
  /// `state_tree_node_invalid`, `state_tree_node_is_leaf`). Cost: one
  /// answer (a few hashes, or one leaf of at most 64 rows).
  Status receive(std::span<const std::uint8_t> message, std::string_view match, std::string& out) noexcept;

  /// The pinned tick.
  [[nodiscard]] std::uint64_t tick() const noexcept;
  /// The player slot and the connection it answers.
  [[nodiscard]] std::uint32_t player() const noexcept;
  [[nodiscard]] std::uint64_t conn() const noexcept;
  /// Requests answered and answer bytes sent so far.
  [[nodiscard]] std::uint32_t requests() const noexcept;
  [[nodiscard]] std::uint64_t answerBytes() const noexcept;
  /// False for a moved-from (or default) investigation.
  [[nodiscard]] bool isOpen() const noexcept { return s_ != nullptr; }

  struct State;

 private:
  std::unique_ptr<State> s_;
};

}  // namespace laige::serve
