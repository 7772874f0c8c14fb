// laige/detail/world_ecs_inl.h - the World's component and query member
// templates (included at the end of world.h; not a public entry point).
//
// The typed calls are thin: they turn T into its process-wide type index and
// call one non-inline World member that resolves the per-world id. Only
// each<> keeps the per-entity loop inline, with the column pointers hoisted
// per archetype, so that `pos += vel` compiles to a vectorised loop.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>
#include <utility>

#include "laige/world.h"

namespace laige {

namespace detail {

/// T stripped of cv-qualifiers, the type every typed call keys on.
template <class T>
using ComponentKey = std::remove_cv_t<T>;

/// Checks a listed query type (used by each's static_asserts).
template <class T>
inline constexpr bool kQueryableComponent = MarkedComponent<ComponentKey<T>> && !std::is_reference_v<T>;

/// The per-archetype inner loop. `cols` are the typed column pointers in
/// query order; the Entity is built only from the slot column and the
/// generation table, so a callback that ignores it lets the compiler drop
/// both loads and vectorise over the columns.
template <class Fn, class... Ptrs>
inline void eachRows(Fn& fn, const std::uint32_t* slots, const std::uint16_t* generations,
                     std::uint32_t rows, Ptrs... cols) {
  for (std::uint32_t r = 0; r < rows; ++r) {
    const std::uint32_t slot = slots[r];
    fn(Entity(static_cast<std::uint16_t>(slot), generations[slot]), cols[r]...);
  }
}

/// Unpacks one cursor into typed column pointers (query order).
template <class... Ts, class... Tags, class Fn, std::size_t... I>
inline void eachArchetype(Fn& fn, const ArchetypeCursor& cur, const std::uint16_t* generations,
                          std::index_sequence<I...>, const Tags&...) {
  eachRows(fn, cur.slots, generations, cur.rows,
           static_cast<AccessPtr<Ts, Tags>>(cur.columns[I])...);
}

}  // namespace detail

template <class T>
Result<ComponentTypeId> World::registerComponent() noexcept {
  using K = detail::ComponentKey<T>;
  static_assert(detail::MarkedComponent<K>,
                "World::registerComponent<T>: T is not marked; add LAIGE_COMPONENT(T, members...) "
                "in T's namespace");
  static constexpr auto meta = detail::componentMeta<K>();
  ComponentDesc d;
  d.name = meta.name;
  d.size = meta.size;
  d.alignment = meta.alignment;
  d.fields = std::span<const ComponentField>(meta.fields, meta.fieldCount);
  return registerTyped(d, detail::componentTypeIndexOf<K>());
}

template <class T>
ComponentTypeId World::componentId() const noexcept {
  return componentIdOfTypeIndex(detail::componentTypeIndexOf<detail::ComponentKey<T>>());
}

template <class T>
bool World::has(Entity e) const noexcept {
  return getTyped(e, detail::componentTypeIndexOf<detail::ComponentKey<T>>(), false) != nullptr;
}

template <class T>
T* World::get(Entity e) noexcept {
  static_assert(detail::MarkedComponent<detail::ComponentKey<T>>, "World::get<T>: T is not marked");
  return static_cast<T*>(getTyped(e, detail::componentTypeIndexOf<detail::ComponentKey<T>>(), true));
}

template <class T>
const T* World::get(Entity e) const noexcept {
  static_assert(detail::MarkedComponent<detail::ComponentKey<T>>, "World::get<T>: T is not marked");
  return static_cast<const T*>(getTyped(e, detail::componentTypeIndexOf<detail::ComponentKey<T>>(), true));
}

template <class T>
Status World::addComponent(Entity e, const T& value) noexcept {
  using K = detail::ComponentKey<T>;
  static_assert(detail::MarkedComponent<K>, "World::addComponent<T>: T is not marked");
  return addTyped(e, detail::componentTypeIndexOf<K>(), detail::componentMeta<K>().name, &value);
}

template <class T>
Status World::removeComponent(Entity e) noexcept {
  using K = detail::ComponentKey<T>;
  static_assert(detail::MarkedComponent<K>, "World::removeComponent<T>: T is not marked");
  return removeTyped(e, detail::componentTypeIndexOf<K>(), detail::componentMeta<K>().name);
}

template <class... Ts, class Fn, class... Tags>
Status World::each(Fn&& fn, Tags... tags) {
  static_assert(sizeof...(Tags) == sizeof...(Ts),
                "World::each: pass exactly one laige::Read{} or laige::Write{} per listed "
                "component, in template order");
  static_assert((detail::kIsAccessTag<Tags> && ...),
                "World::each: every tag must be laige::Read{} or laige::Write{}");
  static_assert((detail::kQueryableComponent<Ts> && ...),
                "World::each: every listed type must be a component marked with LAIGE_COMPONENT");
  static_assert(detail::AllDistinct<detail::ComponentKey<Ts>...>::value,
                "World::each: a component is listed twice");
  static_assert(sizeof...(Ts) <= kMaxArchetypeComponents,
                "World::each: at most kMaxArchetypeComponents listed components");
  // Ends the iteration however the callback leaves (a test's exception too).
  struct End {
    World* w;
    ~End() { w->endIteration(); }
  };
  if constexpr (sizeof...(Ts) == 0) {
    const Status st = beginIteration({}, {});
    if (!st.ok()) return st;
    const End end{this};
    // An entity created by the callback (in a fresh or a recycled slot,
    // below or above the cursor) is not visited (docs/query.md).
    const detail::SlotView v = slotView();
    for (std::uint32_t id = 0; id < v.highWater; ++id) {
      if (v.living[id] != 0 && v.bornIn[id] != v.serial) {
        fn(Entity(static_cast<std::uint16_t>(id), v.generations[id]));
      }
    }
    return st;
  } else {
    const ComponentTypeId ids[] = {componentId<Ts>()...};
    const Access access[] = {detail::kAccessOf<Tags>...};
    const Status st = beginIteration(ids, access);
    if (!st.ok()) return st;
    const End end{this};
    const std::uint16_t* generations = slotView().generations;
    const std::uint32_t count = iterationArchetypeCount();
    for (std::uint32_t k = 0; k < count; ++k) {
      detail::ArchetypeCursor cur;
      iterationCursor(k, ids, static_cast<std::uint32_t>(sizeof...(Ts)), cur);
      detail::eachArchetype<Ts...>(fn, cur, generations, std::index_sequence_for<Ts...>{}, tags...);
    }
    return st;
  }
}

}  // namespace laige
