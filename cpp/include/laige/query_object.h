// laige/query_object.h - queries declared once: Query<Terms...>, its terms,
// and the inline row loop World::each shares with it.
//
//   using Movers = laige::Query<laige::Writes<Pos>, laige::Reads<Vel>, laige::Without<Frozen>>;
//   Movers movers(world);                                  // built once
//   movers.each(world, [](laige::Entity, Pos& p, const Vel& v) { p.x += v.x; });
//
// Terms (one per component, each component at most once per query):
//   Reads<T>            required, the callback gets const T&
//   Writes<T>           required, the callback gets T&
//   With<T>             required, no argument (tags: empty components; or
//                       any component used only as a filter)
//   Without<T>          excluded: entities that have T are not visited
//   Optional<T>         not required, the callback gets const T* (nullptr
//                       where the entity lacks T); Optional<T, Write> gets T*
// The callback is fn(Entity, args...) with one argument per Reads, Writes
// and Optional term, in term order. The term names are plural verbs because
// laige::Read and laige::Write are already the access tags of world.each.
//
// Hierarchy order: query.eachCascade<Up>(world, rel, fn) walks the same
// entities parents first through relation `rel`, handing fn the target's
// Up as a last const Up* (docs/relations.md#the-cascade-query-option).
//
// Visit order, legality guard and Status are those of World::each
// (docs/query.md): ascending archetype id, then ascending slot id; while a
// call runs, mutations that would invalidate the walk are rejected, and
// in-place writes of Reads/Optional<T> components are rejected. Inside a
// running system, every term's component must be in the system's declared
// io, and a Writes/Optional<T, Write> term needs it declared Write
// (system_io_violation, `docs/query.md#system-access`).
//
// Cost: a call is one out-of-line begin (the nested check, the io check in
// a system, the archetypes created since the last call tested, dirty
// matched archetypes normalised, the guard installed) and one end; the
// walk itself is inline, per matched archetype a few loads, per row one
// callback (inlined; `pos += vel` vectorises). No allocation ever: the
// cache is a fixed-size member of the query (`docs/query.md#cost`).
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

#include "laige/detail/ecs_state.h"
#include "laige/detail/query_cache.h"
#include "laige/world.h"

