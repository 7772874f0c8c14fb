// slot_tables.cpp - the per-slot tables (archetype, row) and the column base
// pointer places, read directly by the TypeScript field handles (web/src/
// slot_tables.ts) so that one field of one entity costs no wasm call.
#include "laige/detail/world_state.h"
#include "laige/world.h"

namespace laige {

const ArchetypeId* World::archetypeTable() const noexcept { return s_ ? s_->ecs.archetypeOf.get() : nullptr; }

const std::uint32_t* World::rowTable() const noexcept { return s_ ? s_->ecs.rowOf.get() : nullptr; }

std::uint8_t* const* World::columnDataRef(ArchetypeId a, ComponentTypeId c) const noexcept {
  if (!s_ || a == kNoArchetype || a >= s_->ecs.archetypes.size() || c == 0 || c > kMaxComponentTypes) return nullptr;
  const detail::Archetype& arch = *s_->ecs.archetypes[a];
  const std::uint8_t col = arch.colOf[c];
  return col == 0 ? nullptr : &arch.cols[col - 1].data;
}

}  // namespace laige
