// state_checksum.cpp - World::stateChecksum and World::stateChecksumOfSnapshot:
// 64-bit XXH3 over the canonical state, the fast checksum rollback sessions
// compare (docs/determinism.md#the-state-checksum). The stream:
//   1. u64 tick; u64 live entity count;
//   2. u32 slot count L (the highest live slot + 1, 0 when none), then per
//      slot 0..L-1 one u32: (1 << 16) | generation when live, else 0;
//   3. per non-empty archetype in lexicographic signature order: u32
//      component count, one u32 per component id (ascending), u32 row
//      count, then per column with bytes (signature order) the whole column,
//      rows in ascending slot order (column-major), f32/f64 NaNs canonicalised;
//   4. u32 system count, then per system (ascending id) u64 has-substream
//      (0/1), u64 seed, u64 state word 1, u64 state word 2 (zeros without).
// Every number little-endian. The content is World::stateHash's (the same
// live state, the same exclusions: capacity, free-list order, dead slots'
// generations, empty archetypes, archetype ids, addresses); only the order
// and the hash differ: whole columns go to XXH3 at memory speed, where
// FNV-1a's serial multiply costs about 2 ns a byte.
//
// columnChecksum / columnChecksumCached / columnChecksumOfSnapshot (state_hash.h;
// docs/determinism.md#the-column-checksum): the same stream with section 2
// replaced by one u64, the XXH3 of section 2's bytes (u32 L and the slot
// words), and each column of section 3 by one u64, the XXH3 of its bytes.
// The cached form keeps those hashes where the state lives (per archetype
// column: Archetype::colHash; the slot section: in Entities), cleared by
// every write path, so a tick that wrote one column hashes that column and
// the few words around it.
#include <cstring>

#define XXH_INLINE_ALL
#define XXH_STATIC_LINKING_ONLY
#include <xxhash.h>

#include "laige/detail/change_walk.h"
#include "laige/detail/world_state.h"
#include "snapshot/snapshot_changes.h"
#include "laige/snapshot.h"
#include "laige/state_hash.h"
#include "laige/world.h"
#include "snapshot/checksum_simd.h"
#include "snapshot/snapshot_internal.h"
#include "snapshot/xxh3_sites.h"

namespace laige {

namespace {

// The one call site of XXH3's update: with XXH_INLINE_ALL every call
// inlines the whole accumulate loop, so each extra site costs kilobytes of
// wasm (the module's size budget); a call per 256 bytes or per column is
// nothing next to hashing them.
// Natively on x86-64 the AVX2 build of the same update when the CPU has
// it (checksum_simd.h): the same value at twice the speed.
[[gnu::noinline]] void xxh3Update(XXH3_state_t& state, const void* p, std::size_t n) noexcept {
#if LAIGE_CHECKSUM_AVX2
  if (detail::checksumAvx2()) {
    detail::xxh3UpdateAvx2(&state, p, n);
    return;
  }
#endif
  XXH3_64bits_update(&state, p, n);
}

// The one site of XXH3's reset and of its digest (the digest inlines the
// last stripes' accumulate loop: kilobytes of wasm per site).
[[gnu::noinline]] void xxh3Reset(XXH3_state_t& state) noexcept { XXH3_64bits_reset(&state); }
[[gnu::noinline]] std::uint64_t xxh3Digest(const XXH3_state_t& state) noexcept { return XXH3_64bits_digest(&state); }

// XXH3 over a stream fed in pieces: small numbers are gathered in a buffer,
// large runs go to XXH3 directly. XXH3's streaming result does not depend
// on how the input is cut, so the value is 64-bit XXH3 (seed 0) of the whole
// byte sequence.
class ChecksumStream {
 public:
  ChecksumStream() noexcept { xxh3Reset(state_); }
  void u32(std::uint32_t v) noexcept { put(&v, 4); }
  void u64(std::uint64_t v) noexcept { put(&v, 8); }
  void bytes(const void* p, std::size_t n) noexcept {
    if (n <= kBuffer - used_) {
      std::memcpy(buffer_ + used_, p, n);
      used_ += n;
      return;
    }
    flush();
    xxh3Update(state_, p, n);
  }
  [[nodiscard]] std::uint64_t value() noexcept {
    flush();
    return xxh3Digest(state_);
  }

