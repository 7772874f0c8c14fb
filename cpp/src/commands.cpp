// commands.cpp - the deferred-command buffer (docs/commands.md): recording
// with the checks that can run up front, the doubling byte buffer, and the
// apply pass that replays every record through the World's own
// add/remove/destroy in recording order.
#include "laige/commands.h"

#include <cstring>
#include <new>

#include "laige/detail/world_state.h"
#include "laige/logging.h"
#include "laige/world.h"
#include "logging/log_texts.h"
#include "systems/system_access.h"

namespace laige {

namespace {

const char* opName(CommandOp op) noexcept {
  switch (op) {
    case CommandOp::Destroy:
      return "destroy";
    case CommandOp::Add:
      return "add";
    case CommandOp::Remove:
      return "remove";
  }
  return "?";
}

// The io rule the apply pass checks itself before it calls the World op, so
// that a state that changed since the record (an earlier command added the
// component an add now overwrites) is a counted skip, not a misuse assert.
bool applyAllowed(const detail::WorldState& ws, CommandOp op, Entity e, ComponentTypeId c) noexcept {
  if (ws.systems.current == 0) return true;
  const detail::EcsState& s = ws.ecs;
  const ArchetypeId aid = s.archetypeOf[e.id()];
  if (op == CommandOp::Add) {
    const bool has = aid != kNoArchetype && s.archetypes[aid]->colOf[c] != 0;
    return detail::systemAllows(ws, c, has ? Access::Write : Access::Read);
  }
  if (op == CommandOp::Destroy && aid != kNoArchetype) {
    const detail::Archetype& a = *s.archetypes[aid];
    for (std::uint32_t i = 0; i < a.componentCount; ++i) {
      if (!detail::systemAllows(ws, a.sig[i], Access::Read)) return false;
    }
  }
  return true;
}

}  // namespace

bool CommandBuffer::recording() const noexcept { return s_ != nullptr && s_->commandPhaseOpen(); }

Status CommandBuffer::recordCheck(Entity e, const char* op) noexcept {
  if (s_ == nullptr) return Status::failure(ErrorCode::InvalidArgument, "world_moved_from");
  if (!s_->commandPhaseOpen()) {
    LAIGE_LOG_WARN("ecs", "command_outside_phase", log::texts::CommandOutsidePhase, log::field("op", op));
    return Status::failure(ErrorCode::InvalidArgument, "command_outside_phase").with("op", op);
  }
  if (!s_->entities.isAlive(e)) {
    LAIGE_LOG_WARN("ecs", "stale_entity_access", log::texts::StaleEntityAccessCommand, log::field("entity_id", e.id()),
                   log::field("generation", e.generation()), log::field("op", op));
    return Status::failure(ErrorCode::InvalidArgument, "stale_entity_access")
        .with("entity_id", e.id())
        .with("generation", e.generation())
        .with("op", op);
  }
  return Status{};
}

Status CommandBuffer::allocFailed(std::size_t needed) noexcept {
  LAIGE_LOG_WARN("ecs", "command_buffer_alloc_failed", log::texts::CommandBufferAllocFailed,
                 log::field("needed", static_cast<std::uint64_t>(needed)),
                 log::field("capacity", static_cast<std::uint64_t>(capacity_)));
  return Status::failure(ErrorCode::BudgetExhausted, "command_buffer_alloc_failed")
      .with("needed", static_cast<std::uint64_t>(needed))
      .with("capacity", static_cast<std::uint64_t>(capacity_));
}

Status CommandBuffer::reserve(std::size_t bytes) noexcept {
  if (s_ == nullptr) return Status::failure(ErrorCode::InvalidArgument, "world_moved_from");
  if (bytes <= capacity_) return Status{};
  auto grown = std::unique_ptr<std::uint8_t[]>(new (std::nothrow) std::uint8_t[bytes]);
  if (!grown) return allocFailed(bytes);
  if (size_ != 0) std::memcpy(grown.get(), bytes_.get(), size_);
  bytes_ = std::move(grown);
  capacity_ = bytes;
  ++stats_.grows;
  return Status{};
}

// The only allocation: a full buffer doubles (from 1 KiB), once; the bytes
// recorded so far move over and the old block is freed.
std::uint8_t* CommandBuffer::append(std::size_t bytes) noexcept {
  const std::size_t needed = size_ + bytes;
  if (needed > capacity_) [[unlikely]] {
    std::size_t grown = capacity_ == 0 ? std::size_t{1024} : capacity_ * 2;
    while (grown < needed) grown *= 2;
    if (!reserve(grown).ok()) return nullptr;
  }
  std::uint8_t* at = bytes_.get() + size_;
  size_ = needed;
  ++count_;
  ++stats_.recorded;
  return at;
}

Result<Entity> CommandBuffer::create() noexcept {
  if (s_ == nullptr || world_ == nullptr) return Status::failure(ErrorCode::InvalidArgument, "world_moved_from");
  if (!s_->commandPhaseOpen()) {
    LAIGE_LOG_WARN("ecs", "command_outside_phase", log::texts::CommandOutsidePhase, log::field("op", "create"));
    return Status::failure(ErrorCode::InvalidArgument, "command_outside_phase").with("op", "create");
  }
  return world_->create();
}

Status CommandBuffer::destroy(Entity e) noexcept {
  if (Status st = recordCheck(e, "destroy"); !st.ok()) return st;
  if (Status st = detail::checkDestroy(*s_, e); !st.ok()) return st;
  std::uint8_t* at = append(sizeof(CommandRecordHeader));
  if (at == nullptr) return allocFailed(size_ + sizeof(CommandRecordHeader));
  const CommandRecordHeader h{CommandOp::Destroy, 0, 0, e.bits()};
  std::memcpy(at, &h, sizeof h);
  return Status{};
}

Status CommandBuffer::addBytes(Entity e, ComponentTypeId id, const void* bytes,
                               std::uint32_t size) noexcept {
  if (Status st = recordCheck(e, "add"); !st.ok()) return st;
  detail::WorldState& ws = *s_;
  if (id == kInvalidComponentTypeId || id > ws.ecs.components.size()) {
    LAIGE_LOG_WARN("ecs", "component_unregistered", log::texts::ComponentUnregisteredCommand, log::field("entity_id", e.id()),
                   log::field("component_id", id), log::field("op", "add"));
    return Status::failure(ErrorCode::InvalidArgument, "component_unregistered")
        .with("entity_id", e.id())
        .with("component_id", id)
        .with("op", "add");
  }
  const detail::RegisteredComponent& info = *ws.ecs.components[id - 1];
  const std::uint32_t expected = info.size;
  if (size != expected || (bytes == nullptr && size != 0)) {
    LAIGE_LOG_WARN("ecs", "component_size_mismatch", log::texts::ComponentSizeMismatchCommand, log::field("component_id", id),
                   log::field("size", size), log::field("expected_size", expected));
    return Status::failure(ErrorCode::InvalidArgument, "component_size_mismatch")
        .with("component", info.name)
        .with("component_id", id)
        .with("size", size)
        .with("expected_size", expected);
  }
  if (ws.systems.current != 0) {
    // As the direct add: a structural add needs the component declared, an
    // overwrite of one the entity has needs it declared Write.
    const ArchetypeId aid = ws.ecs.archetypeOf[e.id()];
    const bool has = aid != kNoArchetype && ws.ecs.archetypes[aid]->colOf[id] != 0;
    if (!detail::systemAllows(ws, id, has ? Access::Write : Access::Read)) {
      return detail::systemIoViolation(ws, id, has ? "write" : "add");
    }
  }
  std::uint8_t* at = append(sizeof(CommandRecordHeader) + size);
  if (at == nullptr) return allocFailed(size_ + sizeof(CommandRecordHeader) + size);
  const CommandRecordHeader h{CommandOp::Add, 0, static_cast<std::uint16_t>(id), e.bits()};
  std::memcpy(at, &h, sizeof h);
  if (size != 0) std::memcpy(at + sizeof h, bytes, size);
  return Status{};
}

Status CommandBuffer::removeById(Entity e, ComponentTypeId id) noexcept {
  if (Status st = recordCheck(e, "remove"); !st.ok()) return st;
  detail::WorldState& ws = *s_;
  if (id == kInvalidComponentTypeId || id > ws.ecs.components.size()) {
    LAIGE_LOG_WARN("ecs", "component_unregistered", log::texts::ComponentUnregisteredCommand, log::field("entity_id", e.id()),
                   log::field("component_id", id), log::field("op", "remove"));
    return Status::failure(ErrorCode::InvalidArgument, "component_unregistered")
        .with("entity_id", e.id())
        .with("component_id", id)
        .with("op", "remove");
  }
  if (Status st = detail::checkStructural(ws, id, "remove"); !st.ok()) return st;
  std::uint8_t* at = append(sizeof(CommandRecordHeader));
  if (at == nullptr) return allocFailed(size_ + sizeof(CommandRecordHeader));
  const CommandRecordHeader h{CommandOp::Remove, 0, static_cast<std::uint16_t>(id), e.bits()};
  std::memcpy(at, &h, sizeof h);
  return Status{};
}

CommandBuffer& World::commands() noexcept {
  if (!s_) {
    // Every call on it fails with world_moved_from (s_ is null); never written.
    static CommandBuffer movedFrom;
    return movedFrom;
  }
  s_->commands.world_ = this;
  return s_->commands;
}

Status World::beginDefer() noexcept {
  if (!s_) return Status::failure(ErrorCode::InvalidArgument, "world_moved_from");
  ++s_->deferDepth;
  s_->commands.world_ = this;
  return Status{};
}

void World::endDefer() noexcept {
  if (!s_ || s_->deferDepth == 0) return;
  --s_->deferDepth;
  if (s_->deferDepth == 0 && s_->systems.current == 0 && !s_->ecs.guard.active &&
      s_->commands.count_ != 0) {
    applyCommands();
  }
  if (s_->deferDepth == 0 && s_->changes.queued != 0) [[unlikely]] (void)detail::drainObservers(*this);
}

CommandStats World::commandStats() const noexcept {
  if (!s_) return CommandStats{};
  CommandStats st = s_->commands.stats_;
  st.pending = s_->commands.count_;
  st.bufferBytes = s_->commands.capacity_;
  return st;
}

void World::applyCommands() noexcept {
  detail::WorldState& ws = *s_;
  CommandBuffer& b = ws.commands;
  b.world_ = this;
  // No user code runs while applying, so nothing records into the buffer
  // being read; the count and the byte size are taken once.
  const std::uint32_t n = b.count_;
  const std::uint8_t* const base = b.bytes_.get();
  // Observer events the commands cause run after the whole apply, never in
  // the middle of it (docs/changes.md#observers).
  ++ws.changes.holdDrain;
  std::size_t off = 0;
  for (std::uint32_t i = 0; i < n; ++i) {
    CommandRecordHeader h;
    std::memcpy(&h, base + off, sizeof h);
    off += sizeof h;
    const Entity e = Entity::fromBits(h.entityBits);
    const ComponentTypeId c = h.component;
    const std::uint8_t* value = base + off;
    std::uint32_t size = 0;
    if (h.op == CommandOp::Add) {
      size = ws.ecs.components[c - 1]->size;
      off += size;
    }
    if (!ws.entities.isAlive(e)) {
      ++b.stats_.skippedDead;
      LAIGE_LOG_WARN("ecs", "command_target_dead", log::texts::CommandTargetDead, log::field("op", opName(h.op)),
                     log::field("entity_id", e.id()), log::field("generation", e.generation()),
                     log::field("index", i));
      continue;
    }
    Status st;
    if (!applyAllowed(ws, h.op, e, c)) {
      st = Status::failure(ErrorCode::InvalidArgument, "system_io_violation");
    } else if (h.op == CommandOp::Destroy) {
      st = destroy(e);
    } else if (h.op == CommandOp::Add) {
      st = addComponentBytes(e, c, value, size);
    } else {
      st = removeComponentById(e, c);
    }
    if (st.ok()) {
      ++b.stats_.applied;
    } else {
      ++b.stats_.skippedFailed;
      LAIGE_LOG_WARN("ecs", "command_failed", log::texts::CommandFailed, log::field("op", opName(h.op)),
                     log::field("entity_id", e.id()), log::field("component_id", c),
                     log::field("reason", st.reason()));
    }
  }
  b.size_ = 0;
  b.count_ = 0;
  --ws.changes.holdDrain;
}

}  // namespace laige
