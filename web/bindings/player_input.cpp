// player_input.cpp - the scenarios' per-player input generators
// (cpp/scenarios/player_input.h) for web/src/laige.ts scenarioPlayerInput:
// the same C++ function laige-peer's rollback mode and the C++ tests call,
// so the TypeScript tests and the demo need no copy of it (part of the
// binding layer: web/bindings/common.h says how it is built).
//
// A hand-written wasm export: a rollback driver
// calls it once per player and tick, and it costs a few bytes of module.
#include "common.h"
#include "player_input.h"

using namespace laige_wasm;

// The TypeScript layer passes its 256-byte out area (web/src/boundary/raw.ts Mem.out).
static_assert(laige::kMaxPlayerInputBytes <= 256, "the generators' output must fit Mem.out");

extern "C" {

// Player `player`'s input for tick (tickLo, tickHi) of the scenario named
// by the `nameSize` bytes at `name`, written to `out` (at least
// kMaxPlayerInputBytes bytes). Returns its length (0 = no input that tick),
// or minus the ErrorCode with the failure noted for lastFailure():
// `scenario_unknown` (no such scenario), `scenario_no_player_input` (a
// scenario without a generator). Writes nothing on failure; no allocation.
EMSCRIPTEN_KEEPALIVE std::int32_t laige_scenario_player_input(std::uintptr_t name, std::uint32_t nameSize,
                                                              std::uint32_t player, std::uint32_t tickLo,
                                                              std::uint32_t tickHi, std::uintptr_t out) {
  const std::string_view scenario(at<const char>(name), nameSize);
  const laige::PlayerInputGenerator* g = laige::findPlayerInputGenerator(scenario);
  if (g == nullptr) {
    const Status why = laige::findScenario(scenario) == nullptr
                           ? laige::scenarioUnknown(scenario)
                           : Status::failure(ErrorCode::InvalidArgument, "scenario_no_player_input")
                                 .with("scenario", scenario);
    return -static_cast<std::int32_t>(code(why));
  }
  return static_cast<std::int32_t>(g->input(player, u64(tickLo, tickHi), at<std::uint8_t>(out)));
}

}  // extern "C"

// The exports web/boundary.json lists for this file.
#define LAIGE_BINDINGS_PLAYER_INPUT
#include "registrations.gen.inc"
