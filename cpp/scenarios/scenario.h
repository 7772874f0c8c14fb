// scenario.h - the reference scenarios: a registry, a stepper and the
// `<tick> <hash>` stream runner (docs/scenarios.md).
//
// A scenario is C++ data: a setup function (components, systems, initial
// entities), an optional deterministic input generator, a default seed, a
// default tick count and a tick rate. The same code is compiled into the
// library for the native tools (laige-detcheck), the test suite and the
// wasm module, so a stream printed natively and one computed in a browser
// must be identical line for line. Every scenario's per-tick hash is
// World::stateHash(tick): tick 0 is the state right after setup, tick t the
// state after the t-th runSystems call.
//
// The scenarios use the public API only (LAIGE_COMPONENT, registerComponent,
// registerSystem with Io<>, scheduleSystems, runSystems with a TickInput),
// integer or Q16.16 math through SimMath (the `float` scenario: pinned fp32,
// + - * / sqrt only), and no libm transcendental.
#pragma once

#include <cstdint>
#include <string_view>

#include "laige/determinism.h"
#include "laige/game_loop.h"
#include "laige/result.h"
#include "laige/scheduler.h"
#include "laige/system.h"
#include "laige/world.h"

namespace laige {

/// The largest input payload a scenario generator writes for one tick.
inline constexpr std::uint32_t kMaxScenarioInputBytes = 256;
/// The most ticks one scenario run may be asked for (docs/scenarios.md).
inline constexpr std::uint32_t kMaxScenarioTicks = 65536;

/// One reference scenario. Plain constant data; the registry owns them.
struct Scenario {
  /// The CLI name, e.g. "swarm" (lowercase, unique).
  const char* name;
  /// One line for --list and docs/scenarios.md.
  const char* description;
  /// The seed used when none is given (World::Options::seed).
  std::uint64_t defaultSeed;
  /// The tick count used when none is given.
  std::uint32_t defaultTicks;
  /// The fixed tick rate the scenario is designed for (replay identity and
  /// the demo's GameLoop; the hash stream does not depend on it).
  std::uint32_t tickRateHz;
  /// The world's declared entity budget.
  std::uint32_t capacity;
  /// The churn budget (World::Options::churnPerFrameBudget).
  std::uint32_t churnPerFrameBudget;
  /// The math backend the scenario's systems use (replay identity).
  SimMathBackend math;
  /// Registers components and systems and creates the initial entities of
  /// a fresh world created with scenarioWorldOptions(*this, seed). Draws its
  /// setup randomness from Prng(seed), the master stream (systems get the
  /// substreams 1, 2, ...).
  Status (*setup)(World& world, std::uint64_t seed) noexcept;
  /// Writes tick `tick`'s input payload (tick >= 1) into `out` (capacity
  /// bytes) and returns its length; 0 = no payload. A pure function of
  /// (seed, tick). nullptr: the scenario takes no input.
  std::uint32_t (*input)(std::uint64_t seed, std::uint64_t tick, std::uint8_t* out,
                         std::uint32_t capacity) noexcept;
};

/// The registry's table: every built-in scenario in --list order
/// (cpp/scenarios/scenario_table.cpp). The package's lean wasm module links
/// a table without any (web/bindings/lean/scenario_table_none.cpp): the
/// scenarios' code stays out of the module users load by default
/// (docs/build.md#the-two-wasm-modules).
struct ScenarioTable {
  const Scenario* const* items;
  std::uint32_t count;
};
[[nodiscard]] ScenarioTable scenarioTable() noexcept;
/// How many scenarios the registry holds.
[[nodiscard]] std::uint32_t scenarioCount() noexcept;
/// Scenario `index` (0 .. scenarioCount() - 1, in --list order), or nullptr.
[[nodiscard]] const Scenario* scenarioAt(std::uint32_t index) noexcept;
/// The scenario named `name`, or nullptr.
[[nodiscard]] const Scenario* findScenario(std::string_view name) noexcept;
/// The failure for a scenario name no registered scenario has:
/// InvalidArgument, reason `scenario_unknown`, fields scenario (the name)
/// and scenarios (how many exist).
[[nodiscard]] Status scenarioUnknown(std::string_view name) noexcept;
/// The World::Options a scenario's world is created with.
[[nodiscard]] World::Options scenarioWorldOptions(const Scenario& scenario, std::uint64_t seed) noexcept;

/// A running scenario: its world and its schedule. The stepper the runner,
/// the tests, the replay tooling and the wasm demo share: tick by tick with
/// step(), or frame by frame with a GameLoop from createLoop(). Move-only;
/// no allocation per step.
class ScenarioRun {
 public:
  /// Creates the world, runs setup and schedules the systems. Errors: the
  /// first failing step's code (a scenario bug: the built-in ones succeed).
  [[nodiscard]] static Result<ScenarioRun> create(const Scenario& scenario, std::uint64_t seed) noexcept;

