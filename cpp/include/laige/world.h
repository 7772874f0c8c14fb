// laige/world.h - the World: entity storage, guardrails, and (through the
// component and system headers) everything a simulation owns.
//
// The entity storage (docs/entity.md): a fixed declared budget
// (capacity) allocated once at creation, O(1) create/destroy/check with no
// allocation, LIFO slot reuse on top of ascending fresh slots (docs/entity.md),
// generation-checked handles, the entity-budget and churn guardrails, and move-only
// ownership where a moved-from world is a valid empty world.
// docs/entity.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>

#include "laige/archetype.h"
#include "laige/commands.h"
#include "laige/component.h"
#include "laige/component_reader.h"
#include "laige/entity.h"
#include "laige/query.h"
#include "laige/result.h"

namespace laige {

/// The default per-frame component-churn budget (docs/entity.md).
inline constexpr std::uint32_t kDefaultChurnPerFrameBudget = 256;

/// The entity storage's accounting snapshot (the profiler feed).
struct EntityStats {
  /// The declared scene budget (max live entities).
  std::uint32_t capacity = 0;
  /// Live entities now.
  std::uint32_t inUse = 0;
  /// The most entities ever live at once since construction.
  std::uint32_t peakInUse = 0;
  /// Successful create() calls since construction.
  std::uint64_t totalCreated = 0;
  /// Entities destroyed (destroy() and clear()) since construction.
  std::uint64_t totalDestroyed = 0;
  /// Bookkeeping bytes for all slots: capacity x kEntityBookkeepingBytes.
  std::uint64_t bytesCapacity = 0;
  /// Bookkeeping bytes for the live slots: inUse x kEntityBookkeepingBytes.
  std::uint64_t bytesInUse = 0;
};

/// Per-slot bookkeeping bytes (docs/entity.md): 2 generation + 1 alive + 2 free
/// list + 2 archetype + 4 row.
inline constexpr std::uint32_t kEntityBookkeepingBytes = 11;

/// The guardrail snapshot (entity-budget levels, churn).
struct GuardrailStats {
  /// The declared scene budget (the entity-budget denominator).
  std::uint32_t capacity = 0;
  /// Live entities right now (the entity-budget numerator).
  std::uint32_t entityCount = 0;
  /// 0/25/50/100: the highest level the live count reached since construction.
  std::uint32_t entityBudgetLevel = 0;
  /// Per-level warn counts since construction (0 = 25%, 1 = 50%, 2 = 100%).
  std::uint32_t entityBudgetWarns[3] = {0, 0, 0};
  /// Component adds + removes since the last beginFrame().
  std::uint32_t frameChurn = 0;
  /// The configured churn budget (0 = disabled).
  std::uint32_t churnPerFrameBudget = 0;
  /// Churn warnings issued since construction.
  std::uint32_t churnWarns = 0;
};

namespace detail {
struct WorldState;
}  // namespace detail

// The system layer's types (laige/system.h, scheduler.h, system_timing.h);
// World only declares the members that use them.
struct SystemDef;
struct SystemId;
struct SystemIo;
struct SystemInfo;
struct SystemRngState;
struct SystemSchedule;
struct SystemTimingStats;
struct TickInput;
struct StateDiffItem;
class Histogram;
template <class T, class Access>
struct Io;
template <class... Terms>
class Query;
template <class... Queries>
struct QueryIo;
namespace detail {
struct QueryCache;
struct QueryRun;
struct QuerySpec;
struct ChangeAccess;
struct RelationAccess;
struct QueryAccess;
}  // namespace detail
using TimingClockFn = std::int64_t (*)(void* ctx) noexcept;

/// The simulation world. Move-only; single owner thread.
class World {
 public:
  /// Creation options (docs/entity.md, World::Options).
  struct Options {
    /// The scene budget (the entity-budget guardrail): the most entities live at once. At most
    /// Entity::kMaxEntities (65,536); more is InvalidArgument.
    std::uint32_t capacity = 0;
    /// The per-frame churn budget; 0 disables the guardrail.
    std::uint32_t churnPerFrameBudget = kDefaultChurnPerFrameBudget;
    /// The master PRNG seed; each system's substream derives from it.
    std::uint64_t seed = 0;
    /// When true, each registered system gets a PRNG substream.
    bool deterministic = true;
  };

  /// Creates a world (the setup path: the storage's only allocations).
  /// capacity > Entity::kMaxEntities -> InvalidArgument (no world).
  static Result<World> create(const Options& options) noexcept;
  /// Creates a world with default options and the given capacity.
  static Result<World> create(std::uint32_t capacity) noexcept {
    Options o;
    o.capacity = capacity;
    return create(o);
  }

