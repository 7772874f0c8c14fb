// laige/system.h - registered systems: SystemDef, LAIGE_SYSTEM, Io, the
// SystemContext handed to every run, and the typed World::registerSystem
// (docs/systems.md; docs/typescript.md).
//
// A system is a plain function `void(World&, SystemContext&)` plus a name, a
// declared time budget (fpx16_16 milliseconds, docs/system_timing.md), an optional
// dependency list (names it must run after) and its declared component I/O.
// The registry lives in the world: ids are dense from 1 in registration
// order, at most kMaxSystems per world, and registration allocates nothing
// (the table is allocated with the world). A system whose body is not C++
// (a TypeScript system) registers one shared trampoline as `run` and tells
// the bodies apart by SystemDef::userData or the SystemId it is handed.
//
// The scheduler (scheduler.h) orders the systems; World::runSystems runs
// them one at a time, measures each run (system_timing.h) and hands each a
// fresh SystemContext, which is never stored. docs/systems.md.
#pragma once

#include <bit>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "laige/determinism.h"
#include "laige/fpx16_16.h"
#include "laige/prng.h"
#include "laige/query.h"
#include "laige/result.h"
#include "laige/scheduler.h"
#include "laige/system_timing.h"
#include "laige/world.h"

namespace laige {

struct SystemContext;

/// A system body: a plain function (no object, no capture). It returns
/// nothing: a system reports problems through the log or its own state.
using SystemFn = void (*)(World& world, SystemContext& ctx);

/// What a system is. Trivially copyable; World::registerSystem copies it
/// (the pointers, not the strings: `name` and `dependsOn` must outlive the
/// world - string literals, as LAIGE_SYSTEM produces, always do).
struct SystemDef {
  /// The unique, non-empty name (also what other systems' dependsOn name).
  const char* name = nullptr;
  /// The body; never null.
  SystemFn run = nullptr;
  /// The declared per-run budget in milliseconds (> 0); docs/system_timing.md compares
  /// every measured run with it.
  fpx16_16 budgetMs{};
  /// Comma-separated names of systems this one runs after (ASCII whitespace
  /// around names ignored); nullptr, "" or only whitespace means none. At
  /// most kMaxSystemDependencies names, no empty name, no name twice.
  /// Names may refer to systems registered later (resolved when scheduling).
  const char* dependsOn = nullptr;
  /// Opaque data handed to every run in SystemContext::userData (e.g. the
  /// wasm layer's handle of a TypeScript system body). Never dereferenced.
  void* userData = nullptr;
};
static_assert(std::is_trivially_copyable_v<SystemDef>);

/// A registered system's id: dense from 1 in registration order, per world.
struct SystemId {
  /// 1..systemCount(); 0 is kInvalidSystemId.
  std::uint32_t value = 0;
  /// Ids compare by value.
  friend constexpr bool operator==(SystemId a, SystemId b) noexcept = default;
};
/// The id no system ever has.
inline constexpr SystemId kInvalidSystemId{0};

/// One declared component access, the runtime form of Io<T, A>: the wasm
/// layer registers TypeScript systems with an array of these.
struct SystemIo {
  /// A registered component id of this world.
  ComponentTypeId component = 0;
  /// Access::Read or Access::Write (query.h).
  Access access = Access::Read;
};

/// The typed I/O declaration: `Io<Position, Write>{}`, `Io<Velocity, Read>{}`
/// (Read and Write are the query access tags of query.h).
template <class T, class Access>
struct Io {
  /// The component type.
  using Component = T;
  /// laige::Read or laige::Write.
  using AccessTag = Access;
};

/// The io of query types, for registerSystem: `QueryIo<Movers, Spawners>{}`
/// declares every term's component of the listed Query<...> types, Write
/// for Writes<T> and Optional<T, Write> terms, Read for every other term
/// (Reads, With, Without, Optional: the system reads them, if only their
/// presence). `docs/query.md#system-access`.
template <class... Queries>
struct QueryIo {};

/// The per-tick input a caller hands to runSystems (the replay input blob;
/// empty until the input layer exists).
struct TickInput {
  /// The payload bytes (nullptr when size == 0).
  const std::uint8_t* data = nullptr;
  /// The payload length in bytes.
  std::uint32_t size = 0;
};

/// What a system run receives. Built per system per tick by runSystems and
/// valid only during that run: never store it or its pointers.
struct SystemContext {
  /// The world running the system.
  World& world;
  /// This system's PRNG substream, deriveSubstream(world seed, id), advanced
  /// in place (its state is simulation state); nullptr when the world is not
  /// deterministic.
  Prng* rng;
  /// The tick being run: the world's completed runSystems calls + 1.
  std::uint64_t tick;
  /// The tick's opaque input payload (nullptr when inputSize == 0).
  const std::uint8_t* input;
  /// The payload length in bytes.
  std::uint32_t inputSize;
  /// The running system's id.
  SystemId id;
  /// SystemDef::userData of the running system.
  void* userData;
  /// The world's command buffer (laige/commands.h): what the system records
  /// applies right after its run returns, in recording order, under its
  /// declared io (docs/commands.md). Used after the run it fails with
  /// command_outside_phase.
  CommandBuffer& commands;

