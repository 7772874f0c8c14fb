// player_input.h - per-player input generators for rollback sessions over
// the reference scenarios (docs/rollback.md, docs/demo.md#netplay-view).
//
// A rollback session builds each tick's payload from every player's input.
// To pair two peers (two processes, or a native and a wasm session) each
// must know its own player's input per tick, and a test must be able to
// compute the no-latency reference: these generators are pure functions of
// (player, tick), written here once for laige-peer's rollback mode, the C++
// tests and, through the wasm module (web/bindings/player_input.cpp,
// `sim.scenarioPlayerInput`), the TypeScript tests and the demo: one
// implementation, so no hand-kept twin can drift.
#pragma once

#include <cstdint>
#include <string_view>

namespace laige {

/// A 32-bit integer mix (the "lowbias32" finaliser): the generators' only
/// randomness, so TypeScript can compute the same bytes with Math.imul.
constexpr std::uint32_t playerInputMix32(std::uint32_t x) noexcept {
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
/// 4. Writes at most kInputScenarioPlayerInputBytes bytes to `out`, returns
/// the count. The players' inputs are combined by concatenation
/// (RollbackSession::combineConcatenated). No allocation.
std::uint32_t inputScenarioPlayerInput(std::uint32_t player, std::uint64_t tick, std::uint8_t* out) noexcept;
/// The most bytes inputScenarioPlayerInput writes.
inline constexpr std::uint32_t kInputScenarioPlayerInputBytes = 12;

/// The most bytes any generator writes (every maxInputBytes is at most this).
inline constexpr std::uint32_t kMaxPlayerInputBytes = 64;

/// How a rollback session over one scenario gets and combines its players' inputs.
struct PlayerInputGenerator {
  /// The scenario's name.
  const char* scenario;
  /// The most bytes `input` writes (the session's maxInputBytes).
  std::uint32_t maxInputBytes;
  /// True: the players' inputs are concatenated (combineConcatenated); false:
  /// length-prefixed (the default combiner).
  bool concatenate;
  /// Player `player`'s input for `tick` into `out` (maxInputBytes bytes); returns its length.
  std::uint32_t (*input)(std::uint32_t player, std::uint64_t tick, std::uint8_t* out) noexcept;
};

/// The generator for scenario `name`, or nullptr when that scenario has none
/// (today: `input` only).
[[nodiscard]] const PlayerInputGenerator* findPlayerInputGenerator(std::string_view name) noexcept;

}  // namespace laige