namespace laige {

/// Query term: T is required; the callback receives const T&.
template <class T>
struct Reads {};
/// Query term: T is required; the callback receives T&.
template <class T>
struct Writes {};
/// Query term: T is required; the callback receives nothing for it.
template <class T>
struct With {};
/// Query term: an archetype that holds T is not matched.
template <class T>
struct Without {};
/// Query term: T is not required; the callback receives const T* (Access
/// Read) or T* (Access Write), nullptr where the entity lacks T.
template <class T, class Access = Read>
struct Optional {};
/// Query filter term: T required, no argument; only rows whose T was
/// written or added since the system's (or this query's) previous run
/// (docs/changes.md). May name a component another term names.
template <class T>
struct Changed {};
/// Query filter term: T required, no argument; only rows whose T was
/// added since the system's (or this query's) previous run.
template <class T>
struct Added {};

namespace detail {

/// What a term is: its component, its kind, and (for the terms that hand
/// out an argument) how a row's argument is formed.
template <class Term>
struct TermTraits {
  static constexpr bool kIsTerm = false;
};

/// The argument source of a required term: a typed column.
template <class P>
struct RequiredColumn {
  P base;
  [[nodiscard]] decltype(auto) at(std::uint32_t r) const noexcept { return base[r]; }
};
/// The argument source of an optional term: a typed column or nullptr.
template <class P>
struct OptionalColumn {
  P base;
  [[nodiscard]] P at(std::uint32_t r) const noexcept { return base != nullptr ? base + r : nullptr; }
};

template <class T>
struct TermTraits<Reads<T>> {
  static constexpr bool kIsTerm = true;
  using Component = ComponentKey<T>;
  static constexpr TermKind kKind = TermKind::Read;
  static constexpr bool kArg = true;
  using Source = RequiredColumn<const Component*>;
};
template <class T>
struct TermTraits<Writes<T>> {
  static constexpr bool kIsTerm = true;
  using Component = ComponentKey<T>;
  static constexpr TermKind kKind = TermKind::Write;
  static constexpr bool kArg = true;
  using Source = RequiredColumn<Component*>;
};
template <class T>
struct TermTraits<With<T>> {
  static constexpr bool kIsTerm = true;
  using Component = ComponentKey<T>;
  static constexpr TermKind kKind = TermKind::With;
  static constexpr bool kArg = false;
};
template <class T>
struct TermTraits<Without<T>> {
  static constexpr bool kIsTerm = true;
  using Component = ComponentKey<T>;
  static constexpr TermKind kKind = TermKind::Without;
  static constexpr bool kArg = false;
};
/// A filter term's key for the distinctness check: it may repeat a
/// component another term names.
template <class Term>
struct FilterKey {};
template <class T>
struct TermTraits<Changed<T>> {
  static constexpr bool kIsTerm = true;
  using Component = ComponentKey<T>;
  using Key = FilterKey<Changed<T>>;
  static constexpr TermKind kKind = TermKind::Changed;
  static constexpr bool kArg = false;
};
template <class T>
struct TermTraits<Added<T>> {
  static constexpr bool kIsTerm = true;
  using Component = ComponentKey<T>;
  using Key = FilterKey<Added<T>>;
  static constexpr TermKind kKind = TermKind::Added;
  static constexpr bool kArg = false;
};
/// The distinctness key of a term: its component, or FilterKey for a filter.
template <class Term, class = void>
struct TermKeyOf {
  using type = typename TermTraits<Term>::Component;
};
template <class Term>
struct TermKeyOf<Term, std::void_t<typename TermTraits<Term>::Key>> {
  using type = typename TermTraits<Term>::Key;
};
template <class T, class A>
struct TermTraits<Optional<T, A>> {
  static constexpr bool kIsTerm = kIsAccessTag<A>;
  using Component = ComponentKey<T>;
  static constexpr bool kWrite = kAccessOf<A> == Access::Write;
  static constexpr TermKind kKind = kWrite ? TermKind::OptionalWrite : TermKind::OptionalRead;
  static constexpr bool kArg = true;
  using Source = OptionalColumn<std::conditional_t<kWrite, Component*, const Component*>>;
};

/// The compile-time facts of a term list.
template <class... Terms>
struct TermList {
  static constexpr std::size_t kCount = sizeof...(Terms);
  static constexpr TermKind kKinds[kCount] = {TermTraits<Terms>::kKind...};
  static constexpr bool kArgs[kCount] = {TermTraits<Terms>::kArg...};
  static constexpr std::size_t kArgCount = (std::size_t{0} + ... + (TermTraits<Terms>::kArg ? 1 : 0));
  static constexpr bool kHasFilter = (termFilters(TermTraits<Terms>::kKind) || ...);
  /// Positions (term indices) of the terms that hand out an argument.
  static constexpr std::array<std::size_t, kArgCount> kArgTerms = [] {
    std::array<std::size_t, kArgCount> out{};
    std::size_t j = 0;
    for (std::size_t i = 0; i < kCount; ++i) {
      if (kArgs[i]) out[j++] = i;
    }
    return out;
  }();
  template <std::size_t I>
  using Term = std::tuple_element_t<I, std::tuple<Terms...>>;
};

/// The per-archetype inner loop: the Entity is built only from the slot
/// column and the generation table, so a callback that ignores it lets the
/// compiler drop both loads and vectorise over the columns.
template <class Fn, class... Cols>
inline void walkRows(Fn& fn, const std::uint32_t* slots, const std::uint16_t* generations,
                     std::uint32_t rows, Cols... cols) {
  for (std::uint32_t r = 0; r < rows; ++r) {
    const std::uint32_t slot = slots[r];
    fn(Entity(static_cast<std::uint16_t>(slot), generations[slot]), cols.at(r)...);
  }
}

/// The argument source of argument-term J of `L` in archetype `a`.
template <class L, std::size_t J>
inline auto termColumn(const Archetype& a, const ComponentTypeId* ids) noexcept {
  constexpr std::size_t I = L::kArgTerms[J];
  using Traits = TermTraits<typename L::template Term<I>>;
  using Source = typename Traits::Source;
  using P = decltype(Source::base);
  const std::uint8_t col = a.colOf[ids[I]];
  if constexpr (termRequired(Traits::kKind)) {
    return Source{reinterpret_cast<P>(a.cols[col - 1].data)};
  } else {
    return Source{col != 0 ? reinterpret_cast<P>(a.cols[col - 1].data) : nullptr};
  }
}

/// Walks every matched archetype of `run` in ascending id (the set's bit
/// order), calling fn once per row. The matched set cannot change while
/// the guard is live: no begin can run on this cache meanwhile.
template <class L, class Fn, std::size_t... J>
inline void walkMatched(Fn& fn, const QueryRun& run, std::index_sequence<J...>) {
  for (std::uint32_t word = 0; word < 4; ++word) {
    std::uint64_t bits = run.matched->words[word];
    while (bits != 0) {
      const std::uint32_t aid = word * 64 + static_cast<std::uint32_t>(std::countr_zero(bits)) + 1;
      bits &= bits - 1;
      const Archetype& a = *run.archetypes[aid];
      const std::uint32_t rows = a.rowCount;  // normalised at begin: no holes, no tail
      if (rows == 0) continue;
      walkRows(fn, a.slots, run.generations, rows, termColumn<L, J>(a, run.ids)...);
    }
  }
}

/// Ends the iteration however the callback leaves (a test's exception too).
struct IterationEnd {
  World* world;
  ~IterationEnd() { world->endIteration(); }
};

}  // namespace detail

}  // namespace laige

