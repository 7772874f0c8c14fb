// laige/component_reader.h - ComponentReader<T>: reads one component by
// handle with the column lookup hoisted out of the loop
// (`docs/archetype.md#readers`).
//
//   auto pos = world.reader<Position>();   // O(archetypes), once
//   for (Entity e : targets) if (const Position* p = pos.get(e)) ...;   // O(1) each
//
// World::get<T>(e) resolves T's id, checks the handle and finds T's column
// on every call; a reader resolves T once and keeps, per archetype, where
// that archetype keeps T's column base (World::columnDataRef), so get() is
// a handful of loads with no call. Included by world.h.
#pragma once

#include <cstddef>
#include <cstdint>

#include "laige/archetype.h"
#include "laige/entity.h"

namespace laige {

class World;

namespace detail {

/// What a reader reads (filled by World::reader; the layout is internal).
struct ReaderTables {
  const ArchetypeId* archetypeOf = nullptr;
  const std::uint32_t* rowOf = nullptr;
  const std::uint16_t* generations = nullptr;
  /// The world's structureEpoch counter, and its value when the reader was made.
  const std::uint64_t* epochNow = nullptr;
  std::uint64_t epoch = 0;
  std::uint32_t capacity = 0;
  const World* world = nullptr;
  /// Per archetype id: where it keeps T's column base; nullptr = it lacks T;
  /// kReaderUnknownArchetype = created after the reader (the reader is stale).
  std::uint8_t* const* column[kMaxArchetypes + 1] = {};
};

/// The marker of an archetype created after the reader was made.
extern std::uint8_t* const kReaderUnknownArchetype[1];

/// A stale reader's get(): native debug misuse assert; elsewhere a
/// rate-limited warn ecs/stale_reader and nullptr (component_reader.cpp).
const void* staleReader(const ReaderTables& t) noexcept;
/// ComponentReader::valid (component_reader.cpp).
bool readerValid(const ReaderTables& t) noexcept;

}  // namespace detail

/// A read-only accessor of component T by entity handle (World::reader<T>).
/// Copyable, no allocation, holds non-owning views of the world's tables:
/// the world must outlive it.
///
/// Validity: take a reader after the structural changes it must see and
/// use it until the next one. In fact it stays right across every change
/// that creates no archetype (adds, removes, creates, destroys, archetype
/// growth: it reads the live slot tables and each column's base through the
/// place that holds it); it goes stale when an archetype is created or a
/// restore replaces archetypes (World::structureEpoch()). get() on a stale
/// reader is a misuse, checked on every call: native debug assert; release
/// and wasm return nullptr with a rate-limited warn ecs/stale_reader
/// (`docs/errors.md`). Take a new reader then.
template <class T>
class ComponentReader {
 public:
  /// e's T, or nullptr when e is stale, never issued, out of range, or has
  /// no T (no log: a pure read, as World::has). The pointer is valid until
  /// the next structural change of any entity. A stale reader: see the
  /// class comment. O(1): five loads, no call, no allocation.
  [[nodiscard]] const T* get(Entity e) const noexcept {
    if (*t_.epochNow != t_.epoch) [[unlikely]] {
      return static_cast<const T*>(detail::staleReader(t_));
    }
    const std::uint32_t id = e.id();
    if (id >= t_.capacity) return nullptr;
    std::uint8_t* const* column = t_.column[t_.archetypeOf[id]];
    if (column == nullptr || t_.generations[id] != e.generation()) return nullptr;
    if (column == detail::kReaderUnknownArchetype) [[unlikely]] {
      return static_cast<const T*>(detail::staleReader(t_));
    }
    return reinterpret_cast<const T*>(*column + std::size_t{t_.rowOf[id]} * sizeof(T));
  }
  /// True when live `e` has T (get(e) != nullptr). Same cost and checks.
  [[nodiscard]] bool has(Entity e) const noexcept { return get(e) != nullptr; }
  /// False once the reader is stale (an archetype was created, or a restore
  /// replaced archetypes, since it was made). O(1), no log.
  [[nodiscard]] bool valid() const noexcept { return detail::readerValid(t_); }

 private:
  friend class World;
  ComponentReader() noexcept = default;
  detail::ReaderTables t_;
};

}  // namespace laige
