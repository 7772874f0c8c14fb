// inspect.cpp - the live inspector's one export (laige/inspect.h,
// docs/inspector.md) for web/src/inspector/world_source.ts (part of the
// binding layer: web/bindings/common.h says how it is built). A dev tool:
// linked into the module with the dev tools only; the lean module links
// web/bindings/lean/devtools_none.cpp. Cold,
// compiled for size. The history (firstTick..lastTick) is the TypeScript
// side's: a valid `seek` answers `{"kind":"seek","tick":t}` and that side
// restores the tick itself.
#include "common.h"
#include "laige/inspect.h"

using namespace laige_wasm;

namespace {

// The answer text; the result slot points into it until the next call.
std::string gInspectAnswer;

std::string_view worldInspect(std::uintptr_t w, std::string_view request, bool historyKept, double firstTick,
                              double lastTick) {
  laige::InspectHistory h;
  h.kept = historyKept;
  h.firstTick = static_cast<std::uint64_t>(firstTick);
  h.lastTick = static_cast<std::uint64_t>(lastTick);
  (void)laige::answerInspect(W(w).world, request, h, gInspectAnswer);
  return gInspectAnswer;
}

// This module links the dev tools (the inspector's answers, the replay player).
std::uint32_t devtoolsLinked() { return 1; }

}  // namespace

// The exports web/boundary.json lists for this file.
#define LAIGE_BINDINGS_INSPECT
#include "registrations.gen.inc"
