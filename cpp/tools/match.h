// match.h - one match of `laige-peer --serve` (docs/netplay-protocol.md): a
// reference scenario run (its world) and a lockstep checker fed with the
// players' inputs. It is rollback-free: a tick runs only when every player's
// input for it is known (confirmed), so the server's World::stateHash of
// each tick is the authoritative one the players' reports are checked
// against (the server is the tie-breaker).
//
// Every method appends its reply and broadcast lines to `out`, each line
// already prefixed with the connection it is for (`<conn> <message>\n`);
// the server writes them as they are. A refusal is one `<conn> error
// <reason> key=value...` line and changes nothing (no input stored, no tick
// run, the world's state hash unchanged).
//
// The rule for a missing player (docs/netplay-protocol.md#the-reconnect-rule):
// a player slot that is away (disconnected, inside the reconnect window) or
// dropped (past it, or left) gives the EMPTY input for every tick it has
// not sent (no tick runs before every slot has been joined once); the server
// sends that filled input to the players like a real one, so every peer
// runs the same confirmed inputs.
//
// A player whose confirmed hash differs is told at once (`desync`), and the
// match opens a desync investigation of that tick for it (match_desync.h):
// the server answers the player's desync exchange from its own state of the
// tick, so the player's session gets the report (system, entities, fields)
// against the authoritative state (docs/netplay-protocol.md#desync-reports).
//
// Not thread-safe: one thread owns a match (and its world) for its whole
// life (docs/concepts.md: a World is owned by one thread); the server routes
// every line for a match to that thread.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "laige/result.h"
#include "scenario.h"

namespace laige::serve {

/// A connection id, assigned by the relay (0 is the relay itself).
using ConnId = std::uint64_t;

/// The most players a match has (RollbackSession's limit).
inline constexpr std::uint32_t kMaxMatchPlayers = 8;
/// The most spectators a match has.
inline constexpr std::uint32_t kMaxMatchSpectators = 16;
/// The most bytes of one player's input for one tick.
inline constexpr std::uint32_t kMaxMatchInputBytes = 64;
/// How far past the last confirmed tick a player may send input (ticks).
inline constexpr std::uint32_t kMatchInputLead = 64;
/// The longest spectator delay (ticks: a minute at 60 Hz).
inline constexpr std::uint32_t kMaxSpectatorDelay = 3600;
/// The longest match id (bytes of [A-Za-z0-9_-]).
inline constexpr std::size_t kMaxMatchIdBytes = 32;

/// Per-match settings (the server's, the same for every match).
struct MatchOptions {
  /// A confirmed snapshot is kept every this many ticks (and the confirmed
  /// inputs since it, for late joiners). 1 .. 3600.
  std::uint32_t snapshotEvery = 60;
  /// The reconnect window: a player away for this many confirmed ticks is
  /// dropped. 0 .. 1,000,000 (0: dropped at the next confirmed tick).
  std::uint32_t reconnectTicks = 300;
  /// How many recent confirmed hashes a report can be checked against.
  /// 1 .. 4096.
  std::uint32_t hashHistory = 256;
  /// Spectators run this many confirmed ticks behind the players
  /// (0 .. kMaxSpectatorDelay): tick t's `confirmed` line goes to them when
  /// tick t + delay confirms, a joining spectator catches up to the
  /// confirmed tick minus the delay, and a spectator's hash report is
  /// checked against the ticks it was sent only. What is live is never
  /// sent to a spectator (no peeking for a player). Costs delay /
  /// snapshotEvery + 1 more kept snapshots and delay ticks more of the
  /// confirmed-input and hash rings.
  std::uint32_t spectatorDelay = 0;
  /// Mixed into the reconnect tokens (the server draws it at start).
  std::uint64_t tokenSecret = 0x9e3779b97f4a7c15ull;
  /// A desync investigation (docs/netplay-protocol.md#desync-reports)
  /// closes when the match has confirmed this many ticks past the one it
  /// opened at. 1 .. 1,000,000.
  std::uint32_t desyncTicks = 600;
};

/// The state of one player slot.
enum class SlotState : std::uint8_t {
  Free,       ///< never joined, or taken back (a dropped slot before start)
  Connected,  ///< a connection plays it
  Away,       ///< its connection closed; inside the reconnect window
  Dropped,    ///< past the window or left; a late joiner may take it
};

/// A match's counters (the `stats <match>` reply).
struct MatchStats {
  std::uint64_t confirmedTick = 0;
  std::uint32_t players = 0;
  std::uint32_t connected = 0;
  std::uint32_t spectators = 0;
  std::uint64_t verdicts = 0;
  std::uint64_t desyncs = 0;
  std::uint64_t refused = 0;
  std::uint64_t snapshotBytes = 0;
  std::uint64_t snapshotTick = 0;
  /// Desync investigations opened (docs/netplay-protocol.md#desync-reports).
  std::uint64_t investigations = 0;
};

/// One match. Move-only (heap-held state: the run's world stays at its
/// address).
class Match {
 public:
  /// Creates the match `id` over `scenario` from `seed` with `players`
  /// slots (1 .. kMaxMatchPlayers) and keeps the tick-0 snapshot (options
  /// out of their ranges are clamped into them). The
  /// players' inputs are combined as RollbackSession's combiners do:
  /// concatenated when the scenario's player-input generator says so (the
  /// `input` scenario), else length-prefixed. Errors: the scenario run's
  /// creation failure; `match_bad_players` (fields players); a snapshot
  /// failure (`match_snapshot_failed`). Allocates the run, the input
  /// rings (players x (kMatchInputLead + 2 x snapshotEvery + spectatorDelay)
  /// x kMaxMatchInputBytes: the confirmed inputs are kept for two snapshot
  /// periods, so that any of the last snapshotEvery confirmed ticks can be
  /// re-run from its keyframe for a desync investigation), the hash ring
  /// and the first kept snapshot (up to spectatorDelay / snapshotEvery + 2
  /// are kept as the match runs).
  [[nodiscard]] static Result<Match> create(std::string_view id, const Scenario& scenario, std::uint64_t seed,
                                            std::uint32_t players, const MatchOptions& options) noexcept;