  /// A moved-from-like empty world: capacity 0, every create() fails.
  World() noexcept;
  ~World();
  /// O(1) move; the source becomes a valid empty world (capacity 0).
  World(World&& other) noexcept;
  /// O(1) move; the source becomes a valid empty world (capacity 0).
  World& operator=(World&& other) noexcept;
  World(const World&) = delete;
  World& operator=(const World&) = delete;

  // --- Entities (docs/entity.md) ---------------------------------------------------

  /// Creates one entity: the slot freed last, else the next fresh slot.
  /// BudgetExhausted when the declared budget is full. O(1), no allocation.
  Result<Entity> create() noexcept;
  /// Destroys a live entity (its components are detached first); bumps the
  /// slot's generation so every copy of the handle goes stale. A stale or
  /// invalid handle: native debug asserts; release and wasm return
  /// InvalidArgument + a rate-limited ecs/stale_entity_destroy warn.
  Status destroy(Entity e) noexcept;
  /// The access check every entity access performs: ok for a live handle,
  /// InvalidArgument + a rate-limited ecs/stale_entity_access warn otherwise
  /// (in every build).
  Status check(Entity e) const noexcept;
  /// Generation-checked liveness; no side effects.
  [[nodiscard]] bool isValid(Entity e) const noexcept;
  /// The declared scene budget (0 for a moved-from world).
  [[nodiscard]] std::uint32_t capacity() const noexcept;
  /// Live entities now.
  [[nodiscard]] std::uint32_t entityCount() const noexcept;
  /// The accounting snapshot. O(1), no allocation.
  [[nodiscard]] EntityStats stats() const noexcept;
  /// Destroys every live entity (a shutdown-phase operation, O(capacity)).
  /// Every handle goes stale; the next creates hand out slots 0, 1, 2, ...
  /// again (with raised generations). Idempotent.
  Status clear() noexcept;
  /// The live handle at slot `id`, or Entity{} when the slot is not live.
  [[nodiscard]] Entity handleAt(std::uint16_t id) const noexcept;
  /// The generation table: the live handle of a live slot `id` is
  /// Entity(id, generationTable()[id]). Allocated at creation and stable for
  /// the world's lifetime (nullptr for a moved-from world). With
  /// archetypeSlots() it builds the handles of a whole archetype without a
  /// per-row liveness check (the wasm layer's `each` does).
  [[nodiscard]] const std::uint16_t* generationTable() const noexcept;
  /// The per-slot archetype table: archetypeTable()[id] is the archetype of
  /// slot `id` (0 = none: a free slot, or a live entity without components),
  /// capacity entries. Allocated at creation, stable for the world's
  /// lifetime, rewritten in place by every move and restore (nullptr for a
  /// moved-from world). With rowTable() and columnDataRef() it locates a
  /// component's bytes without a call (the TypeScript field handles do).
  [[nodiscard]] const ArchetypeId* archetypeTable() const noexcept;
  /// The per-slot row table: rowTable()[id] is slot `id`'s row in its
  /// archetype (meaningful only where archetypeTable()[id] != 0). Stable
  /// like archetypeTable().
  [[nodiscard]] const std::uint32_t* rowTable() const noexcept;
  /// Where archetype `a` keeps the base pointer of its column of component
  /// `c`: the pointer itself changes when the archetype grows, the place
  /// holding it does not (an archetype is never moved; a restore that
  /// replaces archetypes raises structureEpoch()). nullptr when `a` is
  /// unknown or lacks `c`. O(1), no allocation, no normalisation: the row
  /// of a slot is rowTable()'s, normalised or not.
  [[nodiscard]] std::uint8_t* const* columnDataRef(ArchetypeId a, ComponentTypeId c) const noexcept;
  /// The options the world was created with (defaults for a moved-from world).
  [[nodiscard]] Options options() const noexcept;
  /// True for a world that owns storage (false after a move or default construction).
  [[nodiscard]] bool isLive() const noexcept { return s_ != nullptr; }

  // --- Guardrails (entity budget, churn budget) -------------------------------------------------

  /// Marks a frame start: resets the per-frame churn counter and the
  /// once-per-frame warn flags. O(1), no log.
  void beginFrame() noexcept;
  /// The guardrail snapshot. O(1), no side effects.
  [[nodiscard]] GuardrailStats guardrailStats() const noexcept;
  /// Counts `n` component changes for the churn budget (the component layer calls it for
  /// every successful add and every remove that detaches a row).
  void noteChurn(std::uint32_t n = 1) noexcept;

