// laige/entity.h - the 32-bit entity handle and the Entities allocator.
//
// Entity is [ id: 16 bits | generation: 16 bits ] (docs/entity.md): the slot index
// in the high half, the generation in the low half. Entities is the
// allocator (docs/entity.md): fresh indices ascending (0, 1, 2, ...), freed
// indices LIFO with the generation raised, so the same operation sequence
// gives the same handles on every platform. World builds on it.
// Contract: docs/entity.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "laige/result.h"

namespace laige {

namespace detail {
struct EntitiesAccess;  // the snapshot's reader and writer (snapshot.cpp)
}  // namespace detail

/// A 32-bit generational entity handle: [ id: 16 | generation: 16 ].
/// A plain value: trivially copyable, comparable, hashable, printable.
class Entity {
 public:
  /// The largest slot id (16-bit id space).
  static constexpr std::uint32_t kMaxEntityId = 0xFFFF;
  /// The number of slots a world can have at most (65,536).
  static constexpr std::uint32_t kMaxEntities = kMaxEntityId + 1;

  /// The null handle (id 0, generation 0). Never valid in a World, whose
  /// generations start at 1.
  constexpr Entity() noexcept = default;
  /// A handle for slot `id` at `generation` (docs/entity.md: Entity(3) == Entity(3, 0)).
  constexpr explicit Entity(std::uint16_t id, std::uint16_t generation = 0) noexcept
      : bits_(static_cast<std::uint32_t>(id) << 16 | generation) {}
  /// The handle whose 32-bit representation is `bits` (the form JS sees).
  static constexpr Entity fromBits(std::uint32_t bits) noexcept {
    Entity e;
    e.bits_ = bits;
    return e;
  }

  /// The slot index (the Entities allocator calls it `index`).
  [[nodiscard]] constexpr std::uint16_t id() const noexcept {
    return static_cast<std::uint16_t>(bits_ >> 16);
  }
  /// Alias of id(), the name the Entities allocator uses.
  [[nodiscard]] constexpr std::uint16_t index() const noexcept { return id(); }
  /// The generation: raised every time the slot is handed out again.
  [[nodiscard]] constexpr std::uint16_t generation() const noexcept {
    return static_cast<std::uint16_t>(bits_ & 0xFFFF);
  }
  /// The 32-bit representation (id << 16 | generation).
  [[nodiscard]] constexpr std::uint32_t bits() const noexcept { return bits_; }
  /// True for the null handle Entity{}.
  [[nodiscard]] constexpr bool isNull() const noexcept { return bits_ == 0; }

  /// Handles are equal when id and generation are.
  friend constexpr bool operator==(Entity, Entity) noexcept = default;
  /// Total order by (id, generation), for sorted containers.
  friend constexpr auto operator<=>(Entity a, Entity b) noexcept { return a.bits_ <=> b.bits_; }

 private:
  std::uint32_t bits_ = 0;
};
static_assert(sizeof(Entity) == 4, "Entity is exactly 32 bits (docs/entity.md)");
static_assert(std::is_trivially_copyable_v<Entity>);

/// Writes the printable form "Entity(<id>, <generation>)" into `buffer`
/// (NUL-terminated, truncated to `capacity`). Returns the length written
/// (without the NUL). No allocation.
std::size_t formatEntity(Entity e, char* buffer, std::size_t capacity) noexcept;

/// The printable form "Entity(<id>, <generation>)" (allocates; for tools and tests).
std::string toString(Entity e);

/// The allocator of Entity handles (docs/entity.md), the only place where a
/// generation changes. Fixed capacity, allocated once at construction, so
/// spawn and despawn never allocate.
class Entities {
 public:
  /// An allocator for up to `capacity` live entities (at most
  /// Entity::kMaxEntities; larger values are clamped). Handles of a fresh
  /// index start at `firstGeneration` (the allocator: 0; World: 1, because
  /// generation 0 is reserved there), and a generation that wraps past
  /// 65535 re-enters at `firstGeneration`.
  explicit Entities(std::uint32_t capacity = Entity::kMaxEntities,
                    std::uint16_t firstGeneration = 0);

  /// Moves the allocator; the moved-from one is empty with capacity 0.
  Entities(Entities&& other) noexcept;
  /// Moves the allocator; the moved-from one is empty with capacity 0.
  Entities& operator=(Entities&& other) noexcept;
  Entities(const Entities&) = delete;
  Entities& operator=(const Entities&) = delete;

