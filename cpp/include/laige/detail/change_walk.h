// laige/detail/change_walk.h - the change-filtered row walk of
// Query<..., Changed<T> / Added<T>> (internal; included by
// laige/query_object.h; docs/changes.md#cost).
#pragma once

#include <bit>
#include <cstdint>
#include <utility>

#include "laige/detail/ecs_state.h"
#include "laige/detail/query_cache.h"

namespace laige {
class World;
namespace detail {

/// What one filtered call needs besides the QueryRun: the window
/// (since, stamp] and per term the tick array it reads (filters) or marks
/// (tracked Writes / Optional<T, Write> terms).
struct ChangeRun {
  std::uint32_t since = 0;
  std::uint32_t stamp = 0;
  bool outsideSystem = false;
  const std::uint32_t* ticks[kMaxArchetypeComponents] = {};
  std::uint32_t* mark[kMaxArchetypeComponents] = {};
};

/// The World-private halves of the change features (change_ticks.cpp,
/// observers.cpp, removed_log.cpp): World befriends this one type.
struct ChangeAccess {
  static Status beginFiltered(World& w, QueryCache& cache, const QuerySpec& spec, QueryRun& run,
                              ChangeRun& change) noexcept;
  static void endFiltered(World& w, QueryCache& cache, const ChangeRun& change) noexcept;
  static WorldState* state(World& w) noexcept;
  static void applyCommands(World& w) noexcept;
  static const WorldState* state(const World& w) noexcept;
};

/// Ends a filtered call: records the query's run (outside systems), then
/// ends the iteration (which applies its commands: they are newer than
/// this run, so the query sees them next time, as a system does).
struct FilteredEnd {
  World* world;
  QueryCache* cache;
  const ChangeRun& change;
  ~FilteredEnd();
};

/// The filtered walk: matched archetypes in ascending id, skipping one
/// when no filter term's bound is newer than `since` (O(1) per archetype),
/// else rows in slot order whose every filter passes.
template <class L, class Fn, std::size_t... J>
inline void walkFiltered(Fn& fn, const QueryRun& run, const ChangeRun& cr, std::index_sequence<J...>) {
  for (std::uint32_t word = 0; word < 4; ++word) {
    std::uint64_t bits = run.matched->words[word];
    while (bits != 0) {
      const std::uint32_t aid = word * 64 + static_cast<std::uint32_t>(std::countr_zero(bits)) + 1;
      bits &= bits - 1;
      Archetype& a = *run.archetypes[aid];
      const std::uint32_t rows = a.rowCount;
      if (rows == 0) continue;
      bool skip = false;
      for (std::size_t i = 0; i < L::kCount && !skip; ++i) {
        if (!termFilters(L::kKinds[i])) continue;
        const std::uint32_t col = a.colOf[run.ids[i]] - 1u;
        std::uint32_t bound = a.colTick[col] > a.moveInTick ? a.colTick[col] : a.moveInTick;
        if (L::kKinds[i] == TermKind::Changed && a.bulkTick[col] > bound) bound = a.bulkTick[col];
        skip = bound <= cr.since;
      }
      if (skip) continue;
      for (std::uint32_t r = 0; r < rows; ++r) {
        const std::uint32_t slot = a.slots[r];
        bool pass = true;
        for (std::size_t i = 0; i < L::kCount && pass; ++i) {
          if (!termFilters(L::kKinds[i])) continue;
          std::uint32_t t = cr.ticks[i][slot];
          if (L::kKinds[i] == TermKind::Changed) {
            const std::uint32_t bulk = a.bulkTick[a.colOf[run.ids[i]] - 1u];
            if (bulk > t) t = bulk;
          }
          pass = t > cr.since;
        }
        if (!pass) continue;
        for (std::size_t i = 0; i < L::kCount; ++i) {
          if (cr.mark[i] == nullptr || a.colOf[run.ids[i]] == 0) continue;
          cr.mark[i][slot] = cr.stamp;
          a.colTick[a.colOf[run.ids[i]] - 1u] = cr.stamp;
        }
        fn(Entity(static_cast<std::uint16_t>(slot), run.generations[slot]),
           termColumn<L, J>(a, run.ids).at(r)...);
      }
    }
  }
}

}  // namespace detail
}  // namespace laige