  // --- Components (docs/component_registry.md) --------

  /// Registers T (marked with LAIGE_COMPONENT) and returns its id, the next
  /// dense id from 1. Setup phase (allocates the registry entry). Errors:
  /// T, or another component with T's name, already registered ->
  /// InvalidArgument + rate-limited warn ecs/component_duplicate (fields
  /// component_id, size, alignment, name); kMaxComponentTypes reached ->
  /// BudgetExhausted + warn ecs/component_budget; moved-from world ->
  /// InvalidArgument.
  template <class T>
  Result<ComponentTypeId> registerComponent() noexcept;
  /// Registers a runtime-described component (the JS-schema entry; the
  /// strings are copied). Errors as registerComponent<T>, plus: an empty or
  /// over-long name -> InvalidArgument + warn ecs/component_name_invalid; a
  /// description that checkComponentLayout rejects -> its code
  /// (MalformedInput or InvalidArgument) + warn ecs/component_desc_invalid
  /// (fields reason, field, size, alignment).
  Result<ComponentTypeId> registerComponentDesc(const ComponentDesc& desc) noexcept;
  /// Registered component types. O(1).
  [[nodiscard]] std::uint32_t componentCount() const noexcept;
  /// The registered component `id` (views into the registry, valid while
  /// the world lives); InvalidArgument (no log) for 0, an unregistered id or
  /// a moved-from world. O(1).
  [[nodiscard]] Result<ComponentInfo> componentInfo(ComponentTypeId id) const noexcept;
  /// T's id in this world, or kInvalidComponentTypeId when T is not
  /// registered here. O(1), no RTTI: a process-wide type index read plus a
  /// per-world table lookup.
  template <class T>
  [[nodiscard]] ComponentTypeId componentId() const noexcept;
  /// The id of the component registered under `name`, or 0. O(components).
  [[nodiscard]] ComponentTypeId componentIdByName(std::string_view name) const noexcept;

  // --- Archetype storage (docs/archetype.md) ---------