// The change-filtered walk (uses termColumn above).
#include "laige/detail/change_walk.h"
// The hierarchy-order walk of eachCascade (uses termColumn above).
#include "laige/detail/cascade_walk.h"

namespace laige {

/// A query declared once from its terms and reused (see the file comment).
/// Copyable and movable (a plain value, no heap); one query may serve
/// several worlds (it rebuilds its cache when handed another world). Do not
/// assign to a query while its own each runs.
template <class... Terms>
class Query {
  using L = detail::TermList<Terms...>;
  static_assert(sizeof...(Terms) >= 1, "Query<>: list at least one term (world.each<>() visits every entity)");
  static_assert((detail::TermTraits<Terms>::kIsTerm && ...),
                "Query<Terms...>: every term must be Reads<T>, Writes<T>, With<T>, Without<T> or "
                "Optional<T[, laige::Read or laige::Write]>");
  static_assert((detail::MarkedComponent<typename detail::TermTraits<Terms>::Component> && ...),
                "Query<Terms...>: every term's component must be marked with LAIGE_COMPONENT");
  static_assert(detail::AllDistinct<typename detail::TermKeyOf<Terms>::type...>::value,
                "Query<Terms...>: a component appears in two terms (Changed/Added filters aside)");
  static_assert(sizeof...(Terms) <= kMaxArchetypeComponents,
                "Query<Terms...>: at most kMaxArchetypeComponents terms");

 public:
  /// Terms in this query.
  static constexpr std::uint32_t kTermCount = static_cast<std::uint32_t>(sizeof...(Terms));

  /// An unbuilt query: the first call resolves and matches. No allocation.
  Query() noexcept = default;
  /// Builds the query against `world` now (resolves the component ids and
  /// matches every existing archetype). No allocation; O(archetypes).
  explicit Query(World& world) noexcept { (void)archetypeCount(world); }

  /// Calls fn(Entity, args...) for every live entity of `world` the terms
  /// match, in ascending archetype id, then ascending slot id. Errors
  /// (nothing visited, nothing changed): a live iteration -> misuse assert /
  /// InvalidArgument + warn ecs/iteration_nested; inside a running system, a
  /// term outside its declared io -> misuse assert / InvalidArgument reason
  /// system_io_violation (fields system, component, access). A moved-from
  /// world: ok, no call. No allocation; O(archetypes created since the last
  /// call + matched archetypes) before the first row.
  template <class Fn>
  Status each(World& world, Fn&& fn) {
    if constexpr (L::kHasFilter) {
      // The change-filtered walk (docs/changes.md): since the running
      // system's or this query's previous run, archetypes skipped by bound.
      detail::QueryRun run;
      detail::ChangeRun change;
      const Status st = detail::ChangeAccess::beginFiltered(world, cache_, spec(), run, change);
      if (!st.ok() || run.archetypes == nullptr) return st;
      const detail::FilteredEnd end{&world, &cache_, change};
      detail::walkFiltered<L>(fn, run, change, std::make_index_sequence<L::kArgCount>{});
      return st;
    }
    detail::QueryRun run;
    const Status st = world.beginQuery(cache_, spec(), run);
    if (!st.ok() || run.archetypes == nullptr) return st;
    const detail::IterationEnd end{&world};
    detail::walkMatched<L>(fn, run, std::make_index_sequence<L::kArgCount>{});
    return st;
  }

