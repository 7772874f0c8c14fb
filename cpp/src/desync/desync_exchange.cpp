// desync_exchange.cpp - DesyncExchange (laige/desync_exchange.h,
// docs/desync.md#across-peers): the messages, the answers from a pinned
// state, and the walk over the remote's answers.
//
// The walk is findDifferingRows itself, run again whenever a batch of
// answers is complete: the remote side is a StateTreeSource over the
// answers received so far, and a node it has no answer for is recorded as
// missing and answered with the local hashes (so the walk does not descend
// there this pass). A pass that recorded nothing missing is the report; one
// that did sends one request per missing node, all at once, so the number
// of round trips is the tree's depth, not the number of nodes.
#include <algorithm>
#include <cstring>
#include <vector>

#include "laige/desync.h"
#include "laige/desync_exchange.h"
#include "laige/detail/change_walk.h"
#include "laige/detail/world_state.h"
#include "laige/relations.h"
#include "setup_code.h"
#include "snapshot/xxh3_sites.h"

namespace laige {

namespace {

constexpr std::uint32_t kMaxParts = kMaxComponentTypes + 2;
constexpr std::uint32_t kNodeBytes = 12;

void putU32(std::vector<std::uint8_t>& b, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) b.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}
void putU64(std::vector<std::uint8_t>& b, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) b.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}
std::uint32_t getU32(const std::uint8_t* p) noexcept {
  return std::uint32_t{p[0]} | std::uint32_t{p[1]} << 8 | std::uint32_t{p[2]} << 16 | std::uint32_t{p[3]} << 24;
}
std::uint64_t getU64(const std::uint8_t* p) noexcept {
  return std::uint64_t{getU32(p)} | std::uint64_t{getU32(p + 4)} << 32;
}

// A request's identity: kind, then the node.
std::uint64_t keyOf(DesyncMessageKind kind, StateTreeNode n) noexcept {
  return std::uint64_t{static_cast<std::uint8_t>(kind)} << 56 | std::uint64_t{n.level} << 48 |
         std::uint64_t{n.part & 0xFFFFFFu} << 24 | (n.index & 0xFFFFFFu);
}

Status malformed(std::size_t size, std::uint32_t kind, const char* what) noexcept {
  return Status::failure(ErrorCode::MalformedInput, "desync_message_malformed")
      .with("size", static_cast<std::uint64_t>(size))
      .with("kind", kind)
      .with("what", what);
}

std::uint64_t xxh3(const std::uint8_t* p, std::size_t n) noexcept {
  if (n == 0) return 0;
  alignas(64) std::uint8_t st[detail::kXxh3StateBytes];
  detail::xxh3SiteReset(st);
  detail::xxh3SiteUpdate(st, p, n);
  return detail::xxh3SiteDigest(st);
}

void noSystem(World&, SystemContext&) {}

}  // namespace

struct DesyncExchange::State {
  Options o;
  World scratch;
  std::vector<char> systemNames;  // the scratch world's SystemDef names point here (NUL-terminated, back to back)
  DesyncPin pinned;
  bool isPinned = false;
  bool started = false;
  bool failed = false;
  // The remote's answers, by request key (a few dozen: a plain list).
  struct Answer {
    std::uint64_t key = 0;
    std::vector<std::uint64_t> hashes;
    std::vector<std::uint8_t> bytes;
  };
  std::vector<Answer> answers;
  const Answer* answerOf(std::uint64_t key) const noexcept {
    for (const Answer& a : answers) {
      if (a.key == key) return &a;
    }
    return nullptr;
  }
  std::vector<SystemCheckpoint> remoteCheckpoints;
  bool haveCheckpoints = false;
  std::vector<std::uint64_t> outstanding;  // request keys not answered yet
  bool waitingFor(std::uint64_t key) const noexcept { return std::find(outstanding.begin(), outstanding.end(), key) != outstanding.end(); }
  // One walk pass: the nodes it found no answer for, the rows it found.
  std::vector<std::pair<DesyncMessageKind, StateTreeNode>> missing;
  std::vector<DesyncExchangeItem> items;
  std::vector<std::uint8_t> walkScratch;
  DesyncExchangeReport report;
  bool hasReport = false;
  DesyncExchangeStats stats;
  std::vector<std::uint8_t> out;