  /// True when live `e` has T. Stale handle or unregistered T -> false, no
  /// log (a pure query). O(1).
  template <class T>
  [[nodiscard]] bool has(Entity e) const noexcept;
  /// e's T, or nullptr: absent or unregistered T silently; a stale handle
  /// with a rate-limited warn ecs/stale_entity_access (as check()). The
  /// pointer is valid until the next structural change of any entity.
  /// O(1), no allocation.
  template <class T>
  [[nodiscard]] T* get(Entity e) noexcept;
  /// Const overload of get<T>.
  template <class T>
  [[nodiscard]] const T* get(Entity e) const noexcept;
  /// A read-only accessor of T by handle that resolves T and its columns
  /// once: `auto pos = world.reader<Position>(); pos.get(e)` (get() is
  /// O(1) without a call; laige/component_reader.h has the validity rule:
  /// until an archetype is created or a restore replaces archetypes,
  /// checked on every get). An unregistered T gives a reader whose get() is
  /// always nullptr. O(archetypes), no allocation, no log.
  template <class T>
  [[nodiscard]] ComponentReader<T> reader() const noexcept;
  /// Create-or-update: overwrites T in place when e has it, else moves e to
  /// the archetype of its set plus T. Counts as churn either way.
  /// Errors (checked before any side effect, nothing half-applied): stale
  /// handle -> native debug misuse assert, else InvalidArgument + warn
  /// ecs/stale_entity_access; unregistered T -> InvalidArgument + warn
  /// ecs/component_unregistered; rejected by a live each's guard ->
  /// InvalidArgument (docs/query.md); a 33rd component -> BudgetExhausted +
  /// warn ecs/component_limit; a 257th archetype -> BudgetExhausted + warn
  /// ecs/archetype_budget. Amortised O(components), no allocation unless an
  /// archetype is created or grows.
  template <class T>
  Status addComponent(Entity e, const T& value) noexcept;
  /// Removes T from e (a no-op ok when e lacks T). Errors as addComponent.
  /// Amortised O(components); churn only when a row is detached.
  template <class T>
  Status removeComponent(Entity e) noexcept;
  /// hasComponent by id (the untyped form of has<T>).
  [[nodiscard]] bool hasComponent(Entity e, ComponentTypeId id) const noexcept;
  /// get by id: e's component bytes, or nullptr (as get<T>).
  [[nodiscard]] void* getBytes(Entity e, ComponentTypeId id) noexcept;
  /// Const overload of getBytes.
  [[nodiscard]] const void* getBytes(Entity e, ComponentTypeId id) const noexcept;
  /// addComponent by id from raw bytes (the wasm path). `size` must equal
  /// the registered size (else InvalidArgument + warn
  /// ecs/component_size_mismatch); an unregistered id -> InvalidArgument +
  /// warn ecs/component_unregistered. Otherwise as addComponent<T>.
  Status addComponentBytes(Entity e, ComponentTypeId id, const void* bytes,
                           std::uint32_t size) noexcept;
  /// removeComponent by id. Errors as removeComponent<T>.
  Status removeComponentById(Entity e, ComponentTypeId id) noexcept;
  /// The archetype live `e` is in (kNoArchetype without components or when
  /// stale). O(1), no log.
  [[nodiscard]] ArchetypeId archetypeOf(Entity e) const noexcept;
  /// Archetypes created so far (never destroyed). O(1).
  [[nodiscard]] std::uint32_t archetypeCount() const noexcept;
  /// The accounting snapshot. O(kMaxArchetypes x kMaxArchetypeComponents),
  /// no allocation, no side effects.
  [[nodiscard]] ArchetypeStats archetypeStats() const noexcept;
  /// Archetype `id`'s component ids, strictly ascending (empty for an
  /// unknown id). Valid while the world lives.
  [[nodiscard]] std::span<const ComponentTypeId> archetypeComponents(ArchetypeId id) const noexcept;
  /// Archetype `id`'s live rows, after normalising it (0 for an unknown id).
  /// Column views (the JS fast path): re-derive every call, never keep -
  /// any structural change may reorder or reallocate the rows.
  [[nodiscard]] std::uint32_t archetypeRowCount(ArchetypeId id) noexcept;
  /// Archetype `id`'s column of component `c` (archetypeRowCount rows of
  /// componentInfo(c).size bytes, ascending slot order), after normalising;
  /// nullptr when the archetype lacks `c`. Re-derive every call.
  [[nodiscard]] std::uint8_t* archetypeColumn(ArchetypeId id, ComponentTypeId c) noexcept;
  /// Archetype `id`'s slot column (archetypeRowCount entries, strictly
  /// ascending), after normalising; nullptr for an unknown id. Re-derive
  /// every call.
  [[nodiscard]] const std::uint32_t* archetypeSlots(ArchetypeId id) noexcept;

  // --- Queries (docs/query.md, docs/iteration_order.md) ----------

