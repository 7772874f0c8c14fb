// archetype_storage.cpp - the archetype tables: creation, row append and
// removal, growth, and the deferred slot ordering (normalize).
//
// Why deferred: keeping every archetype sorted on every insert means a
// memmove of the tail per insert, so re-adding a component to every entity
// is quadratic (tens of microseconds per entity at 65,000). Instead an
// insert appends and a removal tombstones, and one ordered merge restores
// invariant I2 before the next ordered read. The observable order is the
// same; the model test (tests/cpp/model_test.cpp) is the proof.
// docs/archetype.md#deferred-ordering.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <new>

#include "laige/detail/ecs_state.h"
#include "laige/logging.h"
#include "logging/log_texts.h"

namespace laige::detail {

namespace {

// Allocates `bytes` (at least 1) plus 31 so that the base can be aligned to
// kArchetypeColumnAlignment. Counted by the test allocator like any new.
std::unique_ptr<std::uint8_t[]> allocateBlock(std::uint64_t bytes, std::uint8_t*& aligned) noexcept {
  const std::uint64_t total = (bytes == 0 ? 1 : bytes) + kArchetypeColumnAlignment - 1;
  std::unique_ptr<std::uint8_t[]> block(new (std::nothrow) std::uint8_t[static_cast<std::size_t>(total)]);
  if (!block) {
    aligned = nullptr;
    return block;
  }
  const auto address = reinterpret_cast<std::uintptr_t>(block.get());
  const std::uintptr_t mask = kArchetypeColumnAlignment - 1;
  aligned = block.get() + ((kArchetypeColumnAlignment - (address & mask)) & mask);
  return block;
}

// Grows the scratch so that normalize can handle `rows` rows with columns
// of up to `columnSize` bytes. Only called when an archetype is created or
// grows, so steady-state operation never allocates. The old contents are
// dead (normalize leaves nothing behind), so nothing is copied or zeroed.
void ensureScratch(EcsState& s, std::uint32_t rows, std::uint32_t columnSize) {
  if (s.scratchRows < rows) {
    s.scratchPerm.reset(new std::uint32_t[rows]);
    s.scratchKeys.reset(new std::uint32_t[std::size_t{rows} * 2]);
    s.scratchRows = rows;
  }
  const std::uint64_t bytes = std::uint64_t{rows} * std::max<std::uint32_t>(columnSize, 4);
  if (s.scratchByteCount < bytes) {
    s.scratchBytes.reset(new std::uint8_t[static_cast<std::size_t>(bytes)]);
    s.scratchByteCount = bytes;
  }
}

// Sorts n unique slot ids (< 65536) ascending. Large inputs take a two-pass
// LSD radix sort (8 bits per pass, `tmp` holds n entries): O(n) where
// std::sort would be O(n log n). Slot ids are unique, so the result is the
// same on every standard library (no reliance on sort stability).
void sortSlots(std::uint32_t* keys, std::uint32_t* tmp, std::uint32_t n) noexcept {
  if (n < 256) {
    std::sort(keys, keys + n);
    return;
  }
  std::uint32_t* from = keys;
  std::uint32_t* to = tmp;
  for (std::uint32_t shift = 0; shift < 16; shift += 8) {
    std::uint32_t count[257] = {};
    for (std::uint32_t i = 0; i < n; ++i) ++count[((from[i] >> shift) & 0xFFu) + 1];
    for (std::uint32_t b = 0; b < 256; ++b) count[b + 1] += count[b];
    for (std::uint32_t i = 0; i < n; ++i) to[count[(from[i] >> shift) & 0xFFu]++] = from[i];
    std::swap(from, to);
  }
  // Two passes: the sorted keys are back in `keys`.
}

// FNV-1a-32 over the signature: a fast inequality shortcut only.
std::uint32_t fingerprintOf(const ComponentTypeId* sig, std::uint32_t n) noexcept {
  std::uint32_t h = 0x811c9dc5u;
  for (std::uint32_t i = 0; i < n; ++i) {
    for (int b = 0; b < 4; ++b) {
      h ^= (sig[i] >> (8 * b)) & 0xFFu;
      h *= 0x01000193u;
    }
  }
  return h;
}

// Copies rows perm[0..count) of `column` (row stride `size`) to `out`,
// densely. Fixed sizes let the compiler turn each memcpy into a move.
template <std::uint32_t Size>
void gatherFixed(std::uint8_t* out, const std::uint8_t* column, const std::uint32_t* perm,
                 std::uint32_t count) noexcept {
  for (std::uint32_t i = 0; i < count; ++i) {
    std::memcpy(out + std::size_t{i} * Size, column + std::size_t{perm[i]} * Size, Size);
  }
}

void gather(std::uint8_t* out, const std::uint8_t* column, const std::uint32_t* perm,
            std::uint32_t count, std::uint32_t size) noexcept {
  switch (size) {
    case 4: gatherFixed<4>(out, column, perm, count); return;
    case 8: gatherFixed<8>(out, column, perm, count); return;
    case 12: gatherFixed<12>(out, column, perm, count); return;
    case 16: gatherFixed<16>(out, column, perm, count); return;
    default:
      for (std::uint32_t i = 0; i < count; ++i) {
        std::memcpy(out + std::size_t{i} * size, column + std::size_t{perm[i]} * size, size);
      }
  }
}

// Reallocates every column of `a` (and its slot column) to `rows` rows,
// copying the used rows as they are (tombstones included).
bool reserveRows(EcsState& s, Archetype& a, std::uint32_t rows) noexcept {
  std::uint8_t* alignedSlots = nullptr;
  auto slotBlock = allocateBlock(std::uint64_t{rows} * sizeof(std::uint32_t), alignedSlots);
  if (!slotBlock) return false;
  std::unique_ptr<std::uint8_t[]> blocks[kMaxArchetypeComponents];
  std::uint8_t* data[kMaxArchetypeComponents] = {};
  for (std::uint32_t c = 0; c < a.componentCount; ++c) {
    blocks[c] = allocateBlock(std::uint64_t{rows} * a.cols[c].size, data[c]);
    if (!blocks[c]) return false;  // the ones allocated so far are freed: nothing changed
  }
  ensureScratch(s, rows, a.maxColumnSize);
  for (std::uint32_t c = 0; c < a.componentCount; ++c) {
    if (a.rowCount != 0 && a.cols[c].size != 0) {
      std::memcpy(data[c], a.cols[c].data, std::size_t{a.rowCount} * a.cols[c].size);
    }
    a.cols[c].block = std::move(blocks[c]);
    a.cols[c].data = data[c];
  }
  auto* slots = reinterpret_cast<std::uint32_t*>(alignedSlots);
  if (a.rowCount != 0) std::memcpy(slots, a.slots, std::size_t{a.rowCount} * sizeof(std::uint32_t));
  a.slotBlock = std::move(slotBlock);
  a.slots = slots;
  a.rowCapacity = rows;
  ++s.stats.totalReservations;
  return true;
}

}  // namespace

Archetype::Archetype() noexcept {
  std::fill(std::begin(addEdge), std::end(addEdge), kEdgeUnknown);
  std::fill(std::begin(removeEdge), std::end(removeEdge), kEdgeUnknown);
}

EcsState::EcsState(std::uint32_t cap)
    : archetypeOf(new ArchetypeId[cap == 0 ? 1 : cap]()),
      rowOf(new std::uint32_t[cap == 0 ? 1 : cap]()),
      capacity(cap),
      maxRows(cap + cap / 4 == 0 ? 1 : cap + cap / 4) {
  // Reserved once so that creating an archetype never moves the table (the
  // archetypes themselves are separate heap objects and never move either).
  archetypes.reserve(kMaxArchetypes + 1);
  archetypes.emplace_back();  // id 0: "no archetype"
  std::fill(std::begin(rootEdge), std::end(rootEdge), kEdgeUnknown);
}

void EcsState::detachRow(std::uint16_t slot) noexcept {
  const ArchetypeId aid = archetypeOf[slot];
  if (aid == kNoArchetype) return;
  removeRow(*archetypes[aid], rowOf[slot]);
  archetypeOf[slot] = kNoArchetype;
  ++stats.totalDestroyDetaches;
}

// The cold callers' copy (clear, the relations' cascading destroy): with
// them calling detachRow itself, LTO kept it out of line in World::destroy
// too, a call per destroy (24 -> 36 ns from TypeScript).
[[gnu::noinline]] void EcsState::detachRowOutOfLine(std::uint16_t slot) noexcept { detachRow(slot); }

void normalize(EcsState& s, Archetype& a) noexcept {
  if (!a.dirty()) return;
  std::uint32_t* slots = a.slots;
  const std::uint32_t n = a.rowCount;
  const std::uint32_t sorted = a.sortedRows;
  // 1. The tail's surviving slots, noting whether they already ascend (the
  //    "create many" pattern) or descend. A survivor's row is rowOf[slot].
  std::uint32_t* keys = s.scratchKeys.get();
  std::uint32_t tail = 0;
  bool ascending = true;
  bool descending = true;
  for (std::uint32_t r = sorted; r < n; ++r) {
    const std::uint32_t slot = slots[r];
    if (slot == kTombstone) continue;
    if (tail != 0) {
      if (slot < keys[tail - 1]) ascending = false;
      else descending = false;
    }
    keys[tail++] = slot;
  }
  // Fast path: no holes and the tail simply continues the prefix.
  if (a.holes == 0 && ascending && (sorted == 0 || tail == 0 || keys[0] > slots[sorted - 1])) {
    a.sortedRows = n;
    return;
  }
  // 2. Order the tail by slot id.
  if (!ascending) {
    if (descending) std::reverse(keys, keys + tail);
    else sortSlots(keys, keys + s.scratchRows, tail);
  }
  // 3. Merge the prefix survivors and the ordered tail into a permutation
  //    (perm[i] = the row that goes to position i).
  std::uint32_t* perm = s.scratchPerm.get();
  std::uint32_t m = 0;
  std::uint32_t t = 0;
  for (std::uint32_t r = 0; r < sorted; ++r) {
    const std::uint32_t slot = slots[r];
    if (slot == kTombstone) continue;
    while (t < tail && keys[t] < slot) perm[m++] = s.rowOf[keys[t++]];
    perm[m++] = r;
  }
  while (t < tail) perm[m++] = s.rowOf[keys[t++]];
  // 4. Rows before the first out-of-place one stay where they are.
  std::uint32_t first = 0;
  while (first < m && perm[first] == first) ++first;
  if (first < m) {
    const std::uint32_t moved = m - first;
    std::uint8_t* tmp = s.scratchBytes.get();
    for (std::uint32_t c = 0; c < a.componentCount; ++c) {
      const std::uint32_t size = a.cols[c].size;
      if (size == 0) continue;
      gather(tmp, a.cols[c].data, perm + first, moved, size);
      std::memcpy(a.cols[c].data + std::size_t{first} * size, tmp, std::size_t{moved} * size);
    }
    // The keys are consumed: reuse them for the slot column.
    for (std::uint32_t i = 0; i < moved; ++i) keys[i] = slots[perm[first + i]];
    for (std::uint32_t i = 0; i < moved; ++i) {
      slots[first + i] = keys[i];
      s.rowOf[keys[i]] = first + i;
    }
    s.stats.totalRowShifts += moved;
  }
  a.rowCount = m;
  a.sortedRows = m;
  a.holes = 0;
}

void normalizeAll(EcsState& s) noexcept {
  for (std::size_t i = 1; i < s.archetypes.size(); ++i) normalize(s, *s.archetypes[i]);
}

bool makeRoom(EcsState& s, Archetype& a) noexcept {
  // Compacting when at least 1/8 of the rows are holes bounds the wasted
  // rows; growing x2 (capped at maxRows = capacity + capacity / 4) leaves
  // at least capacity / 4 slack rows at the cap, so a compaction there
  // frees >= rowCapacity / 5 rows: amortised O(1) row moves per append.
  if (a.holes != 0 && a.holes >= a.rowCapacity / 8) {
    normalize(s, a);
  } else if (a.rowCapacity < s.maxRows) {
    const std::uint32_t rows = std::min(s.maxRows, a.rowCapacity * 2);
    if (!reserveRows(s, a, rows)) return false;
    ++s.stats.totalArchetypeGrowth;
    LAIGE_LOG_INFO("ecs", "archetype_grow", log::texts::ArchetypeGrow,
                   log::field("archetype_id", a.id), log::field("rows", rows),
                   log::field("components", a.componentCount));
  } else {
    normalize(s, a);
  }
  return a.rowCount < a.rowCapacity;  // always true by the cap; defensive
}

ArchetypeId findArchetype(const EcsState& s, const ComponentTypeId* sig, std::uint32_t n) noexcept {
  const std::uint32_t fp = fingerprintOf(sig, n);
  for (std::size_t i = 1; i < s.archetypes.size(); ++i) {
    const Archetype& a = *s.archetypes[i];
    if (a.fingerprint != fp || a.componentCount != n) continue;
    if (std::equal(sig, sig + n, a.sig)) return a.id;
  }
  return kNoArchetype;
}

std::unique_ptr<Archetype> buildArchetype(EcsState& s, const ComponentTypeId* sig, std::uint32_t n,
                                          std::uint32_t rows) noexcept {
  std::unique_ptr<Archetype> a(new (std::nothrow) Archetype());
  if (!a) return a;
  a->componentCount = n;
  for (std::uint32_t i = 0; i < n; ++i) {
    const ComponentTypeId c = sig[i];
    const std::uint32_t size = s.components[c - 1]->size;
    a->sig[i] = c;
    a->colOf[c] = static_cast<std::uint8_t>(i + 1);
    a->cols[i].id = c;
    a->cols[i].size = size;
    a->rowBytes += size;
    a->maxColumnSize = std::max(a->maxColumnSize, size);
  }
  a->fingerprint = fingerprintOf(sig, n);
  const std::uint32_t first = n != 0 ? a->cols[0].size : 0;
  if (first == 4 || first == 8) {
    a->uniformColumnSize = first;
    for (std::uint32_t i = 1; i < n; ++i) {
      if (a->cols[i].size != first) a->uniformColumnSize = 0;
    }
  }
  const std::uint32_t want = std::min(std::max(kInitialArchetypeRows, rows), std::max(s.maxRows, rows));
  if (!reserveRows(s, *a, want)) a.reset();
  return a;
}

bool reserveArchetypeRows(EcsState& s, Archetype& a, std::uint32_t rows) noexcept {
  return a.rowCapacity >= rows || reserveRows(s, a, rows);
}

void resetArchetypeEdges(EcsState& s) noexcept {
  std::fill(std::begin(s.rootEdge), std::end(s.rootEdge), kEdgeUnknown);
  for (std::size_t i = 1; i < s.archetypes.size(); ++i) {
    Archetype& a = *s.archetypes[i];
    std::fill(std::begin(a.addEdge), std::end(a.addEdge), kEdgeUnknown);
    std::fill(std::begin(a.removeEdge), std::end(a.removeEdge), kEdgeUnknown);
  }
}

Archetype* createArchetype(EcsState& s, const ComponentTypeId* sig, std::uint32_t n) noexcept {
  std::unique_ptr<Archetype> a = buildArchetype(s, sig, n, 0);
  if (!a) return nullptr;
  a->id = static_cast<ArchetypeId>(s.archetypes.size());
  Archetype* raw = a.get();
  s.archetypes.push_back(std::move(a));  // reserved at construction: no reallocation
  LAIGE_LOG_INFO("ecs", "archetype_created", log::texts::ArchetypeCreated,
                 log::field("archetype_id", raw->id), log::field("components", n));
  return raw;
}

}  // namespace laige::detail
