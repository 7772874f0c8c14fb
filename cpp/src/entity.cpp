// entity.cpp - the Entity printable form and the Entities allocator (docs/entity.md).
#include "laige/entity.h"

#include <cstdio>
#include <utility>

namespace laige {

std::size_t formatEntity(Entity e, char* buffer, std::size_t capacity) noexcept {
  if (buffer == nullptr || capacity == 0) return 0;
  // snprintf truncates safely and never allocates; the full form is at most 21 bytes.
  const int n = std::snprintf(buffer, capacity, "Entity(%u, %u)", static_cast<unsigned>(e.id()),
                              static_cast<unsigned>(e.generation()));
  if (n < 0) {
    buffer[0] = '\0';
    return 0;
  }
  const auto full = static_cast<std::size_t>(n);
  return full < capacity ? full : capacity - 1;
}

std::string toString(Entity e) {
  char buf[32];
  const std::size_t n = formatEntity(e, buf, sizeof buf);
  return std::string(buf, n);
}

Entities::Entities(std::uint32_t capacity, std::uint16_t firstGeneration)
    : capacity_(capacity > Entity::kMaxEntities ? Entity::kMaxEntities : capacity),
      firstGeneration_(firstGeneration),
      generations_(new std::uint16_t[capacity_ == 0 ? 1 : capacity_]),
      living_(new std::uint8_t[capacity_ == 0 ? 1 : capacity_]()),
      freed_(new std::uint16_t[capacity_ == 0 ? 1 : capacity_]) {}

Entities::Entities(Entities&& other) noexcept
    : capacity_(std::exchange(other.capacity_, 0)),
      fresh_(std::exchange(other.fresh_, 0)),
      freeCount_(std::exchange(other.freeCount_, 0)),
      live_(std::exchange(other.live_, 0)),
      firstGeneration_(other.firstGeneration_),
      slotsHashed_(std::exchange(other.slotsHashed_, false)),
      slotsCopied_(std::exchange(other.slotsCopied_, false)),
      slotsHash_(other.slotsHash_),
      generations_(std::move(other.generations_)),
      living_(std::move(other.living_)),
      freed_(std::move(other.freed_)) {}

Entities& Entities::operator=(Entities&& other) noexcept {
  if (this != &other) {
    capacity_ = std::exchange(other.capacity_, 0);
    fresh_ = std::exchange(other.fresh_, 0);
    freeCount_ = std::exchange(other.freeCount_, 0);
    live_ = std::exchange(other.live_, 0);
    firstGeneration_ = other.firstGeneration_;
    slotsHashed_ = false;
    other.slotsHashed_ = false;
    slotsCopied_ = false;
    other.slotsCopied_ = false;
    generations_ = std::move(other.generations_);
    living_ = std::move(other.living_);
    freed_ = std::move(other.freed_);
  }
  return *this;
}

Result<Entity> Entities::spawn() noexcept {
  Entity e;
  if (!spawnInto(e)) {
    return Status::failure(ErrorCode::BudgetExhausted, "entity_budget_exhausted")
        .with("entity_count", live_)
        .with("capacity", capacity_);
  }
  return e;
}

bool Entities::despawn(Entity entity) noexcept {
  if (!isAlive(entity)) return false;
  const std::uint32_t id = entity.id();
  living_[id] = 0;
  --live_;
  slotsHashed_ = false;
  slotsCopied_ = false;
  // Defined unsigned wraparound; a wrap re-enters at firstGeneration (World:
  // 1, skipping the reserved 0).
  std::uint16_t next = static_cast<std::uint16_t>(generations_[id] + 1u);
  if (next < firstGeneration_) next = firstGeneration_;
  generations_[id] = next;
  freed_[freeCount_++] = static_cast<std::uint16_t>(id);
  return true;
}

Entity Entities::handleOf(std::uint16_t id) const noexcept {
  if (!isIndexAlive(id)) return Entity{};
  return Entity(id, generations_[id]);
}

void Entities::despawnAll() noexcept {
  for (std::uint32_t i = 0; i < fresh_; ++i) {
    if (living_[i] != 0) despawn(Entity(static_cast<std::uint16_t>(i), generations_[i]));
  }
  // Rebuild the free stack as every used index, the lowest on top, so the
  // allocator hands out 0, 1, 2, ... again whatever the history was.
  freeCount_ = 0;
  slotsHashed_ = false;
  slotsCopied_ = false;
  for (std::uint32_t i = fresh_; i-- > 0;) freed_[freeCount_++] = static_cast<std::uint16_t>(i);
}

bool operator==(const Entities& a, const Entities& b) noexcept {
  if (a.capacity_ != b.capacity_ || a.fresh_ != b.fresh_ || a.freeCount_ != b.freeCount_ ||
      a.live_ != b.live_ || a.firstGeneration_ != b.firstGeneration_) {
    return false;
  }
  for (std::uint32_t i = 0; i < a.fresh_; ++i) {
    if (a.generations_[i] != b.generations_[i] || a.living_[i] != b.living_[i]) return false;
  }
  for (std::uint32_t i = 0; i < a.freeCount_; ++i) {
    if (a.freed_[i] != b.freed_[i]) return false;
  }
  return true;
}

}  // namespace laige