  /// The cascade option (`docs/relations.md#the-cascade-query-option`):
  /// calls fn(Entity, args...) - with Up given, fn(Entity, args..., const
  /// Up* up) - for every live entity the terms match, in hierarchy order
  /// through relation `rel`: depth by depth (depth 0: the entities without
  /// `rel`; depth d + 1: those whose target is at depth d), each depth in
  /// ascending slot order. `up` is the target's Up value (written
  /// earlier in the same pass when this query writes Up and matches the
  /// target), nullptr for an entity without `rel` or a target without Up.
  /// So one pass propagates transforms (world = parent world x local).
  /// Legality as each, and more: the guard also covers the archetypes of
  /// every target row, so no row the pass reads can move; relation changes
  /// (add / remove of a relation, destroy, clear, restore, eachCascade)
  /// inside fn are refused with relation_walk_mutation; an in-place World
  /// write of Up is refused unless a term writes Up. Record them as
  /// commands: they apply when the pass returns. Errors (nothing visited,
  /// nothing changed): `rel` no relation -> relation_not_registered; a live
  /// iteration -> iteration_nested (as each); inside a relation walk ->
  /// relation_walk_mutation (operation cascade); inside a running system,
  /// `rel` or Up undeclared, or a term outside its io ->
  /// system_io_violation; the first pass over `rel` cannot allocate its
  /// order -> BudgetExhausted relation_alloc_failed. A moved-from world:
  /// ok, no call. Cost: the begin of each, plus O(archetypes); after a
  /// structural change (any add, remove, destroy, clear, restore,
  /// normalisation) the order is rebuilt once, O(highest slot + entities
  /// in the order); then per entity one 16-byte entry read front to back,
  /// its rows (ascending within a depth), its target's Up row. The first
  /// pass over `rel` allocates 16 bytes per entity slot (kept by the
  /// world; the world's first pass 4 more, once); none after that.
  template <class Up = void, class Fn>
  Status eachCascade(World& world, ComponentTypeId rel, Fn&& fn) {
    return walkRelation<Up>(world, rel, Entity{}, fn);
  }

  /// The relation term for one target (flecs's `(ChildOf, parent)`, given
  /// at call time): calls fn(Entity, args...) - with Up given, fn(Entity,
  /// args..., const Up* up), `up` being target's Up value or nullptr - for
  /// every entity the terms match whose `rel` names `target`, in ascending
  /// slot order (the reverse index's order: the children of a parent).
  /// Legality, guard (the target's row too), the relation walk flag, the
  /// io checks and the errors as eachCascade, and a stale `target` -> its
  /// World::check error (nothing visited). Cost: the begin of each plus
  /// O(archetypes + sources of target); per source one entry written and
  /// read back. The world's first such pass allocates 16 bytes per entity
  /// slot (kept by the world); none after that.
  template <class Up = void, class Fn>
  Status eachSourceOf(World& world, ComponentTypeId rel, Entity target, Fn&& fn) {
    if (target.isNull()) return world.check(target);  // (null names no entity: the stale-handle error)
    return walkRelation<Up>(world, rel, target, fn);
  }

  /// Live entities the query matches now (the rows of its matched
  /// archetypes). Pure: no guard, no io check. O(matched archetypes).
  [[nodiscard]] std::uint32_t count(World& world) noexcept {
    return world.queryCount(cache_, spec());
  }
  /// Archetypes the query matches now. O(archetypes created since the last call).
  [[nodiscard]] std::uint32_t archetypeCount(World& world) noexcept {
    return world.queryArchetypeCount(cache_, spec());
  }
  /// True when archetype `id` is matched (as of the last call).
  [[nodiscard]] bool matches(ArchetypeId id) const noexcept { return cache_.matched.contains(id); }

