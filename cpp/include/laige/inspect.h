// laige/inspect.h - the live inspector's protocol (docs/inspector.md): one
// request line about a World in, one JSON answer out. The same code answers
// for the page's own world (the wasm export `inspect`, @laige/sim/inspector)
// and for a native process (laige-peer's `inspect` verb), so both sides
// share one data model: the request grammar, the answer layout, the value
// formatting (Q16.16 as exact decimals, f32 as the shortest text that
// reads back) and the error answers are defined here and nowhere else.
//
// Requests (ASCII, at most kMaxInspectRequestBytes, tokens separated by
// spaces; the first token is the protocol version, kInspectProtocolVersion):
//
//   1 summary                      tick, entity count, capacity, state hash,
//                                  components, archetypes (row counts),
//                                  systems (declared access, timing, budget),
//                                  tracked-change counts, guardrails
//   1 entities <offset> <limit> [archetype=<id>] [find=<n>]
//                                  a page of live entities (limit <=
//                                  kMaxInspectPage) in slot order, optionally
//                                  of one archetype and / or whose slot id or
//                                  handle bits equal n
//   1 entity <handle>              one entity's components and field values
//   1 history                      the tick range the host keeps
//   1 seek <tick>                  show that tick (the host restores it)
//
// Every answer is one JSON object `{"v":1,"kind":...}`; a refused request
// answers `{"v":1,"error":<reason>,"fields":{...}}` and changes nothing.
// Reading never changes the world's logical state (archetype rows may be
// normalised, as stateHash does).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "laige/result.h"

namespace laige {

class World;

/// The protocol version a request names first and every answer carries.
inline constexpr std::uint32_t kInspectProtocolVersion = 1;
/// The longest request, in bytes.
inline constexpr std::size_t kMaxInspectRequestBytes = 256;
/// The most entities one `entities` answer lists.
inline constexpr std::uint32_t kMaxInspectPage = 200;

/// What a request asks.
enum class InspectVerb : std::uint8_t { Summary, Entities, Entity, History, Seek };

/// A parsed request (parseInspectRequest).
struct InspectRequest {
  InspectVerb verb = InspectVerb::Summary;
  /// entities: the first matching entity to list (0-based) and how many.
  std::uint32_t offset = 0;
  std::uint32_t limit = 0;
  /// entities: only this archetype (hasArchetype).
  bool hasArchetype = false;
  std::uint32_t archetype = 0;
  /// entities: only the entity whose slot id or handle bits equal `find`.
  bool hasFind = false;
  std::uint32_t find = 0;
  /// entity: the handle bits.
  std::uint32_t entity = 0;
  /// seek: the tick.
  std::uint64_t tick = 0;
};

/// The ticks a host can show (`history`, `seek`). Without a history the
/// range is the world's current tick only.
struct InspectHistory {
  /// False when the host keeps no history.
  bool kept = false;
  /// The oldest and the newest tick it can show.
  std::uint64_t firstTick = 0;
  std::uint64_t lastTick = 0;
  /// Shows `tick` (within the range) and returns the world that now holds
  /// its state, or nullptr when that failed. nullptr fn: the host seeks
  /// itself after the answer (the wasm path: the TypeScript history).
  World* (*seek)(void* context, std::uint64_t tick) noexcept = nullptr;
  void* context = nullptr;
};

/// Parses one request. Errors (MalformedInput or InvalidArgument, nothing
/// else happens): inspect_request_too_large (size, max), inspect_version
/// (got, expected), inspect_unknown_request (request), inspect_malformed
/// (part: the token that does not parse), inspect_page_too_large (limit,
/// max). O(request), no allocation, no log.
Result<InspectRequest> parseInspectRequest(std::string_view text) noexcept;

/// Answers `text` about `world` into `out` (replacing it): the JSON answer,
/// or the error answer of parseInspectRequest's reasons and
/// inspect_unknown_entity (entity), inspect_unknown_archetype (archetype),
/// inspect_tick_outside_history (tick, first, last), inspect_seek_failed
/// (tick). A `seek` with a seek fn answers the summary of the world it
/// returns; without one, `{"kind":"seek","tick":t}` (the host then seeks).
/// Returns the failure (ok for an answered request). Cold path: a summary
/// is O(state) (it hashes the state), an entities page O(capacity), an
/// entity O(its components); allocates only the answer text; logs nothing
/// (a failure is the error answer and the returned Status). Never changes
/// the world's logical state (its state hash); a summary normalises
/// archetype rows, as stateHash does. Meant for between ticks (the hosts,
/// laige-peer and the TypeScript sources, call it there).
Status answerInspect(World& world, std::string_view text, const InspectHistory& history,
                     std::string& out);

/// The exact decimal text of a Q16.16 raw value (raw / 65536: at most 16
/// fraction digits, no trailing zeros, "-0" never). Writes at most 24 bytes
/// to `out` and returns the length. No allocation, no log.
std::size_t formatFx(std::int32_t raw, char* out) noexcept;

}  // namespace laige
