// state_hash.cpp - World::stateHash, World::componentStateHash and the
// walk behind World::stateDiff (docs/determinism.md#the-state-hash). The stream
// is spelled out in laige/state_hash.h; docs/determinism.md#the-state-hash.
#include "laige/state_hash.h"

#include <algorithm>
#include <bit>
#include <cstring>

#include "laige/assert.h"
#include "laige/detail/world_state.h"
#include "setup_code.h"
#include "snapshot/snapshot_changes.h"
#include "laige/world.h"

namespace laige {

namespace {

// --- The FNV-1a stream ---------------------------------------------------------
//
// FNV-1a is a serial chain, h = (h ^ b) * P per byte: its cost is the
// latency of one xor plus one 64-bit multiply per byte (about 4 cycles),
// and nothing reorders it. What can go is the work on ZERO bytes: h ^ 0 is
// h, so a run of k zero bytes is one multiplication by P^k. The stream
// below therefore keeps the pending power of P lazily: `h_ * P^pending_`
// is the true FNV state, a zero byte only counts, and a non-zero byte costs
// one multiply and one xor, exactly as before. The result is bit-identical
// to the byte-at-a-time definition (fnv1a64Word / fnv1a64Bytes in
// state_hash.h, which the tests compare it with). The state hash's words
// are mostly leading zeros (slots, generations, counts, ids) and Q16.16
// whole numbers have two zero fraction bytes: on the stress world (112 KB
// of stream, 43 KB of it non-zero) this is about 2x faster than the plain loop.

// The longest zero run kept pending before it is folded into h_; a word
// adds at most 8 and a byte pair 2 before the next fold check.
constexpr std::uint32_t kMaxPending = 64;
constexpr std::uint32_t kPowCount = kMaxPending + 9;

struct PowTable {
  std::uint64_t p[kPowCount] = {};
  constexpr PowTable() noexcept {
    p[0] = 1;
    for (std::uint32_t i = 1; i < kPowCount; ++i) p[i] = p[i - 1] * kStateHashFnvPrime;
  }
};
constexpr PowTable kPow;

class Stream {
 public:
  /// One word, most significant byte first.
  void word(std::uint64_t w) noexcept {
    if (w == 0) {
      pending_ += 8;
    } else {
      const int lead = std::countl_zero(w) >> 3;
      pending_ += static_cast<std::uint32_t>(lead);
      for (int i = lead; i < 8; ++i) {
        const auto b = static_cast<std::uint8_t>(w >> (56 - 8 * i));
        // Words have structured zeros (the high byte of a generation, of a
        // slot below 256): a predictable branch that skips a multiply.
        if (b != 0) {
          h_ = (h_ * kPow.p[pending_]) ^ b;
          pending_ = 1;
        } else {
          ++pending_;
        }
      }
    }
    if (pending_ > kMaxPending) fold();
  }

  /// `n` raw bytes in order. Zero runs are detected per byte PAIR: the
  /// zero/non-zero pattern of component data is regular at that grain
  /// (the fraction half of a Q16.16 whole number, the low mantissa of a
  /// round float), while a per-byte test would mispredict on sign bytes.
  void bytes(const std::uint8_t* p, std::uint32_t n) noexcept {
    std::uint32_t i = 0;
    for (; i + 2 <= n; i += 2) {
      std::uint16_t pair;
      std::memcpy(&pair, p + i, 2);
      if (pair == 0) {
        pending_ += 2;
        if (pending_ > kMaxPending) fold();
        continue;
      }
      h_ = (h_ * kPow.p[pending_]) ^ p[i];
      h_ = (h_ * kStateHashFnvPrime) ^ p[i + 1];
      pending_ = 1;
    }
    if (i < n) {
      h_ = (h_ * kPow.p[pending_]) ^ p[i];
      pending_ = 1;
    }
  }

  /// The FNV-1a-64 value of everything fed so far.
  [[nodiscard]] std::uint64_t value() const noexcept { return h_ * kPow.p[pending_]; }

