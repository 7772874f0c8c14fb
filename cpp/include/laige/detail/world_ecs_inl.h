// laige/detail/world_ecs_inl.h - the World's component and query member
// templates (included at the end of world.h; not a public entry point).
//
// The typed calls are thin: they turn T into its process-wide type index and
// call one non-inline World member that resolves the per-world id. each<>
// and the query objects keep the per-entity loop inline (query_object.h).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
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

/// The key of world.each's cache for the listed type list, 0 until first use
/// (process-wide; never simulation state). Constant-initialised: no static
/// initialiser per type list.
template <class... Ks>
inline std::atomic<std::uint32_t> eachKeySlot{0};
/// The key, a plain load after the first use.
template <class... Ks>
[[nodiscard]] inline std::uint32_t eachKeyOf() noexcept {
  const std::uint32_t v = eachKeySlot<Ks...>.load(std::memory_order_relaxed);
  return v != 0 ? v : assignProcessIndex(ProcessIndex::EachKey, eachKeySlot<Ks...>);
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
  return static_cast<T*>(getTypedForWrite(e, detail::componentTypeIndexOf<detail::ComponentKey<T>>()));
}

template <class T>
const T* World::get(Entity e) const noexcept {
  static_assert(detail::MarkedComponent<detail::ComponentKey<T>>, "World::get<T>: T is not marked");
  return static_cast<const T*>(getTyped(e, detail::componentTypeIndexOf<detail::ComponentKey<T>>(), true));
}

template <class T>
ComponentReader<T> World::reader() const noexcept {
  static_assert(detail::MarkedComponent<detail::ComponentKey<T>>, "World::reader<T>: T is not marked");
  ComponentReader<T> r;
  fillReader(r.t_, detail::componentTypeIndexOf<detail::ComponentKey<T>>());
  return r;
}

template <class T>
Status World::addComponent(Entity e, const T& value) noexcept {
  using K = detail::ComponentKey<T>;
  static_assert(detail::MarkedComponent<K>, "World::addComponent<T>: T is not marked");
  // A static constexpr name: em++ -O2 does not inline this call and would
  // otherwise build the whole description on every add just to read it.
  static constexpr std::string_view kName = detail::componentMeta<K>().name;
  return addTyped(e, detail::componentTypeIndexOf<K>(), kName, &value);
}

template <class T>
Status World::removeComponent(Entity e) noexcept {
  using K = detail::ComponentKey<T>;
  static_assert(detail::MarkedComponent<K>, "World::removeComponent<T>: T is not marked");
  static constexpr std::string_view kName = detail::componentMeta<K>().name;
  return removeTyped(e, detail::componentTypeIndexOf<K>(), kName);
}

}  // namespace laige