 private:
  static constexpr std::size_t kBuffer = 256;
  void put(const void* p, std::size_t n) noexcept {
    if (used_ + n > kBuffer) flush();
    std::memcpy(buffer_ + used_, p, n);
    used_ += n;
  }
  void flush() noexcept {
    if (used_ != 0) xxh3Update(state_, buffer_, used_);
    used_ = 0;
  }
  XXH3_state_t state_;
  std::size_t used_ = 0;
  std::uint8_t buffer_[kBuffer];
};

// Section 2 from a generation table and living flags of `high` slots.
// `gens`: `high` little-endian u16 (the world's table, or a snapshot's
// bytes, which carry no alignment promise: read through loadU16).
[[gnu::noinline]] void feedSlots(ChecksumStream& st, const std::uint8_t* gens, const std::uint8_t* living,
                                 std::uint32_t high) noexcept {
  std::uint32_t last = high;
  while (last > 0 && living[last - 1] == 0) --last;
  st.u32(last);
  // Blocks of words built without a branch (vectorisable), then hashed.
  constexpr std::uint32_t kBlock = 1024;
  std::uint32_t words[kBlock];
  for (std::uint32_t at = 0; at < last; at += kBlock) {
    const std::uint32_t n = last - at < kBlock ? last - at : kBlock;
    // Indexed from block pointers (an `at + i` index could wrap, which
    // keeps g++ from vectorising the loop).
    const std::uint8_t* g = gens + 2 * std::size_t{at};
    const std::uint8_t* l = living + at;
    for (std::size_t i = 0; i < n; ++i) {
      const auto mask = static_cast<std::uint32_t>(-static_cast<std::int32_t>(l[i] != 0));
      words[i] = (0x10000u | detail::loadU16(g + 2 * i)) & mask;
    }
    st.bytes(words, std::size_t{n} * 4);
  }
}

// True when component `c` is made of f32 fields only, packed (the common
// float component: its column is an array of f32, scanned as one).
bool allF32(const detail::RegisteredComponent& c) noexcept {
  std::uint32_t bytes = 0;
  for (const ComponentField& f : c.fields) {
    if (f.kind != FieldKind::F32) return false;
    bytes += 4 * f.count;
  }
  return bytes == c.size;
}

bool hasFloats(const detail::RegisteredComponent& c) noexcept {
  for (const ComponentField& f : c.fields) {
    if (f.kind == FieldKind::F32 || f.kind == FieldKind::F64) return true;
  }
  return false;
}

bool isNanF32(std::uint32_t bits) noexcept { return (bits & 0x7fffffffu) > 0x7f800000u; }
bool isNanF64(std::uint64_t bits) noexcept { return (bits & 0x7fffffffffffffffull) > 0x7ff0000000000000ull; }

// Rewrites the NaNs of one value of `c` to the canonical quiet NaNs.
void canonicalise(const detail::RegisteredComponent& c, std::uint8_t* value) noexcept {
  for (const ComponentField& f : c.fields) {
    const std::uint32_t width = f.kind == FieldKind::F32 ? 4 : f.kind == FieldKind::F64 ? 8 : 0;
    for (std::uint32_t k = 0; width != 0 && k < f.count; ++k) {
      std::uint8_t* at = value + f.offset + width * k;
      if (width == 4) {
        std::uint32_t bits;
        std::memcpy(&bits, at, 4);
        if (isNanF32(bits)) std::memcpy(at, &kCanonicalNanF32, 4);
      } else {
        std::uint64_t bits;
        std::memcpy(&bits, at, 8);
        if (isNanF64(bits)) std::memcpy(at, &kCanonicalNanF64, 8);
      }
    }
  }
}

// True when the `rows` values of `c` at `data` hold a NaN.
bool columnHasNan(const detail::RegisteredComponent& c, const std::uint8_t* data, std::size_t rows) noexcept {
  if (allF32(c)) {
    // The column as one array of f32 (checksum_simd.h).
    const std::size_t words = rows * c.size / 4;
#if LAIGE_CHECKSUM_AVX2
    if (detail::checksumAvx2()) return detail::f32HasNanAvx2(data, words);
#endif
    return detail::f32HasNanPortable(data, words);
  }
  alignas(8) std::uint8_t value[kMaxComponentSize];
  for (std::size_t r = 0; r < rows; ++r) {
    std::memcpy(value, data + r * c.size, c.size);
    canonicalise(c, value);
    if (std::memcmp(value, data + r * c.size, c.size) != 0) return true;
  }
  return false;
}

// One column of `rows` values of `c`: in blocks that stay in L1 between the
// NaN scan and the hash; a block with a NaN goes through a canonical copy.
[[gnu::noinline]] void feedColumn(ChecksumStream& st, const detail::RegisteredComponent& c, const std::uint8_t* data,
                std::uint32_t rows) noexcept {
  const std::size_t total = std::size_t{rows} * c.size;
  if (total == 0) return;
  if (!hasFloats(c)) {
    st.bytes(data, total);
    return;
  }
  const std::size_t blockRows = c.size >= 4096 ? 1 : 4096 / c.size;
  alignas(8) std::uint8_t value[kMaxComponentSize];
  for (std::size_t r = 0; r < rows; r += blockRows) {
    const std::size_t n = rows - r < blockRows ? rows - r : blockRows;
    const std::uint8_t* block = data + r * c.size;
    if (!columnHasNan(c, block, n)) {
      st.bytes(block, n * c.size);
      continue;
    }
    for (std::size_t k = 0; k < n; ++k) {
      std::memcpy(value, block + k * c.size, c.size);
      canonicalise(c, value);
      st.bytes(value, c.size);
    }
  }
}

// The column stream's value of one column: 64-bit XXH3 (seed 0) of its
// canonical bytes (docs/determinism.md#the-column-checksum).
[[gnu::noinline]] std::uint64_t columnHash(const detail::RegisteredComponent& c, const std::uint8_t* data,
                                           std::uint32_t rows) noexcept {
  ChecksumStream st;
  feedColumn(st, c, data, rows);
  return st.value();
}

// One archetype as the stream needs it, from the world or from a snapshot;
// `cache` (the world's archetype, or null) keeps the column hashes.
struct ArchetypeView {
  std::uint32_t count = 0;
  ComponentTypeId ids[kMaxArchetypeComponents] = {};
  std::uint32_t rows = 0;
  const std::uint8_t* cols[kMaxArchetypeComponents] = {};
  detail::Archetype* cache = nullptr;
};

bool idsLess(const ArchetypeView& a, const ArchetypeView& b) noexcept {
  for (std::uint32_t i = 0; i < a.count && i < b.count; ++i) {
    if (a.ids[i] != b.ids[i]) return a.ids[i] < b.ids[i];
  }
  return a.count < b.count;
}

// `hashes`: the column stream (one u64 hash per column with bytes, from
// the archetype's cache when its bit says the hash is current); else the
// byte stream (the columns themselves).
[[gnu::noinline]] void feedArchetype(ChecksumStream& st, const detail::EcsState& ecs, const ArchetypeView& a,
                                    bool hashes) noexcept {
  st.u32(a.count);
  for (std::uint32_t c = 0; c < a.count; ++c) st.u32(a.ids[c]);
  st.u32(a.rows);
  for (std::uint32_t c = 0; c < a.count; ++c) {
    const detail::RegisteredComponent& comp = *ecs.components[a.ids[c] - 1];
    if (!hashes) {
      feedColumn(st, comp, a.cols[c], a.rows);
      continue;
    }
    if (comp.size == 0) continue;
    const std::uint32_t bit = std::uint32_t{1} << c;
    if (a.cache == nullptr) {
      st.u64(columnHash(comp, a.cols[c], a.rows));
    } else {
      if ((a.cache->colHashOk & bit) == 0) {
        a.cache->colHash[c] = columnHash(comp, a.cols[c], a.rows);
        a.cache->colHashOk |= bit;
      }
      st.u64(a.cache->colHash[c]);
    }
  }
}

// Sections 3: `n` non-empty archetypes, each made by view(k, out), fed in
// signature order (an insertion sort of indices: at most kMaxArchetypes, no
// allocation, a total order since signatures are unique).
template <class View>
void feedArchetypes(ChecksumStream& st, const detail::EcsState& ecs, std::uint32_t n, bool hashes,
                    View&& view) noexcept {
  std::uint16_t order[kMaxArchetypes];
  ArchetypeView a;
  ArchetypeView b;
  for (std::uint32_t k = 0; k < n; ++k) {
    view(k, a);
    std::uint32_t at = k;
    while (at > 0) {
      view(order[at - 1], b);
      if (!idsLess(a, b)) break;
      order[at] = order[at - 1];
      --at;
    }
    order[at] = static_cast<std::uint16_t>(k);
  }
  for (std::uint32_t k = 0; k < n; ++k) {
    view(order[k], a);
    feedArchetype(st, ecs, a, hashes);
  }
}

// The checksum of a world (null: moved from, the empty world): the byte
// stream (stateChecksum), or the column stream with or without the cache.
enum class Stream : std::uint8_t { Bytes, Columns, ColumnsCached };

// One body for the three entry points below (the module's size budget).
[[gnu::noinline]] std::uint64_t checksumOfWorld(const detail::WorldState* state, std::uint64_t tick, Stream mode) noexcept {
  ChecksumStream st;
  st.u64(tick);
  if (!state) {  // a moved-from world is the empty world
    st.u64(0);
    st.u32(0);
    st.u32(0);
    return st.value();
  }
  // Inside a live iteration the walk may still write rows after this call
  // (its Write columns were forgotten when it began): nothing is cached then.
  if (mode == Stream::ColumnsCached && state->ecs.guard.active) mode = Stream::Columns;
  const Entities& ents = state->entities;
  st.u64(ents.length());
  if (mode == Stream::Bytes) {
    feedSlots(st, reinterpret_cast<const std::uint8_t*>(ents.generations()), ents.livingFlags(), ents.highWater());
  } else {
    // The column stream: the slot section as one hash, kept while no
    // entity is spawned, despawned or restored.
    std::uint64_t slots = 0;
    if (mode != Stream::ColumnsCached || !detail::EntitiesAccess::cachedSlotsHash(ents, slots)) {
      ChecksumStream inner;
      feedSlots(inner, reinterpret_cast<const std::uint8_t*>(ents.generations()), ents.livingFlags(),
                ents.highWater());
      slots = inner.value();
      if (mode == Stream::ColumnsCached) {
        detail::EntitiesAccess::cacheSlotsHash(const_cast<Entities&>(ents), slots);
      }
    }
    st.u64(slots);
  }
  // Normalised through the world's own state (the logical state does not
  // change, only the row order becomes the canonical one), as stateHash.
  detail::EcsState& ecs = const_cast<detail::WorldState&>(*state).ecs;
  detail::normalizeAll(ecs);
  detail::Archetype* live[kMaxArchetypes];
  std::uint32_t n = 0;
  for (std::size_t i = 1; i < ecs.archetypes.size(); ++i) {
    if (ecs.archetypes[i]->rowCount != 0) live[n++] = ecs.archetypes[i].get();
  }
  feedArchetypes(st, ecs, n, mode != Stream::Bytes, [&](std::uint32_t k, ArchetypeView& v) noexcept {
    const detail::Archetype& a = *live[k];
    v.cache = mode == Stream::ColumnsCached ? live[k] : nullptr;
    v.count = a.componentCount;
    v.rows = a.rowCount;
    for (std::uint32_t c = 0; c < a.componentCount; ++c) {
      v.ids[c] = a.sig[c];
      v.cols[c] = a.cols[c].data;
    }
  });
  const detail::SystemRegistry& reg = state->systems;
  st.u32(reg.count);
  for (std::uint32_t id = 1; id <= reg.count; ++id) {
    const detail::SystemRecord& rec = reg.at(id);
    st.u64(rec.hasSubstream ? 1 : 0);
    st.u64(rec.hasSubstream ? rec.rng.seed() : 0);
    st.u64(rec.hasSubstream ? rec.rng.statePart1() : 0);
    st.u64(rec.hasSubstream ? rec.rng.statePart2() : 0);
  }
  // The change state while it is in use, as the state hash folds it in
  // (docs/changes.md#snapshots): a world that never used it is unchanged.
  if (state->changes.inUse()) st.u64(detail::changesDigest(*state));
  return st.value();
}

[[gnu::noinline]] Result<std::uint64_t> checksumOfSnapshot(const detail::WorldState* state,
                                                          std::span<const std::uint8_t> bytes, bool hashes) noexcept {
  using detail::loadU16;
  using detail::loadU32;
  using detail::loadU64;
  using detail::pad8;
  if (!state) return Status::failure(ErrorCode::InvalidArgument, "world_moved_from");
  const auto truncated = [&](std::uint64_t needed) {
    return Status::failure(ErrorCode::MalformedInput, "snapshot_truncated")
        .with("needed", needed)
        .with("given", static_cast<std::uint64_t>(bytes.size()));
  };
  const auto corrupt = [](const char* what, std::uint64_t offset) {
    return Status::failure(ErrorCode::MalformedInput, "snapshot_corrupt").with("what", what).with("offset", offset);
  };
  const std::uint8_t* base = bytes.data();
  const std::uint64_t size = bytes.size();
  if (size < kSnapshotHeaderBytes + detail::kSnapshotCountersBytes) {
    return truncated(kSnapshotHeaderBytes + detail::kSnapshotCountersBytes);
  }
  if (std::memcmp(base, kSnapshotMagic, 8) != 0) return corrupt("magic", 0);
  const std::uint32_t version = loadU32(base + 8);
  if (version != kSnapshotFormatVersion && version != kSnapshotOldestFormatVersion) {
    return Status::failure(ErrorCode::InvalidArgument, "snapshot_version")
        .with("version", loadU32(base + 8))
        .with("supported", kSnapshotFormatVersion);
  }
  if (loadU64(base + kSnapshotTotalOffset) != size) return corrupt("total_size", kSnapshotTotalOffset);
  const detail::WorldState& ws = *state;
  const std::uint64_t identity = detail::snapshotSetupIdentity(ws);
  if (loadU64(base + kSnapshotIdentityOffset) != identity) {
    return Status::failure(ErrorCode::InvalidArgument, "snapshot_setup_mismatch")
        .with("what", "identity")
        .with("expected", identity)
        .with("given", loadU64(base + kSnapshotIdentityOffset));
  }
  const std::uint32_t systems = loadU32(base + 48);
  const std::uint32_t archetypes = loadU32(base + 52);
  const std::uint32_t high = loadU32(base + 56);
  const std::uint32_t freeCount = loadU32(base + 60);
  if (archetypes > kMaxArchetypes || high > Entity::kMaxEntities || freeCount > high) {
    return corrupt("header_counts", 48);
  }
  const std::uint8_t* counters = base + detail::kSnapshotCountersOffset;
  std::uint64_t at = std::uint64_t{detail::kSnapshotCountersOffset} + detail::kSnapshotCountersBytes;
  const std::uint64_t systemsAt = at;
  at += std::uint64_t{systems} * detail::kSnapshotSystemBytes;
  const std::uint64_t gensAt = at;
  at += pad8(std::uint64_t{high} * 2);
  const std::uint64_t livingAt = at;
  at += pad8(high) + pad8(std::uint64_t{freeCount} * 2);
  if (at > size) return truncated(at);
  // Archetype sections: located and bounds-checked before anything is fed.
  struct Section {
    const std::uint8_t* sig;
    const std::uint8_t* columns;
    std::uint32_t count;
    std::uint32_t rows;
  };
  Section sections[kMaxArchetypes];
  std::uint32_t n = 0;
  const detail::EcsState& ecs = ws.ecs;
  const std::uint32_t components = static_cast<std::uint32_t>(ecs.components.size());
  for (std::uint32_t i = 0; i < archetypes; ++i) {
    if (at + detail::kSnapshotArchetypeHeadBytes > size) return truncated(at + detail::kSnapshotArchetypeHeadBytes);
    Section s{nullptr, nullptr, loadU32(base + at), loadU32(base + at + 4)};
    if (s.count > kMaxArchetypeComponents || s.rows > Entity::kMaxEntities) return corrupt("archetype_counts", at);
    at += detail::kSnapshotArchetypeHeadBytes;
    if (at + pad8(std::uint64_t{s.count} * 2) > size) return truncated(at + pad8(std::uint64_t{s.count} * 2));
    s.sig = base + at;
    std::uint64_t columnBytes = 0;
    for (std::uint32_t c = 0; c < s.count; ++c) {
      const std::uint32_t id = loadU16(s.sig + 2 * c);
      if (id == 0 || id > components || (c > 0 && id <= loadU16(s.sig + 2 * (c - 1)))) {
        return corrupt("signature", at + 2 * c);
      }
      columnBytes += pad8(std::uint64_t{s.rows} * ecs.components[id - 1]->size);
    }
    at += pad8(std::uint64_t{s.count} * 2) + pad8(std::uint64_t{s.rows} * 2);
    s.columns = base + static_cast<std::size_t>(at <= size ? at : size);
    at += columnBytes;
    if (at > size) return truncated(at);
    if (s.rows != 0) sections[n++] = s;
  }
  ChecksumStream st;
  st.u64(loadU64(counters));  // the ticks run: the tick the state is after
  st.u64(loadU32(counters + 24));
  // The slot section (the column stream takes it as one hash).
  {
    ChecksumStream inner;
    feedSlots(hashes ? inner : st, base + static_cast<std::size_t>(gensAt), base + static_cast<std::size_t>(livingAt),
              high);
    if (hashes) st.u64(inner.value());
  }
  feedArchetypes(st, ecs, n, hashes, [&](std::uint32_t k, ArchetypeView& v) noexcept {
    const Section& s = sections[k];
    v.count = s.count;
    v.rows = s.rows;
    const std::uint8_t* col = s.columns;
    for (std::uint32_t c = 0; c < s.count; ++c) {
      v.ids[c] = loadU16(s.sig + 2 * c);
      v.cols[c] = col;
      col += pad8(std::uint64_t{s.rows} * ecs.components[v.ids[c] - 1]->size);
    }
  });
  st.u32(systems);
  for (std::uint32_t id = 0; id < systems; ++id) {
    const std::uint8_t* p = base + static_cast<std::size_t>(systemsAt) + std::size_t{id} * detail::kSnapshotSystemBytes;
    const bool has = (loadU32(p) & 1u) != 0;
    st.u64(has ? 1 : 0);
    st.u64(has ? loadU64(p + 8) : 0);
    st.u64(has ? loadU64(p + 16) : 0);
    st.u64(has ? loadU64(p + 24) : 0);
  }
  // A version-2 snapshot carries the change state after its archetypes.
  if (version >= detail::kSnapshotChangesVersion && at < size) {
    std::uint64_t digest = 0;
    if (!detail::changesDigestOfSection(base + static_cast<std::size_t>(at), size - at, systems, digest)) {
      return corrupt("changes", at);
    }
    st.u64(digest);
  }
  return st.value();
}

}  // namespace

// The sites above for the state tree (snapshot/xxh3_sites.h): thin
// wrappers, so the module (which does not use the tree) is unchanged.
namespace detail {
static_assert(sizeof(XXH3_state_t) <= kXxh3StateBytes && alignof(XXH3_state_t) <= 64);
void xxh3SiteReset(void* state) noexcept { xxh3Reset(*static_cast<XXH3_state_t*>(state)); }
void xxh3SiteUpdate(void* state, const void* p, std::size_t n) noexcept {
  xxh3Update(*static_cast<XXH3_state_t*>(state), p, n);
}
std::uint64_t xxh3SiteDigest(const void* state) noexcept { return xxh3Digest(*static_cast<const XXH3_state_t*>(state)); }
void canonicaliseValue(const RegisteredComponent& c, std::uint8_t* value) noexcept { canonicalise(c, value); }
bool componentHasFloats(const RegisteredComponent& c) noexcept { return hasFloats(c); }
}  // namespace detail

std::uint64_t World::stateChecksum(std::uint64_t tick) const noexcept {
  return checksumOfWorld(s_.get(), tick, Stream::Bytes);
}

Result<std::uint64_t> World::stateChecksumOfSnapshot(std::span<const std::uint8_t> bytes) const noexcept {
  return checksumOfSnapshot(s_.get(), bytes, false);
}

std::uint64_t columnChecksum(const World& world, std::uint64_t tick) noexcept {
  return checksumOfWorld(detail::ChangeAccess::state(world), tick, Stream::Columns);
}

std::uint64_t columnChecksumCached(World& world, std::uint64_t tick) noexcept {
  return checksumOfWorld(detail::ChangeAccess::state(world), tick, Stream::ColumnsCached);
}

Result<std::uint64_t> columnChecksumOfSnapshot(const World& world, std::span<const std::uint8_t> bytes) noexcept {
  return checksumOfSnapshot(detail::ChangeAccess::state(world), bytes, true);
}

}  // namespace laige
