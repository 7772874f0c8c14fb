// query.cpp - the iteration guard (docs/query.md, "Iteration legality"): begin
// and end, the matched-archetype scan, and the checks every mutating World
// call runs while an each is live. The per-entity loop is the header-
// defined World::each (detail/world_ecs_inl.h).
#include "laige/query.h"

#include <bit>

#include "laige/assert.h"
#include "laige/detail/world_state.h"
#include "laige/logging.h"
#include "laige/world.h"
#include "logging/log_texts.h"
#include "systems/system_access.h"

namespace laige {

namespace detail {

Status guardDestroy(const WorldState& s, Entity e) noexcept {
  const IterationGuard& g = s.ecs.guard;
  if (!g.active) return Status{};
  const ArchetypeId aid = s.ecs.archetypeOf[e.id()];
  if (!g.matched.contains(aid)) return Status{};
  LAIGE_MISUSE("World::destroy of an entity whose archetype the live each is walking");
  LAIGE_LOG_WARN("ecs", "iteration_mutation", log::texts::IterationMutation, log::field("entity_id", e.id()),
                 log::field("generation", e.generation()), log::field("operation", "destroy"),
                 log::field("archetype_id", aid),
                 log::field("rows", s.ecs.archetypes[aid]->liveRows()));
  return Status::failure(ErrorCode::InvalidArgument, "iteration_mutation")
      .with("operation", "destroy")
      .with("entity_id", e.id())
      .with("archetype_id", aid)
      .with("rows", s.ecs.archetypes[aid]->liveRows());
}

ArchetypeId nthMember(const IdSet256& set, std::uint32_t index) noexcept {
  for (std::uint32_t word = 0; word < 4; ++word) {
    std::uint64_t bits = set.words[word];
    const auto n = static_cast<std::uint32_t>(std::popcount(bits));
    if (index >= n) {
      index -= n;
      continue;
    }
    for (; index != 0; --index) bits &= bits - 1;
    return static_cast<ArchetypeId>(word * 64 + static_cast<std::uint32_t>(std::countr_zero(bits)) + 1);
  }
  return kNoArchetype;
}

Status nestedIteration(const WorldState& s) noexcept {
  LAIGE_MISUSE("nested World::each (or beginIteration) while an iteration is live");
  LAIGE_LOG_WARN("ecs", "iteration_nested", log::texts::IterationNested, log::field("entity_id", 0u),
                 log::field("generation", 0u), log::field("archetype_count", s.ecs.guard.matchedCount));
  return Status::failure(ErrorCode::InvalidArgument, "iteration_nested")
      .with("archetype_count", s.ecs.guard.matchedCount);
}

Status guardClear(const WorldState& s) noexcept {
  const IterationGuard& g = s.ecs.guard;
  if (!g.active) return Status{};
  for (std::uint32_t k = 0; k < g.matchedCount; ++k) {
    const Archetype& a = *s.ecs.archetypes[nthMember(g.matched, k)];
    if (a.liveRows() == 0) continue;
    // Matched archetypes were normalised at begin and cannot change while
    // the guard is live: row 0 holds the lowest slot.
    const auto slot = static_cast<std::uint16_t>(a.slots[0]);
    const Entity first = s.entities.handleOf(slot);
    LAIGE_MISUSE("World::clear while the live each walks an archetype with live rows");
    LAIGE_LOG_WARN("ecs", "iteration_clear", log::texts::IterationClear, log::field("entity_id", first.id()),
                   log::field("generation", first.generation()), log::field("archetype_id", a.id),
                   log::field("rows", a.liveRows()));
    return Status::failure(ErrorCode::InvalidArgument, "iteration_clear")
        .with("entity_id", first.id())
        .with("archetype_id", a.id)
        .with("rows", a.liveRows());
  }
  return Status{};
}

Status guardInPlace(const WorldState& s, Entity e, ComponentTypeId c, ArchetypeId at) noexcept {
  if (!s.ecs.guard.read.contains(c)) return Status{};
  LAIGE_MISUSE("in-place write of a component the live each declared Read");
  LAIGE_LOG_WARN("ecs", "iteration_write_during_read", log::texts::IterationWriteDuringRead, log::field("entity_id", e.id()),
                 log::field("generation", e.generation()), log::field("component_id", c),
                 log::field("archetype_id", at));
  return Status::failure(ErrorCode::InvalidArgument, "iteration_write_during_read")
      .with("entity_id", e.id())
      .with("component", s.ecs.components[c - 1]->name)
      .with("component_id", c)
      .with("archetype_id", at);
}

Status guardMove(const WorldState& s, Entity e, ComponentTypeId c, ArchetypeId from,
                 ArchetypeId to) noexcept {
  const IterationGuard& g = s.ecs.guard;
  const bool fromMatched = g.matched.contains(from);
  if (!fromMatched && !g.matched.contains(to)) return Status{};
  const ArchetypeId hit = fromMatched ? from : to;
  const bool removing = from != kNoArchetype && s.ecs.archetypes[from]->colOf[c] != 0;
  LAIGE_MISUSE("structural change of an archetype the live each is walking");
  LAIGE_LOG_WARN("ecs", "iteration_mutation", log::texts::IterationMutation, log::field("entity_id", e.id()),
                 log::field("generation", e.generation()),
                 log::field("operation", removing ? "remove" : "add"), log::field("component_id", c),
                 log::field("source_archetype", from), log::field("target_archetype", to),
                 log::field("archetype_id", hit),
                 log::field("rows", s.ecs.archetypes[hit]->liveRows()));
  return Status::failure(ErrorCode::InvalidArgument, "iteration_mutation")
      .with("operation", removing ? "remove" : "add")
      .with("entity_id", e.id())
      .with("component", s.ecs.components[c - 1]->name)
      .with("archetype_id", hit);
}

}  // namespace detail

Status World::beginIteration(std::span<const ComponentTypeId> ids,
                             std::span<const Access> access) noexcept {
  return beginIteration(ids, access, {});
}

Status World::beginIteration(std::span<const ComponentTypeId> ids, std::span<const Access> access,
                             std::span<const ComponentTypeId> without) noexcept {
  if (!s_) return Status{};  // a moved-from world is empty: nothing to walk, nothing to guard
  detail::EcsState& s = s_->ecs;
  detail::IterationGuard& g = s.guard;
  if (g.active) return detail::nestedIteration(*s_);
  const char* reason = nullptr;
  if (ids.size() != access.size()) reason = "length_mismatch";
  else if (ids.size() > kMaxArchetypeComponents) reason = "too_many_components";
  for (std::size_t i = 0; reason == nullptr && i < ids.size(); ++i) {
    if (access[i] != Access::Read && access[i] != Access::Write) reason = "access_invalid";
    for (std::size_t j = 0; reason == nullptr && j < i; ++j) {
      if (ids[j] == ids[i] && ids[i] != kInvalidComponentTypeId) reason = "component_repeated";
    }
  }
  if (reason == nullptr && without.size() > kMaxArchetypeComponents) reason = "too_many_components";
  for (std::size_t i = 0; reason == nullptr && i < without.size(); ++i) {
    for (std::size_t j = 0; reason == nullptr && j < ids.size(); ++j) {
      if (ids[j] == without[i] && without[i] != kInvalidComponentTypeId) reason = "component_repeated";
    }
  }
  if (reason != nullptr) {
    LAIGE_LOG_WARN("ecs", "iteration_invalid", log::texts::IterationInvalid, log::field("reason", reason),
                   log::field("count", static_cast<std::uint32_t>(ids.size())));
    return Status::failure(ErrorCode::InvalidArgument, "iteration_invalid")
        .with("reason", reason)
        .with("count", static_cast<std::uint32_t>(ids.size()));
  }
  bool unregistered = false;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (ids[i] == kInvalidComponentTypeId || ids[i] > s.components.size()) unregistered = true;
  }
  // Inside a running system every listed component must be declared, and a
  // Write access needs it declared Write (docs/query.md#system-access).
  if (s_->systems.current != 0) {
    for (std::size_t i = 0; i < ids.size(); ++i) {
      if (ids[i] == kInvalidComponentTypeId || ids[i] > s.components.size()) continue;  // touches nothing
      if (!detail::systemAllows(*s_, ids[i], access[i])) {
        return detail::systemIoViolation(*s_, ids[i], access[i] == Access::Write ? "write" : "read");
      }
    }
    for (const ComponentTypeId c : without) {
      if (c == kInvalidComponentTypeId || c > s.components.size()) continue;
      if (!detail::systemAllows(*s_, c, Access::Read)) return detail::systemIoViolation(*s_, c, "read");
    }
  }
  s_->beginIterationSerial();
  g.matched.reset();
  g.read.reset();
  g.matchedCount = 0;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (access[i] == Access::Read) g.read.insert(ids[i]);
  }
  // An unregistered listed type matches nothing, and the empty query
  // matches no archetype (it walks slots): both leave the matched set empty.
  if (!unregistered && !ids.empty()) {
    for (std::size_t aid = 1; aid < s.archetypes.size(); ++aid) {
      detail::Archetype& a = *s.archetypes[aid];
      bool all = true;
      for (const ComponentTypeId c : ids) all = all && a.colOf[c] != 0;
      for (const ComponentTypeId c : without) all = all && (c > kMaxComponentTypes || a.colOf[c] == 0);
      if (!all) continue;
      if (a.dirty()) detail::normalize(s, a);  // the ordered read: slot order restored here
      // A Write access may change the column: its cached hash goes (tracked or not).
      for (std::size_t i = 0; i < ids.size(); ++i) {
        if (access[i] == Access::Write) detail::forgetColumnCaches(a, a.colOf[ids[i]] - 1u);
      }
      g.matched.insert(a.id);
      ++g.matchedCount;
    }
  }
  // A Write access marks every row it walks (docs/changes.md#ticks).
  if (s_->changes.anyTracked) [[unlikely]] {
    bool writes[kMaxArchetypeComponents] = {};
    for (std::size_t i = 0; i < ids.size(); ++i) writes[i] = access[i] == Access::Write;
    detail::markWalkWrites(*s_, g.matched, ids.data(), writes, static_cast<std::uint32_t>(ids.size()));
  }
  g.active = true;
  return Status{};
}

