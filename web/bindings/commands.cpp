// commands.cpp - the deferred-command buffer for web/src/systems/commands.ts
// (part of the binding layer: web/bindings/common.h says how it is built).
// TypeScript records straight into the world's C++ CommandBuffer, so the
// phases, the apply order, the checks and the hashes are the core's own
// (docs/commands.md). The record calls are plain wasm exports (raw.ts
// HOT_EXPORTS): a system may record one per entity.
#include "common.h"

using namespace laige_wasm;

namespace {

std::uint32_t worldBeginDefer(std::uintptr_t w) { return code(W(w).world.beginDefer()); }
void worldEndDefer(std::uintptr_t w) { W(w).world.endDefer(); }
std::uint32_t worldCommandsReserve(std::uintptr_t w, std::uint32_t bytes) {
  return code(W(w).world.commands().reserve(bytes));
}
// CommandStats as 7 doubles at `out`: recorded, applied, skippedDead,
// skippedFailed, pending, bufferBytes, grows (all far below 2^53).
LAIGE_COLD_BINDING void worldCommandStats(std::uintptr_t w, std::uintptr_t out) {
  const laige::CommandStats s = W(w).world.commandStats();
  double* o = at<double>(out);
  o[0] = static_cast<double>(s.recorded);
  o[1] = static_cast<double>(s.applied);
  o[2] = static_cast<double>(s.skippedDead);
  o[3] = static_cast<double>(s.skippedFailed);
  o[4] = static_cast<double>(s.pending);
  o[5] = static_cast<double>(s.bufferBytes);
  o[6] = static_cast<double>(s.grows);
}

}  // namespace

extern "C" {
// 1 while a command phase is open (world.commands checks it on every access).
EMSCRIPTEN_KEEPALIVE std::uint32_t laige_world_commands_recording(std::uintptr_t w) {
  return W(w).world.commands().recording() ? 1u : 0u;
}
EMSCRIPTEN_KEEPALIVE std::uint32_t laige_world_command_destroy(std::uintptr_t w, std::uint32_t e) {
  return code(W(w).world.commands().destroy(ent(e)));
}
// `size` bytes at `bytes` (the TS encoder's scratch); the size is checked
// against the registered one before anything is read.
EMSCRIPTEN_KEEPALIVE std::uint32_t laige_world_command_add(std::uintptr_t w, std::uint32_t e, std::uint32_t c,
                                                           std::uintptr_t bytes, std::uint32_t size) {
  return code(W(w).world.commands().addBytes(ent(e), c, at<const void>(bytes), size));
}
EMSCRIPTEN_KEEPALIVE std::uint32_t laige_world_command_remove(std::uintptr_t w, std::uint32_t e, std::uint32_t c) {
  return code(W(w).world.commands().removeById(ent(e), c));
}
}  // extern "C"

// The exports web/boundary.json lists for this file.
#define LAIGE_BINDINGS_COMMANDS
#include "registrations.gen.inc"
