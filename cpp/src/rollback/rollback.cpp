// rollback.cpp - RollbackSession: options, allocation, the stock combiners
// and the two input calls (setLocalInput, addRemoteInput). advance() and
// confirmation are in rollback_advance.cpp. docs/rollback.md.
#include "laige/rollback.h"

#include <cstdint>
#include <cstring>
#include <utility>

#include "laige/logging.h"
#include "laige/world.h"
#include "logging/log_texts.h"
#include "rollback/rollback_internal.h"

namespace laige {

namespace {

Status optionInvalid(const char* option, std::uint64_t value, std::uint64_t min, std::uint64_t max) noexcept {
  return Status::failure(ErrorCode::InvalidArgument, "rollback_option_invalid")
      .with("option", option)
      .with("value", value)
      .with("min", min)
      .with("max", max);
}

Status checkOptions(const RollbackSession::Options& o) noexcept {
  if (o.players < 1 || o.players > kMaxRollbackPlayers) return optionInvalid("players", o.players, 1, kMaxRollbackPlayers);
  if (o.localPlayer >= o.players) return optionInvalid("localPlayer", o.localPlayer, 0, o.players - 1);
  if (o.depth < 1 || o.depth > kMaxRollbackDepth) return optionInvalid("depth", o.depth, 1, kMaxRollbackDepth);
  if (o.maxInputBytes > kMaxRollbackInputBytes) {
    return optionInvalid("maxInputBytes", o.maxInputBytes, 0, kMaxRollbackInputBytes);
  }
  if (o.inputLead < 1 || o.inputLead > kMaxRollbackInputLead) {
    return optionInvalid("inputLead", o.inputLead, 1, kMaxRollbackInputLead);
  }
  if (o.maxPredictionTicks > o.depth) return optionInvalid("maxPredictionTicks", o.maxPredictionTicks, 0, o.depth);
  if (o.hashHistory < 1 || o.hashHistory > kMaxRollbackHashHistory) {
    return optionInvalid("hashHistory", o.hashHistory, 1, kMaxRollbackHashHistory);
  }
  if (o.checksum != RollbackChecksum::Fast && o.checksum != RollbackChecksum::StateHash &&
      o.checksum != RollbackChecksum::Columns) {
    return optionInvalid("checksum", static_cast<std::uint64_t>(o.checksum), 0, 2);
  }
  if (o.snapshotCapacity > (std::size_t{1} << 30)) {
    return optionInvalid("snapshotCapacity", o.snapshotCapacity, 0, std::uint64_t{1} << 30);
  }
  return Status{};
}

Status allocFailed(std::uint64_t bytes) noexcept {
  return Status::failure(ErrorCode::BudgetExhausted, "rollback_alloc_failed").with("bytes", bytes);
}

Status tooLarge(std::uint32_t player, std::size_t size, std::uint32_t max) noexcept {
  return Status::failure(ErrorCode::InvalidArgument, "input_too_large")
      .with("player", player)
      .with("size", static_cast<std::uint64_t>(size))
      .with("max", max);
}

bool sameBytes(const std::uint8_t* a, std::uint32_t aSize, std::span<const std::uint8_t> b) noexcept {
  return aSize == b.size() && (aSize == 0 || std::memcmp(a, b.data(), aSize) == 0);
}

}  // namespace

Result<RollbackSession> RollbackSession::create(World& world, const SystemSchedule& schedule,
                                                const Options& options) noexcept {
  if (Status st = checkOptions(options); st.isError()) return st;
  if (!world.isLive()) return Status::failure(ErrorCode::InvalidArgument, "world_moved_from");
  auto s = std::unique_ptr<detail::RollbackState>(new (std::nothrow) detail::RollbackState());
  if (!s) return allocFailed(sizeof(detail::RollbackState));
  detail::RollbackState& st = *s;
  st.world = &world;
  st.schedule = &schedule;
  st.o = options;
  Options& o = st.o;
  const std::uint32_t prefixed = o.players * (1 + o.maxInputBytes);
  if (o.maxCombinedBytes == 0) o.maxCombinedBytes = prefixed;
  if (o.combine == nullptr) {
    o.combine = &RollbackSession::combineLengthPrefixed;
    if (o.maxCombinedBytes < prefixed) o.maxCombinedBytes = prefixed;
  }
  if (o.snapshotCapacity == 0) {
    const std::size_t now = world.snapshotSize();
    o.snapshotCapacity = now * 2 > now + 65536 ? now * 2 : now + 65536;
  }
  o.snapshotCapacity = (o.snapshotCapacity + 7) & ~std::size_t{7};

  st.snapSlots = o.depth + 2;
  st.snapCapacity = o.snapshotCapacity;
  // The ring's byte count can pass SIZE_MAX in wasm (32-bit size_t): then it
  // cannot be allocated at all, and a wrapped product would be too small.
  const std::uint64_t ringBytes = std::uint64_t{st.snapCapacity} * st.snapSlots;
  if (ringBytes > SIZE_MAX) return allocFailed(ringBytes);
  st.snapBytes = detail::allocArray<std::uint8_t>(static_cast<std::size_t>(ringBytes));
  st.snapSize = detail::allocArray<std::size_t>(st.snapSlots);
  st.snapClock = detail::allocArray<std::uint64_t>(st.snapSlots);
  st.inputSlots = o.depth + o.inputLead + 1;
  st.stride = o.maxInputBytes == 0 ? 1 : o.maxInputBytes;
  const std::size_t slots = std::size_t{o.players} * st.inputSlots;
  st.inTick = detail::allocArray<std::uint64_t>(slots);
  st.inKnown = detail::allocArray<std::uint8_t>(slots);
  st.inSize = detail::allocArray<std::uint16_t>(slots);
  st.usedSize = detail::allocArray<std::uint16_t>(slots);
  st.inBytes = detail::allocArray<std::uint8_t>(slots * st.stride);
  st.usedBytes = detail::allocArray<std::uint8_t>(slots * st.stride);
  st.hashSlots = o.depth + 2;
  st.hashTick = detail::allocArray<std::uint64_t>(st.hashSlots);
  st.hashValue = detail::allocArray<std::uint64_t>(st.hashSlots);
  st.hashReady = detail::allocArray<std::uint8_t>(st.hashSlots);
  // One advance confirms at most depth + 1 ticks: keep at least those, so
  // every tick an advance reports can still be looked up after it.
  st.confirmedSlots = o.hashHistory > o.depth + 2 ? o.hashHistory : o.depth + 2;
  st.confirmedTick = detail::allocArray<std::uint64_t>(st.confirmedSlots);
  st.confirmedValue = detail::allocArray<std::uint64_t>(st.confirmedSlots);
  st.combined = detail::allocArray<std::uint8_t>(o.maxCombinedBytes);
  if (!st.snapBytes || !st.snapSize || !st.snapClock || !st.inTick || !st.inKnown || !st.inSize || !st.usedSize || !st.inBytes ||
      !st.usedBytes || !st.hashTick || !st.hashValue || !st.hashReady || !st.confirmedTick ||
      !st.confirmedValue || !st.combined) {
    return allocFailed(ringBytes + std::uint64_t{slots} * (2 * st.stride + 13));
  }
  // Slot tick 0 means "empty" for every tick >= 1 (tick 0 is never run).
  return RollbackSession(std::move(s));
}

namespace {

// The two built-in combiners: the players' inputs in player order, each
// preceded by its u8 length when `lengthPrefixed`.
Status combineInOrder(bool lengthPrefixed, const RollbackTickInputs& inputs, std::span<std::uint8_t> out,
                      std::uint32_t& written) noexcept {
  std::size_t n = 0;
  for (std::uint32_t p = 0; p < inputs.players; ++p) n += (lengthPrefixed ? 1 : 0) + inputs.input[p].size();
  if (n > out.size()) {
    return Status::failure(ErrorCode::BudgetExhausted, "combined_input_too_large")
        .with("size", static_cast<std::uint64_t>(n))
        .with("max", static_cast<std::uint64_t>(out.size()));
  }
  std::uint8_t* w = out.data();
  for (std::uint32_t p = 0; p < inputs.players; ++p) {
    const std::span<const std::uint8_t> in = inputs.input[p];
    if (lengthPrefixed) *w++ = static_cast<std::uint8_t>(in.size());
    if (!in.empty()) std::memcpy(w, in.data(), in.size());
    w += in.size();
  }
  written = static_cast<std::uint32_t>(n);
  return Status{};
}

}  // namespace

Status RollbackSession::combineLengthPrefixed(void*, std::uint64_t, const RollbackTickInputs& inputs,
                                              std::span<std::uint8_t> out, std::uint32_t& written) noexcept {
  return combineInOrder(true, inputs, out, written);
}

Status RollbackSession::combineConcatenated(void*, std::uint64_t, const RollbackTickInputs& inputs,
                                            std::span<std::uint8_t> out, std::uint32_t& written) noexcept {
  return combineInOrder(false, inputs, out, written);
}

RollbackSession::RollbackSession() noexcept = default;
RollbackSession::RollbackSession(std::unique_ptr<detail::RollbackState> s) noexcept : s_(std::move(s)) {}
RollbackSession::RollbackSession(RollbackSession&& other) noexcept = default;
RollbackSession& RollbackSession::operator=(RollbackSession&& other) noexcept = default;
RollbackSession::~RollbackSession() = default;

namespace {

Status movedFrom() noexcept { return Status::failure(ErrorCode::InvalidArgument, "session_moved_from"); }

Status insideAdvance(const char* call) noexcept {
  return Status::failure(ErrorCode::InvalidArgument, "input_inside_advance").with("call", call);
}

Status tooEarly(std::uint64_t tick, std::uint64_t newest) noexcept {
  return Status::failure(ErrorCode::InvalidArgument, "input_too_early").with("tick", tick).with("newest", newest);
}

Status conflict(std::uint32_t player, std::uint64_t tick, std::uint64_t confirmed) noexcept {
  return Status::failure(ErrorCode::InvalidArgument, "input_conflict")
      .with("player", player)
      .with("tick", tick)
      .with("confirmed", tick <= confirmed);
}

}  // namespace

Status RollbackSession::setLocalInput(std::uint64_t tick, std::span<const std::uint8_t> bytes) noexcept {
  if (!s_) return movedFrom();
  detail::RollbackState& s = *s_;
  if (s.inAdvance) return insideAdvance("setLocalInput");
  const std::uint32_t p = s.o.localPlayer;
  if (bytes.size() > s.o.maxInputBytes) return tooLarge(p, bytes.size(), s.o.maxInputBytes);
  const std::uint64_t newest = s.current + s.o.inputLead;
  if (tick > newest) return tooEarly(tick, newest);
  const std::size_t slot = s.slotOf(p, tick);
  const bool known = tick != 0 && s.inTick[slot] == tick && s.inKnown[slot] != 0;
  if (known && sameBytes(s.bytesAt(slot), s.inSize[slot], bytes)) {
    ++s.stats.duplicateInputs;
    return Status{};
  }
  if (tick <= s.current) {
    return Status::failure(ErrorCode::InvalidArgument, "local_input_passed").with("tick", tick).with("current", s.current);
  }
  if (known) return conflict(p, tick, s.confirmed);
  s.claim(slot, tick);
  s.inKnown[slot] = 1;
  s.inSize[slot] = static_cast<std::uint16_t>(bytes.size());
  if (!bytes.empty()) std::memcpy(s.bytesAt(slot), bytes.data(), bytes.size());
  s.raiseFrontier(p);
  return Status{};
}

Status RollbackSession::addRemoteInput(std::uint32_t player, std::uint64_t tick,
                                       std::span<const std::uint8_t> bytes) noexcept {
  if (!s_) return movedFrom();
  detail::RollbackState& s = *s_;
  if (s.inAdvance) return insideAdvance("addRemoteInput");
  if (player >= s.o.players || player == s.o.localPlayer) {
    return Status::failure(ErrorCode::InvalidArgument, "player_invalid")
        .with("player", player)
        .with("players", s.o.players)
        .with("local", s.o.localPlayer);
  }
  if (bytes.size() > s.o.maxInputBytes) return tooLarge(player, bytes.size(), s.o.maxInputBytes);
  const std::uint64_t newest = s.current + s.o.inputLead;
  if (tick > newest) return tooEarly(tick, newest);
  const std::size_t slot = s.slotOf(player, tick);
  const bool held = tick != 0 && s.inTick[slot] == tick;
  if (held && s.inKnown[slot] != 0) {
    if (sameBytes(s.bytesAt(slot), s.inSize[slot], bytes)) {
      ++s.stats.duplicateInputs;
      return Status{};
    }
    return conflict(player, tick, s.confirmed);
  }
  const std::uint64_t oldest = s.oldest();
  if (tick < oldest) {
    // Received before and its bytes are gone: a duplicate that can no
    // longer be compared (the tick is long confirmed for this player).
    if (tick != 0 && tick <= s.frontier[player]) {
      ++s.stats.duplicateInputs;
      return Status{};
    }
    LAIGE_LOG_WARN("rollback", "input_too_late", log::texts::InputTooLate, log::field("player", player), log::field("tick", tick),
                   log::field("oldest", oldest));
    return Status::failure(ErrorCode::InvalidArgument, "input_too_late")
        .with("tick", tick)
        .with("oldest", oldest)
        .with("player", player)
        .with("current", s.current);
  }
  s.claim(slot, tick);
  s.inKnown[slot] = 1;
  s.inSize[slot] = static_cast<std::uint16_t>(bytes.size());
  if (!bytes.empty()) std::memcpy(s.bytesAt(slot), bytes.data(), bytes.size());
  if (tick <= s.current) {
    // Already run: with the prediction, or with the input it now has.
    if (sameBytes(s.usedAt(slot), s.usedSize[slot], bytes)) {
      ++s.stats.predictionHits;
    } else {
      ++s.stats.predictionMisses;
      if (s.pending == 0 || tick < s.pending) s.pending = tick;
    }
  }
  s.raiseFrontier(player);
  return Status{};
}

std::uint64_t RollbackSession::currentTick() const noexcept { return s_ ? s_->current : 0; }
std::uint64_t RollbackSession::confirmedTick() const noexcept { return s_ ? s_->confirmed : 0; }
std::uint64_t RollbackSession::oldestTick() const noexcept { return s_ ? s_->oldest() : 0; }
std::uint64_t RollbackSession::pendingRollbackTick() const noexcept { return s_ ? s_->pending : 0; }
RollbackStats RollbackSession::stats() const noexcept { return s_ ? s_->stats : RollbackStats{}; }
RollbackSession::Options RollbackSession::options() const noexcept { return s_ ? s_->o : Options{}; }
World* RollbackSession::world() const noexcept { return s_ ? s_->world : nullptr; }

Result<std::uint64_t> RollbackSession::confirmedHash(std::uint64_t tick) const noexcept {
  if (!s_) return movedFrom();
  const detail::RollbackState& s = *s_;
  const std::uint32_t i = static_cast<std::uint32_t>(tick % s.confirmedSlots);
  if (tick == 0 || tick > s.confirmed || s.confirmedTick[i] != tick) {
    const std::uint64_t oldest = s.confirmed >= s.confirmedSlots ? s.confirmed - s.confirmedSlots + 1 : 1;
    return Status::failure(ErrorCode::InvalidArgument, "hash_unavailable")
        .with("tick", tick)
        .with("confirmed", s.confirmed)
        .with("oldest", oldest);
  }
  return s.confirmedValue[i];
}

}  // namespace laige
