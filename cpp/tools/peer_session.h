// peer_session.h - the protocol of laige-peer, the demo's live native peer
// (docs/demo.md#native-peer): one reference scenario run, stepped line by
// line with the input payloads a browser page generated, answering each
// tick's state hash.
//
// The protocol is line-delimited ASCII text, one request per line and one
// or more reply lines per request (each '\n'-terminated):
//
//   (on start)                 -> hello laige-peer 1 <scenario,scenario,...>
//   open <scenario> [seed]     -> ready <scenario> 0x<seed> <tick> <hash>
//   step <tick> -              -> hash <tick> <hash>   (the scenario's own input)
//   step <tick> .              -> hash <tick> <hash>   (an empty payload)
//   step <tick> <hex bytes>    -> hash <tick> <hash>   (that payload, <= 256 bytes)
//   step <tick> <payload> <page hash>
//                              -> hash <tick> <hash>   (and, at the first tick
//                                 whose hash differs from the page's, the peer
//                                 keeps its snapshot of that tick)
//   snapshot                   -> snapshot <tick> <hex bytes of World::snapshot>
//                                 (the kept snapshot of the first differing
//                                 tick if there is one, else the current state)
//   inspect <request>          -> inspect <JSON answer>  (the live inspector,
//                                 laige/inspect.h, docs/inspector.md#native:
//                                 read-only; `seek` re-runs the kept history)
//   quit                       -> (the program exits 0)
//   session / input / advance / hash / stats
//                              -> the rollback mode (rollback_peer.h): a
//                                 RollbackSession paired through the driver
//   anything refused           -> error <reason> [key=value ...]
//
// <hash> is 16 lowercase hex digits (World::stateHash(tick), the line of
// the golden streams); a seed is decimal or 0x-prefixed hex (default: the
// scenario's). `step` must name the run's next tick. A refused request
// changes nothing (no tick is run). Reasons: `peer_no_scenario` (step or
// snapshot before open), `scenario_unknown`, `peer_tick_order` (fields
// expected, got), `peer_bad_payload` (odd length, a non-hex digit, over 256
// bytes), `peer_bad_request` (an unknown verb or a malformed number),
// `peer_line_too_long`, and a core failure's own reason (a step or a
// snapshot that fails).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "peer_inspect.h"
#include "rollback_peer.h"
#include "scenario.h"

namespace laige::peer {

/// The longest request line the peer accepts (bytes, without the '\n').
inline constexpr std::size_t kMaxRequestLine = 1024;
/// The longest `desync <hex>` line (a desync exchange message of up to
/// kDesyncMaxMessageBytes = 2^19 bytes, hex-encoded; rollback_peer.h).
inline constexpr std::size_t kMaxDesyncLine = 7 + 2 * (std::size_t{1} << 19);
/// The protocol version in the hello line.
inline constexpr int kProtocolVersion = 1;

/// One peer: at most one open scenario run. Not thread-safe.
class PeerSession {
 public:
  /// The greeting line the peer prints first (with its '\n').
  [[nodiscard]] static std::string hello();

  /// Handles one request line (without its '\n') and appends the reply
  /// line(s) to `out`. Returns false for `quit` (the caller exits), else
  /// true. Errors are reply lines (`error ...`), never a false return.
  /// Cost: a step runs one tick of the scenario (no allocation beyond the
  /// reply text); a snapshot allocates the snapshot buffer (kept for the
  /// next one) and writes 2 hex digits per byte.
  bool handle(std::string_view line, std::string& out);

  /// The open run, or nullptr.
  [[nodiscard]] ScenarioRun* run() noexcept { return run_ ? &*run_ : nullptr; }

 private:
  void open(std::string_view args, std::string& out);
  void step(std::string_view args, std::string& out);
  void snapshot(std::string& out);

  std::optional<ScenarioRun> run_;
  RollbackPeer rollback_;
  // The live inspector's answers and history (peer_inspect.h).
  PeerInspector inspector_;
  std::vector<std::uint8_t> payload_;
  std::vector<std::uint8_t> snapshot_;
  // The state at the first tick whose hash differed from the page's (0: none).
  std::uint64_t divergedTick_ = 0;
  std::vector<std::uint8_t> divergedSnapshot_;
};

/// Appends "error <reason> key=value ..." for a failing Status.
void appendError(const Status& status, std::string& out);

}  // namespace laige::peer
