// replay_tool_scenes.h - the scenarios laige-replay (and its fixture
// recorder) set worlds up with: every scenario of the shared registry
// (cpp/scenarios/scenario.h: hello, swarm, input, ...) and, after them, a
// built-in, input-driven `replay-selftest` scene that spawns entities from
// its input, so the CLI test has a small scene of its own.
//
// A replay names its scenario (--scenario or the config's "scenario"); the
// scenario is the code that registers the components and systems and
// creates the initial entities. Header-only: both tools include it.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

#include "laige/result.h"
#include "laige/system.h"
#include "laige/world.h"
#include "scenario.h"

namespace laige::tools {

/// A scenario a tool can replay into: a name and a setup function that
/// registers everything and creates the initial state on a fresh world.
struct ToolScenario {
  /// The name a config or --scenario uses.
  const char* name;
  /// Sets `world` up; an error aborts the tool (exit 2).
  Status (*setup)(World& world) noexcept;
};

/// The self-test scene's single component: an accumulator per entity.
struct SelftestAccum {
  std::int32_t value;
  std::uint32_t mix;
};
LAIGE_COMPONENT(SelftestAccum, value, mix);

/// The self-test scene's system: folds every byte of the tick's input into
/// each accumulator, mixes in one PRNG draw, and spawns an entity when the
/// payload starts with 0xFF - so a replay that ignored or reordered its
/// input, or ran with another seed, would hash differently.
inline void selftestApplyInput(World& world, SystemContext& ctx) {
  std::uint32_t sum = 0;
  for (std::uint32_t i = 0; i < ctx.inputSize; ++i) sum = sum * 131u + ctx.input[i];
  const std::uint32_t draw = ctx.rng != nullptr ? ctx.rng->next_u32() : 0u;
  (void)ctx.each<SelftestAccum>(
      [&](Entity, SelftestAccum& a) {
        a.value += static_cast<std::int32_t>(sum & 0xffffu);
        a.mix = (a.mix ^ sum) * 16777619u + (draw & 0xffu);
      },
      Write{});
  if (ctx.inputSize > 0 && ctx.input[0] == 0xFF) {
    const Result<Entity> e = world.create();
    if (e.ok()) (void)world.addComponent(e.value(), SelftestAccum{static_cast<std::int32_t>(sum), 0});
  }
}

/// Registers the self-test scene on `world`: one component, one system,
/// four entities.
inline Status setupSelftest(World& world) noexcept {
  const Result<ComponentTypeId> id = world.registerComponent<SelftestAccum>();
  if (id.isError()) return id.error();
  SystemDef def;
  def.name = "SelftestApplyInput";
  def.run = &selftestApplyInput;
  def.budgetMs = fpx16_16::fromInt32(100);
  const SystemIo io[1] = {{id.value(), Access::Write}};
  if (const Result<SystemId> s = world.registerSystem(def, io, 1); s.isError()) return s.error();
  for (std::int32_t i = 0; i < 4; ++i) {
    const Result<Entity> e = world.create();
    if (e.isError()) return e.error();
    const SelftestAccum initial{i, static_cast<std::uint32_t>(i) * 7u};
    if (Status st = world.addComponent(e.value(), initial); st.isError()) return st;
  }
  return Status{};
}

/// The built-in scenarios, by name.
inline constexpr ToolScenario kToolScenarios[] = {
    {"replay-selftest", &setupSelftest},
};

/// A scenario found by name: a shared registry scenario or a built-in one.
struct ResolvedScenario {
  /// The name it was found under.
  const char* name = nullptr;
  /// The registry scenario (cpp/scenarios), or nullptr.
  const Scenario* shared = nullptr;
  /// The built-in scene, or nullptr.
  const ToolScenario* builtin = nullptr;

  /// True when a scenario was found.
  explicit operator bool() const noexcept { return shared != nullptr || builtin != nullptr; }
  /// Sets a fresh world up; registry scenarios draw their setup randomness
  /// from `seed` (the config's seed, which is also the world's).
  [[nodiscard]] Status setup(World& world, std::uint64_t seed) const noexcept {
    if (shared != nullptr) return shared->setup(world, seed);
    if (builtin != nullptr) return builtin->setup(world);
    return ErrorCode::InvalidArgument;
  }
};

/// The scenario called `name`: the shared registry first, then the
/// built-in scenes. Falsy when neither has it.
inline ResolvedScenario findToolScenario(std::string_view name) noexcept {
  ResolvedScenario r;
  if (const Scenario* s = findScenario(name)) {
    r.name = s->name;
    r.shared = s;
    return r;
  }
  for (const ToolScenario& s : kToolScenarios) {
    if (name == s.name) {
      r.name = s.name;
      r.builtin = &s;
      return r;
    }
  }
  return r;
}

}  // namespace laige::tools
