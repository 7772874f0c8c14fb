// laige/detail/commands_inl.h - the member templates of laige/commands.h
// and World::defer (included at the end of laige/world.h, where World is
// complete).
#pragma once

#include <utility>

#include "laige/commands.h"
#include "laige/world.h"

namespace laige {

template <class T>
Status CommandBuffer::add(Entity e, const T& value) noexcept {
  static_assert(detail::MarkedComponent<detail::ComponentKey<T>>,
                "CommandBuffer::add<T>: T is not a component marked with LAIGE_COMPONENT");
  const ComponentTypeId id = world_ != nullptr ? world_->componentId<T>() : kInvalidComponentTypeId;
  return addBytes(e, id, &value, static_cast<std::uint32_t>(sizeof(T)));
}

template <class T>
Status CommandBuffer::remove(Entity e) noexcept {
  static_assert(detail::MarkedComponent<detail::ComponentKey<T>>,
                "CommandBuffer::remove<T>: T is not a component marked with LAIGE_COMPONENT");
  const ComponentTypeId id = world_ != nullptr ? world_->componentId<T>() : kInvalidComponentTypeId;
  return removeById(e, id);
}

template <class Fn>
Status World::defer(Fn&& fn) {
  if (const Status st = beginDefer(); !st.ok()) return st;
  // Closed however fn leaves (a test's exception too).
  struct Close {
    World* world;
    ~Close() { world->endDefer(); }
  } close{this};
  std::forward<Fn>(fn)(commands());
  return Status{};
}

}  // namespace laige
