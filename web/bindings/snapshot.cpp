// snapshot.cpp - World::snapshotSize / snapshot / restore for web/src/core/snapshot.ts
// (part of the binding layer: web/bindings/common.h says how it is built).
// The bytes travel through a wasm buffer the TypeScript layer allocated.
#include "common.h"

using namespace laige_wasm;

namespace {

std::uint32_t worldSnapshotSize(std::uintptr_t w) {
  return static_cast<std::uint32_t>(W(w).world.snapshotSize());
}
// A buffer shorter than snapshotSize() fails before anything is written
// (snapshot_buffer_too_small), so `out` may then be any pointer.
std::uint32_t worldSnapshot(std::uintptr_t w, std::uintptr_t out, std::uint32_t size) {
  return code(W(w).world.snapshot(std::span<std::uint8_t>(at<std::uint8_t>(out), size)));
}
std::uint32_t worldRestore(std::uintptr_t w, std::uintptr_t bytes, std::uint32_t size) {
  return code(W(w).world.restore(std::span<const std::uint8_t>(at<const std::uint8_t>(bytes), size)));
}
double worldStructureEpoch(std::uintptr_t w) { return static_cast<double>(W(w).world.structureEpoch()); }

}  // namespace

// The exports web/boundary.json lists for this file.
#define LAIGE_BINDINGS_SNAPSHOT
#include "registrations.gen.inc"
