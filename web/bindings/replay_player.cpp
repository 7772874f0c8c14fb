// replay_player.cpp - the time-travel player over a replay log
// (docs/replay.md#time-travel; part of the binding layer: web/bindings/common.h
// says how it is built). A dev tool: linked into the module with the dev
// tools only; the lean module links web/bindings/lean/devtools_none.cpp.
#include "common.h"
#include "laige/replay_player.h"
#include "replay_config.h"

using namespace laige_wasm;

namespace {

// Opens a player over the log at `data` in world `w` (fresh, set up like the
// recording); writes its handle at `out`.
std::uint32_t replayPlayerOpen(std::uintptr_t w, std::uintptr_t data, std::uint32_t size, std::uint32_t tickRateHz,
                               std::uint32_t math, std::uintptr_t out) {
  auto log = laige::parseReplay(at<const std::uint8_t>(data), size);
  if (log.isError()) return code(log);
  laige::World& world = W(w).world;
  auto r = laige::ReplayPlayer::open(std::move(log).takeValue(), world, configOf(world, tickRateHz, math));
  if (r.isError()) return code(r);
  auto* player = new laige::ReplayPlayer(std::move(r).takeValue());
  *at<std::uint32_t>(out) = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(player));
  return 0;
}
void replayPlayerDestroy(std::uintptr_t p) { delete at<laige::ReplayPlayer>(p); }
std::uint32_t replayPlayerSeek(std::uintptr_t p, double tick) {
  // A tick above 2^53 cannot come from TypeScript (checked there); clamp so
  // that the conversion is defined and the core refuses it.
  const std::uint64_t t = tick >= 18446744073709551615.0 ? ~std::uint64_t{0} : static_cast<std::uint64_t>(tick);
  return code(at<laige::ReplayPlayer>(p)->seek(t));
}
std::uint32_t replayPlayerStep(std::uintptr_t p) { return code(at<laige::ReplayPlayer>(p)->step()); }
std::uint32_t replayPlayerStepBack(std::uintptr_t p) { return code(at<laige::ReplayPlayer>(p)->stepBack()); }
double replayPlayerTick(std::uintptr_t p) { return static_cast<double>(at<laige::ReplayPlayer>(p)->tick()); }
double replayPlayerTickCount(std::uintptr_t p) { return static_cast<double>(at<laige::ReplayPlayer>(p)->tickCount()); }
void replayPlayerStateHash(std::uintptr_t p, std::uintptr_t out) { putU64(out, at<laige::ReplayPlayer>(p)->stateHash()); }
// [tick, ...] of the log's keyframes, and the player's counters.
void replayPlayerInfo(Json& out, std::uintptr_t p) {
  const laige::ReplayPlayer& player = *at<laige::ReplayPlayer>(p);
  out.beginObject().key("keyframes").beginArray();
  for (const laige::ReplayKeyframe& k : player.log().keyframes) out.integer(std::uint64_t{k.tick});
  out.endArray();
  const laige::ReplayPlayerStats& s = player.stats();
  out.field("restores", s.restores).field("ticksSimulated", s.ticksSimulated).field("keyframesVerified", s.keyframesVerified);
  out.endObject();
}

}  // namespace

// The exports web/boundary.json lists for this file.
#define LAIGE_BINDINGS_REPLAY_PLAYER
#include "registrations.gen.inc"
