// snapshot_changes.cpp - the change section of a version-2 snapshot and
// the change part of the state hash (docs/changes.md#snapshots): the
// change stamp, every system's last run, the ticks of every tracked
// component (per live entity that has it, the bulk marks folded in), the
// removal logs and the pending observer queue. A world whose change state
// is not in use (nothing tracked, no observer) writes version 1 and hashes
// as before: existing snapshots and state-hash streams are unchanged.
#include <algorithm>
#include <cstring>
#include <new>
#include <vector>

#include "laige/detail/world_state.h"
#include "snapshot/snapshot_changes.h"
#include "snapshot/snapshot_internal.h"

namespace laige::detail {

namespace {

constexpr std::uint32_t kTag = 0x32474843u;  // "CHG2"

// Visits the canonical (slot, added, changed) of tracked c per slot below
// `high`: zeros where the slot is dead or lacks c.
template <class F>
void canonicalTicks(const WorldState& ws, ComponentTypeId c, F&& f) noexcept {
  const ComponentTicks& t = *ws.changes.ticks[c];
  const std::uint32_t high = ws.entities.highWater();
  for (std::uint32_t slot = 0; slot < high; ++slot) {
    std::uint32_t added = 0;
    std::uint32_t changed = 0;
    const ArchetypeId aid = ws.entities.isIndexAlive(slot) ? ws.ecs.archetypeOf[slot] : kNoArchetype;
    if (aid != kNoArchetype) {
      const Archetype& a = *ws.ecs.archetypes[aid];
      if (a.colOf[c] != 0) {
        added = t.added[slot];
        changed = std::max(t.changed[slot], a.bulkTick[a.colOf[c] - 1]);
      }
    }
    f(slot, added, changed);
  }
}

std::uint32_t componentSize(const WorldState& ws, ComponentTypeId c) noexcept {
  return ws.ecs.components[c - 1]->size;
}

}  // namespace

std::uint64_t changesSectionBytes(const WorldState& ws) noexcept {
  const ChangeState& cs = ws.changes;
  if (!cs.inUse()) return 0;
  const std::uint64_t high = ws.entities.highWater();
  std::uint64_t n = 16 + pad8(std::uint64_t{ws.systems.count} * 4);
  for (std::uint32_t c = 1; c <= kMaxComponentTypes; ++c) {
    if (cs.tracked[c] == 0) continue;
    const RemovedLog& log = *cs.removed[c];
    n += 8 + pad8(high * 8) + 8 + log.entries.size() * 8 + pad8(log.bytes.size());
  }
  n += 8 + pad8(cs.queue.size());
  return n;
}

void writeChangesSection(const WorldState& ws, std::uint8_t* p) noexcept {
  const ChangeState& cs = ws.changes;
  const std::uint32_t high = ws.entities.highWater();
  std::uint32_t tracked = 0;
  for (std::uint32_t c = 1; c <= kMaxComponentTypes; ++c) tracked += cs.tracked[c];
  storeU32(p, kTag);
  storeU32(p + 4, cs.stamp);
  storeU32(p + 8, ws.systems.count);
  storeU32(p + 12, tracked);
  p += 16;
  for (std::uint32_t id = 1; id <= ws.systems.count; ++id) storeU32(p + 4 * (id - 1), cs.systemLastRun[id]);
  p += pad8(std::uint64_t{ws.systems.count} * 4);
  for (std::uint32_t c = 1; c <= kMaxComponentTypes; ++c) {
    if (cs.tracked[c] == 0) continue;
    storeU32(p, c | (cs.removed[c]->wanted ? 1u << 16 : 0u));  // bit 16: removals logged
    storeU32(p + 4, high);
    p += 8;
    canonicalTicks(ws, c, [&](std::uint32_t slot, std::uint32_t added, std::uint32_t changed) {
      storeU32(p + 8 * slot, added);
      storeU32(p + 8 * slot + 4, changed);
    });
    p += pad8(std::uint64_t{high} * 8);
    const RemovedLog& log = *cs.removed[c];
    storeU32(p, static_cast<std::uint32_t>(log.entries.size()));
    storeU32(p + 4, static_cast<std::uint32_t>(log.bytes.size()));
    p += 8;
    for (const RemovedEntry& e : log.entries) {
      storeU32(p, e.entityBits);
      storeU32(p + 4, e.stamp);
      p += 8;
    }
    if (!log.bytes.empty()) std::memcpy(p, log.bytes.data(), log.bytes.size());
    p += pad8(log.bytes.size());
  }
  storeU32(p, cs.queued);
  storeU32(p + 4, static_cast<std::uint32_t>(cs.queue.size()));
  p += 8;
  if (!cs.queue.empty()) std::memcpy(p, cs.queue.data(), cs.queue.size());
}

Status checkChangesSection(WorldState& ws, const std::uint8_t* p, std::uint64_t n, std::uint32_t high,
                           std::uint64_t offset) noexcept {
  if (n == 0) return Status{};
  auto bad = [&](std::uint64_t at) {
    return Status::failure(ErrorCode::MalformedInput, "snapshot_corrupt")
        .with("section", "changes")
        .with("offset", offset + at);
  };
  std::uint64_t at = 0;
  if (n < 16 || loadU32(p) != kTag) return bad(0);
  if (loadU32(p + 8) != ws.systems.count) return bad(8);
  const std::uint32_t tracked = loadU32(p + 12);
  // A world with nothing tracked and no observer writes no section.
  if (tracked == 0 && ws.changes.observers.empty()) return bad(12);
  at = 16 + pad8(std::uint64_t{ws.systems.count} * 4);
  std::uint32_t prev = 0;
  for (std::uint32_t k = 0; k < tracked; ++k) {
    if (n - at < 8) return bad(at);
    const std::uint32_t word = loadU32(p + at);
    const std::uint32_t c = word & 0xFFFFu;
    if ((word >> 17) != 0 || c <= prev || c > ws.ecs.components.size() || loadU32(p + at + 4) != high) return bad(at);
    prev = c;
    at += 8;
    if (n - at < pad8(std::uint64_t{high} * 8) + 8) return bad(at);
    at += pad8(std::uint64_t{high} * 8);
    const std::uint64_t entries = loadU32(p + at);
    const std::uint64_t bytes = loadU32(p + at + 4);
    at += 8;
    if (n - at < entries * 8 + pad8(bytes) || bytes != entries * componentSize(ws, c)) return bad(at);
    at += entries * 8 + pad8(bytes);
    // Staged allocation: the arrays exist before any write (unobservable).
    ChangeState& cs = ws.changes;
    const std::uint32_t cap = ws.entities.capacity() == 0 ? 1 : ws.entities.capacity();
    if (!cs.ticks[c]) {
      std::unique_ptr<ComponentTicks> t(new (std::nothrow) ComponentTicks());
      if (t) {
        t->added.reset(new (std::nothrow) std::uint32_t[cap]());
        t->changed.reset(new (std::nothrow) std::uint32_t[cap]());
      }
      if (!t || !t->added || !t->changed) {
        return Status::failure(ErrorCode::BudgetExhausted, "snapshot_alloc_failed").with("component_id", c);
      }
      cs.ticks[c] = std::move(t);
      if (c > cs.allocatedUpTo) cs.allocatedUpTo = c;
    }
    if (!cs.removed[c]) {
      cs.removed[c].reset(new (std::nothrow) RemovedLog());
      if (!cs.removed[c]) return Status::failure(ErrorCode::BudgetExhausted, "snapshot_alloc_failed").with("component_id", c);
      if (c > cs.allocatedUpTo) cs.allocatedUpTo = c;
    }
  }
  if (n - at < 8) return bad(at);
  const std::uint64_t queueBytes = loadU32(p + at + 4);
  at += 8;
  if (n - at != pad8(queueBytes)) return bad(at);
  return Status{};
}

void applyChangesSection(WorldState& ws, const std::uint8_t* p, std::uint64_t n) noexcept {
  ChangeState& cs = ws.changes;
  // Everything not in the section is off (a version-1 snapshot: all of it).
  // Above allocatedUpTo nothing was ever tracked or logged: already off.
  for (std::uint32_t c = 1; c <= cs.allocatedUpTo; ++c) {
    cs.tracked[c] = 0;
    if (cs.ticks[c]) cs.ticks[c]->on = false;
    if (cs.removed[c]) {
      cs.removed[c]->entries.clear();
      cs.removed[c]->bytes.clear();
      cs.removed[c]->wanted = false;
    }
  }
  std::fill(std::begin(cs.systemLastRun), std::end(cs.systemLastRun), 0u);
  cs.queue.clear();
  cs.queued = 0;
  cs.stamp = 1;
  cs.anyTracked = false;
  for (std::size_t i = 1; i < ws.ecs.archetypes.size(); ++i) {
    Archetype& a = *ws.ecs.archetypes[i];
    std::fill(std::begin(a.colTick), std::end(a.colTick), 0u);
    std::fill(std::begin(a.bulkTick), std::end(a.bulkTick), 0u);
    a.moveInTick = 0;
    a.hasBulk = false;
  }
  if (n != 0) {
    cs.stamp = loadU32(p + 4);
    const std::uint32_t tracked = loadU32(p + 12);
    for (std::uint32_t id = 1; id <= ws.systems.count; ++id) cs.systemLastRun[id] = loadU32(p + 16 + 4 * (id - 1));
    std::uint64_t at = 16 + pad8(std::uint64_t{ws.systems.count} * 4);
    for (std::uint32_t k = 0; k < tracked; ++k) {
      const std::uint32_t word = loadU32(p + at);
      const std::uint32_t c = word & 0xFFFFu;
      const std::uint32_t high = loadU32(p + at + 4);
      at += 8;
      ComponentTicks& t = *cs.ticks[c];
      for (std::uint32_t slot = 0; slot < high; ++slot) {
        t.added[slot] = loadU32(p + at + 8 * slot);
        t.changed[slot] = loadU32(p + at + 8 * slot + 4);
        // The skip bounds: the newest tick per archetype column.
        const ArchetypeId aid = ws.ecs.archetypeOf[slot];
        if (aid != kNoArchetype && ws.entities.isIndexAlive(slot)) {
          Archetype& a = *ws.ecs.archetypes[aid];
          if (a.colOf[c] != 0) {
            std::uint32_t& bound = a.colTick[a.colOf[c] - 1];
            bound = std::max(bound, std::max(t.added[slot], t.changed[slot]));
          }
        }
      }
      at += pad8(std::uint64_t{high} * 8);
      RemovedLog& log = *cs.removed[c];
      log.wanted = (word >> 16) != 0;
      const std::uint32_t entries = loadU32(p + at);
      const std::uint32_t bytes = loadU32(p + at + 4);
      at += 8;
      const std::uint32_t size = componentSize(ws, c);
      for (std::uint32_t e = 0; e < entries; ++e) {
        log.entries.push_back(RemovedEntry{loadU32(p + at), loadU32(p + at + 4), e * size});
        at += 8;
      }
      log.bytes.assign(p + at, p + at + bytes);
      at += pad8(bytes);
      t.on = true;
      cs.tracked[c] = 1;
      cs.anyTracked = true;
    }
    cs.queued = loadU32(p + at);
    const std::uint32_t queueBytes = loadU32(p + at + 4);
    at += 8;
    cs.queue.assign(p + at, p + at + queueBytes);
  }
  cs.anyHook = cs.anyTracked || !cs.observers.empty();
}

namespace {
// The digest's one sequence of words, fed from the live state
// (changesDigest) or from a section's bytes (changesDigestOfSection): both
// must give the same value for the same state, so the words are emitted
// through these members only.
struct ChangesDigester {
  std::uint64_t h = 0xcbf29ce484222325ull;
  void word(std::uint64_t w) noexcept {
    for (int b = 0; b < 8; ++b) h = (h ^ ((w >> (8 * b)) & 0xFF)) * 0x100000001b3ull;
  }
  void bytes(const std::uint8_t* p, std::size_t n) noexcept {
    for (std::size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 0x100000001b3ull;
  }
  // One slot's ticks of a tracked component (nothing for a slot without any).
  void ticks(std::uint64_t slot, std::uint32_t added, std::uint32_t changed) noexcept {
    if (added == 0 && changed == 0) return;
    word((slot << 32) | added);
    word(changed);
  }
  void removal(std::uint32_t entityBits, std::uint32_t stamp) noexcept {
    word((std::uint64_t{entityBits} << 32) | stamp);
  }
};
}  // namespace

std::uint64_t changesDigest(const WorldState& ws) noexcept {
  const ChangeState& cs = ws.changes;
  ChangesDigester d;
  auto word = [&](std::uint64_t w) { d.word(w); };
  word(cs.stamp);
  for (std::uint32_t id = 1; id <= ws.systems.count; ++id) word(cs.systemLastRun[id]);
  for (std::uint32_t c = 1; c <= kMaxComponentTypes; ++c) {
    if (cs.tracked[c] == 0) continue;
    word(c);
    canonicalTicks(ws, c, [&](std::uint32_t slot, std::uint32_t added, std::uint32_t changed) { d.ticks(slot, added, changed); });
    const RemovedLog& log = *cs.removed[c];
    word(log.wanted ? 1 : 0);
    for (const RemovedEntry& e : log.entries) d.removal(e.entityBits, e.stamp);
    if (!log.bytes.empty()) d.bytes(log.bytes.data(), log.bytes.size());
  }
  word(cs.queued);
  if (!cs.queue.empty()) d.bytes(cs.queue.data(), cs.queue.size());
  return d.h;
}

// The same words as changesDigest, read from the section writeChangesSection
// wrote: the canonical ticks are there per slot, zero where dead or absent.
bool changesDigestOfSection(const std::uint8_t* p, std::uint64_t n, std::uint32_t systems,
                            std::uint64_t& digest) noexcept {
  ChangesDigester d;
  auto word = [&](std::uint64_t w) { d.word(w); };
  if (n < 16 || loadU32(p) != kTag || loadU32(p + 8) != systems) return false;
  const std::uint32_t tracked = loadU32(p + 12);
  std::uint64_t at = 16 + pad8(std::uint64_t{systems} * 4);
  if (at > n) return false;
  word(loadU32(p + 4));
  for (std::uint32_t id = 0; id < systems; ++id) word(loadU32(p + 16 + 4 * std::size_t{id}));
  for (std::uint32_t k = 0; k < tracked; ++k) {
    if (n - at < 8) return false;
    const std::uint32_t c = loadU32(p + at) & 0xFFFFu;
    const bool wanted = (loadU32(p + at) & (1u << 16)) != 0;  // removals logged
    const std::uint64_t high = loadU32(p + at + 4);
    at += 8;
    if (n - at < pad8(high * 8) + 8) return false;
    word(c);
    for (std::uint64_t slot = 0; slot < high; ++slot) {
      d.ticks(slot, loadU32(p + at + 8 * slot), loadU32(p + at + 8 * slot + 4));
    }
    at += pad8(high * 8);
    word(wanted ? 1 : 0);
    const std::uint64_t entries = loadU32(p + at);
    const std::uint64_t logBytes = loadU32(p + at + 4);
    at += 8;
    if (n - at < entries * 8 + pad8(logBytes)) return false;
    for (std::uint64_t e = 0; e < entries; ++e) {
      d.removal(loadU32(p + at), loadU32(p + at + 4));
      at += 8;
    }
    d.bytes(p + at, static_cast<std::size_t>(logBytes));
    at += pad8(logBytes);
  }
  if (n - at < 8) return false;
  const std::uint32_t queued = loadU32(p + at);
  const std::uint64_t queueBytes = loadU32(p + at + 4);
  at += 8;
  if (n - at < queueBytes) return false;
  word(queued);
  d.bytes(p + at, static_cast<std::size_t>(queueBytes));
  digest = d.h;
  return true;
}

}  // namespace laige::detail
