// state_tree.cpp - the state hash tree of laige/desync.h
// (docs/desync.md#the-state-hash-tree): node hashes, leaf payloads, and the
// walk of two trees down their differing nodes.
//
// Every node is computed from the live state on demand, reading rows by
// slot (archetypeOf / rowOf), so the world is not normalised and the calls
// are const. Leaves are per slot range, not per archetype row: an entity
// that moved to another archetype on one side changes the leaves of its
// own slot only, never shifts the rows of the others.
#include <cstring>

#include "laige/desync.h"
#include "laige/detail/change_walk.h"
#include "laige/detail/world_state.h"
#include "setup_code.h"
#include "snapshot/snapshot_changes.h"
#include "snapshot/xxh3_sites.h"

namespace laige {

namespace {

constexpr std::uint32_t kChunks = kStateTreeFanout * kStateTreeFanout;
static_assert(kChunks * kStateTreeChunkSlots == Entity::kMaxEntities);

std::uint32_t partCount(const detail::WorldState& ws) noexcept {
  return static_cast<std::uint32_t>(ws.ecs.components.size()) + 2;
}

// Where the payload goes: a hash (HashSink) or a caller's buffer (BufferSink,
// which counts the bytes it could not store, for the error's `needed`).
struct HashSink {
  detail::Xxh3Stream st;
  bool any = false;
  void bytes(const void* p, std::size_t n) noexcept {
    any = true;
    st.bytes(p, n);
  }
  std::uint64_t value() noexcept { return any ? st.value() : 0; }
};
struct BufferSink {
  std::uint8_t* out;
  std::size_t capacity;
  std::size_t used = 0;
  void bytes(const void* p, std::size_t n) noexcept {
    if (used + n <= capacity) std::memcpy(out + used, p, n);
    used += n;
  }
};

void putU32(auto& sink, std::uint32_t v) noexcept {
  std::uint8_t b[4] = {static_cast<std::uint8_t>(v), static_cast<std::uint8_t>(v >> 8),
                       static_cast<std::uint8_t>(v >> 16), static_cast<std::uint8_t>(v >> 24)};
  sink.bytes(b, 4);
}
void putU64(auto& sink, std::uint64_t v) noexcept {
  putU32(sink, static_cast<std::uint32_t>(v));
  putU32(sink, static_cast<std::uint32_t>(v >> 32));
}

// The payload of chunk `chunk` of part `part` (0 = entities, else a component id).
template <class Sink>
void writeChunk(const detail::WorldState& ws, std::uint32_t part, std::uint32_t chunk, Sink& sink) noexcept {
  const Entities& ents = ws.entities;
  const std::uint32_t high = ents.highWater();
  const std::uint32_t lo = chunk * kStateTreeChunkSlots;
  const std::uint32_t hi = lo + kStateTreeChunkSlots < high ? lo + kStateTreeChunkSlots : high;
  const std::uint8_t* living = ents.livingFlags();
  if (part == 0) {
    for (std::uint32_t s = lo; s < hi; ++s) {
      if (living[s] == 0) continue;
      putU32(sink, s);
      putU32(sink, ents.generations()[s]);
    }
    return;
  }
  const detail::EcsState& ecs = ws.ecs;
  const detail::RegisteredComponent& comp = *ecs.components[part - 1];
  const bool floats = detail::componentHasFloats(comp);
  alignas(8) std::uint8_t value[kMaxComponentSize];
  for (std::uint32_t s = lo; s < hi; ++s) {
    if (living[s] == 0) continue;
    const ArchetypeId a = ecs.archetypeOf[s];
    if (a == kNoArchetype) continue;
    const detail::Archetype& arch = *ecs.archetypes[a];
    const std::uint32_t col = arch.colOf[part];
    if (col == 0) continue;
    putU32(sink, s);
    if (comp.size == 0) continue;
    const std::uint8_t* bytes = arch.cols[col - 1].data + std::size_t{ecs.rowOf[s]} * comp.size;
    if (floats) {
      std::memcpy(value, bytes, comp.size);
      detail::canonicaliseValue(comp, value);
      bytes = value;
    }
    sink.bytes(bytes, comp.size);
  }
}

template <class Sink>
void writeSystems(const detail::WorldState& ws, Sink& sink) noexcept {
  const detail::SystemRegistry& reg = ws.systems;
  putU32(sink, reg.count);
  for (std::uint32_t id = 1; id <= reg.count; ++id) {
    const detail::SystemRecord& rec = reg.at(id);
    putU32(sink, id);
    putU32(sink, rec.hasSubstream ? 1 : 0);
    putU64(sink, rec.hasSubstream ? rec.rng.seed() : 0);
    putU64(sink, rec.hasSubstream ? rec.rng.statePart1() : 0);
    putU64(sink, rec.hasSubstream ? rec.rng.statePart2() : 0);
  }
}

std::uint64_t chunkHash(const detail::WorldState& ws, std::uint32_t part, std::uint32_t chunk) noexcept {
  if (chunk * kStateTreeChunkSlots >= ws.entities.highWater()) return 0;
  HashSink sink;
  writeChunk(ws, part, chunk, sink);
  return sink.value();
}

// XXH3 of n child hashes, or 0 when every one is 0 (nothing live below).
std::uint64_t combine(const std::uint64_t* hashes, std::uint32_t n) noexcept {
  bool any = false;
  for (std::uint32_t i = 0; i < n; ++i) any = any || hashes[i] != 0;
  if (!any) return 0;
  detail::Xxh3Stream st;
  for (std::uint32_t i = 0; i < n; ++i) st.u64(hashes[i]);
  return st.value();
}

void groupChildren(const detail::WorldState& ws, std::uint32_t part, std::uint32_t group,
                   std::uint64_t* out) noexcept {
  for (std::uint32_t k = 0; k < kStateTreeFanout; ++k) out[k] = chunkHash(ws, part, group * kStateTreeFanout + k);
}

std::uint64_t groupHash(const detail::WorldState& ws, std::uint32_t part, std::uint32_t group) noexcept {
  if (group * kStateTreeFanout * kStateTreeChunkSlots >= ws.entities.highWater()) return 0;
  std::uint64_t children[kStateTreeFanout];
  groupChildren(ws, part, group, children);
  return combine(children, kStateTreeFanout);
}

void partChildren(const detail::WorldState& ws, std::uint32_t part, std::uint64_t* out) noexcept {
  for (std::uint32_t g = 0; g < kStateTreeFanout; ++g) out[g] = groupHash(ws, part, g);
}

std::uint64_t partHash(const detail::WorldState& ws, std::uint32_t part) noexcept {
  if (part == partCount(ws) - 1) {
    HashSink sink;
    writeSystems(ws, sink);
    return sink.value();
  }
  std::uint64_t children[kStateTreeFanout];
  partChildren(ws, part, children);
  return combine(children, kStateTreeFanout);
}

Status nodeInvalid(StateTreeNode node) noexcept {
  return Status::failure(ErrorCode::InvalidArgument, "state_tree_node_invalid")
      .with("level", node.level)
      .with("part", node.part)
      .with("index", node.index);
}

// Ok when `node` is in the tree of a world with `parts` parts.
Status checkNode(StateTreeNode node, std::uint32_t parts) noexcept {
  switch (node.level) {
    case 0: return node.part == 0 && node.index == 0 ? Status{} : nodeInvalid(node);
    case 1: return node.part < parts && node.index == 0 ? Status{} : nodeInvalid(node);
    case 2: return node.part + 1 < parts && node.index < kStateTreeFanout ? Status{} : nodeInvalid(node);
    case 3: return node.part + 1 < parts && node.index < kChunks ? Status{} : nodeInvalid(node);
    default: return nodeInvalid(node);
  }
}

bool isLeaf(StateTreeNode node, std::uint32_t parts) noexcept {
  return node.level == 3 || (node.level == 1 && node.part == parts - 1);
}

Status tooSmall(std::uint64_t needed, std::uint64_t given) noexcept {
  return Status::failure(ErrorCode::BudgetExhausted, "state_tree_buffer_too_small")
      .with("needed", needed)
      .with("given", given);
}

}  // namespace

LAIGE_SETUP_CODE std::uint64_t stateTreeRoot(const World& world, std::uint64_t tick) noexcept {
  const detail::WorldState* ws = detail::ChangeAccess::state(world);
  detail::Xxh3Stream st;
  st.u64(tick);
  if (ws == nullptr) {  // the empty world: no entities, no components, no systems
    detail::Xxh3Stream systems;
    systems.u32(0);
    st.u64(0);
    st.u64(0);
    st.u32(2);
    st.u64(0);
    st.u64(systems.value());
    return st.value();
  }
  st.u64(ws->entities.length());
  st.u64(ws->changes.inUse() ? detail::changesDigest(*ws) : 0);
  const std::uint32_t parts = partCount(*ws);
  st.u32(parts);
  for (std::uint32_t p = 0; p < parts; ++p) st.u64(partHash(*ws, p));
  return st.value();
}

LAIGE_SETUP_CODE Result<std::uint32_t> stateTreeChildren(const World& world, StateTreeNode node,
                                                        std::span<std::uint64_t> out) noexcept {
  const detail::WorldState* ws = detail::ChangeAccess::state(world);
  if (ws == nullptr) return Status::failure(ErrorCode::InvalidArgument, "world_moved_from");
  const std::uint32_t parts = partCount(*ws);
  if (Status st = checkNode(node, parts); !st.ok()) return st;
  if (isLeaf(node, parts)) {
    return Status::failure(ErrorCode::InvalidArgument, "state_tree_node_is_leaf")
        .with("level", node.level)
        .with("part", node.part)
        .with("index", node.index);
  }
  const std::uint32_t n = node.level == 0 ? parts : kStateTreeFanout;
  if (out.size() < n) return tooSmall(n, out.size());
  if (node.level == 0) {
    for (std::uint32_t p = 0; p < parts; ++p) out[p] = partHash(*ws, p);
  } else if (node.level == 1) {
    partChildren(*ws, node.part, out.data());
  } else {
    groupChildren(*ws, node.part, node.index, out.data());
  }
  return n;
}

LAIGE_SETUP_CODE Result<std::size_t> stateTreeLeaf(const World& world, StateTreeNode node,
                                                  std::span<std::uint8_t> out) noexcept {
  const detail::WorldState* ws = detail::ChangeAccess::state(world);
  if (ws == nullptr) return Status::failure(ErrorCode::InvalidArgument, "world_moved_from");
  const std::uint32_t parts = partCount(*ws);
  if (Status st = checkNode(node, parts); !st.ok()) return st;
  if (!isLeaf(node, parts)) return nodeInvalid(node);
  // Measured first, so that a short buffer is refused with nothing written.
  BufferSink measure{nullptr, 0};
  if (node.level == 1) {
    writeSystems(*ws, measure);
  } else {
    writeChunk(*ws, node.part, node.index, measure);
  }
  if (out.size() < measure.used) return tooSmall(measure.used, out.size());
  BufferSink sink{out.data(), out.size()};
  if (node.level == 1) {
    writeSystems(*ws, sink);
  } else {
    writeChunk(*ws, node.part, node.index, sink);
  }
  return sink.used;
}

std::size_t stateTreeLeafCapacity(const World& world) noexcept {
  const detail::WorldState* ws = detail::ChangeAccess::state(world);
  std::size_t most = 4 + std::size_t{kMaxSystems} * kStateTreeSystemBytes;
  if (ws == nullptr) return most;
  for (const auto& c : ws->ecs.components) {
    const std::size_t chunk = std::size_t{kStateTreeChunkSlots} * (4 + c->size);
    if (chunk > most) most = chunk;
  }
  return most;
}

StateTreeSource stateTreeSourceOf(const World& world) noexcept {
  StateTreeSource s;
  s.context = const_cast<void*>(static_cast<const void*>(&world));
  s.children = [](void* context, StateTreeNode node, std::span<std::uint64_t> out) noexcept {
    return stateTreeChildren(*static_cast<const World*>(context), node, out);
  };
  s.leaf = [](void* context, StateTreeNode node, std::span<std::uint8_t> out) noexcept {
    return stateTreeLeaf(*static_cast<const World*>(context), node, out);
  };
  return s;
}

}  // namespace laige
