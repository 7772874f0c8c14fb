// prefabs.cpp - the Prefab tag and instantiate (docs/prefabs.md).
//
// instantiate is one structural change: it walks the prefab's tree (breadth
// first through the hierarchy relation), checks everything a failure could
// come from (slots, archetype budget, storage: archetypes are created and
// rows reserved before the first entity exists), then creates every entity
// straight into its final archetype (one row append each, no intermediate
// component sets), copies the template's values, links the relations'
// reverse index and queues the observer events. Nothing after the first
// create can fail.
#include "laige/prefabs.h"

#include <cstring>

#include "laige/detail/world_state.h"
#include "laige/relations.h"
#include "systems/system_access.h"

namespace laige {

namespace {

using detail::Archetype;
using detail::EcsState;
using detail::RelationRecord;
using detail::WorldState;

// The tree being instantiated: the template slots in creation order (the
// relations' per-slot queue when a hierarchy is walked: it holds capacity
// entries, and an instantiate inside a walk is refused) and, per template,
// the archetype its instance goes to.
struct Tree {
  std::uint32_t* slots = nullptr;
  std::uint32_t n = 0;
  std::uint32_t single = 0;  // the storage when no hierarchy is walked
};

Status notAPrefab(Entity e) noexcept {
  return Status::failure(ErrorCode::InvalidArgument, "prefab_not_a_prefab")
      .with("entity_id", e.id())
      .with("generation", e.generation());
}

Status badOverride(ComponentTypeId c, const char* why) noexcept {
  return Status::failure(ErrorCode::InvalidArgument, "prefab_override_invalid")
      .with("component_id", c)
      .with("why", why);
}

// The instance's component set of template slot `slot`: its set without the
// Prefab tag and, for the root, without the hierarchy relation.
std::uint32_t instanceSignature(const EcsState& s, std::uint32_t slot, bool root, ComponentTypeId hierarchy,
                                ComponentTypeId* sig) noexcept {
  const ArchetypeId aid = s.archetypeOf[slot];
  if (aid == kNoArchetype) return 0;
  const Archetype& a = *s.archetypes[aid];
  std::uint32_t n = 0;
  for (std::uint32_t i = 0; i < a.componentCount; ++i) {
    const ComponentTypeId c = a.sig[i];
    if (c == s.prefabTag || (root && c == hierarchy)) continue;
    sig[n++] = c;
  }
  return n;
}

// The instance archetype of template slot `slot` when the edge cache knows
// it (the template's set minus the tag: its remove edge), kEdgeUnknown
// otherwise (a first instantiate, or a root that drops the hierarchy too:
// instanceSignature + findArchetype then).
std::uint32_t cachedInstanceArchetype(const EcsState& s, std::uint32_t slot, bool root,
                                      ComponentTypeId hierarchy) noexcept {
  const ArchetypeId from = s.archetypeOf[slot];
  if (from == kNoArchetype) return kNoArchetype;
  const Archetype& a = *s.archetypes[from];
  if (root && hierarchy != 0 && a.colOf[hierarchy] != 0) return detail::kEdgeUnknown;
  return a.colOf[s.prefabTag] != 0 ? a.removeEdge[s.prefabTag] : from;
}

// The checks both forms share: the prefab, the hierarchy, the overrides.
Status checkPrefab(const WorldState& ws, Entity prefab, ComponentTypeId hierarchy,
                   std::span<const ComponentValue> overrides) noexcept {
  const EcsState& s = ws.ecs;
  if (!ws.entities.isAlive(prefab)) {
    return Status::failure(ErrorCode::InvalidArgument, "stale_entity_access")
        .with("entity_id", prefab.id())
        .with("generation", prefab.generation());
  }
  const ArchetypeId aid = s.archetypeOf[prefab.id()];
  if (s.prefabTag == 0 || aid == kNoArchetype || s.archetypes[aid]->colOf[s.prefabTag] == 0) {
    return notAPrefab(prefab);
  }
  if (hierarchy != 0 && (hierarchy > kMaxComponentTypes || ws.relations.relationOf[hierarchy] == 0)) {
    return detail::notRelationStatus(hierarchy);
  }
  const Archetype& a = *s.archetypes[aid];
  for (const ComponentValue& o : overrides) {
    if (o.id == 0 || o.id > s.components.size()) return badOverride(o.id, "unregistered");
    if (o.size != s.components[o.id - 1]->size || (o.size != 0 && o.bytes == nullptr)) {
      return badOverride(o.id, "size");
    }
    if (o.id == s.prefabTag) return badOverride(o.id, "tag");
    if (ws.relations.relationOf[o.id] != 0) return badOverride(o.id, "relation");
    if (a.colOf[o.id] == 0) return badOverride(o.id, "absent");
  }
  return Status{};
}

// Collects the tree breadth first into t (the prefab, then its sources
// through `hierarchy` ascending by slot, then theirs, ...).
void collectTree(WorldState& ws, Entity prefab, ComponentTypeId hierarchy, Tree& t) noexcept {
  if (hierarchy == 0) {
    t.single = prefab.id();
    t.slots = &t.single;
    t.n = 1;
    return;
  }
  const RelationRecord& r = ws.relations.relations[ws.relations.relationOf[hierarchy] - 1];
  t.slots = ws.relations.queue.get();
  t.n = 0;
  t.slots[t.n++] = prefab.id();
  // An exclusive relation without cycles makes a tree: every slot is reached once.
  for (std::uint32_t i = 0; i < t.n; ++i) {
    for (std::uint32_t c = r.firstSource[t.slots[i]]; c != detail::kNoSlot; c = r.nextSource[c]) {
      t.slots[t.n++] = c;
    }
  }
}

Status slotBudget(const WorldState& ws, std::uint32_t needed) noexcept {
  return Status::failure(ErrorCode::BudgetExhausted, "entity_budget_exhausted")
      .with("needed", needed)
      .with("entity_count", ws.entities.length())
      .with("capacity", ws.options.capacity);
}

// The value bytes of component `c` of template slot `slot` for its
// instance: the overrides for the root, the template's value otherwise.
const std::uint8_t* templateValue(const EcsState& s, std::uint32_t slot, ComponentTypeId c, bool root,
                                  std::span<const ComponentValue> overrides) noexcept {
  const std::uint8_t* v = detail::valueOfSlot(s, slot, c);
  if (root) {
    for (const ComponentValue& o : overrides) {
      if (o.id == c) v = static_cast<const std::uint8_t*>(o.bytes);
    }
  }
  return v;
}

}  // namespace

Result<ComponentTypeId> registerPrefabs(World& world) noexcept {
  if (!world.isLive()) return Status::failure(ErrorCode::InvalidArgument, "world_moved_from");
  WorldState& ws = detail::RelationAccess::state(world);
  if (ws.ecs.prefabTag != 0) return ws.ecs.prefabTag;
  ComponentTypeId id = world.componentId<Prefab>();
  if (id == kInvalidComponentTypeId) {
    Result<ComponentTypeId> r = world.registerComponent<Prefab>();
    if (!r.ok()) return r;
    id = r.value();
  }
  ws.ecs.prefabTag = id;
  // Query caches tested archetypes before the tag was the tag (an adopted
  // laige::Prefab may be in use): they rebuild.
  ++ws.ecs.structureEpoch;
  return id;
}

ComponentTypeId prefabTag(const World& world) noexcept {
  return world.isLive() ? detail::RelationAccess::state(world).ecs.prefabTag : kInvalidComponentTypeId;
}

bool isPrefab(const World& world, Entity e) noexcept {
  const ComponentTypeId tag = prefabTag(world);
  return tag != 0 && world.hasComponent(e, tag);
}

Status makePrefab(World& world, Entity e) noexcept {
  if (Status st = world.check(e); !st.ok()) return st;
  Result<ComponentTypeId> tag = registerPrefabs(world);
  if (!tag.ok()) return tag.status();
  return world.addComponentBytes(e, tag.value(), nullptr, 0);
}

Result<Entity> createPrefab(World& world) noexcept {
  Result<ComponentTypeId> tag = registerPrefabs(world);
  if (!tag.ok()) return tag.status();
  WorldState& ws = detail::RelationAccess::state(world);
  EcsState& s = ws.ecs;
  const ComponentTypeId id = tag.value();
  // What the tag's add could refuse, checked before the entity exists (a
  // create undone by a destroy would raise the slot's generation).
  if (ws.systems.current != 0 && !detail::systemAllows(ws, id, Access::Read)) {
    return detail::systemIoViolation(ws, id, "add");
  }
  ArchetypeId to = detail::findArchetype(s, &id, 1);
  if (to == kNoArchetype && s.archetypes.size() > kMaxArchetypes) {
    return Status::failure(ErrorCode::BudgetExhausted, "archetype_budget")
        .with("archetype_count", static_cast<std::uint32_t>(s.archetypes.size() - 1))
        .with("max_archetypes", kMaxArchetypes);
  }
  if (to != kNoArchetype && s.guard.active && s.guard.matched.contains(to)) {
    return Status::failure(ErrorCode::InvalidArgument, "iteration_mutation")
        .with("operation", "add")
        .with("archetype_id", to);
  }
  Result<Entity> e = world.create();
  if (!e.ok()) return e;
  if (Status st = world.addComponentBytes(e.value(), id, nullptr, 0); !st.ok()) {
    (void)world.destroy(e.value());  // only an allocation failure gets here
    return st;
  }
  return e;
}

Result<Entity> instantiate(World& world, Entity prefab, const InstantiateOptions& options,
                           std::span<const ComponentValue> overrides) noexcept {
  if (!world.isLive()) return Status::failure(ErrorCode::InvalidArgument, "world_moved_from");
  WorldState& ws = detail::RelationAccess::state(world);
  EcsState& s = ws.ecs;
  const ComponentTypeId hierarchy = options.hierarchy;
  if (ws.ecs.guard.active || ws.systems.current != 0) {
    return Status::failure(ErrorCode::InvalidArgument, "iteration_mutation")
        .with("operation", "instantiate")
        .with("entity_id", prefab.id());
  }
  if (ws.relations.walking != 0) return detail::walkMutation("instantiate");
  if (Status st = checkPrefab(ws, prefab, hierarchy, overrides); !st.ok()) return st;
  Tree t;
  collectTree(ws, prefab, hierarchy, t);
  if (ws.entities.capacity() - ws.entities.length() < t.n) return slotBudget(ws, t.n);

  // Phase 1, nothing visible changes: the instances' archetypes exist (a
  // created archetype is storage, not state) and hold room for their rows.
  // Per template, its instance's archetype goes where its handle will
  // (made[i]: the queue past the tree, 2n <= capacity since the tree is
  // live and n slots are free).
  std::uint32_t singleMade = 0;
  std::uint32_t* const made = t.slots == &t.single ? &singleMade : t.slots + t.n;
  ComponentTypeId sig[kMaxArchetypeComponents];
  ComponentTypeId other[kMaxArchetypeComponents];
  std::uint32_t newFirst[kMaxArchetypes + 1];  // the first template of each new set
  std::uint32_t created = 0;
  // Caches template i's remove edge of the tag (storage only, as a remove
  // would) once its instance archetype is known.
  const auto cacheEdge = [&](std::uint32_t i) {
    const ArchetypeId from = s.archetypeOf[t.slots[i]];
    if (made[i] == kNoArchetype || from == kNoArchetype || s.archetypes[from]->colOf[s.prefabTag] == 0) return;
    if (i == 0 && hierarchy != 0 && s.archetypes[from]->colOf[hierarchy] != 0) return;
    s.archetypes[from]->removeEdge[s.prefabTag] = static_cast<std::uint16_t>(made[i]);
    s.archetypes[made[i]]->addEdge[s.prefabTag] = from;
  };
  for (std::uint32_t i = 0; i < t.n; ++i) {
    made[i] = cachedInstanceArchetype(s, t.slots[i], i == 0, hierarchy);
    if (made[i] != detail::kEdgeUnknown) continue;
    const std::uint32_t n = instanceSignature(s, t.slots[i], i == 0, hierarchy, sig);
    made[i] = n == 0 ? kNoArchetype : detail::findArchetype(s, sig, n);
    cacheEdge(i);
    if (n == 0 || made[i] != kNoArchetype) continue;
    bool seen = false;
    for (std::uint32_t j = 0; j < created && !seen; ++j) {
      const std::uint32_t m = instanceSignature(s, t.slots[newFirst[j]], newFirst[j] == 0, hierarchy, other);
      seen = m == n && std::memcmp(other, sig, n * sizeof(ComponentTypeId)) == 0;
    }
    if (seen) continue;
    if (s.archetypes.size() + created >= kMaxArchetypes + 1) {
      return Status::failure(ErrorCode::BudgetExhausted, "archetype_budget")
          .with("archetype_count", static_cast<std::uint32_t>(s.archetypes.size() - 1))
          .with("max_archetypes", kMaxArchetypes)
          .with("entity_id", prefab.id());
    }
    newFirst[created++] = i;
  }
  for (std::uint32_t j = 0; j < created; ++j) {
    const std::uint32_t n = instanceSignature(s, t.slots[newFirst[j]], newFirst[j] == 0, hierarchy, sig);
    if (detail::createArchetype(s, sig, n) == nullptr) {
      return Status::failure(ErrorCode::BudgetExhausted, "archetype_alloc_failed").with("archetype_id", 0u);
    }
  }
  bool roomy = true;  // every target has room for the whole tree (the usual case)
  for (std::uint32_t i = 0; i < t.n; ++i) {
    if (made[i] == kNoArchetype) {
      const std::uint32_t n = instanceSignature(s, t.slots[i], i == 0, hierarchy, sig);
      if (n != 0) made[i] = detail::findArchetype(s, sig, n);
      cacheEdge(i);
    }
    if (made[i] != kNoArchetype) {
      const Archetype& a = *s.archetypes[made[i]];
      roomy = roomy && a.rowCount + t.n <= a.rowCapacity;
    }
  }
  if (!roomy) {
    std::uint32_t rowsFor[kMaxArchetypes + 1] = {};
    for (std::uint32_t i = 0; i < t.n; ++i) ++rowsFor[made[i]];
    for (std::uint32_t aid = 1; aid < s.archetypes.size(); ++aid) {
      Archetype& a = *s.archetypes[aid];
      if (rowsFor[aid] == 0 || a.rowCount + rowsFor[aid] <= a.rowCapacity) continue;
      if (a.dirty()) detail::normalize(s, a);  // the logical order is unchanged
      if (!detail::reserveArchetypeRows(s, a, a.rowCount + rowsFor[aid])) {
        return Status::failure(ErrorCode::BudgetExhausted, "archetype_alloc_failed").with("archetype_id", a.id);
      }
    }
  }

  // Phase 2, cannot fail: create, append, copy, link. A template's parent
  // is an earlier template (breadth first), and the parents of successive
  // templates come in walk order: one cursor finds them all.
  std::uint32_t rootBits = 0;
  std::uint32_t parent = 0;
  for (std::uint32_t i = 0; i < t.n; ++i) {
    const Entity e = world.create().value();
    const std::uint32_t slot = e.id();
    const ArchetypeId to = static_cast<ArchetypeId>(made[i]);
    made[i] = e.bits();
    if (i == 0) rootBits = e.bits();
    if (to == kNoArchetype) continue;
    Archetype& a = *s.archetypes[to];
    const std::uint32_t row = detail::appendRow(s, a, slot);
    // The instance's columns are a subsequence of the template's (both ascend).
    const Archetype& from = *s.archetypes[s.archetypeOf[t.slots[i]]];
    const std::uint32_t fromRow = s.rowOf[t.slots[i]];
    std::uint32_t j = 0;
    for (std::uint32_t k = 0; k < a.componentCount; ++k) {
      const detail::Column& col = a.cols[k];
      while (from.cols[j].id != col.id) ++j;
      if (col.size == 0) continue;
      std::uint8_t* out = col.data + std::size_t{row} * col.size;
      std::memcpy(out, from.cols[j].data + std::size_t{fromRow} * col.size, col.size);
      if (i == 0 && !overrides.empty()) {
        std::memcpy(out, templateValue(s, t.slots[i], col.id, true, overrides), col.size);
      }
      if (col.id == hierarchy && i != 0) {
        const std::uint32_t parentSlot = Entity::fromBits(detail::relationTargetBits(out)).id();
        while (t.slots[parent] != parentSlot) ++parent;
        std::memcpy(out, &made[parent], 4);
      }
    }
    s.archetypeOf[slot] = a.id;
    s.rowOf[slot] = row;
    s.stats.totalAdds += a.componentCount;
    ws.noteChurn(a.componentCount);
    for (RelationRecord& r : ws.relations.relations) {
      if (a.colOf[r.component] == 0) continue;
      const detail::Column& col = a.cols[a.colOf[r.component] - 1];
      const std::uint8_t* v = col.data + std::size_t{row} * col.size;
      detail::linkSource(r, Entity::fromBits(detail::relationTargetBits(v)).id(), slot);
    }
    if (ws.changes.anyHook) [[unlikely]] {
      for (std::uint32_t k = 0; k < a.componentCount; ++k) {
        detail::onMoveAdd(ws, static_cast<std::uint16_t>(slot), nullptr, a, a.sig[k], row);
      }
    }
  }
  if (ws.changes.queued != 0) [[unlikely]] (void)detail::drainObservers(world);
  return Entity::fromBits(rootBits);
}

Result<Entity> instantiateDeferred(World& world, Entity prefab, const InstantiateOptions& options,
                                   std::span<const ComponentValue> overrides) noexcept {
  if (!world.isLive()) return Status::failure(ErrorCode::InvalidArgument, "world_moved_from");
  WorldState& ws = detail::RelationAccess::state(world);
  EcsState& s = ws.ecs;
  CommandBuffer& cmds = world.commands();
  if (!cmds.recording()) {
    return Status::failure(ErrorCode::InvalidArgument, "command_outside_phase").with("op", "instantiate");
  }
  const ComponentTypeId hierarchy = options.hierarchy;
  if (Status st = checkPrefab(ws, prefab, hierarchy, overrides); !st.ok()) return st;
  if (hierarchy != 0 && ws.relations.walking != 0) return detail::walkMutation("instantiate");
  Tree t;
  collectTree(ws, prefab, hierarchy, t);
  if (ws.entities.capacity() - ws.entities.length() < t.n) return slotBudget(ws, t.n);
  // Every add the recording makes: io (inside a system) and the bytes.
  ComponentTypeId sig[kMaxArchetypeComponents];
  std::size_t bytes = 0;
  for (std::uint32_t i = 0; i < t.n; ++i) {
    const std::uint32_t n = instanceSignature(s, t.slots[i], i == 0, hierarchy, sig);
    for (std::uint32_t k = 0; k < n; ++k) {
      if (ws.systems.current != 0 && !detail::systemAllows(ws, sig[k], Access::Read)) {
        return detail::systemIoViolation(ws, sig[k], "add");
      }
      bytes += sizeof(CommandRecordHeader) + s.components[sig[k] - 1]->size;
    }
  }
  const std::size_t need = cmds.bytesUsed() + bytes;
  const auto have = static_cast<std::size_t>(world.commandStats().bufferBytes);
  if (need > have) {
    if (Status st = cmds.reserve(need > 2 * have ? need : 2 * have); !st.ok()) return st;
  }
  // Creates first (the handles instantiate would give), then the records.
  std::uint32_t* const made = t.slots + t.n;
  std::uint32_t rootBits = 0;
  for (std::uint32_t i = 0; i < t.n; ++i) {
    const Entity e = world.create().value();
    if (t.slots != &t.single) made[i] = e.bits();
    if (i == 0) rootBits = e.bits();
  }
  std::uint8_t value[kMaxComponentSize];
  std::uint32_t parent = 0;
  for (std::uint32_t i = 0; i < t.n; ++i) {
    const Entity e = Entity::fromBits(t.slots != &t.single ? made[i] : rootBits);
    const std::uint32_t n = instanceSignature(s, t.slots[i], i == 0, hierarchy, sig);
    for (std::uint32_t k = 0; k < n; ++k) {
      const std::uint32_t size = s.components[sig[k] - 1]->size;
      if (size != 0) std::memcpy(value, templateValue(s, t.slots[i], sig[k], i == 0, overrides), size);
      if (sig[k] == hierarchy && i != 0) {
        const std::uint32_t parentSlot = Entity::fromBits(detail::relationTargetBits(value)).id();
        while (t.slots[parent] != parentSlot) ++parent;
        std::memcpy(value, &made[parent], 4);
      }
      (void)cmds.addBytes(e, sig[k], value, size);
    }
  }
  return Entity::fromBits(rootBits);
}

}  // namespace laige
