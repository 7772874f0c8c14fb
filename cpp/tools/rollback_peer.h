// rollback_peer.h - laige-peer's rollback mode (docs/rollback.md#native-peer):
// a laige::RollbackSession over a reference scenario run, driven line by
// line, so a test (or a page) can pair it live with a wasm session through
// a network of its own: it forwards the remote player's inputs to the
// native session and the native session's local inputs to the other side.
//
// Requests and replies (one request per line; every reply ends with '\n'):
//
//   session <scenario> <seed|-> <players> <localPlayer> <depth> <delay>
//                           -> session <scenario> 0x<seed> <hash of tick 0>
//   input <player> <tick> <hex|.>
//                           -> ok                 (stored, a duplicate, or a prediction checked)
//   advance                 -> local <tick> <hex|.>      (each local input it gave, in tick order)
//                              confirmed <tick> <hash>   (each tick it confirmed, in order)
//                              advanced <tick> <rolledBackTicks>
//   hash <tick>             -> confirmed <tick> <hash>   (RollbackSession::confirmedHash)
//   stats                   -> stats advances=.. rollbacks=.. resimulated=.. misses=.. hits=..
//                              duplicates=.. deepest=.. confirmed=..
//   anything refused        -> error <reason> [key=value ...]   (nothing changed)
//
// The desync exchange (docs/desync.md#across-peers), one laige::DesyncExchange
// per session, pinning through laige::pinRollbackTick:
//   desync-start <tick>     -> desync <hex>...  ok       (asks the other side; the first requests)
//   desync <hex>            -> desync <hex>...  [report <tick> <system|-> <differences> <checksum>
//                              item <slot> <component|-> <field|-> <entityA bits> <hexA|.> <hexB|.>...
//                              end]  ok                 (one message of the other side's exchange:
//                              the answers or next requests it gives, and the report once ready)
//                              or the answers, then error <reason> ...
//   fault <tick> <system> <component> <word> <bit> <pick>
//                           -> ok   (a test hook: system <system> flips bit <bit> of u32 word <word>
//                              of <component> of the first entity from slot <pick> that has it,
//                              at the end of its run at tick <tick>, every run)
//
// The local player's input per tick is not sent by the driver: it comes
// from the scenario's player-input generator (cpp/scenarios/player_input.h,
// today the `input` scenario's), a pure function of (player, tick) the
// other side can compute too. `advance` first gives every local input up
// to tick currentTick + 1 + delay not given yet (at the first advance:
// ticks 1 .. 1 + delay), then runs RollbackSession::advance. The players'
// inputs are combined as the generator says (concatenated for `input`).
// Reasons besides the core's own (input_conflict, input_too_late, ...):
// `peer_no_session` (input, advance, hash or stats before session),
// `scenario_unknown`, `peer_no_player_input` (the scenario has no
// generator; field scenario), `peer_bad_request` (a malformed number, a
// missing word, a delay over 31), `peer_bad_payload` (odd length, non-hex).
#pragma once

#include <memory>
#include <string>
#include <string_view>

namespace laige::peer {

struct RollbackPeerState;

/// At most one rollback session. Not thread-safe; movable.
class RollbackPeer {
 public:
  RollbackPeer() noexcept;
  RollbackPeer(RollbackPeer&&) noexcept;
  RollbackPeer& operator=(RollbackPeer&&) noexcept;
  ~RollbackPeer();

  /// True for the verbs this mode answers (session, input, advance, hash, stats).
  [[nodiscard]] static bool handles(std::string_view verb) noexcept;
  /// Handles one request (its verb, and the rest of the line) and appends
  /// the reply lines to `out`. A refusal is an `error` line and changes
  /// nothing. Cost: `advance` is one RollbackSession::advance (a rollback
  /// re-runs ticks) plus the reply text; `session` allocates the run and
  /// the session (RollbackSession::create).
  void handle(std::string_view verb, std::string_view args, std::string& out);

 private:
  void open(std::string_view args, std::string& out);
  void input(std::string_view args, std::string& out);
  void advance(std::string& out);
  void hash(std::string_view args, std::string& out);
  void stats(std::string& out);
  void fault(std::string_view args, std::string& out);
  void desync(std::string_view verb, std::string_view args, std::string& out);

  // Heap-held: the session keeps pointers to the run's world and schedule.
  std::unique_ptr<RollbackPeerState> s_;
};

}  // namespace laige::peer