 private:
  void fold() noexcept {
    h_ *= kPow.p[pending_];
    pending_ = 0;
  }

  std::uint64_t h_ = kStateHashFnvBasis;
  std::uint32_t pending_ = 0;
};

// --- NaN canonicalisation -------------------------------------------------------

bool hasFloatField(const detail::RegisteredComponent& c) noexcept {
  for (const ComponentField& f : c.fields) {
    if (f.kind == FieldKind::F32 || f.kind == FieldKind::F64) return true;
  }
  return false;
}

// Rewrites every NaN of `value` (a copy of one component value) to the
// canonical quiet NaN. NaN payloads and signs are not portable (x86 and wasm
// produce different default NaNs), so a NaN must never reach the hash with
// its own bits; in a native debug build it is a bug and asserts.
void canonicaliseNaNs(const detail::RegisteredComponent& c, std::uint8_t* value) noexcept {
  for (const ComponentField& f : c.fields) {
    if (f.kind == FieldKind::F32) {
      for (std::uint32_t k = 0; k < f.count; ++k) {
        std::uint8_t* at = value + f.offset + 4 * k;
        std::uint32_t bits;
        std::memcpy(&bits, at, 4);
        if ((bits & 0x7f800000u) == 0x7f800000u && (bits & 0x007fffffu) != 0) {
          LAIGE_MISUSE("a NaN in an f32 component field reached the state hash");
          std::memcpy(at, &kCanonicalNanF32, 4);
        }
      }
    } else if (f.kind == FieldKind::F64) {
      for (std::uint32_t k = 0; k < f.count; ++k) {
        std::uint8_t* at = value + f.offset + 8 * k;
        std::uint64_t bits;
        std::memcpy(&bits, at, 8);
        if ((bits & 0x7ff0000000000000ull) == 0x7ff0000000000000ull &&
            (bits & 0x000fffffffffffffull) != 0) {
          LAIGE_MISUSE("a NaN in an f64 component field reached the state hash");
          std::memcpy(at, &kCanonicalNanF64, 8);
        }
      }
    }
  }
}

// --- The canonical stream ---------------------------------------------------------

// True when archetype a's signature sorts before b's (lexicographic over
// the ascending id lists; a proper prefix sorts first).
bool signatureLess(const detail::Archetype& a, const detail::Archetype& b) noexcept {
  return std::lexicographical_compare(a.sig, a.sig + a.componentCount, b.sig, b.sig + b.componentCount);
}

// Feeds one normalised, non-empty archetype: ids, row count, rows.
void feedArchetype(Stream& st, const detail::EcsState& ecs, const detail::Archetype& a) noexcept {
  for (std::uint32_t c = 0; c < a.componentCount; ++c) st.word(a.sig[c]);
  const std::uint32_t rows = a.rowCount;
  st.word(rows);
  // Per column: its base, its size and, when it holds floats, its
  // registration (for the NaN rewrite). Tags (size 0) feed nothing.
  const std::uint8_t* data[kMaxArchetypeComponents];
  std::uint32_t size[kMaxArchetypeComponents];
  const detail::RegisteredComponent* floats[kMaxArchetypeComponents];
  std::uint32_t cols = 0;
  bool anyFloat = false;
  for (std::uint32_t c = 0; c < a.componentCount; ++c) {
    if (a.cols[c].size == 0) continue;
    const detail::RegisteredComponent& rc = *ecs.components[a.sig[c] - 1];
    data[cols] = a.cols[c].data;
    size[cols] = a.cols[c].size;
    floats[cols] = hasFloatField(rc) ? &rc : nullptr;
    anyFloat = anyFloat || floats[cols] != nullptr;
    ++cols;
  }
  if (cols == 0) return;
  if (!anyFloat) {
    for (std::uint32_t r = 0; r < rows; ++r) {
      for (std::uint32_t c = 0; c < cols; ++c) st.bytes(data[c] + std::size_t{r} * size[c], size[c]);
    }
    return;
  }
  alignas(8) std::uint8_t value[kMaxComponentSize];
  for (std::uint32_t r = 0; r < rows; ++r) {
    for (std::uint32_t c = 0; c < cols; ++c) {
      const std::uint8_t* at = data[c] + std::size_t{r} * size[c];
      if (floats[c] == nullptr) {
        st.bytes(at, size[c]);
      } else {
        std::memcpy(value, at, size[c]);
        canonicaliseNaNs(*floats[c], value);
        st.bytes(value, size[c]);
      }
    }
  }
}

std::uint64_t hashWorld(const detail::WorldState* ws, std::uint64_t tick, bool withSystems) noexcept {
  Stream st;
  st.word(tick);
  if (ws == nullptr) {  // a moved-from world is the empty world
    st.word(0);
    return st.value();
  }
  const Entities& ents = ws->entities;
  st.word(ents.length());
  const std::uint32_t high = ents.highWater();
  const std::uint8_t* living = ents.livingFlags();
  const std::uint16_t* gens = ents.generations();
  for (std::uint32_t slot = 0; slot < high; ++slot) {
    if (living[slot] != 0) st.word((std::uint64_t{slot} << 16) | gens[slot]);
  }

  // Normalise every archetype through the world's own storage (the hash is
  // const to its callers: the logical state does not change, only the row
  // order becomes the canonical one), then walk the non-empty ones in
  // signature order. An insertion sort over at most kMaxArchetypes ids on
  // the stack: no allocation, and the order is total (signatures are
  // unique), so no tie can depend on the sort.
  detail::EcsState& ecs = const_cast<detail::WorldState*>(ws)->ecs;
  detail::normalizeAll(ecs);
  ArchetypeId order[kMaxArchetypes];
  std::uint32_t n = 0;
  for (std::size_t i = 1; i < ecs.archetypes.size(); ++i) {
    const detail::Archetype& a = *ecs.archetypes[i];
    if (a.rowCount == 0) continue;
    std::uint32_t at = n++;
    while (at > 0 && signatureLess(a, *ecs.archetypes[order[at - 1]])) {
      order[at] = order[at - 1];
      --at;
    }
    order[at] = a.id;
  }
  for (std::uint32_t k = 0; k < n; ++k) feedArchetype(st, ecs, *ecs.archetypes[order[k]]);

  if (withSystems) {
    const detail::SystemRegistry& reg = ws->systems;
    for (std::uint32_t id = 1; id <= reg.count; ++id) {
      const detail::SystemRecord& rec = reg.at(id);
      st.word(id);
      st.word(rec.hasSubstream ? 1 : 0);
      st.word(rec.hasSubstream ? rec.rng.seed() : 0);
      st.word(rec.hasSubstream ? rec.rng.statePart1() : 0);
      st.word(rec.hasSubstream ? rec.rng.statePart2() : 0);
    }
  }
  // Change ticks, removal logs and the observer queue, only while in use
  // (so every stream of a world without them is unchanged; docs/changes.md#snapshots).
  if (withSystems && ws->changes.inUse()) st.word(detail::changesDigest(*ws));
  return st.value();
}

// --- stateDiff --------------------------------------------------------------------

// One side of a slot in the diff walk.
struct SlotSide {
  bool live = false;
  std::uint16_t generation = 0;
  const detail::Archetype* arch = nullptr;  // null: no components
  std::uint32_t row = 0;
};

SlotSide sideOf(const detail::WorldState* ws, std::uint32_t slot) noexcept {
  SlotSide s;
  if (ws == nullptr || !ws->entities.isIndexAlive(slot)) return s;
  s.live = true;
  s.generation = ws->entities.generations()[slot];
  const ArchetypeId aid = ws->ecs.archetypeOf[slot];
  if (aid != kNoArchetype) {
    s.arch = ws->ecs.archetypes[aid].get();
    s.row = ws->ecs.rowOf[slot];
  }
  return s;
}

// Counts a difference and reports it while the report has room.
struct DiffReport {
  std::uint32_t total = 0;
  std::uint32_t maxItems = 0;
  void (*sink)(void*, const StateDiffItem&) noexcept = nullptr;
  void* context = nullptr;
  void add(const StateDiffItem& item) noexcept {
    if (total < maxItems) sink(context, item);
    ++total;
  }
};

bool isRelationOf(const detail::WorldState* ws, ComponentTypeId c) noexcept {
  return ws != nullptr && c != 0 && c <= kMaxComponentTypes && ws->relations.relationOf[c] != 0;
}

// Fills a component item's relation fields: a relation when every side
// that has the component registered it as one (its first 4 bytes are then
// the target's handle bits).
void markRelation(StateDiffItem& item, const detail::WorldState* wa, const detail::WorldState* wb) noexcept {
  if ((item.presentInA && !isRelationOf(wa, item.componentId)) ||
      (item.presentInB && !isRelationOf(wb, item.componentId)) || item.size < 4) {
    return;
  }
  item.relation = true;
  if (item.bytesA != nullptr) item.targetA = Entity::fromBits(detail::relationTargetBits(item.bytesA));
  if (item.bytesB != nullptr) item.targetB = Entity::fromBits(detail::relationTargetBits(item.bytesB));
}

bool sameRegistries(const detail::WorldState* a, const detail::WorldState* b) noexcept {
  if (a == nullptr || b == nullptr) return true;  // an empty side has nothing to compare
  if (a->ecs.components.size() != b->ecs.components.size()) return false;
  for (std::size_t i = 0; i < a->ecs.components.size(); ++i) {
    if (a->ecs.components[i]->size != b->ecs.components[i]->size) return false;
  }
  return true;
}

}  // namespace

std::uint64_t World::stateHash(std::uint64_t tick) const noexcept { return hashWorld(s_.get(), tick, true); }

std::uint64_t World::componentStateHash(std::uint64_t tick) const noexcept {
  return hashWorld(s_.get(), tick, false);
}

LAIGE_SETUP_CODE std::uint32_t World::stateDiffImpl(const World& other, std::uint32_t maxItems,
                                   void (*sink)(void*, const StateDiffItem&) noexcept,
                                   void* context) const noexcept {
  const detail::WorldState* wa = s_.get();
  const detail::WorldState* wb = other.s_.get();
  if (!sameRegistries(wa, wb)) {
    LAIGE_MISUSE("World::stateDiff: the two worlds registered different components");
  }
  DiffReport report{0, maxItems, sink, context};
  const std::uint32_t highA = wa != nullptr ? wa->entities.highWater() : 0;
  const std::uint32_t highB = wb != nullptr ? wb->entities.highWater() : 0;
  const std::uint32_t high = std::max(highA, highB);
  for (std::uint32_t slot = 0; slot < high; ++slot) {
    const SlotSide a = sideOf(wa, slot);
    const SlotSide b = sideOf(wb, slot);
    if (!a.live && !b.live) continue;
    const auto slot16 = static_cast<std::uint16_t>(slot);
    const Entity entityA = a.live ? Entity(slot16, a.generation) : Entity{};
    const Entity entityB = b.live ? Entity(slot16, b.generation) : Entity{};
    if (a.live != b.live || a.generation != b.generation) {
      StateDiffItem presence;
      presence.slot = slot16;
      presence.presentInA = a.live;
      presence.presentInB = b.live;
      presence.entityA = entityA;
      presence.entityB = entityB;
      report.add(presence);
    }
    // Two-pointer merge over the ascending signatures: the union of the
    // two component sets, ascending.
    const std::uint32_t na = a.arch != nullptr ? a.arch->componentCount : 0;
    const std::uint32_t nb = b.arch != nullptr ? b.arch->componentCount : 0;
    std::uint32_t i = 0;
    std::uint32_t j = 0;
    while (i < na || j < nb) {
      const ComponentTypeId ca = i < na ? a.arch->sig[i] : kInvalidComponentTypeId;
      const ComponentTypeId cb = j < nb ? b.arch->sig[j] : kInvalidComponentTypeId;
      StateDiffItem item;
      item.slot = slot16;
      item.entityA = entityA;
      item.entityB = entityB;
      if (j >= nb || (i < na && ca < cb)) {
        const detail::Column& col = a.arch->cols[i++];
        item.componentId = ca;
        item.size = col.size;
        item.presentInA = true;
        item.bytesA = col.data + std::size_t{a.row} * col.size;
        markRelation(item, wa, wb);
        report.add(item);
      } else if (i >= na || cb < ca) {
        const detail::Column& col = b.arch->cols[j++];
        item.componentId = cb;
        item.size = col.size;
        item.presentInB = true;
        item.bytesB = col.data + std::size_t{b.row} * col.size;
        markRelation(item, wa, wb);
        report.add(item);
      } else {
        const detail::Column& colA = a.arch->cols[i++];
        const detail::Column& colB = b.arch->cols[j++];
        const std::uint8_t* pa = colA.data + std::size_t{a.row} * colA.size;
        const std::uint8_t* pb = colB.data + std::size_t{b.row} * colB.size;
        // Raw bytes, as the state hash reads them (a differing size can only come from
        // mismatched registries: reported as a difference).
        if (colA.size != colB.size || (colA.size != 0 && std::memcmp(pa, pb, colA.size) != 0)) {
          item.componentId = ca;
          item.size = colA.size;
          item.presentInA = item.presentInB = true;
          item.bytesA = pa;
          item.bytesB = pb;
          markRelation(item, wa, wb);
          report.add(item);
        }
      }
    }
  }
  return report.total;
}

namespace {

// Appends to a NUL-terminated buffer, truncating at its capacity.
struct TextOut {
  char* buffer;
  std::size_t capacity;
  std::size_t length = 0;
  void add(std::string_view s) noexcept {
    for (const char ch : s) {
      if (length + 1 >= capacity) break;
      buffer[length++] = ch;
    }
    buffer[length] = '\0';
  }
  void number(std::uint32_t v) noexcept {
    char digits[10];
    std::size_t n = 0;
    do {
      digits[n++] = static_cast<char>('0' + v % 10);
      v /= 10;
    } while (v != 0);
    while (n > 0) add(std::string_view(&digits[--n], 1));
  }
  // formatEntity's form, written by hand: snprintf would link printf into
  // the wasm module (about 9 KB) for this one diagnostic.
  void entity(Entity e, bool present) noexcept {
    if (!present) {
      add("(none)");
      return;
    }
    add("Entity(");
    number(e.id());
    add(", ");
    number(e.generation());
    add(")");
  }
};

}  // namespace

LAIGE_SETUP_CODE std::size_t formatRelationDiff(const World& a, const StateDiffItem& item, char* buffer,
                                                std::size_t capacity) noexcept {
  if (buffer == nullptr || capacity == 0) return 0;
  TextOut out{buffer, capacity};
  out.add("");
  if (!item.relation) return 0;
  const Result<ComponentInfo> info = a.componentInfo(item.componentId);
  out.entity(item.presentInA ? item.entityA : item.entityB, true);
  out.add(" ");
  out.add(info.ok() ? info.value().name : std::string_view("relation"));
  out.add(" ");
  out.entity(item.targetA, item.presentInA);
  out.add(" -> ");
  out.entity(item.targetB, item.presentInB);
  if (item.bytesA != nullptr && item.bytesB != nullptr && item.size > 4 &&
      std::memcmp(item.bytesA + 4, item.bytesB + 4, item.size - 4) != 0) {
    out.add(" (payload differs)");
  }
  return out.length;
}

}  // namespace laige