  /// Calls fn(Entity, refs...) for every live entity whose archetype holds
  /// every listed component (superset match), in ascending archetype id,
  /// then ascending slot id. One tag per component, in template order:
  /// Read{} -> const T&, Write{} -> T& (a mismatch is a compile error).
  /// each<>(fn) calls fn(Entity) for every live entity in ascending slot
  /// id. An unregistered listed type matches nothing (ok, zero calls). The
  /// guard rejects, while fn runs, the mutations of the legality table (docs/query.md)
  /// (debug assert; release/wasm InvalidArgument + warn, skipped). A nested
  /// each -> misuse assert / InvalidArgument + warn ecs/iteration_nested.
  /// No allocation; O(kMaxArchetypes x N) to match, then one pass per row.
  template <class... Ts, class Fn, class... Tags>
  Status each(Fn&& fn, Tags... tags);
  /// A query object over this world's components, built now (resolved and
  /// matched): `auto movers = world.query<Writes<Pos>, Reads<Vel>>();`
  /// (laige/query_object.h has the terms and the contract). No allocation.
  template <class... Terms>
  [[nodiscard]] Query<Terms...> query() noexcept;
  /// Installs the iteration guard for a query over `ids` with per-component
  /// `access` (same length; the JS-driven each calls it in a try/finally
  /// with endIteration) and normalises the matched archetypes. Errors: a
  /// live iteration -> misuse assert / InvalidArgument + warn
  /// ecs/iteration_nested; inside a running system, an id outside the
  /// system's declared io or a Write access of a component it declared
  /// Read -> misuse assert / InvalidArgument reason system_io_violation
  /// (`docs/query.md#system-access`); mismatched lengths, more than
  /// kMaxArchetypeComponents ids, an id listed twice or an Access outside
  /// the enum -> InvalidArgument + warn ecs/iteration_invalid. An
  /// unregistered id matches nothing. Moved-from world -> InvalidArgument.
  Status beginIteration(std::span<const ComponentTypeId> ids,
                        std::span<const Access> access) noexcept;
  /// beginIteration with exclusion: archetypes holding any `without` id are
  /// not matched (the JS form of a query's Without terms). An id both
  /// listed and excluded, or more than kMaxArchetypeComponents excluded ->
  /// InvalidArgument + warn ecs/iteration_invalid; inside a running system
  /// every registered excluded id must be declared (system_io_violation).
  /// An unregistered excluded id excludes nothing.
  Status beginIteration(std::span<const ComponentTypeId> ids, std::span<const Access> access,
                        std::span<const ComponentTypeId> without) noexcept;
  /// Removes the iteration guard (no-op without one): every mutation is
  /// legal again.
  void endIteration() noexcept;
  /// True between beginIteration and endIteration.
  [[nodiscard]] bool isIterating() const noexcept;
  /// True when slot `id`'s entity was created during the live iteration
  /// (so that iteration does not visit it; false without one). O(1).
  [[nodiscard]] bool createdDuringIteration(std::uint16_t id) const noexcept;
  /// Archetypes the live iteration matched (0 without one).
  [[nodiscard]] std::uint32_t iterationArchetypeCount() const noexcept;
  /// The live iteration's `index`th matched archetype (ascending ids), or
  /// kNoArchetype when out of range.
  [[nodiscard]] ArchetypeId iterationArchetype(std::uint32_t index) const noexcept;
  /// The live iteration's cursor table in one pass: for each matched
  /// archetype (ascending ids, at most `max`) 3 + ids.size() words at
  /// out + k * (3 + ids.size()): archetype id, row count, address of the
  /// slot column, then the address of the column of each ids[i] (0 where
  /// the archetype lacks it or the id is out of range). Returns the matched
  /// count (0 without an iteration; rows beyond `max` are not written).
  /// What iterationArchetype + archetypeRowCount / archetypeSlots /
  /// archetypeColumn give, without a call per archetype: the matched
  /// archetypes were normalised at begin and cannot change while the guard
  /// is live. O(matched x ids.size()), no allocation, no event.
  std::uint32_t iterationCursorTable(std::span<const ComponentTypeId> ids, std::uintptr_t* out,
                                     std::uint32_t max) const noexcept;

  // --- Systems (laige/system.h, scheduler.h, system_timing.h) ---------------
  // Contract: docs/systems.md,
  // docs/scheduler.md, docs/system_timing.md.