  void begin(DesyncMessageKind kind, std::uint64_t tick) {
    out.clear();
    out.push_back(static_cast<std::uint8_t>(kind));
    out.push_back(kDesyncMessageVersion);
    out.push_back(0);
    out.push_back(0);
    putU32(out, 0);  // the size, patched by send()
    putU64(out, tick);
  }
  static void node(std::vector<std::uint8_t>& b, StateTreeNode n) {
    putU32(b, n.level);
    putU32(b, n.part);
    putU32(b, n.index);
  }
  void send() noexcept {
    const auto n = static_cast<std::uint32_t>(out.size());
    for (int i = 0; i < 4; ++i) out[4 + i] = static_cast<std::uint8_t>(n >> (8 * i));
    ++stats.messagesSent;
    stats.bytesSent += n;
    o.send(o.sendContext, out);
  }
  void request(DesyncMessageKind kind, StateTreeNode n) {
    const std::uint64_t key = keyOf(kind, n);
    if (waitingFor(key) || answerOf(key) != nullptr) return;
    outstanding.push_back(key);
    begin(kind, pinned.tick);
    if (kind != DesyncMessageKind::CheckpointsRequest) node(out, n);
    send();
  }
  void refuse(std::uint64_t tick, StateTreeNode n, const Status& why) {
    begin(DesyncMessageKind::Error, tick);
    node(out, n);
    const std::string_view reason = why.reason();
    const auto len = static_cast<std::uint32_t>(std::min<std::size_t>(reason.size(), kDesyncMaxReasonBytes));
    putU32(out, len);
    out.insert(out.end(), reason.begin(), reason.begin() + len);
    send();
  }

  Status pin(const DesyncPin& p) noexcept {
    if (isPinned) {
      if (p.tick == pinned.tick) return Status{};
      return Status::failure(ErrorCode::InvalidArgument, "desync_already_pinned").with("tick", p.tick).with("pinned", pinned.tick);
    }
    return restorePin(p);
  }
  Status ensurePinned(std::uint64_t tick) noexcept {
    if (isPinned && tick == pinned.tick) return Status{};
    // A peer that is not walking itself follows the remote to another tick
    // (its earlier pin came from a request too); a walking one stays.
    if (isPinned && (started || o.pin == nullptr)) {
      return Status::failure(ErrorCode::InvalidArgument, "desync_already_pinned").with("tick", tick).with("pinned", pinned.tick);
    }
    if (o.pin == nullptr) {
      return Status::failure(ErrorCode::InvalidArgument, "desync_tick_unavailable").with("tick", tick).with("oldest", 0).with("confirmed", 0);
    }
    DesyncPin p;
    if (Status st = o.pin(o.pinContext, tick, p); st.isError()) return st;
    p.tick = tick;
    return restorePin(p);
  }
  Status restorePin(const DesyncPin& p) noexcept {
    if (Status st = scratch.restore(p.snapshot); st.isError()) return st;
    pinned = p;
    isPinned = true;
    walkScratch.assign(2 * stateTreeLeafCapacity(scratch), 0);
    return Status{};
  }

