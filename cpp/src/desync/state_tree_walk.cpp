// state_tree_walk.cpp - findDifferingRows (laige/desync.h,
// docs/desync.md#the-state-hash-tree): two trees compared from the root down
// the nodes whose hashes differ, then the differing leaves row by row.
#include <cstring>

#include "laige/desync.h"
#include "laige/detail/change_walk.h"
#include "laige/detail/world_state.h"
#include "setup_code.h"

namespace laige {

namespace {

constexpr std::uint32_t kMaxParts = kMaxComponentTypes + 2;

std::uint32_t loadU32(const std::uint8_t* p) noexcept {
  return std::uint32_t{p[0]} | std::uint32_t{p[1]} << 8 | std::uint32_t{p[2]} << 16 | std::uint32_t{p[3]} << 24;
}

struct Walk {
  const StateTreeSource* a;
  const StateTreeSource* b;
  std::span<std::uint8_t> leafA;
  std::span<std::uint8_t> leafB;
  std::uint32_t maxItems;
  void (*fn)(void*, const StateTreeDifference&) noexcept;
  void* context;
  StateTreeWalkStats stats;
  std::uint32_t total = 0;

  void emit(const StateTreeDifference& d) noexcept {
    if (total < maxItems && fn != nullptr) fn(context, d);
    ++total;
  }

  // Both sides' children of `node`, `n` expected on each.
  Status children(StateTreeNode node, std::uint64_t* outA, std::uint64_t* outB, std::uint32_t n) noexcept {
    ++stats.childQueries;
    Result<std::uint32_t> ra = a->children(a->context, node, {outA, n});
    if (!ra.ok()) return ra.status();
    Result<std::uint32_t> rb = b->children(b->context, node, {outB, n});
    if (!rb.ok()) return rb.status();
    stats.hashes += n;
    if (ra.value() != n || rb.value() != n) {
      return Status::failure(ErrorCode::InvalidArgument, "state_tree_shape_mismatch")
          .with("parts_a", ra.value())
          .with("parts_b", rb.value())
          .with("parts_layout", n);
    }
    return Status{};
  }

  // A leaf's rows: a `header`-byte prefix, then rows of a u32 key (slot or
  // system id) and `extra` bytes, keys strictly ascending in [lo, hi).
  static bool wellFormed(std::span<const std::uint8_t> p, std::uint32_t header, std::uint32_t extra,
                         std::uint32_t lo, std::uint32_t hi) noexcept {
    if (p.size() < header || (p.size() - header) % (4 + extra) != 0) return false;
    if (header == 4 && loadU32(p.data()) != (p.size() - header) / (4 + extra)) return false;
    std::uint64_t previous = 0;
    bool first = true;
    for (std::size_t at = header; at < p.size(); at += 4 + extra) {
      const std::uint32_t key = loadU32(p.data() + at);
      if (key < lo || key >= hi || (!first && key <= previous)) return false;
      previous = key;
      first = false;
    }
    return true;
  }

