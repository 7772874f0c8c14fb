// player_input.cpp - the per-player input generators (player_input.h).
#include "player_input.h"

namespace laige {

std::uint32_t inputScenarioPlayerInput(std::uint32_t player, std::uint64_t tick, std::uint8_t* out) noexcept {
  const std::uint32_t segment = static_cast<std::uint32_t>(tick >> 2);
  const std::uint32_t h = playerInputMix32(segment * 0x9e3779b9u ^ (player + 1) * 0x85ebca6bu);
  const std::uint32_t count = h % 3;
  for (std::uint32_t k = 0; k < count; ++k) {
    const std::uint32_t c = playerInputMix32(h + k + 1);
    const std::uint32_t d = playerInputMix32(c);
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

namespace {
constexpr PlayerInputGenerator kGenerators[] = {
    {"input", kInputScenarioPlayerInputBytes, true, &inputScenarioPlayerInput},
};
constexpr bool allFit() {
  for (const PlayerInputGenerator& g : kGenerators) {
    if (g.maxInputBytes > kMaxPlayerInputBytes) return false;
  }
  return true;
}
static_assert(allFit(), "raise kMaxPlayerInputBytes: the bindings' output buffers hold that many bytes");
}  // namespace

const PlayerInputGenerator* findPlayerInputGenerator(std::string_view name) noexcept {
  for (const PlayerInputGenerator& g : kGenerators) {
    if (name == g.scenario) return &g;
  }
  return nullptr;
}

}  // namespace laige