  Status answer(DesyncMessageKind kind, std::uint64_t tick, StateTreeNode n) {
    Status st = ensurePinned(tick);
    if (st.ok() && kind == DesyncMessageKind::CheckpointsRequest) {
      begin(DesyncMessageKind::Checkpoints, tick);
      putU32(out, static_cast<std::uint32_t>(pinned.checkpoints.size()));
      for (const SystemCheckpoint& c : pinned.checkpoints) {
        putU32(out, c.system);
        putU32(out, c.position);
        putU64(out, c.checksum);
      }
    } else if (st.ok() && kind == DesyncMessageKind::ChildrenRequest) {
      std::uint64_t hashes[kMaxParts];
      const Result<std::uint32_t> r = stateTreeChildren(scratch, n, hashes);
      st = r.status();
      if (r.ok()) {
        begin(DesyncMessageKind::Children, tick);
        node(out, n);
        putU32(out, r.value());
        for (std::uint32_t i = 0; i < r.value(); ++i) putU64(out, hashes[i]);
      }
    } else if (st.ok()) {
      std::vector<std::uint8_t> payload(stateTreeLeafCapacity(scratch));
      const Result<std::size_t> r = stateTreeLeaf(scratch, n, payload);
      st = r.status();
      if (r.ok()) {
        begin(DesyncMessageKind::Leaf, tick);
        node(out, n);
        putU32(out, static_cast<std::uint32_t>(r.value()));
        out.insert(out.end(), payload.begin(), payload.begin() + static_cast<std::ptrdiff_t>(r.value()));
      }
    }
    if (st.isError()) {
      refuse(tick, n, st);
      return st;
    }
    send();
    return Status{};
  }

  // The remote side of the walk: the answers so far; a node without one is
  // missing (and answered with the local hashes, so not descended into).
  static Result<std::uint32_t> remoteChildren(void* context, StateTreeNode n, std::span<std::uint64_t> out) noexcept {
    State& s = *static_cast<State*>(context);
    const Answer* it = s.answerOf(keyOf(DesyncMessageKind::ChildrenRequest, n));
    if (it == nullptr) {
      s.missing.emplace_back(DesyncMessageKind::ChildrenRequest, n);
      return stateTreeChildren(s.scratch, n, out);
    }
    if (it->hashes.size() > out.size()) {
      return Status::failure(ErrorCode::BudgetExhausted, "state_tree_buffer_too_small")
          .with("needed", static_cast<std::uint64_t>(it->hashes.size()))
          .with("given", static_cast<std::uint64_t>(out.size()));
    }
    std::copy(it->hashes.begin(), it->hashes.end(), out.begin());
    return static_cast<std::uint32_t>(it->hashes.size());
  }
  static Result<std::size_t> remoteLeaf(void* context, StateTreeNode n, std::span<std::uint8_t> out) noexcept {
    State& s = *static_cast<State*>(context);
    const Answer* it = s.answerOf(keyOf(DesyncMessageKind::LeafRequest, n));
    if (it == nullptr) {
      s.missing.emplace_back(DesyncMessageKind::LeafRequest, n);
      return stateTreeLeaf(s.scratch, n, out);
    }
    if (it->bytes.size() > out.size()) {
      return Status::failure(ErrorCode::MalformedInput, "state_tree_leaf_malformed").with("side", "b").with("part", n.part).with("index", n.index);
    }
    std::copy(it->bytes.begin(), it->bytes.end(), out.begin());
    return it->bytes.size();
  }
  static void collect(void* context, const StateTreeDifference& d) noexcept {
    State& s = *static_cast<State*>(context);
    DesyncExchangeItem item;
    item.part = d.part;
    item.componentId = d.componentId;
    item.slot = d.slot;
    item.presentInA = d.presentInA;
    item.presentInB = d.presentInB;
    item.size = d.size;
    if (d.bytesA != nullptr) item.bytesA.assign(d.bytesA, d.bytesA + d.size);
    if (d.bytesB != nullptr) item.bytesB.assign(d.bytesB, d.bytesB + d.size);
    const bool systems = d.part == s.scratch.componentCount() + 1;
    if (!systems && d.slot <= Entity::kMaxEntityId) {
      item.entityA = s.scratch.handleAt(static_cast<std::uint16_t>(d.slot));
      item.entityB = item.entityA;
      if (d.part == 0) {
        item.entityB = d.presentInB ? Entity(static_cast<std::uint16_t>(d.slot), static_cast<std::uint16_t>(getU32(d.bytesB)))
                                    : Entity{};
      } else if (!d.presentInB && item.entityA.isNull()) {
        item.entityB = Entity{};
      }
    }
    if (d.componentId != 0) {
      item.field = firstDifferingField(s.scratch, d.componentId, d.bytesA, d.bytesB);
      if (item.field != kNoField) {
        item.fieldName = s.scratch.componentInfo(d.componentId).value().fields[item.field].name;
      }
    }
    s.items.push_back(std::move(item));
  }

