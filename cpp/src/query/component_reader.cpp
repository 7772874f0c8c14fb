// component_reader.cpp - World::reader's table fill and the stale-reader
// path of ComponentReader<T> (laige/component_reader.h).
#include "laige/component_reader.h"

#include "laige/assert.h"
#include "laige/detail/world_state.h"
#include "laige/logging.h"
#include "laige/world.h"
#include "logging/log_texts.h"

namespace laige {

namespace detail {

std::uint8_t* const kReaderUnknownArchetype[1] = {nullptr};

const void* staleReader(const ReaderTables& t) noexcept {
  LAIGE_MISUSE("ComponentReader::get on a stale reader (an archetype was created or a restore ran since World::reader)");
  LAIGE_LOG_WARN("ecs", "stale_reader", log::texts::StaleReader, log::field("epoch", t.epoch),
                 log::field("epoch_now", *t.epochNow));
  return nullptr;
}

bool readerValid(const ReaderTables& t) noexcept {
  if (*t.epochNow != t.epoch) return false;
  // The newest archetype is one the reader was made after, or none was.
  return t.world == nullptr || t.column[t.world->archetypeCount()] != kReaderUnknownArchetype;
}

}  // namespace detail

void World::fillReader(detail::ReaderTables& t, std::uint32_t typeIndex) const noexcept {
  // A moved-from world's reader compares with a counter that never moves.
  static const std::uint64_t noEpoch = 0;
  t.epochNow = &noEpoch;
  for (auto& c : t.column) c = detail::kReaderUnknownArchetype;
  t.column[kNoArchetype] = nullptr;
  if (!s_) {
    t.capacity = 0;
    return;
  }
  const detail::EcsState& ecs = s_->ecs;
  t.world = this;
  t.archetypeOf = ecs.archetypeOf.get();
  t.rowOf = ecs.rowOf.get();
  t.generations = s_->entities.generations();
  t.capacity = s_->entities.capacity();
  t.epochNow = &ecs.structureEpoch;
  t.epoch = ecs.structureEpoch;
  const ComponentTypeId c = typeIndex < ecs.typeToId.size() ? ecs.typeToId[typeIndex] : kInvalidComponentTypeId;
  for (std::size_t a = 1; a < ecs.archetypes.size(); ++a) {
    const detail::Archetype& arch = *ecs.archetypes[a];
    const std::uint8_t col = c != kInvalidComponentTypeId ? arch.colOf[c] : 0;
    t.column[a] = col == 0 ? nullptr : &arch.cols[col - 1].data;
  }
}

}  // namespace laige
