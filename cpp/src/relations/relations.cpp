// relations.cpp - registering relations, their add / remove / destroy
// rules and the reverse index (docs/relations.md).
#include "laige/relations.h"

#include <cstring>
#include <new>

#include "laige/detail/world_state.h"
#include "systems/system_access.h"

namespace laige {

namespace detail {

WorldState& RelationAccess::state(World& w) noexcept { return *w.s_; }
const WorldState& RelationAccess::state(const World& w) noexcept { return *w.s_; }

const std::uint8_t* valueOfSlot(const EcsState& ecs, std::uint32_t slot, ComponentTypeId c) noexcept {
  const ArchetypeId a = ecs.archetypeOf[slot];
  if (a == kNoArchetype) return nullptr;
  const Archetype& arch = *ecs.archetypes[a];
  if (arch.colOf[c] == 0) return nullptr;
  const Column& col = arch.cols[arch.colOf[c] - 1];
  return col.data + std::size_t{ecs.rowOf[slot]} * col.size;
}

Status notRelationStatus(ComponentTypeId c) noexcept {
  return Status::failure(ErrorCode::InvalidArgument, "relation_not_registered").with("component_id", c);
}

Status walkMutation(const char* operation) noexcept {
  return Status::failure(ErrorCode::InvalidArgument, "relation_walk_mutation").with("operation", operation);
}

namespace {

RelationRecord* recordOf(WorldState& ws, ComponentTypeId c) noexcept {
  if (c == 0 || c > kMaxComponentTypes || ws.relations.relationOf[c] == 0) return nullptr;
  return &ws.relations.relations[ws.relations.relationOf[c] - 1];
}

// A fresh visit mark (the cascade and the restore check).
std::uint32_t nextMark(RelationState& rs, std::uint32_t capacity) noexcept {
  if (++rs.markEpoch == 0) {
    std::memset(rs.mark.get(), 0, std::size_t{capacity} * sizeof(std::uint32_t));
    rs.markEpoch = 1;
  }
  return rs.markEpoch;
}

// The plain destroy of live slot `slot` (the cascade checked everything).
void destroyOne(WorldState& ws, std::uint32_t slot) noexcept {
  const Entity h = ws.entities.handleOf(static_cast<std::uint16_t>(slot));
  if (ws.changes.anyHook) [[unlikely]] onDestroy(ws, h);
  unlinkDestroyed(ws, slot);
  ws.ecs.detachRowOutOfLine(static_cast<std::uint16_t>(slot));
  ws.entities.despawn(h);
  ++ws.totalDestroyed;
}

}  // namespace

void unlinkSource(RelationRecord& r, std::uint32_t target, std::uint32_t slot) noexcept {
  r.cascade.valid = false;
  std::uint32_t* at = &r.firstSource[target];
  while (*at != kNoSlot && *at != slot) at = &r.nextSource[*at];
  if (*at == slot) *at = r.nextSource[slot];
}

void linkSource(RelationRecord& r, std::uint32_t target, std::uint32_t slot) noexcept {
  r.cascade.valid = false;
  std::uint32_t* at = &r.firstSource[target];
  while (*at != kNoSlot && *at < slot) at = &r.nextSource[*at];
  r.nextSource[slot] = *at;
  *at = slot;
}

void unlinkDestroyed(WorldState& ws, std::uint32_t slot) noexcept {
  for (RelationRecord& r : ws.relations.relations) {
    if (const std::uint8_t* v = valueOfSlot(ws.ecs, slot, r.component)) {
      unlinkSource(r, Entity::fromBits(relationTargetBits(v)).id(), slot);
    }
  }
}

void resetRelationIndex(WorldState& ws) noexcept {
  const std::uint32_t cap = ws.entities.capacity();
  for (RelationRecord& r : ws.relations.relations) {
    for (std::uint32_t i = 0; i < cap; ++i) r.firstSource[i] = kNoSlot;
    r.cascade.valid = false;
  }
}

void rebuildRelationIndex(WorldState& ws) noexcept {
  resetRelationIndex(ws);
  const std::uint32_t high = ws.entities.highWater();
  for (RelationRecord& r : ws.relations.relations) {
    // Descending slots, each pushed in front: every list ends up ascending.
    for (std::uint32_t slot = high; slot-- > 0;) {
      if (!ws.entities.isIndexAlive(slot)) continue;
      const std::uint8_t* v = valueOfSlot(ws.ecs, slot, r.component);
      if (v == nullptr) continue;
      const std::uint32_t target = Entity::fromBits(relationTargetBits(v)).id();
      r.nextSource[slot] = r.firstSource[target];
      r.firstSource[target] = slot;
    }
  }
}

Status RelationAccess::add(World& w, Entity e, ComponentTypeId c, const void* bytes) noexcept {
  WorldState& ws = *w.s_;
  RelationRecord& r = *recordOf(ws, c);
  if (ws.relations.walking != 0) return walkMutation("add");
  const Entity target = Entity::fromBits(relationTargetBits(bytes));
  const auto fail = [&](const char* reason) {
    return Status::failure(ErrorCode::InvalidArgument, reason)
        .with("entity_id", e.id())
        .with("component_id", c)
        .with("target_id", target.id())
        .with("target_generation", target.generation());
  };
  if (!ws.entities.isAlive(target)) return fail("relation_target_stale");
  if (target.id() == e.id()) return fail("relation_self");
  const std::uint8_t* current = valueOfSlot(ws.ecs, e.id(), c);
  const std::uint32_t oldBits = current != nullptr ? relationTargetBits(current) : 0;
  if (current == nullptr || oldBits != target.bits()) {
    // The target's chain upward must not reach the source (bounded: a
    // direct write of a target field could have made a loop elsewhere).
    std::uint32_t x = target.id();
    for (std::uint32_t steps = 0; steps <= ws.entities.capacity(); ++steps) {
      const std::uint8_t* v = valueOfSlot(ws.ecs, x, c);
      if (v == nullptr) break;
      x = Entity::fromBits(relationTargetBits(v)).id();
      if (x == e.id()) return fail("relation_cycle");
    }
  }
  if (Status st = w.addByIdOutOfLine(e, c, bytes); !st.ok()) return st;
  if (current == nullptr) {
    linkSource(r, target.id(), e.id());
  } else if (oldBits != target.bits()) {
    unlinkSource(r, Entity::fromBits(oldBits).id(), e.id());
    linkSource(r, target.id(), e.id());
  }
  return Status{};
}

Status RelationAccess::remove(World& w, Entity e, ComponentTypeId c) noexcept {
  WorldState& ws = *w.s_;
  RelationRecord& r = *recordOf(ws, c);
  if (ws.relations.walking != 0) return walkMutation("remove");
  const std::uint8_t* current = valueOfSlot(ws.ecs, e.id(), c);
  const std::uint32_t oldBits = current != nullptr ? relationTargetBits(current) : 0;
  if (Status st = w.removeByIdOutOfLine(e, c); !st.ok()) return st;
  if (current != nullptr && valueOfSlot(ws.ecs, e.id(), c) == nullptr) {
    unlinkSource(r, Entity::fromBits(oldBits).id(), e.id());
  }
  return Status{};
}

// The cascade (docs/relations.md#cleanup): collect the entities to destroy
// breadth first (the target, then its Destroy-sources ascending by slot,
// then theirs, ...), check every destroy and every Remove the way a direct
// call would (nothing happens unless all pass), then apply in that order,
// each entity's Remove-sources losing the relation just before it dies.
Status RelationAccess::destroy(World& w, Entity e) noexcept {
  WorldState& ws = *w.s_;
  RelationState& rs = ws.relations;
  if (rs.walking != 0) return walkMutation("destroy");
  std::uint32_t* list = rs.queue.get();
  const std::uint32_t mark = nextMark(rs, ws.entities.capacity());
  std::uint32_t n = 0;
  list[n++] = e.id();
  rs.mark[e.id()] = mark;
  for (std::uint32_t i = 0; i < n; ++i) {
    for (const RelationRecord& r : rs.relations) {
      if (r.onTargetDestroyed != static_cast<std::uint8_t>(OnTargetDestroyed::Destroy)) continue;
      for (std::uint32_t s = r.firstSource[list[i]]; s != kNoSlot; s = r.nextSource[s]) {
        if (rs.mark[s] == mark) continue;
        rs.mark[s] = mark;
        list[n++] = s;
      }
    }
  }
  for (std::uint32_t i = 0; i < n; ++i) {
    const Entity h = ws.entities.handleOf(static_cast<std::uint16_t>(list[i]));
    if (const Status g = guardDestroy(ws, h); !g.ok()) return g;
    if (const Status a = checkDestroy(ws, h); !a.ok()) return a;
    for (const RelationRecord& r : rs.relations) {
      if (r.onTargetDestroyed != static_cast<std::uint8_t>(OnTargetDestroyed::Remove)) continue;
      for (std::uint32_t s = r.firstSource[list[i]]; s != kNoSlot; s = r.nextSource[s]) {
        if (rs.mark[s] == mark) continue;
        // Conservative under a live each: a source in a walked archetype refuses.
        if (const Status g = guardDestroy(ws, ws.entities.handleOf(static_cast<std::uint16_t>(s))); !g.ok()) return g;
        if (const Status a = checkStructural(ws, r.component, "remove"); !a.ok()) return a;
      }
    }
  }
  for (std::uint32_t i = 0; i < n; ++i) {
    for (RelationRecord& r : rs.relations) {
      if (r.onTargetDestroyed != static_cast<std::uint8_t>(OnTargetDestroyed::Remove)) continue;
      std::uint32_t s = r.firstSource[list[i]];
      while (s != kNoSlot) {
        const std::uint32_t next = r.nextSource[s];
        if (rs.mark[s] != mark) {
          (void)w.removeByIdOutOfLine(ws.entities.handleOf(static_cast<std::uint16_t>(s)), r.component);
          unlinkSource(r, list[i], s);
        }
        s = next;
      }
    }
    destroyOne(ws, list[i]);
  }
  if (ws.changes.queued != 0) [[unlikely]] (void)drainObservers(w);
  return Status{};
}

Status relationPrecheck(World& world, const RelationOptions& options) noexcept {
  if (!world.isLive()) return Status::failure(ErrorCode::InvalidArgument, "world_moved_from");
  const WorldState& ws = RelationAccess::state(world);
  if (ws.commandPhaseOpen() || ws.relations.walking != 0) {
    return Status::failure(ErrorCode::InvalidArgument, "relation_register_inside_callback");
  }
  if (!options.exclusive) {
    return Status::failure(ErrorCode::InvalidArgument, "relation_options_invalid").with("option", "exclusive");
  }
  if (static_cast<std::uint8_t>(options.onTargetDestroyed) > 1) {
    return Status::failure(ErrorCode::InvalidArgument, "relation_options_invalid")
        .with("option", "on_target_destroyed");
  }
  if (ws.relations.relations.size() >= kMaxRelations) {
    return Status::failure(ErrorCode::BudgetExhausted, "relation_budget").with("max", kMaxRelations);
  }
  return Status{};
}

}  // namespace detail

Status registerRelation(World& world, ComponentTypeId id, const RelationOptions& options) noexcept {
  if (Status pre = detail::relationPrecheck(world, options); !pre.ok()) return pre;
  detail::WorldState& ws = detail::RelationAccess::state(world);
  if (id == 0 || id > ws.ecs.components.size()) {
    return Status::failure(ErrorCode::InvalidArgument, "component_unregistered").with("component_id", id);
  }
  const detail::RegisteredComponent& comp = *ws.ecs.components[id - 1];
  bool targetField = false;
  for (const ComponentField& f : comp.fields) targetField |= f.offset == 0 && f.kind == FieldKind::U32;
  if (!targetField || comp.size < 4) {
    return Status::failure(ErrorCode::InvalidArgument, "relation_layout_invalid")
        .with("component", comp.name)
        .with("component_id", id)
        .with("size", comp.size);
  }
  if (ws.relations.relationOf[id] != 0) {
    return Status::failure(ErrorCode::InvalidArgument, "relation_already_registered")
        .with("component", comp.name)
        .with("component_id", id);
  }
  for (std::size_t a = 1; a < ws.ecs.archetypes.size(); ++a) {
    const detail::Archetype& arch = *ws.ecs.archetypes[a];
    if (arch.colOf[id] != 0 && arch.liveRows() != 0) {
      return Status::failure(ErrorCode::InvalidArgument, "relation_component_in_use")
          .with("component", comp.name)
          .with("component_id", id)
          .with("entities", arch.liveRows());
    }
  }
  const std::uint32_t cap = ws.entities.capacity() == 0 ? 1 : ws.entities.capacity();
  detail::RelationState& rs = ws.relations;
  detail::RelationRecord rec;
  rec.component = id;
  rec.onTargetDestroyed = static_cast<std::uint8_t>(options.onTargetDestroyed);
  rec.firstSource.reset(new (std::nothrow) std::uint32_t[cap]);
  rec.nextSource.reset(new (std::nothrow) std::uint32_t[cap]);
  std::unique_ptr<std::uint32_t[]> queue(rs.queue ? nullptr : new (std::nothrow) std::uint32_t[cap]);
  std::unique_ptr<std::uint32_t[]> mark(rs.mark ? nullptr : new (std::nothrow) std::uint32_t[cap]());
  if (!rec.firstSource || !rec.nextSource || (!rs.queue && !queue) || (!rs.mark && !mark)) {
    return Status::failure(ErrorCode::BudgetExhausted, "relation_alloc_failed").with("component_id", id);
  }
  if (rs.relations.capacity() < kMaxRelations) rs.relations.reserve(kMaxRelations);
  for (std::uint32_t i = 0; i < cap; ++i) rec.firstSource[i] = detail::kNoSlot;
  if (queue) rs.queue = std::move(queue);
  if (mark) rs.mark = std::move(mark);
  rs.relations.push_back(std::move(rec));
  rs.relationOf[id] = static_cast<std::uint8_t>(rs.relations.size());
  static constexpr detail::RelationHooks kHooks{&detail::RelationAccess::add, &detail::RelationAccess::remove,
                                                &detail::RelationAccess::destroy, &detail::resetRelationIndex,
                                                &detail::rebuildRelationIndex};
  rs.hooks = &kHooks;
  return Status{};
}

Result<ComponentTypeId> registerRelation(World& world, std::string_view name,
                                         const RelationOptions& options) noexcept {
  if (Status pre = detail::relationPrecheck(world, options); !pre.ok()) return pre;
  const ComponentField fields[] = {{"target", FieldKind::U32, 1, 0}};
  ComponentDesc desc;
  desc.name = name;
  desc.size = 4;
  desc.alignment = 4;
  desc.fields = fields;
  Result<ComponentTypeId> r = world.registerComponentDesc(desc);
  if (!r.ok()) return r;
  if (Status st = registerRelation(world, r.value(), options); !st.ok()) return st;
  return r;
}

bool isRelation(const World& world, ComponentTypeId id) noexcept {
  if (!world.isLive() || id == 0 || id > kMaxComponentTypes) return false;
  return detail::RelationAccess::state(world).relations.relationOf[id] != 0;
}

RelationOptions relationOptions(const World& world, ComponentTypeId id) noexcept {
  RelationOptions o;
  if (!isRelation(world, id)) return o;
  const detail::RelationState& rs = detail::RelationAccess::state(world).relations;
  o.onTargetDestroyed = static_cast<OnTargetDestroyed>(rs.relations[rs.relationOf[id] - 1].onTargetDestroyed);
  return o;
}

Status addRelation(World& world, Entity source, ComponentTypeId rel, Entity target) noexcept {
  if (Status st = world.check(source); !st.ok()) return st;
  if (!isRelation(world, rel)) return detail::notRelationStatus(rel);
  const detail::WorldState& ws = detail::RelationAccess::state(world);
  const std::uint32_t size = ws.ecs.components[rel - 1]->size;
  std::uint8_t value[kMaxComponentSize];
  const void* current = world.getBytes(source, rel);
  if (current != nullptr) std::memcpy(value, current, size);
  else std::memset(value, 0, size);
  const std::uint32_t bits = target.bits();
  std::memcpy(value, &bits, 4);
  return world.addComponentBytes(source, rel, value, size);
}

Status removeRelation(World& world, Entity source, ComponentTypeId rel) noexcept {
  if (Status st = world.check(source); !st.ok()) return st;
  if (!isRelation(world, rel)) return detail::notRelationStatus(rel);
  return world.removeComponentById(source, rel);
}

bool hasRelation(const World& world, Entity source, ComponentTypeId rel) noexcept {
  return isRelation(world, rel) && world.hasComponent(source, rel);
}

Entity targetOf(const World& world, Entity source, ComponentTypeId rel) noexcept {
  if (!isRelation(world, rel) || !world.isValid(source)) return Entity{};
  const detail::WorldState& ws = detail::RelationAccess::state(world);
  const std::uint8_t* v = detail::valueOfSlot(ws.ecs, source.id(), rel);
  return v != nullptr ? Entity::fromBits(detail::relationTargetBits(v)) : Entity{};
}

}  // namespace laige
