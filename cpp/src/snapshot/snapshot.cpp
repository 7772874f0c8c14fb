// snapshot.cpp - World::snapshotSize and World::snapshot: the whole
// authoritative state in the portable layout of docs/snapshots.md#format,
// plus the setup identity and the checksum both halves use. The reader is
// snapshot_restore.cpp.
#include "laige/snapshot.h"

#include <bit>
#include <cstring>

#include "laige/detail/change_walk.h"
#include "laige/detail/world_state.h"
#include "laige/world.h"
#include "snapshot/snapshot_changes.h"
#include "snapshot/snapshot_internal.h"

namespace laige {

namespace detail {

namespace {

constexpr std::uint64_t kFnvBasis = 0xcbf29ce484222325ull;
constexpr std::uint64_t kFnvPrime = 0x100000001b3ull;

struct Fnv {
  std::uint64_t h = kFnvBasis;
  void bytes(const void* p, std::size_t n) noexcept {
    const auto* b = static_cast<const std::uint8_t*>(p);
    for (std::size_t i = 0; i < n; ++i) h = (h ^ b[i]) * kFnvPrime;
  }
  void u32(std::uint32_t v) noexcept {
    std::uint8_t b[4];
    storeU32(b, v);
    bytes(b, 4);
  }
  void text(const char* p, std::size_t n) noexcept {
    u32(static_cast<std::uint32_t>(n));
    bytes(p, n);
  }
};

// The byte count of archetype `a`'s section (its live rows; normalisation
// does not change the count).
std::uint64_t archetypeSectionBytes(const Archetype& a) noexcept {
  const std::uint64_t rows = a.liveRows();
  std::uint64_t n = kSnapshotArchetypeHeadBytes + pad8(std::uint64_t{a.componentCount} * 2) + pad8(rows * 2);
  for (std::uint32_t c = 0; c < a.componentCount; ++c) n += pad8(rows * a.cols[c].size);
  return n;
}

}  // namespace

std::uint64_t snapshotSetupIdentity(const WorldState& ws) noexcept {
  // Registrations only append (a component's, a system's and a relation's
  // record never changes once made), so the counts name the setup: the
  // value is computed once per setup, not per snapshot, restore and checksum.
  const std::uint64_t key = (std::uint64_t{1} << 63) | (std::uint64_t{ws.relations.relations.size()} << 40) |
                            (std::uint64_t{ws.systems.count} << 20) | std::uint64_t{ws.ecs.components.size()};
  if (ws.setupIdentityKey == key) return ws.setupIdentity;
  Fnv f;
  f.u32(ws.entities.capacity());
  const EcsState& s = ws.ecs;
  f.u32(static_cast<std::uint32_t>(s.components.size()));
  for (const auto& c : s.components) {
    f.text(c->name.data(), c->name.size());
    f.u32(c->size);
    f.u32(c->alignment);
    f.u32(static_cast<std::uint32_t>(c->fields.size()));
    for (const ComponentField& field : c->fields) {
      f.text(field.name.data(), field.name.size());
      f.u32(static_cast<std::uint32_t>(field.kind));
      f.u32(field.count);
      f.u32(field.offset);
    }
  }
  const SystemRegistry& reg = ws.systems;
  f.u32(reg.count);
  for (std::uint32_t id = 1; id <= reg.count; ++id) {
    const SystemRecord& rec = reg.at(id);
    f.text(rec.def.name, rec.nameLength);
    f.u32(rec.hasSubstream ? 1u : 0u);
  }
  // Relations (only when any: the identity of a world without stays as it was).
  if (!ws.relations.relations.empty()) {
    f.u32(0x736c6572u);  // "rels"
    f.u32(static_cast<std::uint32_t>(ws.relations.relations.size()));
    for (const RelationRecord& r : ws.relations.relations) {
      f.u32(r.component);
      f.u32(r.onTargetDestroyed);
    }
  }
  ws.setupIdentity = f.h;
  ws.setupIdentityKey = key;
  return f.h;
}

std::uint64_t noteSnapshotWrites(WorldState& ws) noexcept {
  EcsState& ecs = ws.ecs;
  const std::uint64_t now = ++ecs.copyClock;
  for (std::size_t i = 1; i < ecs.archetypes.size(); ++i) {
    Archetype& a = *ecs.archetypes[i];
    const std::uint64_t all = ((std::uint64_t{1} << a.componentCount) - 1) | (std::uint64_t{1} << kCopyRowsBit);
    std::uint64_t changed = ~a.copyOk & all;
    if (changed == 0) continue;
    a.copyOk |= all;
    while (changed != 0) {
      a.copyStamp[std::countr_zero(changed)] = now;
      changed &= changed - 1;
    }
  }
  if (!EntitiesAccess::slotsCopied(ws.entities)) {
    ecs.entitiesCopyStamp = now;
    EntitiesAccess::setSlotsCopied(ws.entities);
  }
  return now;
}

}  // namespace detail

std::uint64_t snapshotChecksum(std::span<const std::uint8_t> bytes) noexcept {
  if (bytes.size() < kSnapshotChecksumStart || (bytes.size() - kSnapshotChecksumStart) % 8 != 0) return 0;
  const std::uint8_t* p = bytes.data() + kSnapshotChecksumStart;
  const std::size_t words = (bytes.size() - kSnapshotChecksumStart) / 8;
  // Four independent lanes (a += w; b += a): the sums run at load speed,
  // and b makes the value depend on each word's position.
  std::uint64_t a0 = 0, a1 = 0, a2 = 0, a3 = 0, b0 = 0, b1 = 0, b2 = 0, b3 = 0;
  std::size_t i = 0;
  for (; i + 4 <= words; i += 4) {
    a0 += detail::loadU64(p + 8 * i);
    a1 += detail::loadU64(p + 8 * i + 8);
    a2 += detail::loadU64(p + 8 * i + 16);
    a3 += detail::loadU64(p + 8 * i + 24);
    b0 += a0;
    b1 += a1;
    b2 += a2;
    b3 += a3;
  }
  std::uint64_t tail[4] = {0, 0, 0, 0};
  for (std::size_t k = 0; i < words; ++i, ++k) tail[k] = detail::loadU64(p + 8 * i);
  a0 += tail[0];
  a1 += tail[1];
  a2 += tail[2];
  a3 += tail[3];
  b0 += a0;
  b1 += a1;
  b2 += a2;
  b3 += a3;
  std::uint64_t h = 0x9e3779b97f4a7c15ull ^ words;
  for (const std::uint64_t v : {a0, a1, a2, a3, b0, b1, b2, b3}) {
    h = (h ^ v) * 0xff51afd7ed558ccdull;
    h ^= h >> 31;
  }
  return h;
}

std::size_t World::snapshotSize() const noexcept {
  if (!s_) return 0;
  const detail::WorldState& ws = *s_;
  const std::uint64_t high = ws.entities.highWater();
  const std::uint64_t freeCount = detail::EntitiesAccess::freeCount(ws.entities);
  std::uint64_t n = kSnapshotHeaderBytes + detail::kSnapshotCountersBytes +
                    std::uint64_t{ws.systems.count} * detail::kSnapshotSystemBytes +
                    detail::pad8(high * 2) + detail::pad8(high) + detail::pad8(freeCount * 2);
  const auto& list = ws.ecs.archetypes;
  for (std::size_t i = 1; i < list.size(); ++i) n += detail::archetypeSectionBytes(*list[i]);
  n += detail::changesSectionBytes(ws);  // version 2 only (docs/changes.md#snapshots)
  return static_cast<std::size_t>(n);
}

std::uint64_t World::structureEpoch() const noexcept { return s_ ? s_->ecs.structureEpoch : 0; }

Status World::snapshot(std::span<std::uint8_t> out) const noexcept { return detail::writeSnapshot(*this, out, true); }

// Never inlined: World::snapshot and the rollback session share one body.
[[gnu::noinline]] Status detail::writeSnapshot(const World& world, std::span<std::uint8_t> out, bool seal,
                                               RingCopy* ring) noexcept {
  const detail::WorldState* state = detail::ChangeAccess::state(world);
  if (state == nullptr) return Status::failure(ErrorCode::InvalidArgument, "world_moved_from");
  // Pending commands are not state yet, and the snapshot could not hold
  // them: refused until they applied (docs/commands.md#snapshots).
  if (state->commands.pending() != 0) {
    return Status::failure(ErrorCode::InvalidArgument, "snapshot_commands_pending")
        .with("pending", state->commands.pending());
  }
  const std::size_t size = world.snapshotSize();
  if (out.size() < size) {
    return Status::failure(ErrorCode::BudgetExhausted, "snapshot_buffer_too_small")
        .with("needed", static_cast<std::uint64_t>(size))
        .with("given", static_cast<std::uint64_t>(out.size()));
  }
  // The rows go out in slot order: normalise first, through the world's
  // own state, as the state hash does (the logical state is unchanged).
  detail::WorldState& ws = const_cast<detail::WorldState&>(*state);
  detail::normalizeAll(ws.ecs);
  const detail::EcsState& ecs = ws.ecs;
  const Entities& ents = ws.entities;
  const std::uint32_t high = ents.highWater();
  const std::uint32_t freeCount = detail::EntitiesAccess::freeCount(ents);
  const std::uint32_t archetypes = static_cast<std::uint32_t>(ecs.archetypes.size() - 1);
  std::uint8_t* const base = out.data();
  // A ring slot: what changed since its bytes were written. `keep(stamp)`:
  // that section's bytes are already in the slot, at the same offset (the
  // layout is the same when no row set, entity table or section count
  // changed since: the header's size and counts hold the rest).
  std::uint64_t since = 0;
  if (ring != nullptr) {
    const std::uint64_t was = ring->since;
    ring->taken = detail::noteSnapshotWrites(ws);
    bool sameLayout = was != 0 && ecs.entitiesCopyStamp <= was && detail::loadU64(base + kSnapshotTotalOffset) == size &&
                      detail::loadU32(base + 48) == ws.systems.count && detail::loadU32(base + 52) == archetypes;
    for (std::uint32_t i = 1; sameLayout && i <= archetypes; ++i) {
      sameLayout = ecs.archetypes[i]->copyStamp[detail::kCopyRowsBit] <= was;
    }
    if (sameLayout) since = was;
  }
  const auto keep = [since](std::uint64_t stamp) noexcept { return since != 0 && stamp <= since; };
  // Every padding byte is zero: each section zeroes its own padding below
  // (zeroing the whole buffer first would be one more pass over it).
  const auto zeroTail = [](std::uint8_t* at, std::uint64_t used) noexcept {
    const auto n = static_cast<std::size_t>(detail::pad8(used) - used);
    if (n != 0) std::memset(at + static_cast<std::size_t>(used), 0, n);
  };

  // Header.
  std::memcpy(base, kSnapshotMagic, 8);
  const std::uint64_t changesBytes = detail::changesSectionBytes(ws);
  detail::storeU32(base + 8, changesBytes != 0 ? kSnapshotFormatVersion : kSnapshotOldestFormatVersion);
  detail::storeU32(base + 12, kSnapshotHeaderBytes);
  detail::storeU64(base + kSnapshotTotalOffset, size);
  detail::storeU64(base + kSnapshotIdentityOffset, detail::snapshotSetupIdentity(ws));
  detail::storeU32(base + 40, ents.capacity());
  detail::storeU32(base + 44, static_cast<std::uint32_t>(ecs.components.size()));
  detail::storeU32(base + 48, ws.systems.count);
  detail::storeU32(base + 52, archetypes);
  detail::storeU32(base + 56, high);
  detail::storeU32(base + 60, freeCount);

  // Counters.
  std::uint8_t* p = base + detail::kSnapshotCountersOffset;
  std::uint32_t totalRows = 0;
  for (std::uint32_t i = 1; i <= archetypes; ++i) totalRows += ecs.archetypes[i]->rowCount;
  detail::storeU64(p, ws.systems.ticksRun);
  detail::storeU64(p + 8, ws.totalCreated);
  detail::storeU64(p + 16, ws.totalDestroyed);
  detail::storeU32(p + 24, ents.length());
  detail::storeU32(p + 28, ws.peakInUse);
  detail::storeU32(p + 32, ws.entityBudgetLevel);
  detail::storeU32(p + 36, totalRows);
  std::memset(p + 40, 0, detail::kSnapshotCountersBytes - 40);
  p += detail::kSnapshotCountersBytes;

  // Systems: flags, pad, seed, state words.
  for (std::uint32_t id = 1; id <= ws.systems.count; ++id) {
    const detail::SystemRecord& rec = ws.systems.at(id);
    std::memset(p, 0, detail::kSnapshotSystemBytes);
    if (rec.hasSubstream) {
      detail::storeU32(p, 1);
      detail::storeU64(p + 8, rec.rng.seed());
      detail::storeU64(p + 16, rec.rng.statePart1());
      detail::storeU64(p + 24, rec.rng.statePart2());
    }
    p += detail::kSnapshotSystemBytes;
  }

  // Entities: generations, living flags, the free stack (bottom first).
  if (keep(ecs.entitiesCopyStamp)) {
    p += detail::pad8(std::uint64_t{high} * 2) + detail::pad8(high) + detail::pad8(std::uint64_t{freeCount} * 2);
  } else {
    if (high != 0) {
      std::memcpy(p, ents.generations(), std::size_t{high} * 2);
      zeroTail(p, std::uint64_t{high} * 2);
      p += detail::pad8(std::uint64_t{high} * 2);
      std::memcpy(p, ents.livingFlags(), high);
      zeroTail(p, high);
      p += detail::pad8(high);
    }
    if (freeCount != 0) {
      std::memcpy(p, detail::EntitiesAccess::freed(ents), std::size_t{freeCount} * 2);
      zeroTail(p, std::uint64_t{freeCount} * 2);
      p += detail::pad8(std::uint64_t{freeCount} * 2);
    }
  }

  // Archetypes in id (creation) order: count, rows, signature, slots, columns.
  for (std::uint32_t i = 1; i <= archetypes; ++i) {
    const detail::Archetype& a = *ecs.archetypes[i];
    const std::uint32_t rows = a.rowCount;  // normalised: no holes
    detail::storeU32(p, a.componentCount);
    detail::storeU32(p + 4, rows);
    p += detail::kSnapshotArchetypeHeadBytes;
    for (std::uint32_t c = 0; c < a.componentCount; ++c) {
      const auto id = static_cast<std::uint16_t>(a.sig[c]);
      std::memcpy(p + 2 * c, &id, 2);
    }
    zeroTail(p, std::uint64_t{a.componentCount} * 2);
    p += detail::pad8(std::uint64_t{a.componentCount} * 2);
    // Narrowed straight into the output: `to` is declared not to alias
    // a.slots (a byte store could, which would keep the compiler from
    // vectorising the loop).
    if (!keep(a.copyStamp[detail::kCopyRowsBit])) {
      std::uint8_t* __restrict to = p;
      const std::uint32_t* __restrict from = a.slots;
      for (std::size_t j = 0; j < rows; ++j) {
        const auto v = static_cast<std::uint16_t>(from[j]);
        std::memcpy(to + 2 * j, &v, 2);
      }
      zeroTail(p, std::uint64_t{rows} * 2);
    }
    p += detail::pad8(std::uint64_t{rows} * 2);
    for (std::uint32_t c = 0; c < a.componentCount; ++c) {
      const std::size_t bytes = std::size_t{rows} * a.cols[c].size;
      if (!keep(a.copyStamp[c])) {
        if (bytes != 0) std::memcpy(p, a.cols[c].data, bytes);
        zeroTail(p, bytes);
      }
      p += detail::pad8(bytes);
    }
  }

  if (changesBytes != 0) detail::writeChangesSection(ws, p);
  // An unsealed snapshot (a rollback session's ring: only a trusted
  // restore reads it) skips the pass over every byte the checksum costs.
  const std::uint64_t sealValue = seal ? snapshotChecksum(std::span<const std::uint8_t>(base, size)) : 0;
  detail::storeU64(base + kSnapshotChecksumOffset, sealValue);
  return Status{};
}

}  // namespace laige
