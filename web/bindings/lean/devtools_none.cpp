// devtools_none.cpp - the dev tools' exports in the package's lean wasm module
// (laige_wasm.wasm): the live inspector's answers (web/bindings/inspect.cpp),
// the replay player (web/bindings/replay_player.cpp), the lock-step diff of two
// replay logs (web/bindings/replay_diff.cpp) and the desync report of two
// worlds of one module (web/bindings/desync_report.cpp) are linked into the
// module with the dev tools only (laige_wasm_scenarios.wasm, the entry
// '@laige/sim/scenarios'), so that the lean module stays under its size
// limit (docs/build.md#the-two-wasm-modules). Both modules export the same
// names (one JS glue); here devtoolsLinked() answers 0 and every other
// export refuses. The TypeScript layer asks devtoolsLinked() first and
// throws devtools_not_linked, so these refusals are a guard, never the
// answer a caller sees.
#include "../common.h"
#include "../json_out.h"

using namespace laige_wasm;

namespace {

constexpr const char* kNotLinked = "devtools_not_linked";

std::string_view worldInspect(std::uintptr_t, std::string_view, bool, double, double) {
  return R"({"v":1,"error":"devtools_not_linked","code":2})";
}
std::uint32_t devtoolsLinked() { return 0; }

std::uint32_t replayPlayerOpen(std::uintptr_t, std::uintptr_t, std::uint32_t, std::uint32_t, std::uint32_t,
                               std::uintptr_t) {
  return fail(laige::ErrorCode::InvalidArgument, kNotLinked);
}
void replayPlayerDestroy(std::uintptr_t) {}
std::uint32_t replayPlayerSeek(std::uintptr_t, double) { return fail(laige::ErrorCode::InvalidArgument, kNotLinked); }
std::uint32_t replayPlayerStep(std::uintptr_t) { return fail(laige::ErrorCode::InvalidArgument, kNotLinked); }
std::uint32_t replayPlayerStepBack(std::uintptr_t) { return fail(laige::ErrorCode::InvalidArgument, kNotLinked); }
double replayPlayerTick(std::uintptr_t) { return 0; }
double replayPlayerTickCount(std::uintptr_t) { return 0; }
void replayPlayerStateHash(std::uintptr_t, std::uintptr_t out) { putU64(out, 0); }
void replayPlayerInfo(Json& out, std::uintptr_t) { out.beginObject().endObject(); }
void replayDiff(Json& out, std::uintptr_t, std::uintptr_t, std::uintptr_t, std::uint32_t, std::uintptr_t, std::uint32_t,
                std::uint32_t, std::uint32_t, std::uint32_t) {
  out.beginObject().field("code", fail(laige::ErrorCode::InvalidArgument, kNotLinked)).endObject();
}
void worldDesyncReport(Json& out, std::uintptr_t, std::uintptr_t, std::uint32_t) {
  out.beginObject().key("items").beginArray().endArray().field("code", fail(laige::ErrorCode::InvalidArgument, kNotLinked));
  out.endObject();
}

}  // namespace

// The exports web/boundary.json lists for web/bindings/inspect.cpp and
// web/bindings/replay_player.cpp.
#define LAIGE_BINDINGS_REPLAY_DIFF
#define LAIGE_BINDINGS_INSPECT
#define LAIGE_BINDINGS_REPLAY_PLAYER
#define LAIGE_BINDINGS_DESYNC_REPORT
#include "../registrations.gen.inc"
