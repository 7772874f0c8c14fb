// rollback.cpp - laige::RollbackSession for web/src/rollback/rollback_session.ts (part of
// the binding layer: web/bindings/common.h says how it is built).
//
// A session over a JsWorld (a plain world with TypeScript systems, or a
// scenario run's world). Inputs travel through the session's own input
// buffer (rollbackInputBuffer: maxInputBytes bytes the TypeScript layer
// writes before calling setLocalInput/addRemoteInput), so no call allocates.
// Three optional JS hooks, called from inside advance():
// Module.laigeRollbackCombine (a TypeScript combine function),
// Module.laigeRollbackAfterTick (stops at a TypeScript system that threw)
// and Module.laigeRollbackRestored (the TypeScript world's caches).
#include "common.h"
#include "laige/rollback.h"
#include "layouts.gen.h"
#include "limits.gen.h"

using namespace laige_wasm;

namespace {

struct JsRollback {
  laige::RollbackSession session;
  std::vector<std::uint8_t> input;
  std::uint32_t maxInputBytes = 0;
  // (address, size) of every player's input for the JS combiner.
  std::uint32_t pairs[2 * laige::kMaxRollbackPlayers] = {};
};

// Module.laigeRollbackCombine(session, tick, pairs, players, out, capacity):
// the bytes written at `out`, or -1 when the combiner threw or returned
// something that is not a Uint8Array of at most `capacity` bytes.
EM_JS(double, laige_js_rollback_combine,
      (std::uintptr_t s, double tick, std::uintptr_t pairs, std::uint32_t players, std::uintptr_t out,
       std::uint32_t capacity),
      {
        try {
          return Module['laigeRollbackCombine'](s, tick, pairs, players, out, capacity);
        } catch (e) {
          return -1;
        }
      });
// Module.laigeRollbackAfterTick(session, tick): 0 = go on, else stop the advance.
EM_JS(std::int32_t, laige_js_rollback_after_tick, (std::uintptr_t s, double tick), {
  try {
    return Module['laigeRollbackAfterTick'](s, tick);
  } catch (e) {
    return 1;
  }
});
// Module.laigeRollbackRestored(session): the world was restored.
EM_JS(void, laige_js_rollback_restored, (std::uintptr_t s), {
  try {
    Module['laigeRollbackRestored'](s);
  } catch (e) {
  }
});

Status jsCombine(void* ctx, std::uint64_t tick, const laige::RollbackTickInputs& in, std::span<std::uint8_t> out,
                 std::uint32_t& written) noexcept {
  auto* js = static_cast<JsRollback*>(ctx);
  for (std::uint32_t p = 0; p < in.players; ++p) {
    js->pairs[2 * p] = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(in.input[p].data()));
    js->pairs[2 * p + 1] = static_cast<std::uint32_t>(in.input[p].size());
  }
  const double n = laige_js_rollback_combine(reinterpret_cast<std::uintptr_t>(js), static_cast<double>(tick),
                                             reinterpret_cast<std::uintptr_t>(js->pairs), in.players,
                                             reinterpret_cast<std::uintptr_t>(out.data()),
                                             static_cast<std::uint32_t>(out.size()));
  if (!(n >= 0) || n > static_cast<double>(out.size())) {
    return Status::failure(ErrorCode::Unknown, "combine_failed").with("tick", tick);
  }
  written = static_cast<std::uint32_t>(n);
  return Status{};
}
Status jsAfterTick(void* ctx, laige::World&, std::uint64_t tick) noexcept {
  const std::int32_t r = laige_js_rollback_after_tick(reinterpret_cast<std::uintptr_t>(ctx), static_cast<double>(tick));
  return r == 0 ? Status{} : Status::failure(ErrorCode::Unknown, "tick_ended").with("tick", tick);
}
void jsRestored(void* ctx, laige::World&) noexcept { laige_js_rollback_restored(reinterpret_cast<std::uintptr_t>(ctx)); }