  /// Hands out an entity: the index freed last with its generation raised,
  /// or else the next new index. BudgetExhausted when `capacity` entities
  /// are alive (the reference allocator is unbounded; ours is a declared budget).
  Result<Entity> spawn() noexcept;
  /// spawn() without a Result: stores the handle in `out` and answers
  /// true, or answers false (nothing changed) when `capacity` entities are
  /// alive. O(1), no allocation, no event. Inline: World::create's hot
  /// half (a Result returned through memory costs a copy of its Status).
  [[nodiscard]] bool spawnInto(Entity& out) noexcept {
    if (live_ >= capacity_) [[unlikely]] return false;
    std::uint32_t id;
    if (freeCount_ > 0) {
      id = freed_[--freeCount_];  // the one freed last comes back first
    } else {
      id = fresh_++;
      generations_[id] = firstGeneration_;
    }
    living_[id] = 1;
    ++live_;
    slotsHashed_ = false;
    slotsCopied_ = false;
    out = Entity(static_cast<std::uint16_t>(id), generations_[id]);
    return true;
  }
  /// Retires `entity` and answers true. A handle that is stale, never
  /// handed out or already despawned changes nothing and answers false.
  bool despawn(Entity entity) noexcept;
  /// Whether `entity` is the handle currently handed out for its index.
  /// Inline: every component access starts with it.
  [[nodiscard]] bool isAlive(Entity entity) const noexcept {
    const std::uint32_t id = entity.id();
    return id < fresh_ && living_[id] != 0 && generations_[id] == entity.generation();
  }
  /// How many entities are alive.
  [[nodiscard]] std::uint32_t length() const noexcept { return live_; }
  /// The declared capacity.
  [[nodiscard]] std::uint32_t capacity() const noexcept { return capacity_; }
  /// How many indices have ever been handed out (fresh indices are 0..n-1).
  [[nodiscard]] std::uint32_t highWater() const noexcept { return fresh_; }
  /// The live handle of index `id`, or Entity{} when `id` is not alive.
  [[nodiscard]] Entity handleOf(std::uint16_t id) const noexcept;
  /// Whether index `id` is alive.
  [[nodiscard]] bool isIndexAlive(std::uint32_t id) const noexcept {
    return id < fresh_ && living_[id] != 0;
  }
  /// The generation table (highWater() entries; the live handle of a live
  /// index i is Entity(i, generations()[i])). Stable for the allocator's
  /// lifetime: World::each builds handles from it without a call.
  [[nodiscard]] const std::uint16_t* generations() const noexcept { return generations_.get(); }
  /// The alive flags (highWater() entries, nonzero = alive). Stable as generations().
  [[nodiscard]] const std::uint8_t* livingFlags() const noexcept { return living_.get(); }
  /// Despawns every live entity (raising each generation) and resets the
  /// free order so that the next spawns hand out indices 0, 1, 2, ... again,
  /// whatever the history was. O(highWater).
  void despawnAll() noexcept;

  /// Equal when the whole allocator state is (generations, living, free order).
  friend bool operator==(const Entities& a, const Entities& b) noexcept;

 private:
  friend struct detail::EntitiesAccess;
  std::uint32_t capacity_ = 0;
  std::uint32_t fresh_ = 0;  // next never-used index
  std::uint32_t freeCount_ = 0;
  std::uint32_t live_ = 0;
  std::uint16_t firstGeneration_ = 0;
  // The column checksum's cache of the slot section (state_checksum.cpp):
  // slotsHash_ holds while slotsHashed_; every change of a generation or a
  // living flag clears it.
  bool slotsHashed_ = false;
  // The rollback ring's copy tracking (snapshot.cpp): false when a
  // generation, living flag or the free stack may have changed since a ring
  // snapshot last looked; cleared wherever slotsHashed_ is.
  bool slotsCopied_ = false;
  std::uint64_t slotsHash_ = 0;
  std::unique_ptr<std::uint16_t[]> generations_;  // generation of the current/next handle
  std::unique_ptr<std::uint8_t[]> living_;
  std::unique_ptr<std::uint16_t[]> freed_;  // stack: the one freed last on top
};

}  // namespace laige

/// Entities hash by their 32-bit representation (hidden from Doxygen 1.9, which
/// cannot place a std:: specialisation declared outside namespace std).
/// \cond
template <>
struct std::hash<laige::Entity> {
  std::size_t operator()(laige::Entity e) const noexcept { return std::hash<std::uint32_t>{}(e.bits()); }
};
/// \endcond