  /// Registers a system with its typed component I/O, e.g.
  /// `registerSystem(Move_Def, Io<Pos, Write>{}, Io<Vel, Read>{})` (the
  /// definition is in system.h). Compile errors: T not a component, T not
  /// determinism-safe, an access tag other than Read/Write. Runtime
  /// validation as the runtime overload below.
  template <class... Ts, class... As>
  Result<SystemId> registerSystem(const SystemDef& def, Io<Ts, As>... io) noexcept;
  /// Registers a system whose io is derived from its query types plus
  /// optional Io<> declarations (for get/add/remove outside the queries):
  /// `registerSystem(Move_Def, QueryIo<Movers>{}, Io<Health, Write>{})`.
  /// A component named more than once is declared once, Write if any
  /// mention writes (system.h). Validation as the runtime overload.
  template <class... Queries, class... Ts, class... As>
  Result<SystemId> registerSystem(const SystemDef& def, QueryIo<Queries...> queries,
                                  Io<Ts, As>... io) noexcept;
  /// Registers a system with `count` runtime I/O declarations (the wasm
  /// layer's path). Validation, first failure wins, each a rate-limited
  /// `system` warn: moved-from world -> InvalidArgument (no log); name null
  /// or empty -> name_invalid; run null -> run_invalid; budgetMs <= 0 ->
  /// budget_invalid; a malformed dependsOn -> dep_spec_invalid; a name
  /// already registered -> duplicate; an I/O list with a null pointer or an
  /// access outside Read/Write -> io_invalid; a component id that is not
  /// registered -> io_unregistered; a component declared twice ->
  /// io_duplicate; the kMaxSystems + 1st system -> BudgetExhausted +
  /// budget_exhausted. All others InvalidArgument. O(systems + count), no
  /// allocation.
  Result<SystemId> registerSystem(const SystemDef& def, const SystemIo* io,
                                  std::uint32_t count) noexcept;
  /// The registered system `id`; InvalidArgument (no log) for 0, an id
  /// above systemCount() or a moved-from world.
  [[nodiscard]] Result<SystemInfo> system(SystemId id) const noexcept;
  /// Registered systems (0 for a moved-from world).
  [[nodiscard]] std::uint32_t systemCount() const noexcept;
  /// System `id`'s PRNG substream state (the state hash's per-system words);
  /// InvalidArgument (no log) for an invalid id or a moved-from world.
  [[nodiscard]] Result<SystemRngState> systemRngState(SystemId id) const noexcept;
  /// Orders the registered systems into `out` and checks the declared I/O
  /// (scheduler.h). On failure `out` is emptied (systemCount 0). Setup path.
  /// Called from inside a running system: InvalidArgument, reason
  /// `schedule_inside_tick`, and `out` untouched (it may be the schedule
  /// being run).
  Status scheduleSystems(SystemSchedule& out) const noexcept;
  /// Runs one tick: every system of `schedule`, one at a time, in order,
  /// each measured and budget-checked (docs/system_timing.md). Rejected before running
  /// anything: a moved-from world (InvalidArgument, no log), a nested call
  /// (misuse: debug assert, else InvalidArgument + system/run_nested), a
  /// stale schedule (system/schedule_stale), an invalid one
  /// (system/schedule_invalid). No allocation, no log on success.
  Status runSystems(const SystemSchedule& schedule) noexcept;
  /// runSystems with this tick's input payload (SystemContext::input).
  Status runSystems(const SystemSchedule& schedule, const TickInput& input) noexcept;
  /// Whether a tick may start now: ok, or InvalidArgument with reason
  /// `tick_inside_callback` and field `callback` = `each` (an each is live
  /// on this world), `system` (one of its systems is running) or `defer`
  /// (a World::defer is open, `docs/commands.md#phases`). Every
  /// tick-running call (runSystems, GameLoop::frame/frameAt/step,
  /// ScenarioRun::step, runReplay, diffReplays) checks it before any side
  /// effect (reentrancy.cpp; `docs/systems.md#re-entrancy`). O(1), no
  /// allocation, no log.
  [[nodiscard]] Status tickAllowed() const noexcept;
  /// Completed runSystems calls since construction (SystemContext::tick of
  /// the next run is this + 1). Survives clear().
  [[nodiscard]] std::uint64_t systemTicksRun() const noexcept;
  /// System `id`'s timing counters; InvalidArgument (no log) for an invalid
  /// id or a moved-from world. O(1), no allocation, no side effects.
  [[nodiscard]] Result<SystemTimingStats> systemTimingStats(SystemId id) const noexcept;
  /// System `id`'s rolling timing window, or nullptr for an invalid id or a
  /// moved-from world. A non-owning view: do not keep it past the world.
  [[nodiscard]] const Histogram* systemTimingWindow(SystemId id) const noexcept;
  /// Replaces the clock runSystems measures with (nullptr restores
  /// steady_clock); `ctx` is passed to every call. For tests and tools that
  /// need exact timings. No-op on a moved-from world.
  void setTimingClock(TimingClockFn clock, void* ctx = nullptr) noexcept;

  // --- Deferred commands (laige/commands.h; docs/commands.md) --------------

  /// The world's command buffer: record destroy/add/remove inside a system
  /// (SystemContext::commands is the same buffer), a live each or a defer;
  /// they apply at that phase's end, in recording order. Outside a phase
  /// every record call fails with command_outside_phase. A moved-from world
  /// hands out a buffer on which every call fails (world_moved_from). O(1).
  [[nodiscard]] CommandBuffer& commands() noexcept;
  /// Runs fn(CommandBuffer&) and then applies what it recorded (in
  /// recording order). Inside a system, a live each or another defer the
  /// commands join that phase and apply at its end instead. Errors, fn not
  /// called: a moved-from world -> InvalidArgument world_moved_from. The
  /// apply itself never fails: skipped commands are counted
  /// (commandStats()). No allocation beyond the buffer's growth.
  template <class Fn>
  Status defer(Fn&& fn);
  /// Opens a defer phase (the wasm layer's half of defer; pair with
  /// endDefer in a finally). A moved-from world -> InvalidArgument
  /// world_moved_from. O(1).
  Status beginDefer() noexcept;
  /// Closes the innermost defer phase; closing the outermost one outside a
  /// system and an each applies the pending commands. A no-op without an
  /// open defer. O(pending commands).
  void endDefer() noexcept;
  /// The command counters (CommandStats). O(1), no side effects.
  [[nodiscard]] CommandStats commandStats() const noexcept;

  // --- Snapshots (laige/snapshot.h; docs/snapshots.md) ----------------------

