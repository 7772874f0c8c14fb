// rollback_net.h - what the rollback tests share: the players' input
// generator of the `input` scenario (cpp/scenarios/player_input.h, which
// tests/ts/support/rollback_net.ts calls through the wasm module), and a
// simulated network driven by a seeded laige PRNG:
// every message gets its own latency of 0..maxLatency ticks (jitter, hence
// reordering), some are delivered twice, and the messages due in one tick
// arrive shuffled.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "laige/prng.h"
#include "player_input.h"

namespace laige::test {

/// The `input` scenario's player input generator (cpp/scenarios/player_input.h).
using ::laige::inputScenarioPlayerInput;

/// One input in flight.
struct NetMessage {
  std::uint64_t deliverAt;
  std::uint32_t from;
  std::uint32_t to;
  std::uint64_t tick;
  std::vector<std::uint8_t> bytes;
};

/// The simulated network between the peers of a test.
class SimNetwork {
 public:
  SimNetwork(std::uint64_t seed, std::uint32_t maxLatency, std::uint32_t duplicateOneIn) noexcept
      : rng_(seed), maxLatency_(maxLatency), duplicateOneIn_(duplicateOneIn) {}

  /// Sends `bytes` (player `from`'s input for `tick`) to peer `to` at time `now`.
  void send(std::uint64_t now, std::uint32_t from, std::uint32_t to, std::uint64_t tick,
            std::span<const std::uint8_t> bytes) {
    const std::uint32_t copies = duplicateOneIn_ != 0 && rng_.next_range(0, duplicateOneIn_) == 0 ? 2 : 1;
    for (std::uint32_t i = 0; i < copies; ++i) {
      const std::uint64_t at = now + rng_.next_range(0, maxLatency_ + 1);
      inFlight_.push_back(NetMessage{at, from, to, tick, std::vector<std::uint8_t>(bytes.begin(), bytes.end())});
      ++sent_;
    }
  }

  /// Calls fn(message) for every message to `to` due at `now`, in a random order.
  template <class F>
  void deliver(std::uint64_t now, std::uint32_t to, F&& fn) {
    std::vector<NetMessage> due;
    for (std::size_t i = 0; i < inFlight_.size();) {
      if (inFlight_[i].to == to && inFlight_[i].deliverAt <= now) {
        due.push_back(std::move(inFlight_[i]));
        inFlight_[i] = std::move(inFlight_.back());
        inFlight_.pop_back();
      } else {
        ++i;
      }
    }
    // Sorting by (deliverAt, tick) first keeps the shuffle independent of the
    // vector's swap-remove order; then a Fisher-Yates shuffle.
    for (std::size_t i = 1; i < due.size(); ++i) {
      for (std::size_t j = i; j > 0; --j) {
        const NetMessage& a = due[j - 1];
        const NetMessage& b = due[j];
        if (a.deliverAt < b.deliverAt || (a.deliverAt == b.deliverAt && (a.tick < b.tick || (a.tick == b.tick && a.from <= b.from)))) break;
        std::swap(due[j - 1], due[j]);
      }
    }
    for (std::size_t i = due.size(); i > 1; --i) {
      const std::size_t j = rng_.next_range(0, static_cast<std::uint32_t>(i));
      std::swap(due[i - 1], due[j]);
    }
    for (const NetMessage& m : due) fn(m);
  }

  /// Messages sent so far, duplicates included.
  [[nodiscard]] std::uint64_t sent() const noexcept { return sent_; }

 private:
  Prng rng_;
  std::uint32_t maxLatency_;
  std::uint32_t duplicateOneIn_;
  std::vector<NetMessage> inFlight_;
  std::uint64_t sent_ = 0;
};

}  // namespace laige::test
