// relation_walks.cpp - reading relations: the sources of a target, the
// hierarchy (depth) order and the invariant check (docs/relations.md).
#include <cstring>

#include "laige/detail/world_state.h"
#include "laige/relations.h"

namespace laige {

namespace {

using detail::kNoSlot;
using detail::RelationAccess;
using detail::RelationRecord;
using detail::WorldState;

const RelationRecord* recordOf(const WorldState& ws, ComponentTypeId c) noexcept {
  if (c == 0 || c > kMaxComponentTypes || ws.relations.relationOf[c] == 0) return nullptr;
  return &ws.relations.relations[ws.relations.relationOf[c] - 1];
}

// Holds the walk flag for the duration of a walk (nested walks count).
struct WalkScope {
  explicit WalkScope(WorldState& ws) noexcept : ws_(ws) { ++ws_.relations.walking; }
  ~WalkScope() { --ws_.relations.walking; }
  WalkScope(const WalkScope&) = delete;
  WalkScope& operator=(const WalkScope&) = delete;
  WorldState& ws_;
};

Status broken(const char* what, std::uint32_t slot, ComponentTypeId c) noexcept {
  return Status::failure(ErrorCode::InvalidArgument, "relation_invariant_broken")
      .with("what", what)
      .with("entity_id", slot)
      .with("component_id", c);
}

}  // namespace

std::uint32_t sourceCount(const World& world, Entity target, ComponentTypeId rel) noexcept {
  if (!world.isValid(target)) return 0;
  const WorldState& ws = RelationAccess::state(world);
  const RelationRecord* r = recordOf(ws, rel);
  if (r == nullptr) return 0;
  std::uint32_t n = 0;
  for (std::uint32_t s = r->firstSource[target.id()]; s != kNoSlot; s = r->nextSource[s]) ++n;
  return n;
}

namespace detail {

Status sourcesOfImpl(World& world, Entity target, ComponentTypeId rel, RelationVisitFn fn, void* closure) noexcept {
  if (Status st = world.check(target); !st.ok()) return st;
  WorldState& ws = RelationAccess::state(world);
  const RelationRecord* r = recordOf(ws, rel);
  if (r == nullptr) return notRelationStatus(rel);
  WalkScope scope(ws);
  const std::uint16_t* gen = ws.entities.generations();
  for (std::uint32_t s = r->firstSource[target.id()]; s != kNoSlot; s = r->nextSource[s]) {
    fn(closure, Entity(static_cast<std::uint16_t>(s), gen[s]), target);
  }
  return Status{};
}

// Breadth first from the roots (docs/relations.md#hierarchy-order).
Status eachCascadeImpl(World& world, ComponentTypeId rel, RelationVisitFn fn, void* closure) noexcept {
  if (!world.isLive()) return Status::failure(ErrorCode::InvalidArgument, "world_moved_from");
  WorldState& ws = RelationAccess::state(world);
  const RelationRecord* r = recordOf(ws, rel);
  if (r == nullptr) return notRelationStatus(rel);
  // The walk's queue is the world's one scratch array: no nesting.
  if (ws.relations.walking != 0) return walkMutation("each_cascade");
  WalkScope scope(ws);
  const std::uint16_t* gen = ws.entities.generations();
  const std::uint32_t* first = r->firstSource.get();
  const std::uint32_t* next = r->nextSource.get();
  std::uint32_t* queue = ws.relations.queue.get();
  const std::uint32_t high = ws.entities.highWater();
  // The queue holds the targets whose sources are still to visit: first
  // the roots (targets without the relation), ascending; each visited
  // source with sources of its own joins the queue's end, so depth d + 1
  // follows depth d, and no source's target needs to be read back.
  std::uint32_t n = 0;
  for (std::uint32_t root = 0; root < high; ++root) {
    if (first[root] != kNoSlot && valueOfSlot(ws.ecs, root, rel) == nullptr) queue[n++] = root;
  }
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::uint32_t t = queue[i];
    const Entity target(static_cast<std::uint16_t>(t), gen[t]);
    for (std::uint32_t s = first[t]; s != kNoSlot; s = next[s]) {
      fn(closure, Entity(static_cast<std::uint16_t>(s), gen[s]), target);
      if (first[s] != kNoSlot) queue[n++] = s;
    }
  }
  return Status{};
}

}  // namespace detail

Status checkRelations(const World& world) noexcept {
  if (!world.isLive()) return Status{};
  const WorldState& ws = RelationAccess::state(world);
  const std::uint32_t high = ws.entities.highWater();
  const std::uint32_t cap = ws.entities.capacity();
  for (const RelationRecord& r : ws.relations.relations) {
    const ComponentTypeId c = r.component;
    for (std::uint32_t slot = 0; slot < cap; ++slot) {
      const bool alive = slot < high && ws.entities.isIndexAlive(slot);
      // Every listed source is live, names this target, and the list ascends.
      std::uint32_t prev = kNoSlot;
      for (std::uint32_t s = r.firstSource[slot]; s != kNoSlot; s = r.nextSource[s]) {
        if (!alive) return broken("index", slot, c);
        const std::uint8_t* v = s < high && ws.entities.isIndexAlive(s) ? detail::valueOfSlot(ws.ecs, s, c) : nullptr;
        if (v == nullptr || Entity::fromBits(detail::relationTargetBits(v)).id() != slot) return broken("index", s, c);
        if (prev != kNoSlot && s <= prev) return broken("index", s, c);
        prev = s;
      }
      if (!alive) continue;
      const std::uint8_t* v = detail::valueOfSlot(ws.ecs, slot, c);
      if (v == nullptr) continue;
      const Entity target = Entity::fromBits(detail::relationTargetBits(v));
      if (!ws.entities.isAlive(target)) return broken("target_dead", slot, c);
      if (target.id() == slot) return broken("self", slot, c);
      bool listed = false;
      for (std::uint32_t s = r.firstSource[target.id()]; s != kNoSlot && !listed; s = r.nextSource[s]) {
        listed = s == slot;
      }
      if (!listed) return broken("index", slot, c);
      // A chain longer than the live count loops.
      std::uint32_t x = target.id();
      std::uint32_t steps = 0;
      for (const std::uint8_t* up = detail::valueOfSlot(ws.ecs, x, c); up != nullptr;
           up = detail::valueOfSlot(ws.ecs, x, c)) {
        x = Entity::fromBits(detail::relationTargetBits(up)).id();
        if (x == slot || ++steps > ws.entities.length()) return broken("cycle", slot, c);
      }
    }
  }
  return Status{};
}

}  // namespace laige