  /// The exact byte count snapshot() writes for the current state (0 for a
  /// moved-from world). O(archetypes x components), no allocation, const.
  [[nodiscard]] std::size_t snapshotSize() const noexcept;
  /// Writes the whole authoritative state into `out` (the portable format
  /// of `docs/snapshots.md#format`; the first snapshotSize() bytes). Errors,
  /// nothing written: a moved-from world -> InvalidArgument world_moved_from;
  /// `out` shorter than snapshotSize() -> BudgetExhausted
  /// snapshot_buffer_too_small (fields needed, given). Normalises the
  /// archetypes first (the logical state is unchanged). O(snapshot bytes),
  /// no allocation, no log.
  Status snapshot(std::span<std::uint8_t> out) const noexcept;
  /// Makes this world's state the one `bytes` holds, or fails and changes
  /// nothing (every byte is validated before the first write). Errors:
  /// inside an iteration or a running system -> InvalidArgument
  /// restore_inside_callback; MalformedInput snapshot_truncated /
  /// snapshot_trailing_bytes / snapshot_corrupt; InvalidArgument
  /// snapshot_version / snapshot_setup_mismatch; BudgetExhausted
  /// snapshot_alloc_failed (`docs/snapshots.md#errors`). Allocates only when
  /// an archetype must be created or grown; truncates the archetypes created
  /// after the snapshot and then bumps structureEpoch(). O(bytes + capacity).
  Status restore(std::span<const std::uint8_t> bytes) noexcept;
  /// A counter raised whenever a restore replaced or dropped archetypes
  /// (ids may then name other component sets): a cache keyed by archetype
  /// ids rebuilds when it changes. 0 for a moved-from world. O(1).
  [[nodiscard]] std::uint64_t structureEpoch() const noexcept;

  // --- State hash and diff (laige/state_hash.h;
  // `docs/determinism.md#the-state-hash`) -------------------------------------

  /// FNV-1a-64 of the authoritative sim state after `tick` completed ticks:
  /// tick, live count, live handles, non-empty archetypes (signature order,
  /// rows, raw bytes), per-system PRNG substreams (the stream is spelled
  /// out in state_hash.h). A pure function of the live state, never of the
  /// history. Normalises the archetypes first (through the world's own
  /// state: the logical state is unchanged). Cold path (the replay runner
  /// and the detcheck scenarios call it once per tick): O(capacity + live
  /// component bytes + archetypes^2), no allocation, no log. Empty world:
  /// FNV of the words {tick, 0}. A moved-from world hashes as empty.
  [[nodiscard]] std::uint64_t stateHash(std::uint64_t tick) const noexcept;
  /// stateHash without the per-system PRNG part (the replay diff's
  /// alignment key: substream state is a function of the seed, which two
  /// diffed replays may not share). Same cost and guarantees.
  [[nodiscard]] std::uint64_t componentStateHash(std::uint64_t tick) const noexcept;
  /// The fast checksum of the same live state stateHash covers: 64-bit XXH3
  /// over the canonical stream of `docs/determinism.md#the-state-checksum`
  /// (whole columns, so it runs at memory speed). Identical natively and in
  /// wasm; a pure function of the live state, never of the history; not
  /// equal to stateHash (another stream, another hash). What rollback
  /// sessions compare by default (RollbackSession::Options::checksum).
  /// Normalises the archetypes first (the logical state is unchanged).
  /// O(highest live slot + live component bytes + archetypes^2), no
  /// allocation, no log. A moved-from world checksums as empty.
  [[nodiscard]] std::uint64_t stateChecksum(std::uint64_t tick) const noexcept;
  /// stateChecksum(ticks run) of the state the snapshot `bytes` holds, as
  /// restore() would make it, without restoring: equal to restoring and
  /// calling stateChecksum(systemTicksRun()). Checks the header (magic,
  /// version, total size, this world's setup identity) and every section's
  /// bounds, not the snapshot's own checksum (restore() does). Errors,
  /// nothing changes: InvalidArgument world_moved_from / snapshot_version /
  /// snapshot_setup_mismatch; MalformedInput snapshot_truncated /
  /// snapshot_corrupt (`docs/snapshots.md#errors`). O(bytes), no
  /// allocation, no log; const (the world is not touched).
  [[nodiscard]] Result<std::uint64_t> stateChecksumOfSnapshot(std::span<const std::uint8_t> bytes) const noexcept;
  /// Compares this world's (A) live state with `other`'s (B) per (slot,
  /// component): slots ascending; per slot a presence item (componentId 0)
  /// when the slot is live on one side only or with different generations,
  /// then one item per component of the union of both sides' sets whose
  /// bytes differ or that one side lacks, components ascending. Calls
  /// fn(const StateDiffItem&) for the first `maxItems` differences and
  /// returns the TOTAL count (maxItems 0 = count only). Precondition: both
  /// worlds registered the same component types in the same order (native
  /// debug asserts; elsewhere a component whose size differs is reported as
  /// different). O(capacity + live component bytes), no allocation, const.
  /// Defined in laige/state_hash.h.
  template <class F>
  std::uint32_t stateDiff(const World& other, std::uint32_t maxItems, F&& fn) const noexcept;