  // One pass; sends the next requests, or makes the report.
  Status walk() {
    ++stats.walks;
    missing.clear();
    items.clear();
    StateTreeSource remote;
    remote.context = this;
    remote.children = &remoteChildren;
    remote.leaf = &remoteLeaf;
    const Result<std::uint32_t> rows =
        findDifferingRows(scratch, stateTreeSourceOf(scratch), remote, walkScratch, o.maxItems, &collect, this);
    if (!rows.ok()) {
      failed = true;
      return rows.status();
    }
    if (!missing.empty()) {
      for (const auto& [kind, n] : missing) request(kind, n);
      return Status{};
    }
    DesyncReport& r = report.summary;
    r.tick = pinned.tick;
    r.checkpointsCompared = !pinned.checkpoints.empty() && !remoteCheckpoints.empty();
    if (r.checkpointsCompared) {
      const std::int32_t at = firstDifferingCheckpoint(pinned.checkpoints, remoteCheckpoints);
      if (at >= 0 && static_cast<std::size_t>(at) < pinned.checkpoints.size()) {
        r.firstSystem = SystemId{pinned.checkpoints[static_cast<std::size_t>(at)].system};
        r.firstSystemPosition = static_cast<std::uint32_t>(at);
      }
    }
    r.differences = rows.value();
    r.checksumA = scratch.stateChecksum(pinned.tick);
    report.items = std::move(items);
    items.clear();
    hasReport = true;
    return Status{};
  }

  Status keep(DesyncMessageKind kind, std::uint64_t tick, StateTreeNode n, const std::uint8_t* body, std::size_t size,
              std::size_t total) {
    const DesyncMessageKind asked = kind == DesyncMessageKind::Checkpoints ? DesyncMessageKind::CheckpointsRequest
                                    : kind == DesyncMessageKind::Children  ? DesyncMessageKind::ChildrenRequest
                                                                           : DesyncMessageKind::LeafRequest;
    const std::uint64_t key = keyOf(asked, kind == DesyncMessageKind::Checkpoints ? StateTreeNode{} : n);
    if (!started || failed || hasReport || tick != pinned.tick || !waitingFor(key)) {
      return Status::failure(ErrorCode::InvalidArgument, "desync_answer_unexpected")
          .with("kind", static_cast<std::uint32_t>(kind))
          .with("tick", tick);
    }
    if (size < 4) return malformed(total, static_cast<std::uint32_t>(kind), "count");
    const std::uint32_t count = getU32(body);
    body += 4;
    size -= 4;
    if (kind == DesyncMessageKind::Checkpoints) {
      if (std::uint64_t{count} * 16 != size) return malformed(total, static_cast<std::uint32_t>(kind), "count");
      remoteCheckpoints.clear();
      for (std::uint32_t i = 0; i < count; ++i) {
        remoteCheckpoints.push_back(SystemCheckpoint{getU32(body + 16 * i), getU32(body + 16 * i + 4), getU64(body + 16 * i + 8)});
      }
      haveCheckpoints = true;
    } else if (kind == DesyncMessageKind::Children) {
      if (std::uint64_t{count} * 8 != size || count > kMaxParts) return malformed(total, static_cast<std::uint32_t>(kind), "count");
      std::vector<std::uint64_t> h(count);
      for (std::uint32_t i = 0; i < count; ++i) h[i] = getU64(body + 8 * i);
      stats.hashesReceived += count;
      answers.push_back(Answer{key, std::move(h), {}});
    } else {
      if (count != size) return malformed(total, static_cast<std::uint32_t>(kind), "count");
      // The payload must hash to the chunk hash the remote sent with its parent.
      const std::uint64_t parentKey = keyOf(DesyncMessageKind::ChildrenRequest,
                                            n.level == 3 ? StateTreeNode{2, n.part, n.index / kStateTreeFanout} : StateTreeNode{});
      const Answer* parent = answerOf(parentKey);
      const std::uint32_t at = n.level == 3 ? n.index % kStateTreeFanout : n.part;
      if (parent != nullptr && at < parent->hashes.size() && parent->hashes[at] != xxh3(body, size)) {
        return Status::failure(ErrorCode::MalformedInput, "state_tree_leaf_malformed").with("side", "b").with("part", n.part).with("index", n.index);
      }
      stats.leafBytesReceived += size;
      answers.push_back(Answer{key, {}, std::vector<std::uint8_t>(body, body + size)});
    }
    outstanding.erase(std::find(outstanding.begin(), outstanding.end(), key));
    if (outstanding.empty()) return walk();
    return Status{};
  }

