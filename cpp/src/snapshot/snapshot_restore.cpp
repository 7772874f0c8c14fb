// snapshot_restore.cpp - World::restore: validates a snapshot completely,
// stages every allocation it needs, and only then writes (so a failure at
// any step changes nothing). docs/snapshots.md#validation.
#include <algorithm>
#include <bit>
#include <cstring>
#include <memory>
#include <utility>

#include "laige/detail/change_walk.h"
#include "laige/detail/world_state.h"
#include "laige/snapshot.h"
#include "laige/world.h"
#include "snapshot/snapshot_changes.h"
#include "snapshot/snapshot_internal.h"
#include "setup_code.h"

namespace laige {

namespace {

using detail::loadU16;
using detail::loadU32;
using detail::loadU64;
using detail::pad8;

// One archetype section, located and validated.
struct ArchetypePlan {
  const std::uint8_t* sig = nullptr;    // componentCount LE u16
  const std::uint8_t* slots = nullptr;  // rows LE u16
  const std::uint8_t* columns = nullptr;
  std::uint32_t componentCount = 0;
  std::uint32_t rows = 0;
};

// Everything the write phase needs, located and validated.
struct RestorePlan {
  std::uint32_t high = 0;
  std::uint32_t freeCount = 0;
  std::uint32_t live = 0;
  std::uint32_t archetypes = 0;
  const std::uint8_t* counters = nullptr;
  const std::uint8_t* systems = nullptr;
  const std::uint8_t* generations = nullptr;
  const std::uint8_t* living = nullptr;
  const std::uint8_t* freed = nullptr;
  ArchetypePlan arch[kMaxArchetypes + 1];
  // Where the change section starts (version 2; = total when none).
  std::uint64_t changesAt = 0;
};

// A set of slot ids (16-bit space) for the uniqueness checks.
struct SlotSet {
  std::uint64_t words[Entity::kMaxEntities / 64];
  void clear() noexcept { std::memset(words, 0, sizeof words); }
  // Inserts `id`; false when it was already a member.
  bool insert(std::uint32_t id) noexcept {
    std::uint64_t& w = words[id >> 6];
    const std::uint64_t bit = std::uint64_t{1} << (id & 63);
    if ((w & bit) != 0) return false;
    w |= bit;
    return true;
  }
};

// The refusals and the checks that cost the same for any snapshot size stay
// out of restore's fast body: compiled for size in wasm (setup_code.h), never inlined.
[[gnu::noinline]] LAIGE_SETUP_CODE Status corrupt(const char* what, std::uint64_t offset) noexcept {
  return Status::failure(ErrorCode::MalformedInput, "snapshot_corrupt").with("what", what).with("offset", offset);
}

[[gnu::noinline]] LAIGE_SETUP_CODE Status setupMismatch(const char* what, std::uint64_t expected, std::uint64_t given) noexcept {
  return Status::failure(ErrorCode::InvalidArgument, "snapshot_setup_mismatch")
      .with("what", what)
      .with("expected", expected)
      .with("given", given);
}

bool zeros(const std::uint8_t* p, std::size_t n) noexcept {
  for (std::size_t i = 0; i < n; ++i) {
    if (p[i] != 0) return false;
  }
  return true;
}

// The zero padding after `used` bytes of an 8-aligned section: pad8(used) -
// used, 0..7 bytes. Computed from the low three bits, so the narrowing to
// size_t (32 bits in wasm) is exact for any `used`.
std::size_t paddingAfter(std::uint64_t used) noexcept {
  return static_cast<std::size_t>((std::uint64_t{0} - used) & 7u);
}

// The header: magic, version, size, checksum, setup. Reads nothing past
// the header before the size check.
[[gnu::noinline]] LAIGE_SETUP_CODE Status checkHeader(const detail::WorldState& ws, std::span<const std::uint8_t> b,
                                                     bool trusted) noexcept {
  const std::size_t given = b.size();
  // Byte by byte: an empty span may have a null data() (memcmp must not see it).
  for (std::size_t i = 0; i < given && i < 8; ++i) {
    if (b[i] != kSnapshotMagic[i]) return corrupt("magic", 0);
  }
  if (given < kSnapshotHeaderBytes) {
    return Status::failure(ErrorCode::MalformedInput, "snapshot_truncated")
        .with("needed", std::uint64_t{kSnapshotHeaderBytes})
        .with("given", static_cast<std::uint64_t>(given));
  }
  const std::uint8_t* p = b.data();
  if (const std::uint32_t v = loadU32(p + 8); v != kSnapshotFormatVersion && v != kSnapshotOldestFormatVersion) {
    return Status::failure(ErrorCode::InvalidArgument, "snapshot_version")
        .with("version", v)
        .with("supported", kSnapshotFormatVersion);
  }
  if (loadU32(p + 12) != kSnapshotHeaderBytes) return corrupt("header_size", 12);
  const std::uint64_t total = loadU64(p + kSnapshotTotalOffset);
  if (total > given) {
    return Status::failure(ErrorCode::MalformedInput, "snapshot_truncated")
        .with("needed", total)
        .with("given", static_cast<std::uint64_t>(given));
  }
  if (total < given) {
    return Status::failure(ErrorCode::MalformedInput, "snapshot_trailing_bytes")
        .with("needed", total)
        .with("given", static_cast<std::uint64_t>(given));
  }
  if (total % 8 != 0 || total < kSnapshotHeaderBytes + detail::kSnapshotCountersBytes) {
    return corrupt("total_size", kSnapshotTotalOffset);
  }
  if (!trusted && loadU64(p + kSnapshotChecksumOffset) != snapshotChecksum(b)) {
    return corrupt("checksum", kSnapshotChecksumOffset);
  }
  if (const std::uint32_t cap = loadU32(p + 40); cap != ws.entities.capacity()) {
    return setupMismatch("capacity", ws.entities.capacity(), cap);
  }
  const auto components = static_cast<std::uint32_t>(ws.ecs.components.size());
  if (const std::uint32_t n = loadU32(p + 44); n != components) return setupMismatch("components", components, n);
  if (const std::uint32_t n = loadU32(p + 48); n != ws.systems.count) {
    return setupMismatch("systems", ws.systems.count, n);
  }
  const std::uint64_t identity = detail::snapshotSetupIdentity(ws);
  if (const std::uint64_t id = loadU64(p + kSnapshotIdentityOffset); id != identity) {
    return setupMismatch("identity", identity, id);
  }
  return Status{};
}

// The generations (non-zero) and living flags (0 or 1, counted into
// `living`) of the H used slots. Word at a time (a hot loop of every
// rollback): four generations or eight flags per 64-bit load; the slow
// search only names the offending entry.
Status checkSlotFlags(const RestorePlan& out, std::uint64_t at, std::uint64_t genBytes,
                      std::uint32_t& living) noexcept {
  std::uint64_t zeroGeneration = 0;
  std::uint32_t i = 0;
  for (; i + 4 <= out.high; i += 4) {
    const std::uint64_t x = loadU64(out.generations + 2 * i);
    zeroGeneration |= (x - 0x0001000100010001ull) & ~x & 0x8000800080008000ull;  // a zero u16 lane
  }
  for (; i < out.high; ++i) zeroGeneration |= loadU16(out.generations + 2 * i) == 0;
  std::uint64_t highBits = 0;
  for (i = 0; i + 8 <= out.high; i += 8) {
    const std::uint64_t x = loadU64(out.living + i);
    highBits |= x & 0xFEFEFEFEFEFEFEFEull;
    // The byte sum (each byte is 0 or 1 when highBits is 0, so it is exact):
    // one multiply, where std::popcount is a libgcc call without -mpopcnt.
    living += static_cast<std::uint32_t>((x * 0x0101010101010101ull) >> 56);
  }
  for (; i < out.high; ++i) {
    highBits |= out.living[i] & 0xFEu;
    living += out.living[i] & 1u;
  }
  if (zeroGeneration != 0 || highBits != 0) {
    for (i = 0; i < out.high; ++i) {
      if (loadU16(out.generations + 2 * i) == 0) return corrupt("generation", at + 2 * i);
      if (out.living[i] > 1) return corrupt("living_flag", at + genBytes + i);
    }
  }
  return Status{};
}

// Which archetype section (1-based) claimed each slot, 0 = none yet: the
// cross-archetype uniqueness check of the slot columns, without a branch
// per row. Entries [0, high) are cleared per restore.
struct SlotOwners {
  std::uint16_t owner[Entity::kMaxEntities];
};

// Archetype section `i`'s slot column: strictly ascending, every slot below
// `high`, live, and claimed by no earlier section. The rows are checked
// without a branch (a hot loop of every rollback); the slow walk only
// names the offending row.
bool slotsValid(const RestorePlan& out, const ArchetypePlan& a, std::uint16_t i, SlotOwners& owners,
                std::uint32_t& badRow) noexcept {
  std::uint32_t bad = 0;
  std::uint32_t next = 0;  // the smallest slot the next row may hold
  for (std::uint32_t r = 0; r < a.rows; ++r) {
    const std::uint32_t slot = loadU16(a.slots + 2 * r);
    const std::uint32_t inRange = slot < out.high ? slot : 0;
    bad |= static_cast<std::uint32_t>(slot < next) | static_cast<std::uint32_t>(slot >= out.high) |
           static_cast<std::uint32_t>(out.living[inRange] == 0) | static_cast<std::uint32_t>(owners.owner[slot] != 0);
    owners.owner[slot] = i;
    next = slot + 1;
  }
  if (bad == 0) return true;
  next = 0;
  for (std::uint32_t r = 0; r < a.rows; ++r) {
    const std::uint32_t slot = loadU16(a.slots + 2 * r);
    // owner == i: set by the loop above for this row (rows ascending up to
    // here, so no earlier row of this section holds the slot).
    if (slot < next || slot >= out.high || out.living[slot] == 0 || (owners.owner[slot] != 0 && owners.owner[slot] != i)) {
      badRow = r;
      return false;
    }
    next = slot + 1;
  }
  badRow = 0;
  return false;
}

// Locates and validates every section after the header. `trusted` (bytes
// this build's writer made, kept where nothing else writes: a rollback
// session's ring) locates only: the per-byte checks (slot flags, free list,
// slot columns, padding) are skipped (docs/snapshots.md#trusted-restores).
Status plan(const detail::WorldState& ws, std::span<const std::uint8_t> b, RestorePlan& out,
            SlotSet& seen, SlotOwners& owners, bool trusted) noexcept {
  const std::uint8_t* const base = b.data();
  const std::uint64_t total = b.size();
  const std::uint32_t capacity = ws.entities.capacity();
  out.archetypes = loadU32(base + 52);
  out.high = loadU32(base + 56);
  out.freeCount = loadU32(base + 60);
  if (out.archetypes > kMaxArchetypes) return corrupt("archetype_count", 52);
  if (out.high > capacity) return corrupt("high_water", 56);
  if (out.freeCount > out.high) return corrupt("free_count", 60);

  // Counters.
  std::uint64_t at = detail::kSnapshotCountersOffset;
  const std::uint8_t* c = base + at;
  out.counters = c;
  out.live = loadU32(c + 24);
  const std::uint64_t created = loadU64(c + 8);
  const std::uint64_t destroyed = loadU64(c + 16);
  const std::uint32_t peak = loadU32(c + 28);
  const std::uint32_t level = loadU32(c + 32);
  if (out.live + out.freeCount != out.high) return corrupt("live_count", at + 24);
  if (created < destroyed || created - destroyed != out.live) return corrupt("entity_totals", at + 8);
  if (peak < out.live || peak > capacity) return corrupt("peak_in_use", at + 28);
  if (level != 0 && level != 25 && level != 50 && level != 100) return corrupt("budget_level", at + 32);
  if (!zeros(c + 40, 8)) return corrupt("padding", at + 40);
  at += detail::kSnapshotCountersBytes;

  // Systems.
  const std::uint64_t systemsBytes = std::uint64_t{ws.systems.count} * detail::kSnapshotSystemBytes;
  if (total - at < systemsBytes) return corrupt("sections", at);
  out.systems = base + at;
  for (std::uint32_t id = 1; id <= ws.systems.count; ++id, at += detail::kSnapshotSystemBytes) {
    const std::uint8_t* s = base + at;
    const std::uint32_t flags = loadU32(s);
    const bool has = ws.systems.at(id).hasSubstream;
    if (flags != (has ? 1u : 0u) || !zeros(s + 4, 4)) return corrupt("system_flags", at);
    const bool zeroState = loadU64(s + 16) == 0 && loadU64(s + 24) == 0;
    if (has ? zeroState : !zeros(s + 8, 24)) return corrupt("system_rng", at + 8);
  }

  // Entities.
  const std::uint64_t genBytes = pad8(std::uint64_t{out.high} * 2);
  const std::uint64_t liveBytes = pad8(out.high);
  const std::uint64_t freeBytes = pad8(std::uint64_t{out.freeCount} * 2);
  if (total - at < genBytes + liveBytes + freeBytes) return corrupt("sections", at);
  out.generations = base + at;
  out.living = out.generations + genBytes;
  out.freed = out.living + liveBytes;
  if (!trusted) {
    std::uint32_t living = 0;
    if (Status f = checkSlotFlags(out, at, genBytes, living); !f.ok()) return f;
    if (!zeros(out.generations + 2 * out.high, paddingAfter(2 * std::uint64_t{out.high}))) return corrupt("padding", at);
    if (!zeros(out.living + out.high, paddingAfter(out.high))) return corrupt("padding", at + genBytes);
    if (living != out.live) return corrupt("living_count", at + genBytes);
    seen.clear();
    for (std::uint32_t k = 0; k < out.freeCount; ++k) {
      const std::uint16_t id = loadU16(out.freed + 2 * k);
      if (id >= out.high || out.living[id] != 0 || !seen.insert(id)) {
        return corrupt("free_list", at + genBytes + liveBytes + 2 * k);
      }
    }
    if (!zeros(out.freed + 2 * out.freeCount, paddingAfter(2 * std::uint64_t{out.freeCount}))) {
      return corrupt("padding", at + genBytes + liveBytes);
    }
  }
  at += genBytes + liveBytes + freeBytes;

  // Archetypes: each set once, each slot in at most one, rows ascending.
  if (out.high != 0 && !trusted) std::memset(owners.owner, 0, std::size_t{out.high} * sizeof(std::uint16_t));
  const auto components = static_cast<std::uint32_t>(ws.ecs.components.size());
  std::uint64_t rowsTotal = 0;
  for (std::uint32_t i = 1; i <= out.archetypes; ++i) {
    ArchetypePlan& a = out.arch[i];
    if (total - at < detail::kSnapshotArchetypeHeadBytes) return corrupt("sections", at);
    a.componentCount = loadU32(base + at);
    a.rows = loadU32(base + at + 4);
    if (a.componentCount == 0 || a.componentCount > kMaxArchetypeComponents) {
      return corrupt("archetype_components", at);
    }
    if (a.rows > out.live) return corrupt("archetype_rows", at + 4);
    at += detail::kSnapshotArchetypeHeadBytes;
    const std::uint64_t sigBytes = pad8(std::uint64_t{a.componentCount} * 2);
    const std::uint64_t slotBytes = pad8(std::uint64_t{a.rows} * 2);
    if (total - at < sigBytes + slotBytes) return corrupt("sections", at);
    a.sig = base + at;
    std::uint32_t prev = 0;
    for (std::uint32_t k = 0; k < a.componentCount; ++k) {
      const std::uint16_t id = loadU16(a.sig + 2 * k);
      if (id <= prev || id > components) return corrupt("archetype_signature", at + 2 * k);
      prev = id;
    }
    if (!zeros(a.sig + 2 * a.componentCount, paddingAfter(2 * std::uint64_t{a.componentCount}))) return corrupt("padding", at);
    for (std::uint32_t j = 1; j < i; ++j) {
      const ArchetypePlan& o = out.arch[j];
      if (o.componentCount == a.componentCount && std::memcmp(o.sig, a.sig, 2 * a.componentCount) == 0) {
        return corrupt("archetype_duplicate", at);
      }
    }
    at += sigBytes;
    a.slots = base + at;
    std::uint32_t badRow = 0;
    if (!trusted && !slotsValid(out, a, static_cast<std::uint16_t>(i), owners, badRow)) {
      return corrupt("archetype_slots", at + 2 * std::uint64_t{badRow});
    }
    if (!trusted && !zeros(a.slots + 2 * a.rows, paddingAfter(2 * std::uint64_t{a.rows}))) return corrupt("padding", at);
    at += slotBytes;
    a.columns = base + at;
    for (std::uint32_t k = 0; k < a.componentCount; ++k) {
      const std::uint32_t size = ws.ecs.components[loadU16(a.sig + 2 * k) - 1]->size;
      const std::uint64_t bytes = std::uint64_t{a.rows} * size;
      if (total - at < pad8(bytes)) return corrupt("sections", at);
      if (!trusted && !zeros(base + at + bytes, paddingAfter(bytes))) return corrupt("padding", at + bytes);
      at += pad8(bytes);
    }
    rowsTotal += a.rows;
  }
  if (rowsTotal != loadU32(c + 36) || rowsTotal > out.live) return corrupt("row_total", detail::kSnapshotCountersOffset + 36);
  out.changesAt = at;
  if (at != total && loadU32(base + 8) < detail::kSnapshotChangesVersion) return corrupt("sections", at);
  return Status{};
}

// The relation invariant of the snapshot's values (docs/relations.md):
// every target a live entity of the snapshot other than its source, no
// cycle. Uses the relation scratch arrays (derived state, never read
// across calls), so a refusal leaves the index as it was.
[[gnu::noinline]] Status checkRelationValues(detail::WorldState& ws, const RestorePlan& pl) noexcept {
  detail::RelationState& rs = ws.relations;
  if (rs.relations.empty()) return Status{};
  std::uint32_t* target = rs.queue.get();
  std::uint32_t* mark = rs.mark.get();
  const std::uint8_t* base = pl.counters - detail::kSnapshotCountersOffset;
  for (const detail::RelationRecord& r : rs.relations) {
    for (std::uint32_t s = 0; s < pl.high; ++s) target[s] = detail::kNoSlot;
    for (std::uint32_t i = 1; i <= pl.archetypes; ++i) {
      const ArchetypePlan& a = pl.arch[i];
      const std::uint8_t* col = a.columns;
      std::uint32_t size = 0;
      for (std::uint32_t k = 0; k < a.componentCount; ++k) {
        const ComponentTypeId id = loadU16(a.sig + 2 * k);
        size = ws.ecs.components[id - 1]->size;
        if (id == r.component) break;
        col += pad8(std::uint64_t{a.rows} * size);
        if (k + 1 == a.componentCount) col = nullptr;
      }
      if (col == nullptr || a.rows == 0) continue;
      for (std::uint32_t row = 0; row < a.rows; ++row) {
        const std::uint16_t slot = loadU16(a.slots + 2 * row);
        const Entity t = Entity::fromBits(loadU32(col + std::size_t{row} * size));
        if (t.id() >= pl.high || pl.living[t.id()] == 0 || loadU16(pl.generations + 2 * t.id()) != t.generation() ||
            t.id() == slot) {
          return corrupt("relation_target", static_cast<std::uint64_t>(col + std::size_t{row} * size - base));
        }
        target[slot] = t.id();
      }
    }
    // Cycles: a walk marks its path `walking`, a finished path `done`.
    if (rs.markEpoch >= 0xFFFFFFF0u) {
      std::memset(mark, 0, std::size_t{ws.entities.capacity()} * sizeof(std::uint32_t));
      rs.markEpoch = 0;
    }
    const std::uint32_t walking = ++rs.markEpoch;
    const std::uint32_t done = ++rs.markEpoch;
    for (std::uint32_t s = 0; s < pl.high; ++s) {
      std::uint32_t x = s;
      while (x != detail::kNoSlot && mark[x] != done) {
        if (mark[x] == walking) return corrupt("relation_cycle", detail::kSnapshotCountersOffset);
        mark[x] = walking;
        x = target[x];
      }
      for (x = s; x != detail::kNoSlot && mark[x] != done; x = target[x]) mark[x] = done;
    }
  }
  return Status{};
}

// True when archetype `a` is packed and holds exactly the snapshot's rows
// (the same slots in the same order). Branch-free over the rows. Not
// inlined: inlined into restoreSnapshot behind the ring's short-circuit,
// g++ 12 -O3 left the loop scalar (a full trusted restore of 10,000 rows
// took 5.2 us instead of 3.1,
// docs/internals/rollback-costs.md#the-8-tick-rollback-against-12).
[[gnu::noinline]] bool sameRows(const detail::Archetype& a, const ArchetypePlan& p) noexcept {
  if (a.dirty() || a.rowCount != p.rows) return false;
  // A size_t index: a 32-bit `2 * r` could wrap, which keeps g++ from vectorising.
  std::uint32_t diff = 0;
  const std::size_t rows = p.rows;
  for (std::size_t r = 0; r < rows; ++r) diff |= a.slots[r] ^ loadU16(p.slots + 2 * r);
  return diff == 0;
}

// The archetype objects a restore builds before its first write, by id
// 1..count (the snapshot's archetype count): only those entries are
// cleared and freed (an array of kMaxArchetypes + 1 unique_ptrs cost a
// 2 KB zero-fill and 257 destructor tests per restore, most of a ring
// restore's fixed cost). Frees whatever was not taken.
class StagedArchetypes {
 public:
  explicit StagedArchetypes(std::uint32_t count) noexcept : count_(count) {
    std::fill(at_, at_ + count + 1, nullptr);
  }
  ~StagedArchetypes() {
    for (std::uint32_t i = 0; i <= count_; ++i) delete at_[i];
  }
  StagedArchetypes(const StagedArchetypes&) = delete;
  StagedArchetypes& operator=(const StagedArchetypes&) = delete;
  detail::Archetype*& operator[](std::uint32_t i) noexcept { return at_[i]; }
  std::unique_ptr<detail::Archetype> take(std::uint32_t i) noexcept {
    return std::unique_ptr<detail::Archetype>(std::exchange(at_[i], nullptr));
  }

