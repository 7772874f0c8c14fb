// archetype.cpp - component access on World (docs/archetype.md): has, get,
// create-or-update add, remove, their untyped forms, the column views and
// the accounting snapshot. The row mechanics are in archetype_storage.cpp.
#include "laige/archetype.h"

#include <algorithm>
#include <cstring>

#include "changes/column_hashes.h"
#include "laige/assert.h"
#include "laige/detail/world_state.h"
#include "laige/logging.h"
#include "laige/world.h"
#include "logging/log_texts.h"
#include "systems/system_access.h"

namespace laige {

namespace {

Status staleMutation(Entity e, [[maybe_unused]] const char* what) noexcept {
  LAIGE_MISUSE(what);
  LAIGE_LOG_WARN("ecs", "stale_entity_access", log::texts::StaleEntityAccess, log::field("entity_id", e.id()),
                 log::field("generation", e.generation()));
  return Status::failure(ErrorCode::InvalidArgument, "stale_entity_access")
      .with("entity_id", e.id())
      .with("generation", e.generation());
}

Status unregistered(Entity e, std::string_view name, ComponentTypeId id) noexcept {
  LAIGE_LOG_WARN("ecs", "component_unregistered", log::texts::ComponentUnregistered,
                 log::field("entity_id", e.id()), log::field("generation", e.generation()),
                 log::field("component", name), log::field("component_id", id));
  return Status::failure(ErrorCode::InvalidArgument, "component_unregistered")
      .with("entity_id", e.id())
      .with("component", name)
      .with("component_id", id);
}

Status allocFailed(ArchetypeId id) noexcept {
  LAIGE_LOG_WARN("ecs", "archetype_alloc_failed", log::texts::ArchetypeAllocFailed, log::field("archetype_id", id));
  return Status::failure(ErrorCode::BudgetExhausted, "archetype_alloc_failed").with("archetype_id", id);
}

Status archetypeBudget(const detail::EcsState& s, Entity e, ComponentTypeId c) noexcept {
  LAIGE_LOG_WARN("ecs", "archetype_budget", log::texts::ArchetypeBudget,
                 log::field("archetype_count", static_cast<std::uint32_t>(s.archetypes.size() - 1)),
                 log::field("entity_id", e.id()), log::field("generation", e.generation()),
                 log::field("component_id", c));
  return Status::failure(ErrorCode::BudgetExhausted, "archetype_budget")
      .with("archetype_count", static_cast<std::uint32_t>(s.archetypes.size() - 1))
      .with("max_archetypes", kMaxArchetypes)
      .with("entity_id", e.id())
      .with("component", s.components[c - 1]->name);
}

// The second pass of copyForAdd / copyForRemove: the columns whose size
// copyRowValue leaves to its caller (other than 0, 4, 8, 12, 16 bytes).
// src column i goes to dst column i below `at`, else i + shift (shift 1: an
// add inserted c's column at `at`; -1: a remove dropped src column `at`).
[[gnu::noinline]] void copyLargeColumns(detail::Archetype& dst, std::uint32_t to,
                                        const detail::Archetype& src, std::uint32_t from,
                                        std::uint32_t at, int shift) noexcept {
  for (std::uint32_t i = 0; i < src.componentCount; ++i) {
    if (shift < 0 && i == at) continue;
    const detail::Column& in = src.cols[i];
    if (in.size <= 16 && in.size % 4 == 0) continue;  // copied by copyRowValue
    const std::uint32_t j = i < at ? i : (shift > 0 ? i + 1 : i - 1);
    std::memcpy(dst.cols[j].data + std::size_t{to} * in.size, in.data + std::size_t{from} * in.size,
                in.size);
  }
}

// The in-place write's checks (inside a system: declared Write; during an
// iteration: guardInPlace). Out of line: only systems and iterations pay.
[[gnu::noinline]] Status checkInPlace(const detail::WorldState& ws, Entity e, ComponentTypeId c,
                                      ArchetypeId at) noexcept {
  if (ws.systems.current != 0 && !detail::systemAllows(ws, c, Access::Write)) {
    return detail::systemIoViolation(ws, c, "write");
  }
  if (ws.ecs.guard.active) return detail::guardInPlace(ws, e, c, at);
  return Status{};
}

// The uniform-size move plan: the n columns at src, all `Size` bytes, to
// the n columns at dst (the caller offsets one side past the inserted or
// dropped column). One row offset per side for every column; no size load,
// dispatch or index test per column.
template <std::uint32_t Size>
[[gnu::always_inline]] inline void copyUniformColumns(const detail::Column* dst, std::size_t toOffset,
                                                      const detail::Column* src, std::size_t fromOffset,
                                                      std::uint32_t n) noexcept {
  for (std::uint32_t i = 0; i < n; ++i) std::memcpy(dst[i].data + toOffset, src[i].data + fromOffset, Size);
}

// The row move of an add: dst = src + {c}. Both signatures ascend, so
// dst's columns are src's with c's column inserted at index `at`: src
// column i goes to dst column i (i < at) or i + 1 (i >= at). Positional, so
// no colOf lookup per column. The column count is read once: the byte
// copies may alias anything, so a read in the loop condition would be
// repeated after every copy. A source whose columns share one size of 4 or
// 8 bytes takes its uniform-size plan (two runs, below and above `at`).
inline void copyForAdd(detail::Archetype& dst, std::uint32_t to, const detail::Archetype& src,
                       std::uint32_t from, std::uint32_t at) noexcept {
  const std::uint32_t count = src.componentCount;
  const std::uint32_t uniform = src.uniformColumnSize;
  if (uniform == 8) {
    copyUniformColumns<8>(dst.cols, std::size_t{to} * 8, src.cols, std::size_t{from} * 8, at);
    copyUniformColumns<8>(dst.cols + at + 1, std::size_t{to} * 8, src.cols + at, std::size_t{from} * 8,
                          count - at);
    return;
  }
  if (uniform == 4) {
    copyUniformColumns<4>(dst.cols, std::size_t{to} * 4, src.cols, std::size_t{from} * 4, at);
    copyUniformColumns<4>(dst.cols + at + 1, std::size_t{to} * 4, src.cols + at, std::size_t{from} * 4,
                          count - at);
    return;
  }
  bool large = false;
  for (std::uint32_t i = 0; i < count; ++i) {
    const detail::Column& in = src.cols[i];
    const std::uint32_t size = in.size;
    large |= !detail::copyRowValue(dst.cols[i + (i >= at ? 1u : 0u)].data + std::size_t{to} * size,
                                   in.data + std::size_t{from} * size, size);
  }
  if (large) [[unlikely]] copyLargeColumns(dst, to, src, from, at, 1);
}

// The row move of a remove: dst = src - {c}, c's column at index `at` of
// src: src column i goes to dst column i (i < at) or i - 1 (i > at). A
// target whose columns share one size of 4 or 8 bytes takes its
// uniform-size plan.
inline void copyForRemove(detail::Archetype& dst, std::uint32_t to, const detail::Archetype& src,
                          std::uint32_t from, std::uint32_t at) noexcept {
  const std::uint32_t count = dst.componentCount;
  const std::uint32_t uniform = dst.uniformColumnSize;
  if (uniform == 8) {
    copyUniformColumns<8>(dst.cols, std::size_t{to} * 8, src.cols, std::size_t{from} * 8, at);
    copyUniformColumns<8>(dst.cols + at, std::size_t{to} * 8, src.cols + at + 1, std::size_t{from} * 8,
                          count - at);
    return;
  }
  if (uniform == 4) {
    copyUniformColumns<4>(dst.cols, std::size_t{to} * 4, src.cols, std::size_t{from} * 4, at);
    copyUniformColumns<4>(dst.cols + at, std::size_t{to} * 4, src.cols + at + 1, std::size_t{from} * 4,
                          count - at);
    return;
  }
  bool large = false;
  for (std::uint32_t j = 0; j < count; ++j) {
    const detail::Column& out = dst.cols[j];
    const std::uint32_t size = out.size;
    large |= !detail::copyRowValue(out.data + std::size_t{to} * size,
                                   src.cols[j + (j >= at ? 1u : 0u)].data + std::size_t{from} * size,
                                   size);
  }
  if (large) [[unlikely]] copyLargeColumns(dst, to, src, from, at, -1);
}

// The move of an add from src (nullptr: no components) to dst = src + {c}
// once every check has passed: append, copy, detach, bookkeeping. Inline:
// the fast path and the cold path share it.
[[gnu::always_inline]] inline Status moveForAdd(detail::WorldState& ws, std::uint16_t slot,
                                                detail::Archetype* src, detail::Archetype& dst,
                                                ComponentTypeId c, const void* bytes) noexcept {
  detail::EcsState& s = ws.ecs;
  // The entity's row in src: appendRow may normalise dst (never src), so
  // it stays valid across the append.
  std::uint32_t* const rowOf = s.rowOf.get();
  const std::uint32_t fromRow = rowOf[slot];
  const std::uint32_t row = detail::appendRow(s, dst, slot);
  if (row == detail::kAppendFailed) [[unlikely]] return allocFailed(dst.id);
  const std::uint32_t at = dst.colOf[c] - 1u;
  if (src != nullptr) copyForAdd(dst, row, *src, fromRow, at);
  const detail::Column& added = dst.cols[at];
  std::uint8_t* const value = added.data + std::size_t{row} * added.size;
  if (!detail::copyRowValue(value, static_cast<const std::uint8_t*>(bytes), added.size)) {
    std::memcpy(value, bytes, added.size);
  }
  // Change ticks and observers (docs/changes.md): before the source row goes.
  if (ws.changes.anyHook) [[unlikely]] detail::onMoveAdd(ws, slot, src, dst, c, row);
  if (src != nullptr) detail::removeRow(*src, fromRow);
  s.archetypeOf[slot] = dst.id;
  rowOf[slot] = row;
  ++s.stats.totalAdds;
  ws.noteChurn(1);
  return Status{};
}

// The move of a remove from src to dst = src - {c} (nullptr: the empty
// set) once every check has passed.
[[gnu::always_inline]] inline Status moveForRemove(detail::WorldState& ws, std::uint16_t slot,
                                                   detail::Archetype& src, detail::Archetype* dst,
                                                   ComponentTypeId c) noexcept {
  detail::EcsState& s = ws.ecs;
  // As in moveForAdd: appendRow may normalise dst, never src.
  std::uint32_t* const rowOf = s.rowOf.get();
  const std::uint32_t fromRow = rowOf[slot];
  std::uint32_t row = 0;
  if (dst != nullptr) {
    row = detail::appendRow(s, *dst, slot);
    if (row == detail::kAppendFailed) [[unlikely]] return allocFailed(dst->id);
    copyForRemove(*dst, row, src, fromRow, src.colOf[c] - 1u);
  }
  // Change ticks, the removed log and observers: before the source row goes.
  if (ws.changes.anyHook) [[unlikely]] detail::onMoveRemove(ws, slot, src, dst, c, fromRow, row);
  detail::removeRow(src, fromRow);
  s.archetypeOf[slot] = dst != nullptr ? dst->id : kNoArchetype;
  rowOf[slot] = row;
  ++s.stats.totalRemoves;
  ws.noteChurn(1);
  return Status{};
}

// A structural add whose edge is not cached yet, or while an iteration is
// live: the edge search (never a creation before the guard and the limits
// have passed), the guard, the component limit, the archetype budget and a
// creation. Out of line and cold, so that the cached-edge path keeps a
// small frame (the signature buffer lives here).
[[gnu::noinline]] Status addSlow(detail::WorldState& ws, Entity e, ComponentTypeId c,
                                 const void* bytes) noexcept {
  detail::EcsState& s = ws.ecs;
  const std::uint16_t slot = e.id();
  const ArchetypeId from = s.archetypeOf[slot];
  detail::Archetype* src = from != kNoArchetype ? s.archetypes[from].get() : nullptr;
  std::uint16_t& edge = src != nullptr ? src->addEdge[c] : s.rootEdge[c];
  ComponentTypeId sig[kMaxArchetypeComponents];
  std::uint32_t n = 0;
  bool overLimit = false;
  ArchetypeId to = kNoArchetype;
  if (edge != detail::kEdgeUnknown) {
    to = edge;
  } else {
    const std::uint32_t have = src != nullptr ? src->componentCount : 0;
    if (have >= kMaxArchetypeComponents) {
      overLimit = true;
    } else {
      std::uint32_t i = 0;
      while (i < have && src->sig[i] < c) sig[n++] = src->sig[i++];
      sig[n++] = c;
      while (i < have) sig[n++] = src->sig[i++];
      to = detail::findArchetype(s, sig, n);
      if (to != kNoArchetype) {
        edge = to;
        s.archetypes[to]->removeEdge[c] = from;
      }
    }
  }
  if (s.guard.active) {
    if (const Status g = detail::guardMove(ws, e, c, from, to); !g.ok()) return g;
  }
  if (overLimit) {
    LAIGE_LOG_WARN("ecs", "component_limit", log::texts::ComponentLimit, log::field("entity_id", e.id()),
                   log::field("generation", e.generation()), log::field("component_id", c),
                   log::field("components", src->componentCount));
    return Status::failure(ErrorCode::BudgetExhausted, "component_limit")
        .with("entity_id", e.id())
        .with("component", s.components[c - 1]->name)
        .with("components", src->componentCount)
        .with("max_components", kMaxArchetypeComponents);
  }
  detail::Archetype* dst = nullptr;
  if (to == kNoArchetype) {
    if (s.archetypes.size() > kMaxArchetypes) return archetypeBudget(s, e, c);
    dst = detail::createArchetype(s, sig, n);
    if (dst == nullptr) return allocFailed(kNoArchetype);
    edge = dst->id;  // `edge` refers into src or the root table: neither moved
    dst->removeEdge[c] = from;
  } else {
    dst = s.archetypes[to].get();
  }
  return moveForAdd(ws, slot, src, *dst, c, bytes);
}

// A structural remove whose edge is not cached yet, or while an iteration
// is live (as addSlow).
[[gnu::noinline]] Status removeSlow(detail::WorldState& ws, Entity e, ComponentTypeId c) noexcept {
  detail::EcsState& s = ws.ecs;
  const std::uint16_t slot = e.id();
  const ArchetypeId from = s.archetypeOf[slot];
  detail::Archetype* src = s.archetypes[from].get();
  ComponentTypeId sig[kMaxArchetypeComponents];
  std::uint32_t n = 0;
  bool create = false;
  ArchetypeId to = src->removeEdge[c];
  if (to == detail::kEdgeUnknown) {
    for (std::uint32_t i = 0; i < src->componentCount; ++i) {
      if (src->sig[i] != c) sig[n++] = src->sig[i];
    }
    to = n == 0 ? kNoArchetype : detail::findArchetype(s, sig, n);
    create = n != 0 && to == kNoArchetype;
    if (!create) {
      src->removeEdge[c] = to;
      if (to != kNoArchetype) s.archetypes[to]->addEdge[c] = from;
    }
  }
  if (s.guard.active) {
    if (const Status g = detail::guardMove(ws, e, c, from, to); !g.ok()) return g;
  }
  detail::Archetype* dst = nullptr;
  if (create) {
    if (s.archetypes.size() > kMaxArchetypes) return archetypeBudget(s, e, c);
    dst = detail::createArchetype(s, sig, n);
    if (dst == nullptr) return allocFailed(kNoArchetype);
    src->removeEdge[c] = dst->id;
    dst->addEdge[c] = from;
  } else if (to != kNoArchetype) {
    dst = s.archetypes[to].get();
  }
  return moveForRemove(ws, slot, *src, dst, c);
}

}  // namespace

void* World::getTyped(Entity e, std::uint32_t typeIndex, bool warnStale) const noexcept {
  if (!s_ || !s_->entities.isAlive(e)) {
    if (warnStale) {
      LAIGE_LOG_WARN("ecs", "stale_entity_access", log::texts::StaleEntityAccess,
                     log::field("entity_id", e.id()), log::field("generation", e.generation()));
    }
    return nullptr;
  }
  const detail::EcsState& s = s_->ecs;
  const ComponentTypeId c = typeIndex < s.typeToId.size() ? s.typeToId[typeIndex] : 0;
  const ArchetypeId aid = s.archetypeOf[e.id()];
  if (c == kInvalidComponentTypeId || aid == kNoArchetype) return nullptr;
  const detail::Archetype& a = *s.archetypes[aid];
  const std::uint8_t col = a.colOf[c];
  if (col == 0) return nullptr;
  const detail::Column& column = a.cols[col - 1];
  return column.data + std::size_t{s.rowOf[e.id()]} * column.size;
}

bool World::hasComponent(Entity e, ComponentTypeId id) const noexcept {
  if (!s_ || !s_->entities.isAlive(e) || id == 0 || id > kMaxComponentTypes) return false;
  const ArchetypeId aid = s_->ecs.archetypeOf[e.id()];
  return aid != kNoArchetype && s_->ecs.archetypes[aid]->colOf[id] != 0;
}

void* World::getBytes(Entity e, ComponentTypeId id) noexcept {
  // Get for writing: inside a system the component must be declared Write.
  if (s_ && s_->systems.current != 0 && id != 0 && id <= s_->ecs.components.size() &&
      !detail::systemAllows(*s_, id, Access::Write)) {
    (void)detail::systemIoViolation(*s_, id, "write");
    return nullptr;
  }
  void* p = const_cast<void*>(static_cast<const World*>(this)->getBytes(e, id));
  if (p == nullptr) return p;
  // A Write ref: the column's cached hash goes (docs/determinism.md#the-column-checksum).
  detail::forgetColumnHashOutOfLine(s_->ecs, e.id(), id);
  if (s_->changes.anyTracked) [[unlikely]] detail::onWriteRef(*s_, id, e.id());
  return p;
}

void* World::getTypedForWrite(Entity e, std::uint32_t typeIndex) noexcept {
  if (s_ && s_->systems.current != 0) {
    const auto& table = s_->ecs.typeToId;
    const ComponentTypeId c = typeIndex < table.size() ? table[typeIndex] : kInvalidComponentTypeId;
    if (c != kInvalidComponentTypeId && !detail::systemAllows(*s_, c, Access::Write)) {
      (void)detail::systemIoViolation(*s_, c, "write");
      return nullptr;
    }
  }
  void* p = getTyped(e, typeIndex, true);
  if (p == nullptr) return p;
  // A Write ref forgets the column's cached hash and marks a tracked
  // component changed (docs/changes.md#ticks).
  detail::forgetColumnHashOutOfLine(s_->ecs, e.id(), s_->ecs.typeToId[typeIndex]);
  if (s_->changes.anyTracked) [[unlikely]] detail::onWriteRef(*s_, s_->ecs.typeToId[typeIndex], e.id());
  return p;
}

const void* World::getBytes(Entity e, ComponentTypeId id) const noexcept {
  if (!s_ || !s_->entities.isAlive(e)) {
    LAIGE_LOG_WARN("ecs", "stale_entity_access", log::texts::StaleEntityAccess, log::field("entity_id", e.id()),
                   log::field("generation", e.generation()));
    return nullptr;
  }
  if (id == 0 || id > kMaxComponentTypes) return nullptr;
  const detail::EcsState& s = s_->ecs;
  const ArchetypeId aid = s.archetypeOf[e.id()];
  if (aid == kNoArchetype) return nullptr;
  const detail::Archetype& a = *s.archetypes[aid];
  if (a.colOf[id] == 0) return nullptr;
  const detail::Column& column = a.cols[a.colOf[id] - 1];
  return column.data + std::size_t{s.rowOf[e.id()]} * column.size;
}

Status World::addTyped(Entity e, std::uint32_t typeIndex, std::string_view name,
                       const void* bytes) noexcept {
  if (!s_ || !s_->entities.isAlive(e)) {
    return staleMutation(e, "World::addComponent on a stale or invalid entity handle");
  }
  const auto& table = s_->ecs.typeToId;
  const ComponentTypeId c = typeIndex < table.size() ? table[typeIndex] : kInvalidComponentTypeId;
  if (c == kInvalidComponentTypeId) return unregistered(e, name, 0);
  // A relation or an observed component takes the hooked path; the plain
  // one returns its Status straight.
  if ((s_->relations.relationOf[c] | s_->changes.observedEvents[c]) != 0) [[unlikely]] return addHooked(e, c, bytes);
  return addById(e, c, bytes);
}

Status World::addComponentBytes(Entity e, ComponentTypeId id, const void* bytes,
                                std::uint32_t size) noexcept {
  if (!s_ || !s_->entities.isAlive(e)) {
    return staleMutation(e, "World::addComponentBytes on a stale or invalid entity handle");
  }
  if (id == 0 || id > s_->ecs.components.size()) return unregistered(e, {}, id);
  const std::uint32_t expected = s_->ecs.components[id - 1]->size;
  if (size != expected || (bytes == nullptr && size != 0)) {
    LAIGE_LOG_WARN("ecs", "component_size_mismatch", log::texts::ComponentSizeMismatch, log::field("entity_id", e.id()),
                   log::field("generation", e.generation()), log::field("component_id", id),
                   log::field("size", size), log::field("expected_size", expected));
    return Status::failure(ErrorCode::InvalidArgument, "component_size_mismatch")
        .with("component", s_->ecs.components[id - 1]->name)
        .with("component_id", id)
        .with("size", size)
        .with("expected_size", expected);
  }
  // A relation or an observed component takes the hooked path; the plain
  // one returns its Status straight.
  if ((s_->relations.relationOf[id] | s_->changes.observedEvents[id]) != 0) [[unlikely]] return addHooked(e, id, bytes);
  return addById(e, id, bytes);
}

// Inline into its two callers (this file only): the per-call frame and the
// reloads of s_ are a measurable share of a wasm add.
[[gnu::always_inline]] inline Status World::addById(Entity e, ComponentTypeId c,
                                                   const void* bytes) noexcept {
  detail::WorldState& ws = *s_;
  detail::EcsState& s = ws.ecs;
  const std::uint16_t slot = e.id();
  const ArchetypeId from = s.archetypeOf[slot];
  detail::Archetype* src = from != kNoArchetype ? s.archetypes[from].get() : nullptr;
  if (src != nullptr && src->colOf[c] != 0) {
    // Create-or-update, the update half: an in-place overwrite, a value
    // write (inside a system: declared Write; during an iteration: not a
    // Read-declared component). The checks are the cold half.
    if (ws.systems.current != 0 || s.guard.active) [[unlikely]] {
      if (const Status g = checkInPlace(ws, e, c, from); !g.ok()) return g;
    }
    detail::Column& col = src->cols[src->colOf[c] - 1];
    detail::copyValue(col.data + std::size_t{s.rowOf[slot]} * col.size, bytes, col.size);
    detail::forgetColumnCaches(*src, src->colOf[c] - 1u);
    if (detail::hooked(ws.changes, c)) [[unlikely]] detail::onOverwrite(ws, e, c, *src);
    ++s.stats.totalAdds;
    ws.noteChurn(1);
    return Status{};
  }
  // A structural add (inside a system: c declared, Read is enough).
  if (const Status a = detail::checkStructural(ws, c, "add"); !a.ok()) [[unlikely]] return a;
  // A move to set + {c} along the cached edge; the first move along an
  // edge and every move during a live iteration take the cold path.
  const std::uint16_t edge = src != nullptr ? src->addEdge[c] : s.rootEdge[c];
  if (edge == detail::kEdgeUnknown || s.guard.active) [[unlikely]] return addSlow(ws, e, c, bytes);
  return moveForAdd(ws, slot, src, *s.archetypes[edge], c, bytes);
}

Status World::removeTyped(Entity e, std::uint32_t typeIndex, std::string_view name) noexcept {
  if (!s_ || !s_->entities.isAlive(e)) {
    return staleMutation(e, "World::removeComponent on a stale or invalid entity handle");
  }
  const auto& table = s_->ecs.typeToId;
  const ComponentTypeId c = typeIndex < table.size() ? table[typeIndex] : kInvalidComponentTypeId;
  if (c == kInvalidComponentTypeId) return unregistered(e, name, 0);
  // A relation or an observed component takes the hooked path; the plain
  // one returns its Status straight.
  if ((s_->relations.relationOf[c] | s_->changes.observedEvents[c]) != 0) [[unlikely]] return removeHooked(e, c);
  return removeByIdImpl(e, c);
}

Status World::removeComponentById(Entity e, ComponentTypeId id) noexcept {
  if (!s_ || !s_->entities.isAlive(e)) {
    return staleMutation(e, "World::removeComponentById on a stale or invalid entity handle");
  }
  if (id == 0 || id > s_->ecs.components.size()) return unregistered(e, {}, id);
  // A relation or an observed component takes the hooked path; the plain
  // one returns its Status straight.
  if ((s_->relations.relationOf[id] | s_->changes.observedEvents[id]) != 0) [[unlikely]] return removeHooked(e, id);
  return removeByIdImpl(e, id);
}

[[gnu::always_inline]] inline Status World::removeByIdImpl(Entity e, ComponentTypeId c) noexcept {
  detail::WorldState& ws = *s_;
  detail::EcsState& s = ws.ecs;
  const std::uint16_t slot = e.id();
  // Inside a system the component must be declared (even when e lacks it:
  // the call names it).
  if (const Status a = detail::checkStructural(ws, c, "remove"); !a.ok()) [[unlikely]] return a;
  const ArchetypeId from = s.archetypeOf[slot];
  if (from == kNoArchetype) return Status{};
  detail::Archetype& src = *s.archetypes[from];
  if (src.colOf[c] == 0) return Status{};  // absent: a no-op, not churn
  // A move to set - {c} along the cached edge (kNoArchetype: the empty set);
  // the first move along an edge and every move during a live iteration
  // take the cold path.
  const std::uint16_t to = src.removeEdge[c];
  if (to == detail::kEdgeUnknown || s.guard.active) [[unlikely]] return removeSlow(ws, e, c);
  return moveForRemove(ws, slot, src, to != kNoArchetype ? s.archetypes[to].get() : nullptr, c);
}

Status World::addHooked(Entity e, ComponentTypeId id, const void* bytes) noexcept {
  const Status st = s_->relations.relationOf[id] != 0 ? s_->relations.hooks->add(*this, e, id, bytes) : addByIdOutOfLine(e, id, bytes);
  if (s_->changes.queued != 0) [[unlikely]] (void)detail::drainObservers(*this);
  return st;
}

Status World::removeHooked(Entity e, ComponentTypeId id) noexcept {
  const Status st = s_->relations.relationOf[id] != 0 ? s_->relations.hooks->remove(*this, e, id) : removeByIdOutOfLine(e, id);
  if (s_->changes.queued != 0) [[unlikely]] (void)detail::drainObservers(*this);
  return st;
}

// The relation hooks' add and remove (relations/relations.cpp): the checks
// and the in-place overwrite of addById / removeByIdImpl, and every move
// through addSlow / removeSlow (which the inline paths take on a new edge
// and during an iteration; on a cached edge they move the same way), so a
// module that links relations or observers carries no third copy of the
// moves (addHooked / removeHooked take them too).
Status World::addByIdOutOfLine(Entity e, ComponentTypeId c, const void* bytes) noexcept {
  detail::WorldState& ws = *s_;
  detail::EcsState& s = ws.ecs;
  const ArchetypeId from = s.archetypeOf[e.id()];
  detail::Archetype* src = from != kNoArchetype ? s.archetypes[from].get() : nullptr;
  if (src != nullptr && src->colOf[c] != 0) {
    if (ws.systems.current != 0 || s.guard.active) {
      if (const Status g = checkInPlace(ws, e, c, from); !g.ok()) return g;
    }
    detail::Column& col = src->cols[src->colOf[c] - 1];
    detail::copyValue(col.data + std::size_t{s.rowOf[e.id()]} * col.size, bytes, col.size);
    detail::forgetColumnCaches(*src, src->colOf[c] - 1u);
    if (detail::hooked(ws.changes, c)) detail::onOverwrite(ws, e, c, *src);
    ++s.stats.totalAdds;
    ws.noteChurn(1);
    return Status{};
  }
  if (const Status a = detail::checkStructural(ws, c, "add"); !a.ok()) return a;
  return addSlow(ws, e, c, bytes);
}

Status World::removeByIdOutOfLine(Entity e, ComponentTypeId c) noexcept {
  detail::WorldState& ws = *s_;
  detail::EcsState& s = ws.ecs;
  if (const Status a = detail::checkStructural(ws, c, "remove"); !a.ok()) return a;
  const ArchetypeId from = s.archetypeOf[e.id()];
  if (from == kNoArchetype || s.archetypes[from]->colOf[c] == 0) return Status{};
  return removeSlow(ws, e, c);
}

ArchetypeId World::archetypeOf(Entity e) const noexcept {
  if (!s_ || !s_->entities.isAlive(e)) return kNoArchetype;
  return s_->ecs.archetypeOf[e.id()];
}

std::uint32_t World::archetypeCount() const noexcept {
  return s_ ? static_cast<std::uint32_t>(s_->ecs.archetypes.size() - 1) : 0;
}

ArchetypeStats World::archetypeStats() const noexcept {
  ArchetypeStats st;
  if (!s_) return st;
  const detail::EcsState& s = s_->ecs;
  st = s.stats;
  st.archetypeCount = static_cast<std::uint32_t>(s.archetypes.size() - 1);
  st.rowsLive = 0;
  st.rowsReserved = 0;
  st.bytesReserved = 0;
  for (std::size_t i = 1; i < s.archetypes.size(); ++i) {
    const detail::Archetype& a = *s.archetypes[i];
    st.rowsLive += a.liveRows();
    st.rowsReserved += a.rowCapacity;
    st.bytesReserved += std::uint64_t{a.rowCapacity} * (a.rowBytes + sizeof(std::uint32_t));
  }
  st.bytesScratch = std::uint64_t{s.scratchRows} * 3 * sizeof(std::uint32_t) + s.scratchByteCount;
  return st;
}

std::span<const ComponentTypeId> World::archetypeComponents(ArchetypeId id) const noexcept {
  if (!s_ || id == kNoArchetype || id >= s_->ecs.archetypes.size()) return {};
  const detail::Archetype& a = *s_->ecs.archetypes[id];
  return std::span<const ComponentTypeId>(a.sig, a.componentCount);
}

std::uint32_t World::archetypeRowCount(ArchetypeId id) noexcept {
  if (!s_ || id == kNoArchetype || id >= s_->ecs.archetypes.size()) return 0;
  detail::Archetype& a = *s_->ecs.archetypes[id];
  detail::normalize(s_->ecs, a);
  return a.rowCount;
}

std::uint8_t* World::archetypeColumn(ArchetypeId id, ComponentTypeId c) noexcept {
  if (!s_ || id == kNoArchetype || id >= s_->ecs.archetypes.size() || c == 0 || c > kMaxComponentTypes) {
    return nullptr;
  }
  detail::Archetype& a = *s_->ecs.archetypes[id];
  if (a.colOf[c] == 0) return nullptr;
  detail::normalize(s_->ecs, a);
  return a.cols[a.colOf[c] - 1].data;
}

const std::uint32_t* World::archetypeSlots(ArchetypeId id) noexcept {
  if (!s_ || id == kNoArchetype || id >= s_->ecs.archetypes.size()) return nullptr;
  detail::Archetype& a = *s_->ecs.archetypes[id];
  detail::normalize(s_->ecs, a);
  return a.slots;
}

}  // namespace laige
