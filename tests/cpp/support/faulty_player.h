// faulty_player.h - a C++ player of the match server (cpp/tools/match.h)
// for the desync investigation tests: a RollbackSession over a reference
// scenario's run whose one system flips one bit of one component word of
// one entity at one tick (on every run of that tick: re-simulations and
// the pin's re-run included), as a nondeterministic system would, plus the
// player's side of the desync exchange (laige/desync_exchange.h) pinning
// its ticks with pinRollbackTick.
#pragma once

#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include "laige/desync_exchange.h"
#include "laige/detail/change_walk.h"
#include "laige/detail/system_registry.h"
#include "laige/detail/world_state.h"
#include "laige/rollback.h"
#include "player_input.h"
#include "scenario.h"

namespace laige::serve::test {

/// The flipped bit: system, component, word, bit, at `tick`, in the first
/// live entity with the component from slot `pick` on.
struct BitFault {
  std::uint64_t tick = 0;
  const char* system = "";
  const char* component = "";
  std::uint32_t word = 0;
  std::uint32_t bit = 0;
  std::uint32_t pick = 0;
};

class FaultyPlayer {
 public:
  /// players: the session's (and the match's) player count; this is player 0.
  FaultyPlayer(const char* scenario, std::uint64_t seed, std::uint32_t players, const BitFault& fault)
      : run_(ScenarioRun::create(*findScenario(scenario), seed).takeValue()) {
    World& w = run_.world();
    for (std::uint32_t id = 1; id <= w.systemCount(); ++id) {
      if (std::string_view{w.system(SystemId{id}).value().def.name} == fault.system) system_ = id;
    }
    for (ComponentTypeId c = 1; c <= w.componentCount(); ++c) {
      if (w.componentInfo(c).value().name == std::string_view{fault.component}) component_ = c;
    }
    fault_ = fault;
    // The system's body is swapped in the registry (a test hook).
    detail::SystemRecord& rec = detail::ChangeAccess::state(w)->systems.at(system_);
    original_ = rec.def.run;
    rec.def.run = &faulty;
    RollbackSession::Options o;
    o.players = players;
    o.localPlayer = 0;
    o.depth = 32;
    o.maxInputBytes = kMaxRollbackInputBytes;
    o.checksum = RollbackChecksum::StateHash;  // the match's hash
    const PlayerInputGenerator* g = findPlayerInputGenerator(scenario);
    if (g != nullptr && g->concatenate) o.combine = &RollbackSession::combineConcatenated;
    session_ = RollbackSession::create(w, run_.schedule(), o).takeValue();
    DesyncExchange::Options x;
    x.send = &collect;
    x.sendContext = this;
    x.pin = &pin;
    x.pinContext = this;
    x.maxItems = 16;
    exchange_ = DesyncExchange::create(w, x).takeValue();
  }
  ~FaultyPlayer() { active_ = nullptr; }
  FaultyPlayer(const FaultyPlayer&) = delete;
  FaultyPlayer& operator=(const FaultyPlayer&) = delete;

  /// Every player's input of `tick` (this one's first), then an advance.
  bool step(std::uint64_t tick, const std::vector<std::vector<std::uint8_t>>& inputs) {
    active_ = this;
    if (session_.setLocalInput(tick, inputs[0]).isError()) return false;
    for (std::uint32_t p = 1; p < inputs.size(); ++p) {
      if (session_.addRemoteInput(p, tick, inputs[p]).isError()) return false;
    }
    return session_.advance().ok();
  }
  [[nodiscard]] std::uint64_t confirmedHash(std::uint64_t tick) const { return session_.confirmedHash(tick).value(); }
  DesyncExchange& exchange() { return exchange_; }
  /// The messages the exchange sent since the last call.
  std::vector<std::vector<std::uint8_t>> takeOutbox() { return std::exchange(outbox_, {}); }
  [[nodiscard]] const World& world() const { return run_.world(); }
  [[nodiscard]] ComponentTypeId component() const { return component_; }
  [[nodiscard]] std::uint32_t system() const { return system_; }
  /// The slot the fault flipped (kNoSlot before it did).
  static constexpr std::uint32_t kNoSlot = ~0u;
  [[nodiscard]] std::uint32_t flippedSlot() const { return flipped_; }

 private:
  static void faulty(World& w, SystemContext& ctx) {
    FaultyPlayer& self = *active_;
    self.original_(w, ctx);
    if (ctx.tick != self.fault_.tick || ctx.id.value != self.system_) return;
    for (std::uint32_t k = 0; k < w.capacity(); ++k) {
      const std::uint32_t slot = (self.fault_.pick + k) % w.capacity();
      const Entity e = w.handleAt(static_cast<std::uint16_t>(slot));
      auto* bytes = w.isValid(e) ? static_cast<std::uint8_t*>(w.getBytes(e, self.component_)) : nullptr;
      if (bytes == nullptr) continue;
      bytes[4 * self.fault_.word + self.fault_.bit / 8] ^= static_cast<std::uint8_t>(1u << (self.fault_.bit % 8));
      self.flipped_ = slot;
      return;
    }
  }
  static void collect(void* context, std::span<const std::uint8_t> m) noexcept {
    static_cast<FaultyPlayer*>(context)->outbox_.emplace_back(m.begin(), m.end());
  }
  static Status pin(void* context, std::uint64_t tick, DesyncPin& out) noexcept {
    active_ = static_cast<FaultyPlayer*>(context);
    return pinRollbackTick(static_cast<FaultyPlayer*>(context)->session_, tick, out);
  }

  static inline FaultyPlayer* active_ = nullptr;  // the player whose system runs (one at a time)
  ScenarioRun run_;
  RollbackSession session_;
  DesyncExchange exchange_;
  BitFault fault_;
  SystemFn original_ = nullptr;
  std::uint32_t system_ = 0;
  ComponentTypeId component_ = 0;
  std::uint32_t flipped_ = kNoSlot;
  std::vector<std::vector<std::uint8_t>> outbox_;
};

}  // namespace laige::serve::test