  Match(Match&&) noexcept;
  Match& operator=(Match&&) noexcept;
  ~Match();

  /// `join <id> player|spectator` from `conn` (a spectator: as of the
  /// confirmed tick minus MatchOptions::spectatorDelay). A player takes the lowest
  /// free (or dropped) slot; replies `joined <id> player <p> <token>
  /// <players> <scenario> 0x<seed>` (spectator: `joined <id> spectator -
  /// ...`), then `snapshot <id> <tick> <hex>` (the latest kept confirmed
  /// snapshot), one `confirmed <id> <tick> <hash> <in0> .. <inN-1>` per
  /// confirmed tick since it, and (players only) one `input <id> <p> <tick>
  /// <hex>` per input already sent for a tick not yet confirmed. The other
  /// members get `player <id> <p> joined <tick>`; when the last slot fills
  /// the first time everyone gets `start <id> 0`. Refusals: match_full,
  /// match_already_joined. Cost: the snapshot's hex (2 bytes per byte).
  void join(ConnId conn, bool spectator, std::string& out);
  /// `rejoin <id> <player> <token>`: takes back an away slot within the
  /// window (replies as join does, with the slot's own pending inputs).
  /// Refusals: match_bad_player, match_bad_token, match_not_away,
  /// match_already_joined.
  void rejoin(ConnId conn, std::uint32_t player, std::uint64_t token, std::string& out);
  /// `input <id> <tick> <hex>`: the sender's input for `tick` (its next
  /// one). Relayed to the other connected players as `input <id> <p> <tick>
  /// <hex>`; then every tick whose inputs are all known runs (see
  /// confirmTicks). No reply to the sender on success. Refusals:
  /// match_not_member, match_spectator_input, match_input_too_large,
  /// match_tick_order (expected, got), match_input_ahead (tick, confirmed,
  /// lead). Cost per confirmed tick: one runSystems, one stateHash (and a
  /// snapshot every snapshotEvery ticks); no allocation once `out` and the
  /// match's line buffers have grown (a kept snapshot whose size grew
  /// reallocates).
  void input(ConnId conn, std::uint64_t tick, const std::uint8_t* bytes, std::uint32_t size, std::string& out);
  /// `hash <id> <tick> <hash>`: a member's confirmed hash of `tick`.
  /// Replies `verdict <id> <tick> ok` or `desync <id> <tick> player=<p>
  /// expected=<hash> got=<hash>` (player=spectator for a spectator). A
  /// player's `desync` is followed by `desync-open <id> <tick> <hash>` when
  /// the match opens a desync investigation of that tick for it (the
  /// server pins the tick: match_desync.h), else by `desync-closed <id>
  /// <tick> reason=busy|done|tick_unavailable|<the pin's reason>`
  /// (docs/netplay-protocol.md#desync-reports). Refusals: match_not_member,
  /// match_hash_unknown_tick (tick, confirmed, oldest; for a spectator
  /// `confirmed` is the last tick it was sent: the confirmed tick minus the
  /// spectator delay). No allocation beyond the reply, except when an
  /// investigation opens (a cold path: a scenario run, up to snapshotEvery
  /// ticks re-run, the pinned state kept).
  void reportHash(ConnId conn, std::uint64_t tick, std::uint64_t hash, std::string& out);
  /// `desync-msg <id> <hex>`: one message of the player's desync exchange,
  /// answered from the pinned tick (`desync-msg <id> <hex>` lines to it).
  /// Refusals (nothing changes): match_not_member, match_not_player (a
  /// spectator), match_desync_not_open (player; no investigation of this
  /// player is open), match_desync_too_large (bytes, max), match_desync_budget
  /// (requests, bytes; the investigation closes: `desync-closed ...
  /// reason=budget`), the exchange's reasons (desync_message_malformed,
  /// desync_answer_unexpected, ...; a refused request's error message goes
  /// out first as a `desync-msg` line). Cost: one answer.
  void desyncMessage(ConnId conn, const std::uint8_t* bytes, std::uint32_t size, std::string& out);
  /// `leave <id>`: a player's slot is dropped at once (no window); a
  /// spectator is removed. Replies `left <id>`. Refusal: match_not_member.
  void leave(ConnId conn, std::string& out);
  /// The connection closed: its player slot goes away (the window starts;
  /// before the start the slot is freed), its spectator seat is removed.
  /// No reply; the others get `player <id> <p> away <tick>`.
  void closed(ConnId conn, std::string& out);
  /// `stats <id>`: `stats <id> hash=<confirmed hash> tick=.. players=.. connected=..
  /// spectators=.. verdicts=.. desyncs=.. refused=.. snapshot_tick=..
  /// snapshot_bytes=..`.
  void stats(ConnId conn, std::string& out) const;

