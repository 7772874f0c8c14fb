// world.cpp - entity storage, guardrails (entity budget, churn budget) and World ownership.
#include "laige/world.h"

#include <cstdio>
#include <cstdlib>
#include <utility>

#include "laige/assert.h"
#include "laige/detail/world_state.h"
#include "laige/logging.h"
#include "logging/log_texts.h"
#include "setup_code.h"
#include "systems/system_access.h"

namespace laige {

namespace detail {

void misuseAbort(const char* what, const char* file, int line) noexcept {
  std::fprintf(stderr, "laige: misuse: %s (%s:%d)\n", what, file, line);
  std::fflush(stderr);
  std::abort();
}

}  // namespace detail

namespace {

constexpr log::TextId kBudgetText[3] = {log::texts::EntityBudget25, log::texts::EntityBudget50,
                                       log::texts::EntityBudget100};
constexpr const char* kBudgetEvent[3] = {"entity_budget_25", "entity_budget_50",
                                         "entity_budget_100"};
constexpr std::uint32_t kBudgetPct[3] = {25, 50, 100};

Status warnStale(const char* event, log::TextId text, Entity e) noexcept {
  LAIGE_LOG_WARN("ecs", event, text, log::field("entity_id", e.id()),
                 log::field("generation", e.generation()));
  return Status::failure(ErrorCode::InvalidArgument, event)
      .with("entity_id", e.id())
      .with("generation", e.generation());
}

}  // namespace

World::World() noexcept = default;
LAIGE_SETUP_CODE World::~World() = default;
World::World(std::unique_ptr<detail::WorldState> s) noexcept : s_(std::move(s)) {}
World::World(World&& other) noexcept : s_(std::move(other.s_)) {}
World& World::operator=(World&& other) noexcept {
  if (this != &other) s_ = std::move(other.s_);
  return *this;
}

LAIGE_SETUP_CODE Result<World> World::create(const Options& options) noexcept {
  if (options.capacity > Entity::kMaxEntities) {
    LAIGE_LOG_WARN("ecs", "capacity_invalid", log::texts::CapacityInvalid,
                   log::field("capacity", options.capacity),
                   log::field("max_capacity", Entity::kMaxEntities));
    return Status::failure(ErrorCode::InvalidArgument, "capacity_invalid")
        .with("capacity", options.capacity)
        .with("max_capacity", Entity::kMaxEntities);
  }
  auto state = std::make_unique<detail::WorldState>(options);
  return World(std::move(state));
}

// The cold half of create(): the live count reached one of the entity
// budget thresholds. Warns exactly when the live count reaches a threshold,
// once per level per frame; a threshold that computes to 0 never fires.
[[gnu::noinline]] void World::noteEntityBudget(std::uint32_t live) noexcept {
  detail::WorldState& s = *s_;
  for (int level = 0; level < 3; ++level) {
    if (live != s.budgetThreshold[level] || s.budgetThreshold[level] == 0) continue;
    if (kBudgetPct[level] > s.entityBudgetLevel) s.entityBudgetLevel = kBudgetPct[level];
    if (s.budgetWarnedThisFrame[level]) continue;
    s.budgetWarnedThisFrame[level] = true;
    ++s.entityBudgetWarns[level];
#if LAIGE_DEBUG_ASSERTS
    LAIGE_LOG_WARN("ecs", kBudgetEvent[level], kBudgetText[level],
                   log::field("entity_count", live), log::field("capacity", s.options.capacity),
                   log::field("level", kBudgetPct[level]),
                   log::field("advice", "keep_spawns_within_the_declared_scene_budget"));
#else
    LAIGE_LOG_WARN("ecs", kBudgetEvent[level], kBudgetText[level],
                   log::field("entity_count", live), log::field("capacity", s.options.capacity),
                   log::field("level", kBudgetPct[level]));
#endif
  }
}

Result<Entity> World::create() noexcept {
  if (!s_) return Status::failure(ErrorCode::BudgetExhausted, "world_moved_from");
  detail::WorldState& s = *s_;
  // A plain handle, not a Result: copying a Result's Status through memory
  // on every create was a measurable share of create + add.
  Entity e;
  if (!s.entities.spawnInto(e)) [[unlikely]] {
    return Status::failure(ErrorCode::BudgetExhausted, "entity_budget_exhausted")
        .with("entity_count", s.entities.length())
        .with("capacity", s.options.capacity);
  }
  s.noteCreated(e.id());
  ++s.totalCreated;
  const std::uint32_t live = s.entities.length();
  if (live > s.peakInUse) s.peakInUse = live;
  if (live == s.budgetThreshold[0] || live == s.budgetThreshold[1] || live == s.budgetThreshold[2])
      [[unlikely]] {
    noteEntityBudget(live);
  }
  return e;
}

Status World::destroy(Entity e) noexcept {
  if (!s_ || !s_->entities.isAlive(e)) {
    LAIGE_MISUSE("World::destroy on a stale or invalid entity handle");
    return warnStale("stale_entity_destroy", log::texts::StaleEntityDestroy, e);
  }
  detail::WorldState& s = *s_;
  // With relations: the cascade (docs/relations.md#cleanup).
  if (!s.relations.relations.empty()) [[unlikely]] return s.relations.hooks->destroy(*this, e);
  // The iteration guard (docs/query.md) and the running system's declared io:
  // checked before any side effect.
  if (s.ecs.guard.active) [[unlikely]] {
    if (const Status g = detail::guardDestroy(s, e); !g.ok()) return g;
  }
  if (const Status a = detail::checkDestroy(s, e); !a.ok()) return a;
  if (s.changes.anyHook) [[unlikely]] detail::onDestroy(s, e);  // docs/changes.md
  s.detachRow(e.id());
  s.entities.despawn(e);
  ++s.totalDestroyed;
  if (s.changes.queued != 0) [[unlikely]] (void)detail::drainObservers(*this);
  return Status{};
}

Status World::check(Entity e) const noexcept {
  if (s_ && s_->entities.isAlive(e)) return Status{};
  return warnStale("stale_entity_access", log::texts::StaleEntityAccess, e);
}

bool World::isValid(Entity e) const noexcept { return s_ && s_->entities.isAlive(e); }

std::uint32_t World::capacity() const noexcept { return s_ ? s_->entities.capacity() : 0; }

std::uint32_t World::entityCount() const noexcept { return s_ ? s_->entities.length() : 0; }

EntityStats World::stats() const noexcept {
  EntityStats st;
  if (!s_) return st;
  st.capacity = s_->entities.capacity();
  st.inUse = s_->entities.length();
  st.peakInUse = s_->peakInUse;
  st.totalCreated = s_->totalCreated;
  st.totalDestroyed = s_->totalDestroyed;
  st.bytesCapacity = std::uint64_t{st.capacity} * kEntityBookkeepingBytes;
  st.bytesInUse = std::uint64_t{st.inUse} * kEntityBookkeepingBytes;
  return st;
}

LAIGE_SETUP_CODE Status World::clear() noexcept {
  if (!s_) return Status{};
  detail::WorldState& s = *s_;
  if (const Status g = detail::guardClear(s); !g.ok()) return g;  // docs/query.md
  if (s.relations.walking != 0) {
    return Status::failure(ErrorCode::InvalidArgument, "relation_walk_mutation").with("operation", "clear");
  }
  if (const Status a = detail::checkClear(s); !a.ok()) return a;
  const std::uint32_t high = s.entities.highWater();
  for (std::uint32_t id = 0; id < high; ++id) {
    if (!s.entities.isIndexAlive(id)) continue;
    if (s.changes.anyHook) [[unlikely]] detail::onDestroy(s, s.entities.handleOf(static_cast<std::uint16_t>(id)));
    s.ecs.detachRowOutOfLine(static_cast<std::uint16_t>(id));
  }
  const std::uint32_t live = s.entities.length();
  s.entities.despawnAll();
  s.totalDestroyed += live;
  if (!s.relations.relations.empty()) s.relations.hooks->resetIndex(s);
  if (s.changes.queued != 0) [[unlikely]] (void)detail::drainObservers(*this);
  return Status{};
}

Entity World::handleAt(std::uint16_t id) const noexcept {
  return s_ ? s_->entities.handleOf(id) : Entity{};
}

const std::uint16_t* World::generationTable() const noexcept { return s_ ? s_->entities.generations() : nullptr; }

World::Options World::options() const noexcept { return s_ ? s_->options : Options{}; }

void World::beginFrame() noexcept {
  if (!s_) return;
  s_->frameChurn = 0;
  s_->churnWarnedThisFrame = false;
  for (bool& f : s_->budgetWarnedThisFrame) f = false;
}

GuardrailStats World::guardrailStats() const noexcept {
  GuardrailStats g;
  if (!s_) return g;
  const detail::WorldState& s = *s_;
  g.capacity = s.entities.capacity();
  g.entityCount = s.entities.length();
  g.entityBudgetLevel = s.entityBudgetLevel;
  for (int i = 0; i < 3; ++i) g.entityBudgetWarns[i] = s.entityBudgetWarns[i];
  g.frameChurn = s.frameChurn;
  g.churnPerFrameBudget = s.options.churnPerFrameBudget;
  g.churnWarns = s.churnWarns;
  return g;
}

void World::noteChurn(std::uint32_t n) noexcept {
  if (s_) s_->noteChurn(n);
}

void detail::WorldState::warnChurn() noexcept {
  churnWarnedThisFrame = true;
  ++churnWarns;
#if LAIGE_DEBUG_ASSERTS
  LAIGE_LOG_WARN("ecs", "churn_per_frame", log::texts::ChurnPerFrame, log::field("frame_churn", frameChurn),
                 log::field("churn_budget", options.churnPerFrameBudget),
                 log::field("advice", "move_the_churn_to_a_spawn_despawn_system"));
#else
  LAIGE_LOG_WARN("ecs", "churn_per_frame", log::texts::ChurnPerFrame, log::field("frame_churn", frameChurn),
                 log::field("churn_budget", options.churnPerFrameBudget));
#endif
}

}  // namespace laige
