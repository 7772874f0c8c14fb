// common.h - what every part of the binding layer between the C++ core and
// web/src shares. Thin on purpose: every binding forwards to one core call
// and turns its Status into a number (0 = ok, else the ErrorCode value).
// Results travel through out-pointers into wasm memory that the TypeScript
// layer allocated; 64-bit values as two u32 halves (lo, hi) or as a u64
// slot; handles (World, GameLoop, ReplayWriter) are pointers that only the
// TypeScript objects owning them ever pass back.
//
// The binding is split by concept into web/bindings/*.cpp (module, world,
// systems, replay, ...). What each exports is listed in web/boundary.json
// (`functions`): scripts/gen-functions.mjs generates the wasm exports
// (registrations.gen.inc, included at the end of each file),
// types/laige_wasm.d.ts and the TypeScript side's bindings
// (web/src/boundary/exports.gen.ts). Every function is a plain wasm export
// of numbers; strings, bytes and structured results travel through wasm
// memory (json_out.h). Adding a function: its C++ function here, one
// manifest entry, `node scripts/gen-boundary.mjs`.
//
// The core builds with -fno-exceptions: nothing here throws, and a JS
// exception never unwinds through C++ (the TypeScript system trampoline
// catches everything; the EM_JS glue in systems.cpp catches again).
#pragma once

#include <emscripten.h>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>
#include "laige/errors.h"
#include "laige/game_loop.h"
#include "laige/logging.h"
#include "laige/prng.h"
#include "laige/replay.h"
#include "laige/replay_diff.h"
#include "laige/rollback.h"
#include "laige/sim.h"
#include "laige/state_hash.h"
#include "laige/system.h"
#include "laige/version.h"
#include "laige/world.h"
#include "laige/detail/dynamic_query.h"
#include "scenario.h"
#include "json_out.h"

// A binding that runs at setup or for diagnostics (never per entity or per
// tick) in a file compiled for speed: compiled for size instead
// (docs/build.md#the-wasm-modules-size).
#define LAIGE_COLD_BINDING [[clang::minsize]]

namespace laige_wasm {

using laige::ErrorCode;
using laige::Status;


// The last failing Status a binding handed to JS, with its reason and
// fields (module.cpp): lastFailure() reads it, clearLastFailure() drops it.
// The TypeScript check() reads it right after a call returned a non-zero
// code, so a LaigeError carries the core's own reason, never a guess.
// Written only on failure (cold, out of line): the ok path costs one test.
[[gnu::cold, gnu::noinline]] void noteFailure(const Status& s) noexcept;

// A number for JS: 0 for ok, else the ErrorCode value (and the failure is
// noted for lastFailure()).
inline std::uint32_t code(const Status& s) {
  if (s.ok()) [[likely]] return 0u;
  noteFailure(s);
  return s.codeValue();
}
template <class T>
std::uint32_t code(const laige::Result<T>& r) {
  if (r.ok()) [[likely]] return 0u;
  noteFailure(r.status());
  return static_cast<std::uint32_t>(r.error());
}
// A failure the binding itself detects: give it a reason, as the core does.
inline std::uint32_t fail(ErrorCode c, const char* reason) {
  return code(Status::failure(c, reason));
}

template <class T>
T* at(std::uintptr_t p) {
  return reinterpret_cast<T*>(p);
}

inline std::uint64_t u64(std::uint32_t lo, std::uint32_t hi) {
  return (std::uint64_t{hi} << 32) | lo;
}

inline void putU64(std::uintptr_t out, std::uint64_t v) {
  auto* o = at<std::uint32_t>(out);
  o[0] = static_cast<std::uint32_t>(v);
  o[1] = static_cast<std::uint32_t>(v >> 32);
}

inline laige::Entity ent(std::uint32_t bits) { return laige::Entity::fromBits(bits); }

// The fields a state-diff item and a replay-diff entry share, as JSON
// members (worldStateDiff, replayDiff): handles as their bits (0 = none);
// the caller adds the bytes and the relation text.
template <class Item>
Json& diffItemFields(Json& out, const Item& it) {
  return out.field("slot", it.slot)
      .field("componentId", it.componentId)
      .field("size", it.size)
      .field("presentInA", it.presentInA)
      .field("presentInB", it.presentInB)
      .field("entityA", it.entityA.bits())
      .field("entityB", it.entityB.bits())
      .field("relation", it.relation)
      .field("targetA", it.targetA.bits())
      .field("targetB", it.targetB.bits());
}

// What the wasm layer keeps per world: the world, its current schedule (a
// GameLoop points at it, so it lives at a fixed address) and the strings a
// SystemDef points at (system names and dependsOn lists outlive the world).
// A scenario run's world (scenarioOpen) is a JsWorld too: `world` then
// refers into `run`, so every world* binding reads it unchanged.
struct JsWorld {
  explicit JsWorld(laige::World w) noexcept : owned(std::move(w)), world(*owned) {}
  explicit JsWorld(laige::ScenarioRun r) noexcept : run(std::move(r)), world(run->world()) {}
  std::optional<laige::World> owned;
  std::optional<laige::ScenarioRun> run;
  laige::World& world;
  laige::SystemSchedule schedule{};
  std::vector<std::unique_ptr<std::string>> strings;
  bool timingClockJs = false;
  // The TypeScript queries of this world (web/bindings/query.cpp): slot
  // q - 1 holds query id q (null once freed), freed with the world.
  struct Query {
    laige::detail::DynamicQuery q;
    std::uint32_t columns = 0;  // the cursor table's column terms: terms [0, columns)
  };
  std::vector<std::unique_ptr<Query>> queries;
  std::vector<std::uint32_t> freeQueries;
  // The live walk's cursor table and change window (one walk per world at a time).
  std::vector<std::uint32_t> cursorTable;
  laige::detail::ChangeRun change;
};

inline JsWorld& W(std::uintptr_t w) { return *at<JsWorld>(w); }
// The laige::RollbackSession of a rollbackCreate pointer (rollback.cpp).
laige::RollbackSession& rollbackSessionAt(std::uintptr_t s);

}  // namespace laige_wasm
