// reentrancy.cpp - what may run while a call on the world is on the stack:
// the one check every tick-running call makes before it changes anything
// (docs/systems.md#re-entrancy), and the bookkeeping that keeps an each<>()
// from visiting the entities created while it runs (docs/query.md).
#include "laige/detail/world_state.h"
#include "laige/world.h"

namespace laige {

Status World::tickAllowed() const noexcept {
  if (!s_) return Status{};  // a moved-from world: runSystems reports it
  if (s_->systems.running) {
    return Status::failure(ErrorCode::InvalidArgument, "tick_inside_callback").with("callback", "system");
  }
  if (s_->ecs.guard.active) {
    return Status::failure(ErrorCode::InvalidArgument, "tick_inside_callback").with("callback", "each");
  }
  // A tick inside World::defer would apply the defer's commands after its
  // first system, in the middle of the phase (docs/commands.md#phases).
  if (s_->deferDepth != 0) {
    return Status::failure(ErrorCode::InvalidArgument, "tick_inside_callback").with("callback", "defer");
  }
  return Status{};
}

bool World::createdDuringIteration(std::uint16_t id) const noexcept {
  return s_ && s_->ecs.guard.active && id < s_->entities.capacity() && s_->bornIn[id] == s_->iterationSerial;
}

namespace detail {

void WorldState::beginIterationSerial() noexcept {
  // A fresh serial per iteration: a slot whose bornIn equals it was created
  // during this iteration. On wrap-around every stale mark is cleared once,
  // so no old mark can ever equal a new serial.
  if (++iterationSerial == 0) {
    for (std::uint32_t id = 0; id < entities.capacity(); ++id) bornIn[id] = 0;
    iterationSerial = 1;
  }
}

}  // namespace detail

}  // namespace laige
