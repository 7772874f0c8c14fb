// laige/desync_exchange.h - the desync report across two peers
// (docs/desync.md#across-peers): a small message set over any transport.
//
// Two peers of a rollback session compare their confirmed checksums; at the
// first tick whose checksums differ, each pins the state of that tick (its
// snapshot restored into a scratch world of the same setup, and its
// per-system checkpoints, from pinRollbackTick), and the detecting peer
// walks the two state hash trees (findDifferingRows) with the remote's
// answers: it asks for the remote's checkpoints of the tick, then for the
// children hashes of the nodes whose hashes differ and the payloads of the
// leaves that differ, and nothing else. The exchange does not own a
// transport: it hands every outgoing message to a send function and is fed
// every incoming one with receive(). Everything here is a cold path
// (diagnostics): it allocates (the scratch world, the answers kept, the
// messages), never during a tick.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "laige/desync.h"
#include "laige/result.h"
#include "laige/world.h"

namespace laige {

class RollbackSession;

/// The message format version (the byte after the kind).
inline constexpr std::uint8_t kDesyncMessageVersion = 1;
/// Every message starts with this header: u8 kind, u8 version, u16 0, u32
/// total message bytes (header included), u64 tick. Little-endian.
inline constexpr std::uint32_t kDesyncHeaderBytes = 16;
/// The largest message a peer sends or accepts: a leaf answer of 64 rows
/// of the largest component (64 x (4 + kMaxComponentSize)) plus its header.
inline constexpr std::uint32_t kDesyncMaxMessageBytes = 1u << 19;
/// The longest reason an error message carries.
inline constexpr std::uint32_t kDesyncMaxReasonBytes = 64;

/// The message kinds (`docs/desync.md#messages`).
enum class DesyncMessageKind : std::uint8_t {
  /// "Your checkpoints of tick t": no body.
  CheckpointsRequest = 1,
  /// "The children hashes of node n at tick t": u32 level, u32 part, u32 index.
  ChildrenRequest = 2,
  /// "The payload of leaf n at tick t": u32 level, u32 part, u32 index.
  LeafRequest = 3,
  /// The answer to CheckpointsRequest: u32 count, then per checkpoint u32
  /// system, u32 position, u64 checksum.
  Checkpoints = 4,
  /// The answer to ChildrenRequest: the node (12 bytes), u32 count, count x u64.
  Children = 5,
  /// The answer to LeafRequest: the node (12 bytes), u32 size, the payload.
  Leaf = 6,
  /// A refused request: the node (12 bytes; zeros for a checkpoints
  /// request), u32 length, the reason (ASCII, at most kDesyncMaxReasonBytes).
  Error = 7,
};

/// A pinned tick: the state after it and its checkpoints.
struct DesyncPin {
  std::uint64_t tick = 0;
  /// A snapshot (World::snapshot) of the state after `tick`.
  std::vector<std::uint8_t> snapshot;
  /// The checkpoints of `tick` (run order).
  std::vector<SystemCheckpoint> checkpoints;
};

/// Pins confirmed tick `tick` of `session`: restores the newest snapshot of
/// its ring from before `tick`, re-runs the ticks up to `tick` with the
/// inputs they were confirmed with and with per-system checkpoints on,
/// keeps the state after `tick` (a snapshot) and its checkpoints, then
/// restores the world exactly as it was (the checkpoint switch included).
/// The re-run state's checksum must equal confirmedHash(tick). Observers see
/// the re-run ticks as re-simulated. Errors, the world as it was:
/// InvalidArgument `session_moved_from`; inside advance() ->
/// `tick_inside_callback` (callback rollback_hook); a tick not confirmed or
/// whose state left the ring -> InvalidArgument `desync_tick_unavailable`
/// (fields tick, oldest, confirmed); a re-run whose checksum differs from
/// the confirmed one -> InvalidArgument `desync_pin_mismatch` (fields tick,
/// expected, got); a system, the combiner or a restore failing -> its
/// error. Cost: one snapshot, two restores, up to depth ticks; allocates
/// the pin's vectors.
Status pinRollbackTick(RollbackSession& session, std::uint64_t tick, DesyncPin& out) noexcept;

/// One difference of an exchange's report: the differing row (as
/// findDifferingRows gives it) with its first differing field, owning both
/// sides' bytes. Side A is this peer, side B the remote.
struct DesyncExchangeItem {
  /// 0 = the entity table, a component id, or C + 1 = the systems.
  std::uint32_t part = 0;
  ComponentTypeId componentId = 0;
  /// The slot (or the system id in the systems part).
  std::uint32_t slot = 0;
  bool presentInA = false;
  bool presentInB = false;
  /// Row bytes after the slot, `size` each (empty on the absent side).
  std::uint32_t size = 0;
  std::vector<std::uint8_t> bytesA;
  std::vector<std::uint8_t> bytesB;
  /// The slot's handle on each side (Entity{} where not live): A from the
  /// pinned world; B the same handle unless the remote's entity row of the
  /// slot differs (then from that row), Entity{} where absent.
  Entity entityA{};
  Entity entityB{};
  /// The first differing field (kNoField for entity and systems rows and
  /// rows one side lacks) and its name (a view into the pinned world's
  /// registry: valid while the exchange lives).
  std::uint32_t field = kNoField;
  std::string_view fieldName;
};

/// What an exchange sent and received.
struct DesyncExchangeStats {
  std::uint32_t messagesSent = 0;
  std::uint32_t messagesReceived = 0;
  std::uint64_t bytesSent = 0;
  std::uint64_t bytesReceived = 0;
  /// Remote hashes received in Children answers, remote leaf payload bytes.
  std::uint64_t hashesReceived = 0;
  std::uint64_t leafBytesReceived = 0;
  /// Walk passes run (one per batch of answers).
  std::uint32_t walks = 0;
};

/// The report of an exchange: the summary as desyncReportFromTree gives it
/// (checksumA the local stateChecksum of the tick, checksumB 0) and the
/// first maxItems rows.
struct DesyncExchangeReport {
  DesyncReport summary;
  std::vector<DesyncExchangeItem> items;
};

/// One peer's side of the exchange. Move-only; cold path.
class DesyncExchange {
 public:
  /// Hands one message to the transport (the bytes are valid during the call).
  using SendFn = void (*)(void* context, std::span<const std::uint8_t> message) noexcept;
  /// Pins `tick` for a request that arrives before the peer pinned it (the
  /// remote detected first): usually pinRollbackTick on the peer's session.
  using PinFn = Status (*)(void* context, std::uint64_t tick, DesyncPin& out) noexcept;