  ScenarioRun(ScenarioRun&&) noexcept = default;
  ScenarioRun& operator=(ScenarioRun&&) noexcept = default;
  ScenarioRun(const ScenarioRun&) = delete;
  ScenarioRun& operator=(const ScenarioRun&) = delete;
  ~ScenarioRun() = default;

  /// Runs the next tick with the scenario's own input for it (none when the
  /// scenario has no generator): beginFrame, then runSystems.
  Status step() noexcept;
  /// Runs the next tick with `input` instead (a recorded replay frame, the
  /// demo's pointer): beginFrame, then runSystems(schedule, input).
  Status step(const TickInput& input) noexcept;
  /// The payload the scenario's generator produces for `tick` (written to
  /// the run's own buffer; valid until the next call). Empty without one.
  [[nodiscard]] TickInput generatedInput(std::uint64_t tick) noexcept;

  /// A GameLoop over this run's world and schedule (GameLoop::create with
  /// `options`). When `options.tickInput` is nullptr the loop's provider is
  /// generatedTickInput over this run, so the loop reproduces the
  /// scenario's golden stream exactly, whatever ticks its frames run; set
  /// it to feed an external payload instead (a recorded replay frame, the
  /// demo's pointer; such a provider may still call generatedTickInput for
  /// the ticks it leaves to the scenario). step() and the loop share the
  /// world's tick count, so they can be mixed. The run must outlive the
  /// loop and stay at its address. Errors: GameLoop::create's.
  [[nodiscard]] Result<GameLoop> createLoop(GameLoop::Options options) noexcept;
  /// A GameLoop::TickInputFn over a ScenarioRun (`run`): writes the
  /// generator's payload for the run's next tick (tick() + 1, the world's
  /// count, whatever the loop's own count `loopTick` is) into `input`.
  /// Never fails.
  static Status generatedTickInput(void* run, std::uint64_t loopTick, TickInput& input) noexcept;

  /// Completed ticks (0 right after setup): World::systemTicksRun(), so the
  /// ticks of step() and of a GameLoop from createLoop() both count.
  [[nodiscard]] std::uint64_t tick() const noexcept { return world_.systemTicksRun(); }
  /// World::stateHash(tick()): this tick's line of the stream.
  [[nodiscard]] std::uint64_t hash() const noexcept { return world_.stateHash(tick()); }
  /// The scenario.
  [[nodiscard]] const Scenario& scenario() const noexcept { return *scenario_; }
  /// The seed the run was created with.
  [[nodiscard]] std::uint64_t seed() const noexcept { return seed_; }
  /// The world (read it, render it; mutating it changes the stream).
  [[nodiscard]] World& world() noexcept { return world_; }
  /// The world, read-only.
  [[nodiscard]] const World& world() const noexcept { return world_; }
  /// The schedule setup produced.
  [[nodiscard]] const SystemSchedule& schedule() const noexcept { return schedule_; }

 private:
  ScenarioRun(const Scenario& scenario, std::uint64_t seed, World world) noexcept
      : scenario_(&scenario), seed_(seed), world_(static_cast<World&&>(world)) {}

  const Scenario* scenario_;
  std::uint64_t seed_;
  World world_;
  SystemSchedule schedule_{};
  std::uint8_t input_[kMaxScenarioInputBytes] = {};
};

/// Called once per tick of a run, ticks 0..N in order.
using ScenarioHashFn = void (*)(void* context, std::uint64_t tick, std::uint64_t hash) noexcept;

/// Runs `scenario` for `ticks` ticks from `seed` and calls fn(context, t,
/// stateHash(t)) for t = 0..ticks (the `<tick> <hash>` stream laige-detcheck
/// prints). Returns the last hash. Errors: ticks > kMaxScenarioTicks ->
/// InvalidArgument; a setup or runSystems failure -> its code.
Result<std::uint64_t> runScenario(const Scenario& scenario, std::uint64_t seed, std::uint32_t ticks,
                                  ScenarioHashFn fn, void* context) noexcept;
/// runScenario by name; an unknown name -> InvalidArgument.
Result<std::uint64_t> runScenario(std::string_view name, std::uint64_t seed, std::uint32_t ticks,
                                  ScenarioHashFn fn, void* context) noexcept;

/// The longest `<tick> <hash>` line formatHashLine writes, NUL included
/// (20 digits, a space, 16 hex digits, '\n', NUL).
inline constexpr std::uint32_t kHashLineCapacity = 40;
/// Writes "<tick> <16 lowercase hex>\n" into `out` and returns its length
/// (without the NUL). The one formatter of the stream (detcheck, goldens).
std::uint32_t formatHashLine(std::uint64_t tick, std::uint64_t hash, char (&out)[kHashLineCapacity]) noexcept;

}  // namespace laige