void World::endIteration() noexcept {
  if (!s_) return;
  detail::IterationGuard& g = s_->ecs.guard;
  const bool wasActive = g.active;
  g.active = false;
  g.matched.reset();
  g.read.reset();
  g.matchedCount = 0;
  // A top-level each (no system runs, no defer is open) is a command
  // phase of its own: what it recorded applies now (docs/commands.md#phases).
  if (wasActive && s_->commands.pending() != 0 && s_->systems.current == 0 && s_->deferDepth == 0) {
    applyCommands();
  }
  if (wasActive && s_->changes.queued != 0) [[unlikely]] (void)detail::drainObservers(*this);
}

bool World::isIterating() const noexcept { return s_ && s_->ecs.guard.active; }

std::uint32_t World::iterationArchetypeCount() const noexcept {
  return s_ && s_->ecs.guard.active ? s_->ecs.guard.matchedCount : 0;
}

ArchetypeId World::iterationArchetype(std::uint32_t index) const noexcept {
  if (!s_ || !s_->ecs.guard.active || index >= s_->ecs.guard.matchedCount) return kNoArchetype;
  return detail::nthMember(s_->ecs.guard.matched, index);
}

std::uint32_t World::iterationCursorTable(std::span<const ComponentTypeId> ids, std::uintptr_t* out,
                                          std::uint32_t max) const noexcept {
  if (!s_ || !s_->ecs.guard.active) return 0;
  const detail::EcsState& s = s_->ecs;
  const detail::IterationGuard& g = s.guard;
  const std::size_t stride = 3 + ids.size();
  std::uint32_t k = 0;
  for (std::uint32_t word = 0; word < 4; ++word) {
    std::uint64_t bits = g.matched.words[word];
    while (bits != 0 && k < max) {
      const std::uint32_t aid = word * 64 + static_cast<std::uint32_t>(std::countr_zero(bits)) + 1;
      bits &= bits - 1;
      const detail::Archetype& a = *s.archetypes[aid];
      std::uintptr_t* row = out + k * stride;
      row[0] = aid;
      row[1] = a.rowCount;
      row[2] = reinterpret_cast<std::uintptr_t>(a.slots);
      for (std::size_t i = 0; i < ids.size(); ++i) {
        const ComponentTypeId c = ids[i];
        const std::uint32_t col = c == 0 || c > kMaxComponentTypes ? 0u : a.colOf[c];
        row[3 + i] = col == 0 ? 0u : reinterpret_cast<std::uintptr_t>(a.cols[col - 1].data);
      }
      ++k;
    }
  }
  return g.matchedCount;
}

detail::SlotView World::slotView() const noexcept {
  detail::SlotView v;
  if (!s_) return v;
  v.generations = s_->entities.generations();
  v.living = s_->entities.livingFlags();
  v.highWater = s_->entities.highWater();
  v.bornIn = s_->bornIn.get();
  v.serial = s_->iterationSerial;
  return v;
}

}  // namespace laige