  /// The term kinds (for tools and io derivation).
  [[nodiscard]] static constexpr detail::TermKind termKind(std::uint32_t i) noexcept { return L::kKinds[i]; }
  /// The process-wide type index of term `i`'s component.
  [[nodiscard]] static std::uint32_t termTypeIndex(std::uint32_t i) noexcept {
    const std::uint32_t types[] = {
        detail::componentTypeIndexOf<typename detail::TermTraits<Terms>::Component>()...};
    return types[i];
  }

 private:
  // eachCascade (null target) and eachSourceOf.
  template <class Up, class Fn>
  Status walkRelation(World& world, ComponentTypeId rel, Entity target, Fn& fn) {
    static_assert(!L::kHasFilter, "Query::eachCascade / eachSourceOf: Changed / Added filters are not supported here");
    using UpKey = typename detail::UpKeyOf<Up>::type;
    ComponentTypeId up = 0;
    bool upWritten = false;
    if constexpr (!std::is_void_v<Up>) {
      static_assert(detail::MarkedComponent<UpKey>,
                    "Query::eachCascade<Up> / eachSourceOf<Up>: Up must be a component marked with LAIGE_COMPONENT");
      up = world.isLive() ? world.template componentId<UpKey>() : 0;
      upWritten = ((std::is_same_v<typename detail::TermTraits<Terms>::Component, UpKey> &&
                    detail::termWrites(detail::TermTraits<Terms>::kKind)) ||
                   ...);
    }
    detail::QueryRun run;
    detail::CascadeRun cascade;
    const Status st =
        detail::RelationAccess::beginCascade(world, cache_, spec(), run, rel, up, upWritten, cascade, target);
    if (!st.ok() || run.archetypes == nullptr) return st;
    const detail::CascadeEnd end{&world};
    detail::walkCascade<L, UpKey>(fn, run, cascade, std::make_index_sequence<L::kArgCount>{});
    return st;
  }

  detail::QuerySpec spec() noexcept {
    if (types_[0] == 0) {
      std::uint32_t i = 0;
      ((types_[i++] = detail::componentTypeIndexOf<typename detail::TermTraits<Terms>::Component>()), ...);
    }
    return detail::QuerySpec{types_, L::kKinds, ids_, kTermCount};
  }

  detail::QueryCache cache_;
  std::uint32_t types_[sizeof...(Terms)] = {};
  ComponentTypeId ids_[sizeof...(Terms)] = {};
};

template <class... Terms>
Query<Terms...> World::query() noexcept {
  return Query<Terms...>(*this);
}

template <class... Ts, class Fn, class... Tags>
Status World::each(Fn&& fn, Tags... /*tags*/) {
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
  if constexpr (sizeof...(Ts) == 0) {
    const Status st = beginIteration({}, {});
    if (!st.ok()) return st;
    const detail::IterationEnd end{this};
    // An entity created by the callback (in a fresh or a recycled slot,
    // below or above the cursor) is not visited
    // (`docs/query.md#entities-created-during-an-iteration`).
    const detail::SlotView v = slotView();
    for (std::uint32_t id = 0; id < v.highWater; ++id) {
      if (v.living[id] != 0 && v.bornIn[id] != v.serial) {
        fn(Entity(static_cast<std::uint16_t>(id), v.generations[id]));
      }
    }
    return st;
  } else {
    // The same walk as Query<Reads/Writes...>, over a cache the world keeps
    // per listed type list (`docs/query.md#worldeach`).
    using L = detail::TermList<std::conditional_t<detail::kAccessOf<Tags> == Access::Write,
                                                  Writes<Ts>, Reads<Ts>>...>;
    std::uint32_t types[] = {detail::componentTypeIndexOf<detail::ComponentKey<Ts>>()...};
    detail::QueryRun run;
    const Status st = beginEach(detail::eachKeyOf<detail::ComponentKey<Ts>...>(),
                                detail::QuerySpec{types, L::kKinds, nullptr, sizeof...(Ts)}, run);
    if (!st.ok() || run.archetypes == nullptr) return st;
    const detail::IterationEnd end{this};
    detail::walkMatched<L>(fn, run, std::make_index_sequence<L::kArgCount>{});
    return st;
  }
}

}  // namespace laige