  Status receive(std::span<const std::uint8_t> m) {
    if (m.size() > kDesyncMaxMessageBytes) {
      return Status::failure(ErrorCode::MalformedInput, "desync_message_too_large")
          .with("size", static_cast<std::uint64_t>(m.size()))
          .with("max", kDesyncMaxMessageBytes);
    }
    if (m.size() < kDesyncHeaderBytes) return malformed(m.size(), m.empty() ? 0 : m[0], "header");
    const std::uint32_t kind = m[0];
    if (m[1] != kDesyncMessageVersion || m[2] != 0 || m[3] != 0) return malformed(m.size(), kind, "version");
    if (getU32(m.data() + 4) != m.size()) return malformed(m.size(), kind, "size");
    if (kind < 1 || kind > 7) return Status::failure(ErrorCode::InvalidArgument, "desync_message_unknown_kind").with("kind", kind);
    const std::uint64_t tick = getU64(m.data() + 8);
    const std::uint8_t* body = m.data() + kDesyncHeaderBytes;
    std::size_t size = m.size() - kDesyncHeaderBytes;
    const auto k = static_cast<DesyncMessageKind>(kind);
    StateTreeNode n;
    if (k != DesyncMessageKind::CheckpointsRequest && k != DesyncMessageKind::Checkpoints) {
      if (size < kNodeBytes) return malformed(m.size(), kind, "node");
      n = StateTreeNode{getU32(body), getU32(body + 4), getU32(body + 8)};
      body += kNodeBytes;
      size -= kNodeBytes;
    }
    ++stats.messagesReceived;
    stats.bytesReceived += m.size();
    switch (k) {
      case DesyncMessageKind::CheckpointsRequest:
      case DesyncMessageKind::ChildrenRequest:
      case DesyncMessageKind::LeafRequest:
        if (size != 0) return malformed(m.size(), kind, "body");
        if (tick == 0) return malformed(m.size(), kind, "tick");
        return answer(k, tick, n);
      case DesyncMessageKind::Error: {
        if (size < 4 || getU32(body) != size - 4 || size - 4 > kDesyncMaxReasonBytes) return malformed(m.size(), kind, "reason");
        if (started && tick == pinned.tick) {  // the walk cannot go on
          failed = true;
          outstanding.clear();
        }
        return Status::failure(ErrorCode::InvalidArgument, "desync_remote_refused")
            .with("reason", std::string_view(reinterpret_cast<const char*>(body + 4), size - 4))
            .with("tick", tick);
      }
      default: return keep(k, tick, n, body, size, m.size());
    }
  }
};