 private:
  std::uint32_t count_;
  detail::Archetype* at_[kMaxArchetypes + 1];  // 0..count_ initialised
};

bool sameSignature(const detail::Archetype& a, const ArchetypePlan& p) noexcept {
  if (a.componentCount != p.componentCount) return false;
  for (std::uint32_t k = 0; k < p.componentCount; ++k) {
    if (a.sig[k] != loadU16(p.sig + 2 * k)) return false;
  }
  return true;
}

}  // namespace

Status World::restore(std::span<const std::uint8_t> bytes) noexcept { return detail::restoreSnapshot(*this, bytes, false); }

// Never inlined: World::restore and the rollback session share one body.
[[gnu::noinline]] Status detail::restoreSnapshot(World& world, std::span<const std::uint8_t> bytes, bool trusted,
                                                 std::uint64_t ringSince) noexcept {
  detail::WorldState* state = detail::ChangeAccess::state(world);
  if (state == nullptr) return Status::failure(ErrorCode::InvalidArgument, "world_moved_from");
  detail::WorldState& ws = *state;
  detail::EcsState& ecs = ws.ecs;
  // Inside a defer too: its pending commands name handles of the state the
  // restore would replace (docs/commands.md#snapshots).
  if (ecs.guard.active || ws.systems.running || ws.deferDepth != 0) {
    return Status::failure(ErrorCode::InvalidArgument, "restore_inside_callback")
        .with("inside", ecs.guard.active ? "iteration" : ws.systems.running ? "system" : "defer");
  }
  if (ws.relations.walking != 0) return detail::walkMutation("restore");
  if (bytes.data() == nullptr && !bytes.empty()) return corrupt("buffer", 0);

  // 1. Validate everything (no write).
  if (Status h = checkHeader(ws, bytes, trusted); !h.ok()) return h;
  static thread_local RestorePlan plan_;  // 10 KB: off the (small wasm) stack
  static thread_local SlotSet seen;
  static thread_local SlotOwners owners;  // 128 KB, cleared up to the high-water mark per call
  RestorePlan& pl = plan_;
  if (Status v = plan(ws, bytes, pl, seen, owners, trusted); !v.ok()) return v;
  const std::uint64_t changesBytes = bytes.size() - pl.changesAt;
  // Version 2 exactly when a change section follows (a writer never makes
  // another pairing, so restoring one could not be taken again byte for byte).
  if ((loadU32(bytes.data() + 8) == detail::kSnapshotChangesVersion) != (changesBytes != 0)) {
    return Status::failure(ErrorCode::MalformedInput, "snapshot_corrupt")
        .with("what", "version")
        .with("offset", std::uint64_t{8});
  }
  if (!trusted) {
    if (Status v = checkRelationValues(ws, pl); !v.ok()) return v;
  }
  if (Status v = detail::checkChangesSection(ws, bytes.data() + pl.changesAt, changesBytes, pl.high, pl.changesAt);
      !v.ok()) {
    return v;
  }

  // 2. Stage every allocation: new archetype objects for the ids whose set
  //    differs, growth for the kept ones. A failure frees the staged ones;
  //    a kept archetype that grew is logically unchanged.
  StagedArchetypes staged(pl.archetypes);
  const auto oldCount = static_cast<std::uint32_t>(ecs.archetypes.size() - 1);
  bool changed = oldCount != pl.archetypes;
  for (std::uint32_t i = 1; i <= pl.archetypes; ++i) {
    const ArchetypePlan& p = pl.arch[i];
    if (i <= oldCount && sameSignature(*ecs.archetypes[i], p)) {
      if (!detail::reserveArchetypeRows(ecs, *ecs.archetypes[i], p.rows)) {
        return Status::failure(ErrorCode::BudgetExhausted, "snapshot_alloc_failed").with("archetype_id", i);
      }
      continue;
    }
    ComponentTypeId sig[kMaxArchetypeComponents];
    for (std::uint32_t k = 0; k < p.componentCount; ++k) sig[k] = loadU16(p.sig + 2 * k);
    staged[i] = detail::buildArchetype(ecs, sig, p.componentCount, p.rows).release();
    if (staged[i] == nullptr) {
      return Status::failure(ErrorCode::BudgetExhausted, "snapshot_alloc_failed").with("archetype_id", i);
    }
    staged[i]->id = static_cast<ArchetypeId>(i);
    changed = true;
  }

  // A ring slot written at clock `ringSince` (trusted only): a section whose
  // copy stamp is <= ringSince has not changed since, so the world already
  // holds the slot's bytes for it (kept archetype objects only: a staged
  // one is new). The others are copied and stamped `now`, newer than every
  // slot of every ring, which is what each of them now differs by.
  const bool ring = trusted && ringSince != 0;
  const std::uint64_t now = ring ? detail::noteSnapshotWrites(ws) : 0;
  const auto unchanged = [ring, ringSince](std::uint64_t stamp) noexcept { return ring && stamp <= ringSince; };

  // The same placement (a rollback over ticks that moved no entity between
  // archetypes): every archetype holds the snapshot's slots in its rows, so
  // archetypeOf and rowOf already say what the snapshot says; only the
  // columns are copied.
  bool samePlacement = !changed;
  for (std::uint32_t i = 1; samePlacement && i <= pl.archetypes; ++i) {
    // A ring slot's rows not changed since are the same without looking.
    const detail::Archetype& a = *ecs.archetypes[i];
    samePlacement = unchanged(a.copyStamp[detail::kCopyRowsBit]) || sameRows(a, pl.arch[i]);
  }

  // 3. Write. Nothing below can fail.
  const std::uint32_t oldHigh = ws.entities.highWater();
  if (!unchanged(ecs.entitiesCopyStamp)) {
    detail::EntitiesAccess::assign(ws.entities, pl.high, pl.freeCount, pl.live, pl.generations, pl.living,
                                   pl.freed);
    if (ring) {
      ecs.entitiesCopyStamp = now;
      detail::EntitiesAccess::setSlotsCopied(ws.entities);
    }
  }
  const std::uint8_t* c = pl.counters;
  ws.systems.ticksRun = loadU64(c);
  ws.totalCreated = loadU64(c + 8);
  ws.totalDestroyed = loadU64(c + 16);
  ws.peakInUse = loadU32(c + 28);
  ws.entityBudgetLevel = loadU32(c + 32);
  for (std::uint32_t id = 1; id <= ws.systems.count; ++id) {
    detail::SystemRecord& rec = ws.systems.at(id);
    const std::uint8_t* s = pl.systems + std::size_t{id - 1} * detail::kSnapshotSystemBytes;
    if (rec.hasSubstream) rec.rng = Prng::fromState(loadU64(s + 8), loadU64(s + 16), loadU64(s + 24));
  }

  while (ecs.archetypes.size() - 1 > pl.archetypes) ecs.archetypes.pop_back();
  const std::uint32_t clearTo = oldHigh > pl.high ? oldHigh : pl.high;
  if (!samePlacement) std::memset(ecs.archetypeOf.get(), 0, std::size_t{clearTo} * sizeof(ArchetypeId));
  for (std::uint32_t i = 1; i <= pl.archetypes; ++i) {
    const bool kept = staged[i] == nullptr;
    if (!kept) {
      if (i < ecs.archetypes.size()) ecs.archetypes[i] = staged.take(i);
      else ecs.archetypes.push_back(staged.take(i));  // reserved: no reallocation
    }
    detail::Archetype& a = *ecs.archetypes[i];
    const ArchetypePlan& p = pl.arch[i];
    const std::uint32_t rows = p.rows;
    for (std::uint32_t r = 0; !samePlacement && r < rows; ++r) {
      const std::uint16_t slot = loadU16(p.slots + 2 * r);
      a.slots[r] = slot;
      ecs.archetypeOf[slot] = static_cast<ArchetypeId>(i);
      ecs.rowOf[slot] = r;
    }
    a.rowCount = a.sortedRows = rows;
    a.holes = 0;
    // A column copied loses its cached hash; one the world already holds keeps it.
    const bool ringKept = ring && kept;
    if (ringKept && !unchanged(a.copyStamp[detail::kCopyRowsBit])) a.copyStamp[detail::kCopyRowsBit] = now;
    const std::uint8_t* col = p.columns;
    for (std::uint32_t k = 0; k < a.componentCount; ++k) {
      const std::size_t n = std::size_t{rows} * a.cols[k].size;
      if (!ringKept || !unchanged(a.copyStamp[k])) {
        if (n != 0) std::memcpy(a.cols[k].data, col, n);
        a.colHashOk &= ~(std::uint32_t{1} << k);
        if (ringKept) a.copyStamp[k] = now;
      }
      col += pad8(n);
    }
    // Stamped above (a kept archetype in a ring restore), else all changed.
    a.copyOk = ringKept ? ~std::uint64_t{0} : 0;
  }
  detail::applyChangesSection(ws, bytes.data() + pl.changesAt, changesBytes);
  if (!ws.relations.relations.empty()) ws.relations.hooks->rebuildIndex(ws);
  if (changed) {
    // Cached edges may name dropped or replaced ids; caches keyed by
    // archetype ids see the epoch change.
    detail::resetArchetypeEdges(ecs);
    ++ecs.structureEpoch;
  }
  return Status{};
}

}  // namespace laige