  Status leaf(StateTreeNode node, ComponentTypeId component, std::uint32_t header, std::uint32_t extra,
              std::uint32_t lo, std::uint32_t hi) noexcept {
    ++stats.leafQueries;
    Result<std::size_t> ra = a->leaf(a->context, node, leafA);
    if (!ra.ok()) return ra.status();
    Result<std::size_t> rb = b->leaf(b->context, node, leafB);
    if (!rb.ok()) return rb.status();
    stats.leafBytesB += rb.value();
    const std::span<const std::uint8_t> pa{leafA.data(), ra.value()};
    const std::span<const std::uint8_t> pb{leafB.data(), rb.value()};
    for (int side = 0; side < 2; ++side) {
      if (!wellFormed(side == 0 ? pa : pb, header, extra, lo, hi)) {
        return Status::failure(ErrorCode::MalformedInput, "state_tree_leaf_malformed")
            .with("side", side == 0 ? "a" : "b")
            .with("part", node.part)
            .with("index", node.index);
      }
    }
    // A merge of the two ascending key lists.
    const std::size_t row = 4 + std::size_t{extra};
    std::size_t i = header;
    std::size_t j = header;
    while (i < pa.size() || j < pb.size()) {
      const std::uint32_t ka = i < pa.size() ? loadU32(pa.data() + i) : 0xFFFFFFFFu;
      const std::uint32_t kb = j < pb.size() ? loadU32(pb.data() + j) : 0xFFFFFFFFu;
      StateTreeDifference d;
      d.part = node.part;
      d.componentId = component;
      d.size = extra;
      d.slot = ka < kb ? ka : kb;
      d.presentInA = ka <= kb;
      d.presentInB = kb <= ka;
      if (d.presentInA) d.bytesA = pa.data() + i + 4;
      if (d.presentInB) d.bytesB = pb.data() + j + 4;
      const bool same = d.presentInA && d.presentInB && std::memcmp(d.bytesA, d.bytesB, extra) == 0;
      if (!same) emit(d);
      if (d.presentInA) i += row;
      if (d.presentInB) j += row;
    }
    return Status{};
  }
};

}  // namespace

LAIGE_SETUP_CODE Result<std::uint32_t> findDifferingRows(const World& layout, const StateTreeSource& a,
                                                        const StateTreeSource& b, std::span<std::uint8_t> scratch,
                                                        std::uint32_t maxItems,
                                                        void (*fn)(void*, const StateTreeDifference&) noexcept,
                                                        void* context, StateTreeWalkStats* stats) noexcept {
  const detail::WorldState* ws = detail::ChangeAccess::state(layout);
  if (ws == nullptr) return Status::failure(ErrorCode::InvalidArgument, "world_moved_from");
  if (a.children == nullptr || a.leaf == nullptr || b.children == nullptr || b.leaf == nullptr) {
    return Status::failure(ErrorCode::InvalidArgument, "state_tree_source_invalid");
  }
  const std::size_t leafBytes = stateTreeLeafCapacity(layout);
  if (scratch.size() < 2 * leafBytes) {
    return Status::failure(ErrorCode::BudgetExhausted, "state_tree_buffer_too_small")
        .with("needed", static_cast<std::uint64_t>(2 * leafBytes))
        .with("given", static_cast<std::uint64_t>(scratch.size()));
  }
  Walk w{&a, &b, scratch.subspan(0, leafBytes), scratch.subspan(leafBytes, leafBytes), maxItems, fn, context, {}};
  const std::uint32_t parts = static_cast<std::uint32_t>(ws->ecs.components.size()) + 2;
  std::uint64_t rootA[kMaxParts];
  std::uint64_t rootB[kMaxParts];
  Status st = w.children(StateTreeNode{0, 0, 0}, rootA, rootB, parts);
  for (std::uint32_t p = 0; st.ok() && p < parts; ++p) {
    if (rootA[p] == rootB[p]) continue;
    if (p == parts - 1) {  // the systems leaf: keyed by system id
      st = w.leaf(StateTreeNode{1, p, 0}, 0, 4, kStateTreeSystemBytes - 4, 1, kMaxSystems + 1);
      continue;
    }
    const std::uint32_t extra = p == 0 ? kStateTreeEntityRowBytes - 4 : ws->ecs.components[p - 1]->size;
    std::uint64_t groupsA[kStateTreeFanout];
    std::uint64_t groupsB[kStateTreeFanout];
    st = w.children(StateTreeNode{1, p, 0}, groupsA, groupsB, kStateTreeFanout);
    for (std::uint32_t g = 0; st.ok() && g < kStateTreeFanout; ++g) {
      if (groupsA[g] == groupsB[g]) continue;
      std::uint64_t chunksA[kStateTreeFanout];
      std::uint64_t chunksB[kStateTreeFanout];
      st = w.children(StateTreeNode{2, p, g}, chunksA, chunksB, kStateTreeFanout);
      for (std::uint32_t k = 0; st.ok() && k < kStateTreeFanout; ++k) {
        if (chunksA[k] == chunksB[k]) continue;
        const std::uint32_t chunk = g * kStateTreeFanout + k;
        const std::uint32_t lo = chunk * kStateTreeChunkSlots;
        st = w.leaf(StateTreeNode{3, p, chunk}, p, 0, extra, lo, lo + kStateTreeChunkSlots);
      }
    }
  }
  if (stats != nullptr) *stats = w.stats;
  if (!st.ok()) return st;
  return w.total;
}

}  // namespace laige