namespace {

// The scratch world: the setup of `like` (what a snapshot's identity
// covers), with systems that do nothing (it never runs a tick).
Status buildScratch(const World& like, DesyncExchange::State& s) noexcept {
  const detail::WorldState* ws = detail::ChangeAccess::state(like);
  if (ws == nullptr) return Status::failure(ErrorCode::InvalidArgument, "world_moved_from");
  Result<World> w = World::create(ws->options);
  if (!w.ok()) return w.status();
  World& scratch = w.value();
  for (ComponentTypeId c = 1; c <= like.componentCount(); ++c) {
    const ComponentInfo info = like.componentInfo(c).value();
    ComponentDesc desc;
    desc.name = info.name;
    desc.size = info.size;
    desc.alignment = info.alignment;
    desc.fields = info.fields;
    if (Result<ComponentTypeId> r = scratch.registerComponentDesc(desc); !r.ok()) return r.status();
  }
  for (const detail::RelationRecord& r : ws->relations.relations) {
    RelationOptions ro;
    ro.onTargetDestroyed = static_cast<OnTargetDestroyed>(r.onTargetDestroyed);
    if (Status st = registerRelation(scratch, r.component, ro); st.isError()) return st;
  }
  std::size_t total = 0;
  for (std::uint32_t id = 1; id <= like.systemCount(); ++id) total += std::strlen(like.system(SystemId{id}).value().def.name) + 1;
  s.systemNames.assign(total, '\0');  // sized once: the names never move
  std::size_t at = 0;
  for (std::uint32_t id = 1; id <= like.systemCount(); ++id) {
    const char* name = like.system(SystemId{id}).value().def.name;
    const std::size_t n = std::strlen(name);
    std::memcpy(s.systemNames.data() + at, name, n);
    SystemDef def;
    def.name = s.systemNames.data() + at;
    at += n + 1;
    def.run = &noSystem;
    def.budgetMs = fpx16_16::fromInt32(1);
    if (Result<SystemId> r = scratch.registerSystem(def, nullptr, 0); !r.ok()) return r.status();
  }
  s.scratch = std::move(scratch);
  return Status{};
}

}  // namespace

LAIGE_SETUP_CODE Result<DesyncExchange> DesyncExchange::create(const World& like, const Options& options) noexcept {
  if (options.send == nullptr) {
    return Status::failure(ErrorCode::InvalidArgument, "desync_exchange_invalid").with("option", "send");
  }
  DesyncExchange ex;
  ex.s_ = std::make_unique<State>();
  ex.s_->o = options;
  if (Status st = buildScratch(like, *ex.s_); st.isError()) return st;
  return ex;
}

DesyncExchange::DesyncExchange() noexcept = default;
DesyncExchange::DesyncExchange(DesyncExchange&&) noexcept = default;
DesyncExchange& DesyncExchange::operator=(DesyncExchange&&) noexcept = default;
DesyncExchange::~DesyncExchange() = default;

namespace {
Status movedFrom() noexcept { return Status::failure(ErrorCode::InvalidArgument, "desync_exchange_invalid").with("option", "moved_from"); }
const DesyncExchangeReport kNoReport{};
}  // namespace

LAIGE_SETUP_CODE Status DesyncExchange::pin(const DesyncPin& pin) noexcept {
  if (!s_) return movedFrom();
  return s_->pin(pin);
}

LAIGE_SETUP_CODE Status DesyncExchange::start(std::uint64_t tick) noexcept {
  if (!s_) return movedFrom();
  State& s = *s_;
  if (s.started) return Status::failure(ErrorCode::InvalidArgument, "desync_already_pinned").with("tick", tick).with("pinned", s.pinned.tick);
  if (tick == 0) return Status::failure(ErrorCode::InvalidArgument, "desync_tick_unavailable").with("tick", tick).with("oldest", 0).with("confirmed", 0);
  if (Status st = s.ensurePinned(tick); st.isError()) return st;
  s.started = true;
  s.request(DesyncMessageKind::CheckpointsRequest, StateTreeNode{});
  s.request(DesyncMessageKind::ChildrenRequest, StateTreeNode{});
  return Status{};
}

LAIGE_SETUP_CODE Status DesyncExchange::receive(std::span<const std::uint8_t> message) noexcept {
  if (!s_) return movedFrom();
  return s_->receive(message);
}

std::uint64_t DesyncExchange::pinnedTick() const noexcept { return s_ && s_->isPinned ? s_->pinned.tick : 0; }
bool DesyncExchange::hasReport() const noexcept { return s_ && s_->hasReport; }
const DesyncExchangeReport& DesyncExchange::report() const noexcept { return s_ ? s_->report : kNoReport; }
DesyncExchangeStats DesyncExchange::stats() const noexcept { return s_ ? s_->stats : DesyncExchangeStats{}; }
const World* DesyncExchange::pinnedWorld() const noexcept { return s_ && s_->isPinned ? &s_->scratch : nullptr; }

}  // namespace laige