  /// World::each, on the running system's world: `ctx.each<Pos, Vel>(fn,
  /// laige::Write{}, laige::Read{})`. Same contract and Status.
  template <class... Ts, class Fn, class... Acc>
  Status each(Fn&& fn, Acc... access) {
    return world.template each<Ts...>(std::forward<Fn>(fn), access...);
  }
  /// Query::each on the running system's world: `ctx.each(movers, fn)`.
  /// Same contract and Status (the terms are checked against the io).
  template <class... Terms, class Fn>
  Status each(Query<Terms...>& query, Fn&& fn) {
    return query.each(world, std::forward<Fn>(fn));
  }
};

/// A registered system as the world holds it (World::system).
struct SystemInfo {
  /// The definition as registered.
  SystemDef def;
  /// The system's id.
  SystemId id;
  /// Components declared Read (disjoint from writes).
  detail::IdSet256 reads;
  /// Components declared Write.
  detail::IdSet256 writes;
  /// True when component `cid` is declared Read (false for a Write one).
  [[nodiscard]] bool declaresRead(ComponentTypeId cid) const noexcept {
    return cid != 0 && reads.contains(cid);
  }
  /// True when component `cid` is declared Write.
  [[nodiscard]] bool declaresWrite(ComponentTypeId cid) const noexcept {
    return cid != 0 && writes.contains(cid);
  }
  /// How many components the system declares (reads + writes).
  [[nodiscard]] std::uint32_t ioCount() const noexcept {
    std::uint32_t n = 0;
    for (int w = 0; w < 4; ++w) n += static_cast<std::uint32_t>(std::popcount(reads.words[w] | writes.words[w]));
    return n;
  }
  /// The `index`th declared component in ascending component id order (the
  /// I/O list order), or {0, Access::Read} when index >= ioCount().
  [[nodiscard]] SystemIo ioAt(std::uint32_t index) const noexcept {
    for (ComponentTypeId cid = 1; cid <= kMaxComponentTypes; ++cid) {
      const bool w = writes.contains(cid);
      if (!w && !reads.contains(cid)) continue;
      if (index-- == 0) return SystemIo{cid, w ? Access::Write : Access::Read};
    }
    return SystemIo{};
  }
};

/// A system's PRNG substream state (the per-system part of the state hash).
struct SystemRngState {
  /// The system.
  SystemId id;
  /// False when the world is not deterministic (the other words are 0).
  bool hasSubstream = false;
  /// The substream's seed: world seed + id * Prng::kSplitmix64Increment.
  std::uint64_t seed = 0;
  /// Prng::statePart1() now.
  std::uint64_t state1 = 0;
  /// Prng::statePart2() now.
  std::uint64_t state2 = 0;
};

template <class... Ts, class... As>
Result<SystemId> World::registerSystem(const SystemDef& def, Io<Ts, As>... /*io*/) noexcept {
  static_assert((detail::kIsAccessTag<As> && ...),
                "registerSystem: Io<T, Access>: Access must be laige::Read or laige::Write");
  static_assert((detail::MarkedComponent<Ts> && ...),
                "registerSystem: an Io<T, ...> names a type that is not a component (LAIGE_COMPONENT)");
  static_assert((detail::kIsDeterminismSafe<Ts> && ...),
                "registerSystem: an Io<T, ...> names a component that is not determinism-safe");
  // componentId<T>() is 0 for an unregistered T: the runtime overload turns
  // that into system/io_unregistered, in the documented validation order.
  const SystemIo list[sizeof...(Ts) + 1] = {SystemIo{componentId<Ts>(), detail::kAccessOf<As>}...,
                                           SystemIo{}};
  return registerSystem(def, list, static_cast<std::uint32_t>(sizeof...(Ts)));
}

namespace detail {

/// Adds `io` to out[0..n), merging it into an entry for the same
/// registered component (Write wins). Unregistered ids (0) are kept apart
/// so that registration reports them (io_unregistered).
inline void mergeIo(SystemIo* out, std::uint32_t& n, SystemIo io) noexcept {
  for (std::uint32_t i = 0; io.component != 0 && i < n; ++i) {
    if (out[i].component != io.component) continue;
    if (io.access == Access::Write) out[i].access = Access::Write;
    return;
  }
  out[n++] = io;
}

template <class Q>
struct QueryIoOf {
  static_assert(sizeof(Q) == 0, "QueryIo<...>: list laige::Query<...> types");
};
template <class... Terms>
struct QueryIoOf<Query<Terms...>> {
  static constexpr std::uint32_t kCount = sizeof...(Terms);
  static void append(const World& w, SystemIo* out, std::uint32_t& n) noexcept {
    (mergeIo(out, n,
             SystemIo{w.componentId<typename TermTraits<Terms>::Component>(),
                      termWrites(TermTraits<Terms>::kKind) ? Access::Write : Access::Read}),
     ...);
  }
};

}  // namespace detail

template <class... Queries, class... Ts, class... As>
Result<SystemId> World::registerSystem(const SystemDef& def, QueryIo<Queries...> /*queries*/,
                                       Io<Ts, As>... /*io*/) noexcept {
  static_assert((detail::kIsAccessTag<As> && ...),
                "registerSystem: Io<T, Access>: Access must be laige::Read or laige::Write");
  static_assert((detail::MarkedComponent<Ts> && ...),
                "registerSystem: an Io<T, ...> names a type that is not a component (LAIGE_COMPONENT)");
  static_assert((detail::kIsDeterminismSafe<Ts> && ...),
                "registerSystem: an Io<T, ...> names a component that is not determinism-safe");
  SystemIo list[(std::uint32_t{0} + ... + detail::QueryIoOf<Queries>::kCount) + sizeof...(Ts) + 1] = {};
  std::uint32_t n = 0;
  (detail::QueryIoOf<Queries>::append(*this, list, n), ...);
  (detail::mergeIo(list, n, SystemIo{componentId<Ts>(), detail::kAccessOf<As>}), ...);
  return registerSystem(def, list, n);
}

}  // namespace laige

/// Declares a system function and its definition at namespace scope:
///   LAIGE_SYSTEM(Move, 1.0, Spawn, Input)   // budget 1 ms, after Spawn and Input
///   void Move(laige::World& world, laige::SystemContext& ctx) { ... }
/// declares `void Move(World&, SystemContext&)` and `inline const SystemDef
/// Move_Def` = {"Move", &Move, fpx16_16::fromDouble(1.0), "Spawn, Input",
/// nullptr}. With no dependencies the list is "".
#define LAIGE_SYSTEM(Name, budget_ms, ...)                                                         \
  void Name(::laige::World& world, ::laige::SystemContext& ctx);                                   \
  inline const ::laige::SystemDef Name##_Def = {                                                   \
      #Name, &Name, ::laige::fpx16_16::fromDouble(static_cast<double>(budget_ms)), #__VA_ARGS__, \
      nullptr}