  struct Options {
    SendFn send = nullptr;
    void* sendContext = nullptr;
    /// nullptr: a request for a tick not pinned is refused.
    PinFn pin = nullptr;
    void* pinContext = nullptr;
    /// Items kept in the report (the count covers all).
    std::uint32_t maxItems = 16;
  };

  /// An exchange for peers whose worlds have the setup of `like`
  /// (components, systems, relations, capacity, seed): builds the scratch
  /// world a pinned state is restored into. Errors: a moved-from world ->
  /// InvalidArgument world_moved_from; send null -> InvalidArgument
  /// desync_exchange_invalid (field option); the scratch world's setup
  /// failing -> its error.
  static Result<DesyncExchange> create(const World& like, const Options& options) noexcept;

  DesyncExchange() noexcept;
  DesyncExchange(DesyncExchange&&) noexcept;
  DesyncExchange& operator=(DesyncExchange&&) noexcept;
  ~DesyncExchange();

  /// Pins `pin.tick` (the snapshot restored into the scratch world). A tick
  /// is pinned once: another tick later -> InvalidArgument
  /// `desync_already_pinned` (fields tick, pinned); the same one again is a
  /// no-op. (A request for another tick re-pins through Options::pin while
  /// this side has not started a walk of its own.) A snapshot of another
  /// setup -> the restore's error. Nothing changes on error.
  Status pin(const DesyncPin& pin) noexcept;
  /// Starts the walk at `tick` as the detecting peer: pins it (through
  /// Options::pin when not pinned yet) and sends the first requests (the
  /// remote's checkpoints and the root's children). Errors: those of the
  /// pin; started before -> InvalidArgument `desync_already_pinned`.
  Status start(std::uint64_t tick) noexcept;
  /// One incoming message: a request is answered (send) from the pinned
  /// state; an answer is kept and, once every outstanding request is
  /// answered, the walk runs again and sends the next requests or produces
  /// the report. Errors, nothing kept and nothing sent but an Error answer
  /// to a refused request: MalformedInput `desync_message_malformed`
  /// (fields size, kind, what); MalformedInput `desync_message_too_large`
  /// (size, max); InvalidArgument `desync_message_unknown_kind` (kind);
  /// a request for a tick not pinned and not pinnable ->
  /// `desync_tick_unavailable` or the pin's error; for another tick than
  /// the one a started walk pinned -> `desync_already_pinned`; a node outside the tree ->
  /// `state_tree_node_invalid` / `state_tree_node_is_leaf`; an answer
  /// nobody asked for -> InvalidArgument `desync_answer_unexpected` (kind,
  /// tick); an Error message from the remote -> InvalidArgument
  /// `desync_remote_refused` (reason, tick; it ends a started walk of that
  /// tick: no report then); a remote leaf that is malformed or
  /// does not hash to the hash the remote sent ->
  /// `state_tree_leaf_malformed`.
  Status receive(std::span<const std::uint8_t> message) noexcept;

  /// The pinned tick (0 = none).
  [[nodiscard]] std::uint64_t pinnedTick() const noexcept;
  /// True once the walk finished: report() holds the report.
  [[nodiscard]] bool hasReport() const noexcept;
  /// The report (empty until hasReport()).
  [[nodiscard]] const DesyncExchangeReport& report() const noexcept;
  [[nodiscard]] DesyncExchangeStats stats() const noexcept;
  /// The scratch world holding the pinned state (for names and handles).
  [[nodiscard]] const World* pinnedWorld() const noexcept;
  /// False for a moved-from exchange.
  [[nodiscard]] bool isLive() const noexcept { return s_ != nullptr; }

  struct State;

 private:
  std::unique_ptr<State> s_;
};

}  // namespace laige
