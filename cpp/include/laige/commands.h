// laige/commands.h - deferred structural changes (docs/commands.md).
//
// The iteration guard rejects structural changes inside an each
// (docs/query.md#iteration-legality). A CommandBuffer records them instead
// and the world applies them at a defined point, in recording order:
//
// - inside a system (SystemContext::commands): right after that system's
//   run returns, before the next system runs;
// - inside a top-level World::each / Query::each (World::commands()): when
//   the each returns;
// - inside World::defer(fn): when fn returns.
// Phases nest by joining: a buffer recorded inside a system's each, or a
// defer inside an each or a system, is applied at the outermost phase's
// end. Outside every phase recording fails (command_outside_phase).
//
// Applying uses the World's own add/remove/destroy, so every check, event
// and churn count is the one a direct call makes. A command whose entity is
// no longer live (destroyed by an earlier command, say) is skipped, counted
// (CommandStats::skippedDead) and reported (a rate-limited warn
// ecs/command_target_dead), never a crash; a command the World op rejects
// at apply time (a 33rd component, the archetype budget, an access the
// running system may not make on the entity as it now is) is skipped and
// counted as skippedFailed (warn ecs/command_failed, field reason). What
// can be checked when recording is checked then, and a failing record call
// records nothing.
//
// The world owns one buffer: byte-packed records (an 8-byte header: op,
// component id, entity bits; then the value bytes of an add), reused after
// every apply. It grows by doubling when full (or up front with
// reserve()), so in the steady state recording allocates nothing.
// Commands are not simulation state until applied: nothing pending is
// hashed, and World::snapshot refuses to run while commands are pending
// (snapshot_commands_pending).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "laige/component.h"
#include "laige/entity.h"
#include "laige/result.h"

namespace laige {

class World;
namespace detail {
struct WorldState;
}  // namespace detail

/// The command counters of one world since construction (diagnostics, never
/// simulation state).
struct CommandStats {
  /// Commands recorded (create is immediate and not counted here).
  std::uint64_t recorded = 0;
  /// Commands applied successfully.
  std::uint64_t applied = 0;
  /// Commands skipped at apply time because their entity was no longer live.
  std::uint64_t skippedDead = 0;
  /// Commands skipped at apply time because the World op rejected them.
  std::uint64_t skippedFailed = 0;
  /// Commands recorded and not applied yet.
  std::uint32_t pending = 0;
  /// Bytes the buffer holds now (its capacity; it never shrinks).
  std::uint64_t bufferBytes = 0;
  /// How many times the buffer grew (allocated) since construction.
  std::uint32_t grows = 0;
};

/// The kinds of recorded command (the op byte of a record).
enum class CommandOp : std::uint8_t { Destroy = 1, Add = 2, Remove = 3 };

/// A world's deferred-command buffer. Obtained from World::commands(),
/// SystemContext::commands or the argument of World::defer; never
/// constructed by users. Not copyable or movable (the world owns it).
class CommandBuffer {
 public:
  CommandBuffer() noexcept = default;
  CommandBuffer(const CommandBuffer&) = delete;
  CommandBuffer& operator=(const CommandBuffer&) = delete;

  /// Creates an entity now (create is legal inside an each already) and
  /// returns its live handle, so later commands can name it. Errors as
  /// World::create; outside a phase -> InvalidArgument command_outside_phase.
  /// O(1), no allocation, not a recorded command.
  Result<Entity> create() noexcept;
  /// Records destroy(e). Errors, nothing recorded: outside a phase ->
  /// InvalidArgument command_outside_phase (field op); a dead handle ->
  /// InvalidArgument stale_entity_access (fields entity_id, generation;
  /// warn, no misuse assert); inside a system, a component of e outside its
  /// io -> system_io_violation (access destroy; a misuse assert in native
  /// debug); the buffer cannot grow -> BudgetExhausted
  /// command_buffer_alloc_failed. O(1) amortised, no allocation unless the
  /// buffer must grow.
  Status destroy(Entity e) noexcept;
  /// Records add(e, id, bytes): create-or-update at apply time. Errors as
  /// destroy, plus: an unregistered id -> InvalidArgument
  /// component_unregistered; `size` not the registered size ->
  /// InvalidArgument component_size_mismatch; inside a system the
  /// component must be declared, and declared Write when e has it now
  /// (system_io_violation, access add or write). Copies `size` bytes.
  Status addBytes(Entity e, ComponentTypeId id, const void* bytes, std::uint32_t size) noexcept;
  /// Records add of T's value (the typed form of addBytes).
  template <class T>
  Status add(Entity e, const T& value) noexcept;
  /// Records remove(e, id) (a no-op at apply time when e lacks it). Errors
  /// as addBytes, without the size check; inside a system the component
  /// must be declared (access remove).
  Status removeById(Entity e, ComponentTypeId id) noexcept;
  /// Records remove of T (the typed form of removeById).
  template <class T>
  Status remove(Entity e) noexcept;

  /// Commands recorded and not applied yet. O(1).
  [[nodiscard]] std::uint32_t pending() const noexcept { return count_; }
  /// Bytes the pending records take (reserve(bytesUsed() + n) makes room
  /// for n more bytes). O(1).
  [[nodiscard]] std::size_t bytesUsed() const noexcept { return size_; }
  /// True while recording is allowed (a system runs, an each is live, or a
  /// defer is open on the owning world). O(1).
  [[nodiscard]] bool recording() const noexcept;
  /// Grows the buffer to at least `bytes` now (the setup path, so that the
  /// first frames do not allocate). BudgetExhausted
  /// command_buffer_alloc_failed when the allocation fails (nothing
  /// changed); InvalidArgument world_moved_from without a world.
  Status reserve(std::size_t bytes) noexcept;

 private:
  friend class World;
  friend struct detail::WorldState;
  Status recordCheck(Entity e, const char* op) noexcept;
  std::uint8_t* append(std::size_t bytes) noexcept;
  Status allocFailed(std::size_t needed) noexcept;

  detail::WorldState* s_ = nullptr;  // the owner (nullptr: the moved-from world's dummy)
  World* world_ = nullptr;           // refreshed by every World accessor of the buffer
  std::unique_ptr<std::uint8_t[]> bytes_;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;
  std::uint32_t count_ = 0;
  CommandStats stats_{};
};

/// The record header: 8 bytes, copied in and out (no alignment needed).
struct CommandRecordHeader {
  CommandOp op;
  std::uint8_t reserved;
  std::uint16_t component;  // ids are 1..kMaxComponentTypes (256)
  std::uint32_t entityBits;
};
static_assert(sizeof(CommandRecordHeader) == 8);

}  // namespace laige