// combineMode: 0 = length-prefixed (default), 1 = concatenated, 2 = JS.
// checksum: 0 = Fast (World::stateChecksum), 1 = StateHash, 2 = Columns
// (columnChecksumCached) (the core's RollbackChecksum values; another value
// is the core's rollback_option_invalid).
std::uint32_t rollbackCreate(std::uintptr_t w, std::uint32_t players, std::uint32_t localPlayer, std::uint32_t depth,
                             std::uint32_t maxInputBytes, std::uint32_t inputLead, std::uint32_t maxPredictionTicks,
                             std::uint32_t hashHistory, std::uint32_t maxCombinedBytes, std::uint32_t combineMode,
                             bool jsAfter, std::uint32_t checksum, std::uintptr_t out) {
  JsWorld& jw = W(w);
  auto js = std::make_unique<JsRollback>();
  laige::RollbackSession::Options o;
  o.players = players;
  o.localPlayer = localPlayer;
  o.depth = depth;
  o.maxInputBytes = maxInputBytes;
  o.inputLead = inputLead;
  o.maxPredictionTicks = maxPredictionTicks;
  o.hashHistory = hashHistory;
  o.maxCombinedBytes = maxCombinedBytes;
  o.checksum = static_cast<laige::RollbackChecksum>(checksum > 255 ? 255 : checksum);
  if (combineMode == 1) o.combine = &laige::RollbackSession::combineConcatenated;
  if (combineMode == 2) {
    o.combine = &jsCombine;
    o.combineContext = js.get();
  }
  if (jsAfter) {
    o.afterTick = &jsAfterTick;
    o.afterTickContext = js.get();
  }
  o.onRestore = &jsRestored;
  o.onRestoreContext = js.get();
  const laige::SystemSchedule& schedule = jw.run ? jw.run->schedule() : jw.schedule;
  auto r = laige::RollbackSession::create(jw.world, schedule, o);
  if (r.isError()) return code(r);
  js->session = std::move(r).takeValue();
  js->input.resize(maxInputBytes == 0 ? 1 : maxInputBytes);
  js->maxInputBytes = maxInputBytes;
  *at<std::uint32_t>(out) = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(js.release()));
  return 0;
}
void rollbackDestroy(std::uintptr_t s) { delete at<JsRollback>(s); }
std::uintptr_t rollbackInputBuffer(std::uintptr_t s) {
  return reinterpret_cast<std::uintptr_t>(at<JsRollback>(s)->input.data());
}
// An input longer than maxInputBytes is refused here, with the core's
// reason and fields, before any byte is read (the buffer holds only
// maxInputBytes): the same Status the session itself would return.
std::uint32_t tooLarge(const JsRollback& js, std::uint32_t player, std::uint32_t size) {
  return code(Status::failure(ErrorCode::InvalidArgument, "input_too_large")
                  .with("player", player)
                  .with("size", size)
                  .with("max", js.maxInputBytes));
}
std::uint32_t rollbackSetLocalInput(std::uintptr_t s, double tick, std::uint32_t size) {
  JsRollback& js = *at<JsRollback>(s);
  if (size > js.maxInputBytes) return tooLarge(js, js.session.options().localPlayer, size);
  return code(js.session.setLocalInput(static_cast<std::uint64_t>(tick), std::span<const std::uint8_t>(js.input.data(), size)));
}
std::uint32_t rollbackAddRemoteInput(std::uintptr_t s, std::uint32_t player, double tick, std::uint32_t size) {
  JsRollback& js = *at<JsRollback>(s);
  if (size > js.maxInputBytes) return tooLarge(js, player, size);
  return code(js.session.addRemoteInput(player, static_cast<std::uint64_t>(tick),
                                        std::span<const std::uint8_t>(js.input.data(), size)));
}
std::uint32_t rollbackAdvance(std::uintptr_t s) { return code(at<JsRollback>(s)->session.advance()); }
// The session's state words (web/layouts.json RollbackState).
void rollbackState(std::uintptr_t s, std::uintptr_t out) {
  struct State {
    const laige::RollbackSession& session;
    laige::RollbackStats stats;
  };
  const laige::RollbackSession& r = at<JsRollback>(s)->session;
  laige_layout::RollbackState::write(State{r, r.stats()}, at<double>(out));
}
// The hash as two u32 halves at `out`.
std::uint32_t rollbackConfirmedHash(std::uintptr_t s, double tick, std::uintptr_t out) {
  const laige::Result<std::uint64_t> h = at<JsRollback>(s)->session.confirmedHash(static_cast<std::uint64_t>(tick));
  if (h.isError()) return code(h);
  putU64(out, h.value());
  return 0;
}

}  // namespace

// The session behind a rollback pointer (desync_exchange.cpp pins its ticks).
laige::RollbackSession& laige_wasm::rollbackSessionAt(std::uintptr_t s) { return at<JsRollback>(s)->session; }

// The exports web/boundary.json lists for this file.
#define LAIGE_BINDINGS_ROLLBACK
#include "registrations.gen.inc"
