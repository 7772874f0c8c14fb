// query_workloads.h - the query-era workloads, as plain functions so that
// the Google Benchmark program (bench/query_bench.cpp) and any side-by-side
// harness time exactly the same laige code:
//   frag        26 archetypes x 100 entities ({Letter_i, Data}), one query
//               over Data doubling its field (the "fragmented iteration")
//   each        pos += vel over N entities through a query object
//   add+remove  add one component to every entity, then remove it from
//               every entity, then the ordered read that restores slot
//               order (the deferred merge is paid inside the number)
//   create+add2 create N entities with two components each into a cleared
//               world (its columns reserved by an earlier round)
// docs/query.md#cost lists the figures.
#pragma once

#include <cstdint>

#include "bench_components.h"
#include "laige/query_object.h"
#include "laige/world.h"

namespace bench {

struct FragData {
  std::int32_t v;
};
LAIGE_COMPONENT(FragData, v);
struct AddRemoveTag {
  std::int32_t v;
};
LAIGE_COMPONENT(AddRemoveTag, v);

// The 26 letter components of the fragmented-iteration workload.
template <int I>
struct Letter {
  std::int32_t v;
};
#define BENCH_LETTER(I)                             \
  using Letter##I = Letter<I>;                      \
  LAIGE_COMPONENT(Letter##I, v)
BENCH_LETTER(0); BENCH_LETTER(1); BENCH_LETTER(2); BENCH_LETTER(3); BENCH_LETTER(4);
BENCH_LETTER(5); BENCH_LETTER(6); BENCH_LETTER(7); BENCH_LETTER(8); BENCH_LETTER(9);
BENCH_LETTER(10); BENCH_LETTER(11); BENCH_LETTER(12); BENCH_LETTER(13); BENCH_LETTER(14);
BENCH_LETTER(15); BENCH_LETTER(16); BENCH_LETTER(17); BENCH_LETTER(18); BENCH_LETTER(19);
BENCH_LETTER(20); BENCH_LETTER(21); BENCH_LETTER(22); BENCH_LETTER(23); BENCH_LETTER(24);
BENCH_LETTER(25);
#undef BENCH_LETTER

constexpr std::uint32_t kFragArchetypes = 26;
constexpr std::uint32_t kFragRows = 100;

inline laige::World makeQueryWorld(std::uint32_t capacity) {
  laige::World::Options o;
  o.capacity = capacity;
  o.churnPerFrameBudget = 0;  // a bench churns on purpose
  laige::World w = laige::World::create(o).takeValue();
  (void)w.registerComponent<Position>();
  (void)w.registerComponent<Velocity>();
  (void)w.registerComponent<FragData>();
  (void)w.registerComponent<AddRemoveTag>();
  return w;
}

template <int... I>
void addLetter(laige::World& w, laige::Entity e, std::uint32_t which, std::integer_sequence<int, I...>) {
  ((which == static_cast<std::uint32_t>(I) ? (void)w.addComponent(e, Letter<I>{I}) : (void)0), ...);
}
template <int... I>
void registerLetters(laige::World& w, std::integer_sequence<int, I...>) {
  ((void)w.registerComponent<Letter<I>>(), ...);
}

/// The fragmented world: 26 x 100 entities, letter-major creation order.
inline laige::World makeFragWorld() {
  laige::World w = makeQueryWorld(kFragArchetypes * kFragRows);
  registerLetters(w, std::make_integer_sequence<int, kFragArchetypes>{});
  for (std::uint32_t a = 0; a < kFragArchetypes; ++a) {
    for (std::uint32_t r = 0; r < kFragRows; ++r) {
      const laige::Entity e = w.create().value();
      addLetter(w, e, a, std::make_integer_sequence<int, kFragArchetypes>{});
      (void)w.addComponent(e, FragData{1});
    }
  }
  return w;
}

using FragQuery = laige::Query<laige::Writes<FragData>>;
inline void fragPass(laige::World& w, FragQuery& q) {
  (void)q.each(w, [](laige::Entity, FragData& d) { d.v *= 2; });
}
inline void fragPassEach(laige::World& w) {
  (void)w.each<FragData>([](laige::Entity, FragData& d) { d.v *= 2; }, laige::Write{});
}

/// N entities with Position and Velocity.
inline void populateMovers(laige::World& w, std::uint32_t n) {
  for (std::uint32_t i = 0; i < n; ++i) {
    const laige::Entity e = w.create().value();
    (void)w.addComponent(e, Position{static_cast<float>(i), 0.0f});
    (void)w.addComponent(e, Velocity{1.0f, 0.5f});
  }
}

using MoveQuery = laige::Query<laige::Writes<Position>, laige::Reads<Velocity>>;
inline void movePass(laige::World& w, MoveQuery& q) {
  (void)q.each(w, [](laige::Entity, Position& p, const Velocity& v) {
    p.x += v.x;
    p.y += v.y;
  });
}

/// Adds AddRemoveTag to every entity of `es`, then removes it from every
/// one, then the ordered read (the archetypes' slot order restored).
inline void addRemovePass(laige::World& w, const laige::Entity* es, std::uint32_t n) {
  for (std::uint32_t i = 0; i < n; ++i) (void)w.addComponent(es[i], AddRemoveTag{1});
  for (std::uint32_t i = 0; i < n; ++i) (void)w.removeComponent<AddRemoveTag>(es[i]);
  for (laige::ArchetypeId a = 1; a <= w.archetypeCount(); ++a) (void)w.archetypeSlots(a);
}

/// create + add Position + add Velocity, n times (the world is cleared by the caller).
inline void createAdd2Pass(laige::World& w, std::uint32_t n) {
  for (std::uint32_t i = 0; i < n; ++i) {
    const laige::Entity e = w.create().value();
    (void)w.addComponent(e, Position{1.0f, 2.0f});
    (void)w.addComponent(e, Velocity{3.0f, 4.0f});
  }
}

}  // namespace bench
