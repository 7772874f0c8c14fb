// laige/world.h - the World: entity storage, guardrails, and (through the
// component and system headers) everything a simulation owns.
//
// Seed 000 is the contract for the entity storage: a fixed declared budget
// (capacity) allocated once at creation, O(1) create/destroy/check with no
// allocation, LIFO slot reuse on top of ascending fresh slots (seed 003),
// generation-checked handles, the G-R3/G-R4 guardrails, and move-only
// ownership where a moved-from world is a valid empty world.
// docs/entity.md.
#pragma once

#include <cstdint>
#include <memory>

#include "laige/entity.h"
#include "laige/result.h"

namespace laige {

/// The default G-R4 per-frame component-churn budget (seed 000).
inline constexpr std::uint32_t kDefaultChurnPerFrameBudget = 256;

/// The entity storage's accounting snapshot (the profiler feed).
struct EntityStats {
  /// The declared scene budget (max live entities).
  std::uint32_t capacity = 0;
  /// Live entities now.
  std::uint32_t inUse = 0;
  /// The most entities ever live at once since construction.
  std::uint32_t peakInUse = 0;
  /// Successful create() calls since construction.
  std::uint64_t totalCreated = 0;
  /// Entities destroyed (destroy() and clear()) since construction.
  std::uint64_t totalDestroyed = 0;
  /// Bookkeeping bytes for all slots: capacity x kEntityBookkeepingBytes.
  std::uint64_t bytesCapacity = 0;
  /// Bookkeeping bytes for the live slots: inUse x kEntityBookkeepingBytes.
  std::uint64_t bytesInUse = 0;
};

/// Per-slot bookkeeping bytes (seed 000): 2 generation + 1 alive + 2 free
/// list + 2 archetype + 4 row.
inline constexpr std::uint32_t kEntityBookkeepingBytes = 11;

/// The guardrail snapshot (G-R3 entity-count levels, G-R4 churn).
struct GuardrailStats {
  /// The declared scene budget (G-R3 denominator).
  std::uint32_t capacity = 0;
  /// Live entities right now (G-R3 numerator).
  std::uint32_t entityCount = 0;
  /// 0/25/50/100: the highest level the live count reached since construction.
  std::uint32_t entityBudgetLevel = 0;
  /// Per-level warn counts since construction (0 = 25%, 1 = 50%, 2 = 100%).
  std::uint32_t entityBudgetWarns[3] = {0, 0, 0};
  /// Component adds + removes since the last beginFrame().
  std::uint32_t frameChurn = 0;
  /// The configured G-R4 budget (0 = disabled).
  std::uint32_t churnPerFrameBudget = 0;
  /// Churn warnings issued since construction.
  std::uint32_t churnWarns = 0;
};

namespace detail {
struct WorldState;
}  // namespace detail

/// The simulation world. Move-only; single owner thread.
class World {
 public:
  /// Creation options (seed 000, World::Options).
  struct Options {
    /// The scene budget (G-R3): the most entities live at once. At most
    /// Entity::kMaxEntities (65,536); more is InvalidArgument.
    std::uint32_t capacity = 0;
    /// The G-R4 per-frame churn budget; 0 disables the guardrail.
    std::uint32_t churnPerFrameBudget = kDefaultChurnPerFrameBudget;
    /// The master PRNG seed; each system's substream derives from it.
    std::uint64_t seed = 0;
    /// When true, each registered system gets a PRNG substream.
    bool deterministic = true;
  };

  /// Creates a world (the setup path: the storage's only allocations).
  /// capacity > Entity::kMaxEntities -> InvalidArgument (no world).
  static Result<World> create(const Options& options) noexcept;
  /// Creates a world with default options and the given capacity.
  static Result<World> create(std::uint32_t capacity) noexcept {
    Options o;
    o.capacity = capacity;
    return create(o);
  }

  /// A moved-from-like empty world: capacity 0, every create() fails.
  World() noexcept;
  ~World();
  /// O(1) move; the source becomes a valid empty world (capacity 0).
  World(World&& other) noexcept;
  /// O(1) move; the source becomes a valid empty world (capacity 0).
  World& operator=(World&& other) noexcept;
  World(const World&) = delete;
  World& operator=(const World&) = delete;

  // --- Entities (seed 000) ---------------------------------------------------

  /// Creates one entity: the slot freed last, else the next fresh slot.
  /// BudgetExhausted when the declared budget is full. O(1), no allocation.
  Result<Entity> create() noexcept;
  /// Destroys a live entity (its components are detached first); bumps the
  /// slot's generation so every copy of the handle goes stale. A stale or
  /// invalid handle: native debug asserts; release and wasm return
  /// InvalidArgument + a rate-limited ecs/stale_entity_destroy warn.
  Status destroy(Entity e) noexcept;
  /// The access check every entity access performs: ok for a live handle,
  /// InvalidArgument + a rate-limited ecs/stale_entity_access warn otherwise
  /// (in every build).
  Status check(Entity e) const noexcept;
  /// Generation-checked liveness; no side effects.
  [[nodiscard]] bool isValid(Entity e) const noexcept;
  /// The declared scene budget (0 for a moved-from world).
  [[nodiscard]] std::uint32_t capacity() const noexcept;
  /// Live entities now.
  [[nodiscard]] std::uint32_t entityCount() const noexcept;
  /// The accounting snapshot. O(1), no allocation.
  [[nodiscard]] EntityStats stats() const noexcept;
  /// Destroys every live entity (a shutdown-phase operation, O(capacity)).
  /// Every handle goes stale; the next creates hand out slots 0, 1, 2, ...
  /// again (with raised generations). Idempotent.
  Status clear() noexcept;
  /// The live handle at slot `id`, or Entity{} when the slot is not live.
  [[nodiscard]] Entity handleAt(std::uint16_t id) const noexcept;
  /// The options the world was created with (defaults for a moved-from world).
  [[nodiscard]] Options options() const noexcept;
  /// True for a world that owns storage (false after a move or default construction).
  [[nodiscard]] bool isLive() const noexcept { return s_ != nullptr; }

  // --- Guardrails (G-R3, G-R4) -------------------------------------------------

  /// Marks a frame start: resets the per-frame churn counter and the
  /// once-per-frame warn flags. O(1), no log.
  void beginFrame() noexcept;
  /// The guardrail snapshot. O(1), no side effects.
  [[nodiscard]] GuardrailStats guardrailStats() const noexcept;
  /// Counts `n` component changes for G-R4 (the component layer calls it for
  /// every successful add and every remove that detaches a row).
  void noteChurn(std::uint32_t n = 1) noexcept;

 private:
  explicit World(std::unique_ptr<detail::WorldState> s) noexcept;
  std::unique_ptr<detail::WorldState> s_;
};

}  // namespace laige