  /// True when no connection is a member any more (the server removes it).
  [[nodiscard]] bool abandoned() const noexcept;
  /// True when `conn` is a player or spectator of this match.
  [[nodiscard]] bool isMember(ConnId conn) const noexcept;
  /// The last confirmed tick.
  [[nodiscard]] std::uint64_t confirmedTick() const noexcept;
  /// The authoritative hash of the last confirmed tick.
  [[nodiscard]] std::uint64_t confirmedHash() const noexcept;
  /// The counters.
  [[nodiscard]] MatchStats statsSnapshot() const noexcept;
  /// Player `p`'s slot state (p < players).
  [[nodiscard]] SlotState slotState(std::uint32_t p) const noexcept;
  /// The match's world (read-only; tests compare it with a plain run).
  [[nodiscard]] const ScenarioRun& run() const noexcept;
  /// The tick of the open desync investigation (0: none open).
  [[nodiscard]] std::uint64_t investigatedTick() const noexcept;

 private:
  struct State;
  explicit Match(std::unique_ptr<State> s) noexcept;
  std::unique_ptr<State> s_;
};

/// True when `id` is a valid match id (1 .. kMaxMatchIdBytes of A-Z a-z 0-9 _ -).
[[nodiscard]] bool validMatchId(std::string_view id) noexcept;

}  // namespace laige::serve
