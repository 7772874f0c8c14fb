// scenario.cpp - the scenario registry, ScenarioRun and the stream runner.
#include "scenario.h"

#include <utility>

#include "laige/replay.h"

namespace laige {

std::uint32_t scenarioCount() noexcept { return scenarioTable().count; }

const Scenario* scenarioAt(std::uint32_t index) noexcept {
  const ScenarioTable t = scenarioTable();
  return index < t.count ? t.items[index] : nullptr;
}

const Scenario* findScenario(std::string_view name) noexcept {
  const ScenarioTable t = scenarioTable();
  for (std::uint32_t i = 0; i < t.count; ++i) {
    if (name == t.items[i]->name) return t.items[i];
  }
  return nullptr;
}

Status scenarioUnknown(std::string_view name) noexcept {
  return Status::failure(ErrorCode::InvalidArgument, "scenario_unknown")
      .with("scenario", name)
      .with("scenarios", scenarioCount());
}

World::Options scenarioWorldOptions(const Scenario& scenario, std::uint64_t seed) noexcept {
  World::Options o;
  o.capacity = scenario.capacity;
  o.churnPerFrameBudget = scenario.churnPerFrameBudget;
  o.seed = seed;
  o.deterministic = true;
  return o;
}

Result<ScenarioRun> ScenarioRun::create(const Scenario& scenario, std::uint64_t seed) noexcept {
  auto w = World::create(scenarioWorldOptions(scenario, seed));
  if (w.isError()) return w.status();
  ScenarioRun run(scenario, seed, std::move(w).takeValue());
  if (const Status st = scenario.setup(run.world_, seed); st.isError()) return st;
  if (const Status st = run.world_.scheduleSystems(run.schedule_); st.isError()) return st;
  return run;
}

TickInput ScenarioRun::generatedInput(std::uint64_t tick) noexcept {
  TickInput in;
  if (scenario_->input == nullptr) return in;
  const std::uint32_t n = scenario_->input(seed_, tick, input_, kMaxScenarioInputBytes);
  in.size = n <= kMaxScenarioInputBytes ? n : kMaxScenarioInputBytes;
  in.data = in.size != 0 ? input_ : nullptr;
  return in;
}

Status ScenarioRun::step() noexcept { return step(generatedInput(tick() + 1)); }

Status ScenarioRun::step(const TickInput& input) noexcept {
  // One tick as one frame (what GameLoop::step(1) does, without a loop),
  // refused before beginFrame when a tick cannot start (reentrancy.cpp).
  if (Status st = world_.tickAllowed(); st.isError()) return st;
  world_.beginFrame();
  return world_.runSystems(schedule_, input);
}

Result<GameLoop> ScenarioRun::createLoop(GameLoop::Options options) noexcept {
  if (options.tickInput == nullptr) {
    options.tickInput = &ScenarioRun::generatedTickInput;
    options.tickInputContext = this;
  }
  return GameLoop::create(world_, schedule_, options);
}

Status ScenarioRun::generatedTickInput(void* run, std::uint64_t /*loopTick*/, TickInput& input) noexcept {
  ScenarioRun& r = *static_cast<ScenarioRun*>(run);
  input = r.generatedInput(r.tick() + 1);
  return Status{};
}

Result<std::uint64_t> runScenario(const Scenario& scenario, std::uint64_t seed, std::uint32_t ticks,
                                  ScenarioHashFn fn, void* context) noexcept {
  if (ticks > kMaxScenarioTicks) {
    return Status::failure(ErrorCode::InvalidArgument, "scenario_ticks_invalid")
        .with("scenario", scenario.name)
        .with("ticks", ticks)
        .with("max_ticks", kMaxScenarioTicks);
  }
  auto created = ScenarioRun::create(scenario, seed);
  if (created.isError()) return created.status();
  ScenarioRun& run = created.value();
  std::uint64_t hash = run.hash();
  if (fn != nullptr) fn(context, 0, hash);
  for (std::uint32_t t = 1; t <= ticks; ++t) {
    if (const Status st = run.step(); st.isError()) return st;
    hash = run.hash();
    if (fn != nullptr) fn(context, t, hash);
  }
  return hash;
}

Result<std::uint64_t> runScenario(std::string_view name, std::uint64_t seed, std::uint32_t ticks,
                                  ScenarioHashFn fn, void* context) noexcept {
  const Scenario* s = findScenario(name);
  if (s == nullptr) return scenarioUnknown(name);
  return runScenario(*s, seed, ticks, fn, context);
}

std::uint32_t formatHashLine(std::uint64_t tick, std::uint64_t hash, char (&out)[kHashLineCapacity]) noexcept {
  // One formatter for the `<tick> <hash>` stream: laige-replay prints the same
  // lines through the replay module's, so detcheck, goldens and replays agree.
  static_assert(kHashLineCapacity == kReplayHashLineCapacity);
  return static_cast<std::uint32_t>(formatReplayHashLine(tick, hash, out));
}

}  // namespace laige
