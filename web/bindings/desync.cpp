// desync.cpp - per-system checkpoints, the state hash tree and the desync
// report (laige/desync.h, docs/desync.md) for web/src/desync/desync.ts
// (part of the binding layer: web/bindings/common.h says how it is built).
// Diagnostics only: every function here is cold, compiled for size.
#include <vector>

#include "common.h"
#include "json_out.h"
#include "laige/desync.h"

using namespace laige_wasm;

namespace {

laige::StateTreeNode treeNode(std::uint32_t level, std::uint32_t part, std::uint32_t index) {
  return laige::StateTreeNode{level, part, index};
}

std::uint32_t worldSetSystemCheckpoints(std::uintptr_t w, bool on) {
  return code(laige::setSystemCheckpoints(W(w).world, on));
}
bool worldSystemCheckpointsOn(std::uintptr_t w) { return laige::systemCheckpointsOn(W(w).world); }

void worldSystemCheckpoints(Json& out, std::uintptr_t w) {
  const laige::World& world = W(w).world;
  out.beginObject().key("tick").hex64(laige::systemCheckpointTick(world)).key("items").beginArray();
  for (const laige::SystemCheckpoint& c : laige::systemCheckpoints(world)) {
    out.beginObject().field("system", c.system).field("position", c.position).key("checksum").hex64(c.checksum).endObject();
  }
  out.endArray().endObject();
}

void worldStateTreeRoot(std::uintptr_t w, std::uint32_t tickLo, std::uint32_t tickHi, std::uintptr_t out) {
  putU64(out, laige::stateTreeRoot(W(w).world, u64(tickLo, tickHi)));
}

void worldStateTreeChildren(Json& out, std::uintptr_t w, std::uint32_t level, std::uint32_t part, std::uint32_t index) {
  const laige::World& world = W(w).world;
  // The root has componentCount() + 2 children, a part or a group kStateTreeFanout.
  std::vector<std::uint64_t> hashes(std::max<std::size_t>(world.componentCount() + 2u, laige::kStateTreeFanout));
  const auto r = laige::stateTreeChildren(world, treeNode(level, part, index), hashes);
  out.beginObject().field("code", code(r));
  if (r.ok()) {
    out.key("hashes").beginArray();
    for (std::uint32_t i = 0; i < r.value(); ++i) out.hex64(hashes[i]);
    out.endArray();
  }
  out.endObject();
}

void worldStateTreeLeaf(Json& out, std::uintptr_t w, std::uint32_t level, std::uint32_t part, std::uint32_t index) {
  const laige::World& world = W(w).world;
  std::vector<std::uint8_t> bytes(laige::stateTreeLeafCapacity(world));
  const auto r = laige::stateTreeLeaf(world, treeNode(level, part, index), bytes);
  out.beginObject().field("code", code(r));
  if (r.ok()) out.key("bytes").bytes(bytes.data(), r.value());
  out.endObject();
}

}  // namespace

// The exports web/boundary.json lists for this file.
#define LAIGE_BINDINGS_DESYNC
#include "registrations.gen.inc"
