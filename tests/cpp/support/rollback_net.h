// rollback_net.h - what the rollback tests share: the players' input
// generator of the `input` scenario (also written in TypeScript in
// tests/ts/support/rollback_net.ts: the two must stay identical), and a
// simulated network driven by a seeded laige PRNG: every message gets its
// own latency of 0..maxLatency ticks (jitter, hence reordering), some are
// delivered twice, and the messages due in one tick arrive shuffled.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "laige/prng.h"

namespace laige::test {

/// A 32-bit integer mix (the "lowbias32" finaliser): the input generator's
/// only randomness, so TypeScript can compute the same bytes with Math.imul.
constexpr std::uint32_t mix32(std::uint32_t x) noexcept {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

/// Player `player`'s input for `tick` in the `input` scenario: 0..2
/// six-byte commands (op, pawn, a: i16 LE, b: i16 LE) for the player's own
/// eight pawns (player p steers pawns 8p .. 8p+7), held for 4 ticks at a
/// time, so a "repeat the last input" prediction is right about 3 times in
/// 4. Writes at most 12 bytes to `out`, returns the count.
inline std::uint32_t inputScenarioPlayerInput(std::uint32_t player, std::uint64_t tick, std::uint8_t* out) noexcept {
  const std::uint32_t segment = static_cast<std::uint32_t>(tick >> 2);
  const std::uint32_t h = mix32(segment * 0x9e3779b9u ^ (player + 1) * 0x85ebca6bu);
  const std::uint32_t count = h % 3;
  for (std::uint32_t k = 0; k < count; ++k) {
    const std::uint32_t c = mix32(h + k + 1);
    const std::uint32_t d = mix32(c);
    const std::int32_t a = static_cast<std::int32_t>((c >> 8) & 0x3ff) - 512;
    const std::int32_t b = static_cast<std::int32_t>(d & 0x3ff) - 512;
    std::uint8_t* o = out + 6 * k;
    o[0] = (c & 7) == 0 ? 2 : 1;  // fire 1 in 8, else move
    o[1] = static_cast<std::uint8_t>(player * 8 + ((c >> 3) & 7));
    o[2] = static_cast<std::uint8_t>(a & 0xff);
    o[3] = static_cast<std::uint8_t>((a >> 8) & 0xff);
    o[4] = static_cast<std::uint8_t>(b & 0xff);
    o[5] = static_cast<std::uint8_t>((b >> 8) & 0xff);
  }
  return 6 * count;
}

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