 private:
  explicit World(std::unique_ptr<detail::WorldState> s) noexcept;

  // The non-template halves of the component templates (archetype.cpp,
  // component.cpp, query.cpp).
  ComponentTypeId componentIdOfTypeIndex(std::uint32_t typeIndex) const noexcept;
  Result<ComponentTypeId> registerTyped(const ComponentDesc& desc, std::uint32_t typeIndex) noexcept;
  void* getTyped(Entity e, std::uint32_t typeIndex, bool warnStale) const noexcept;
  Status addTyped(Entity e, std::uint32_t typeIndex, std::string_view name, const void* bytes) noexcept;
  Status removeTyped(Entity e, std::uint32_t typeIndex, std::string_view name) noexcept;
  Status addById(Entity e, ComponentTypeId id, const void* bytes) noexcept;
  Status removeByIdImpl(Entity e, ComponentTypeId id) noexcept;
  // World::reader's table fill (component_reader.cpp).
  void fillReader(detail::ReaderTables& t, std::uint32_t typeIndex) const noexcept;
  // create()'s cold half: the live count reached an entity budget threshold.
  void noteEntityBudget(std::uint32_t live) noexcept;
  detail::SlotView slotView() const noexcept;
  // The non-template walk behind stateDiff (state_hash.cpp).
  std::uint32_t stateDiffImpl(const World& other, std::uint32_t maxItems,
                              void (*sink)(void*, const StateDiffItem&) noexcept,
                              void* context) const noexcept;
  // The query machinery (query_cache.cpp): one begin per call, the walk
  // inline in the Query / each template.
  template <class... Terms>
  friend class Query;
  // Change ticks, removed logs and observers (laige/changes.h).
  friend struct detail::ChangeAccess;
  // Relations (laige/relations.h): their add/remove/destroy wrap the plain ones.
  friend struct detail::RelationAccess;
  // The plain add / remove by id, out of line (archetype.cpp), for the
  // relation paths (relations.cpp).
  Status addByIdOutOfLine(Entity e, ComponentTypeId id, const void* bytes) noexcept;
  Status removeByIdOutOfLine(Entity e, ComponentTypeId id) noexcept;
  // An add / remove of a relation or an observed component: the relation
  // rules, then the observers the call queued (archetype.cpp). Out of line
  // so that the plain path returns its Status straight (no 240-byte copy).
  Status addHooked(Entity e, ComponentTypeId id, const void* bytes) noexcept;
  Status removeHooked(Entity e, ComponentTypeId id) noexcept;
  // Queries whose terms are given at run time (the TypeScript layer; dynamic_query.h).
  friend struct detail::QueryAccess;
  Status beginQuery(detail::QueryCache& cache, const detail::QuerySpec& spec,
                    detail::QueryRun& run) noexcept;
  Status beginEach(std::uint32_t key, const detail::QuerySpec& spec, detail::QueryRun& run) noexcept;
  std::uint32_t queryCount(detail::QueryCache& cache, const detail::QuerySpec& spec) noexcept;
  std::uint32_t queryArchetypeCount(detail::QueryCache& cache, const detail::QuerySpec& spec) noexcept;
  // The non-const get halves: the system access check, then getTyped.
  void* getTypedForWrite(Entity e, std::uint32_t typeIndex) noexcept;
  // Applies and clears the pending commands (commands.cpp): runSystems
  // after each system, endIteration after a top-level each, endDefer.
  void applyCommands() noexcept;

  std::unique_ptr<detail::WorldState> s_;
};

}  // namespace laige

// The component member templates.
#include "laige/detail/world_ecs_inl.h"
// Query objects and the each member template.
#include "laige/query_object.h"
// stateDiff's template and the diff item.
#include "laige/state_hash.h"
// CommandBuffer's typed record calls and World::defer.
#include "laige/detail/commands_inl.h"
