// scheduler.cpp - scheduleSystems (Kahn's order, smallest id first, and the
// four checks) and runSystems (validation, then the measured dispatch).
#include "laige/scheduler.h"

#include <cstring>
#include <string_view>

#include "laige/assert.h"
#include "laige/detail/system_registry.h"
#include "laige/detail/world_state.h"
#include "laige/logging.h"
#include "laige/system.h"
#include "logging/log_texts.h"

namespace laige {

namespace {

// The longest cycle text assembled (docs/scheduler.md); the log field itself
// keeps at most log::kFieldValueCapacity - 1 bytes of it.
constexpr std::size_t kCycleTextMax = 256;

std::string_view nameOf(const detail::SystemRecord& rec) noexcept {
  return {rec.def.name, rec.nameLength};
}

std::string_view tokenOf(const detail::SystemRecord& rec, std::uint32_t k) noexcept {
  return {rec.def.dependsOn + rec.deps[k].offset, rec.deps[k].length};
}

}  // namespace

Status World::scheduleSystems(SystemSchedule& out) const noexcept {
  // From inside a running system `out` may be the schedule runSystems is
  // walking: refused before it is touched (docs/systems.md#re-entrancy).
  if (s_ && s_->systems.running) {
    return Status::failure(ErrorCode::InvalidArgument, "schedule_inside_tick");
  }
  out.systemCount = 0;
  if (!s_) return Status::failure(ErrorCode::InvalidArgument, "world_moved_from");
  const detail::SystemRegistry& reg = s_->systems;
  const std::uint32_t n = reg.count;

  // 1. Resolve every dependency name, in (system id, list position) order.
  // dep[i][k] is the id system i + 1 waits for. Setup path: 8 KiB of stack.
  std::uint16_t dep[kMaxSystems][kMaxSystemDependencies];
  for (std::uint32_t id = 1; id <= n; ++id) {
    const detail::SystemRecord& rec = reg.at(id);
    for (std::uint32_t k = 0; k < rec.depCount; ++k) {
      const std::string_view want = tokenOf(rec, k);
      std::uint32_t found = 0;
      for (std::uint32_t other = 1; other <= n && found == 0; ++other) {
        if (nameOf(reg.at(other)) == want) found = other;
      }
      if (found == 0) {
        LAIGE_LOG_WARN("system", "dep_missing", log::texts::DepMissing, log::field("system", rec.def.name),
                       log::field("missing_dep", want.substr(0, 64)), log::field("position", k));
        return Status::failure(ErrorCode::InvalidArgument, "dep_missing")
            .with("system", rec.def.name)
            .with("missing_dep", want)
            .with("position", k);
      }
      dep[id - 1][k] = static_cast<std::uint16_t>(found);
    }
  }

  // 2. Kahn's algorithm, always taking the smallest unplaced id whose
  // dependencies are all placed: registration order, moved later only as
  // far as dependencies require. O(n^2 d) on the setup path.
  bool placed[kMaxSystems + 1] = {};
  std::uint32_t order[kMaxSystems];
  for (std::uint32_t pos = 0; pos < n; ++pos) {
    std::uint32_t pick = 0;
    for (std::uint32_t id = 1; id <= n && pick == 0; ++id) {
      if (placed[id]) continue;
      const detail::SystemRecord& rec = reg.at(id);
      bool ready = true;
      for (std::uint32_t k = 0; k < rec.depCount && ready; ++k) ready = placed[dep[id - 1][k]];
      if (ready) pick = id;
    }
    if (pick == 0) {
      // Every remaining system waits on another remaining one. Walk from
      // the smallest remaining id along each system's first still-remaining
      // dependency until a system repeats; the repeat closes the cycle.
      std::uint32_t cur = 1;
      while (placed[cur]) ++cur;
      std::int32_t seenAt[kMaxSystems + 1];
      for (std::uint32_t i = 0; i <= n; ++i) seenAt[i] = -1;
      std::uint32_t path[kMaxSystems];
      std::uint32_t len = 0;
      while (seenAt[cur] < 0) {
        seenAt[cur] = static_cast<std::int32_t>(len);
        path[len++] = cur;
        const detail::SystemRecord& rec = reg.at(cur);
        std::uint32_t next = 0;
        for (std::uint32_t k = 0; k < rec.depCount && next == 0; ++k) {
          if (!placed[dep[cur - 1][k]]) next = dep[cur - 1][k];
        }
        cur = next;
      }
      char text[kCycleTextMax + 1];
      std::size_t used = 0;
      const auto first = static_cast<std::uint32_t>(seenAt[cur]);
      for (std::uint32_t i = first; i < len; ++i) {
        const std::string_view name = nameOf(reg.at(path[i]));
        if (i != first && used < kCycleTextMax) text[used++] = ',';
        const std::size_t take = name.size() < kCycleTextMax - used ? name.size() : kCycleTextMax - used;
        std::memcpy(text + used, name.data(), take);
        used += take;
      }
      text[used] = '\0';
      LAIGE_LOG_WARN("system", "dependency_cycle", log::texts::DependencyCycle, log::field("cycle", text),
                     log::field("cycle_length", len - first));
      return Status::failure(ErrorCode::InvalidArgument, "dependency_cycle")
          .with("cycle", std::string_view(text, used))
          .with("cycle_length", len - first);
    }
    placed[pick] = true;
    order[pos] = pick;
  }

  // 3. One declared writer per component: the first offending pair by
  // component id, then writer id.
  for (ComponentTypeId cid = 1; cid <= kMaxComponentTypes; ++cid) {
    std::uint32_t firstWriter = 0;
    for (std::uint32_t id = 1; id <= n; ++id) {
      if (!reg.at(id).writes.contains(cid)) continue;
      if (firstWriter == 0) {
        firstWriter = id;
        continue;
      }
      LAIGE_LOG_WARN("system", "double_writer", log::texts::DoubleWriter, log::field("component_id", cid),
                     log::field("first_writer", reg.at(firstWriter).def.name),
                     log::field("second_writer", reg.at(id).def.name));
      return Status::failure(ErrorCode::InvalidArgument, "double_writer")
          .with("first_writer", reg.at(firstWriter).def.name)
          .with("second_writer", reg.at(id).def.name)
          .with("component", s_->ecs.components[cid - 1]->name)
          .with("component_id", cid);
    }
  }

  // 4. Warn-only: a reader ordered before the writer of the same component
  // (ascending component, then reader; with one writer per component each
  // (component, reader) pair names one triple).
  std::uint32_t rank[kMaxSystems + 1] = {};
  for (std::uint32_t pos = 0; pos < n; ++pos) rank[order[pos]] = pos;
  for (ComponentTypeId cid = 1; cid <= kMaxComponentTypes; ++cid) {
    std::uint32_t writer = 0;
    for (std::uint32_t id = 1; id <= n && writer == 0; ++id) {
      if (reg.at(id).writes.contains(cid)) writer = id;
    }
    if (writer == 0) continue;
    for (std::uint32_t reader = 1; reader <= n; ++reader) {
      if (!reg.at(reader).reads.contains(cid) || rank[reader] > rank[writer]) continue;
      LAIGE_LOG_WARN("system", "read_before_write", log::texts::ReadBeforeWrite,
                     log::field("reader", reg.at(reader).def.name),
                     log::field("writer", reg.at(writer).def.name), log::field("component_id", cid));
    }
  }

  for (std::uint32_t pos = 0; pos < n; ++pos) out.order[pos] = order[pos];
  out.systemCount = n;
  return Status{};
}

Status World::runSystems(const SystemSchedule& schedule) noexcept {
  return runSystems(schedule, TickInput{});
}

Status World::runSystems(const SystemSchedule& schedule, const TickInput& input) noexcept {
  if (!s_) return Status::failure(ErrorCode::InvalidArgument, "world_moved_from");
  detail::SystemRegistry& reg = s_->systems;
  if (reg.running) {
    LAIGE_MISUSE("World::runSystems called from inside a running system");
    LAIGE_LOG_WARN("system", "run_nested", log::texts::RunNested, log::field("tick", reg.ticksRun + 1));
    return Status::failure(ErrorCode::InvalidArgument, "run_nested").with("tick", reg.ticksRun + 1);
  }
  // A tick inside a live each would run systems over storage the each is
  // walking (reentrancy.cpp).
  if (Status st = tickAllowed(); st.isError()) {
    LAIGE_MISUSE("World::runSystems called from inside a live each");
    return st;
  }
  const std::uint32_t n = schedule.systemCount;
  if (n != reg.count) {
    LAIGE_LOG_WARN("system", "schedule_stale", log::texts::ScheduleStale, log::field("scheduled_systems", n),
                   log::field("current_systems", reg.count));
    return Status::failure(ErrorCode::InvalidArgument, "schedule_stale")
        .with("scheduled_systems", n)
        .with("current_systems", reg.count);
  }
  // Validation precedes dispatch: a rejected schedule leaves the world untouched.
  detail::IdSet256 seen;
  for (std::uint32_t slot = 0; slot < n; ++slot) {
    const std::uint32_t id = schedule.order[slot];
    if (id == 0 || id > n || seen.contains(id)) {
      LAIGE_LOG_WARN("system", "schedule_invalid", log::texts::ScheduleInvalid, log::field("slot", slot),
                     log::field("id", id));
      return Status::failure(ErrorCode::InvalidArgument, "schedule_invalid").with("slot", slot).with("id", id);
    }
    seen.insert(id);
  }

  reg.running = true;
  Status observerFailure;
  const std::uint64_t tick = reg.ticksRun + 1;
  const TimingClockFn clock = reg.clock;
  void* const clockContext = reg.clockContext;
  for (std::uint32_t slot = 0; slot < n; ++slot) {
    const std::uint32_t id = schedule.order[slot];
    detail::SystemRecord& rec = reg.at(id);
    SystemContext ctx{*this,      rec.hasSubstream ? &rec.rng : nullptr, tick, input.data, input.size,
                      SystemId{id}, rec.def.userData, commands()};
    // The measured window (docs/system_timing.md): the run function and the
    // apply of its commands; the dispatch and the context above stay outside it.
    const std::int64_t start = clock(clockContext);
    reg.current = id;  // every World call checks the declared io against it
    detail::ChangeState& changes = s_->changes;
    changes.runningSince = changes.systemLastRun[id];  // docs/changes.md#since
    rec.def.run(*this, ctx);
    // Its run is recorded before its commands apply: they are newer than
    // the run, so the system sees them next time (docs/changes.md#since).
    // Only while the change state is in use: a world without it keeps the
    // state a version-1 snapshot restores (stamp 1, no run recorded).
    if (changes.anyHook) changes.systemLastRun[id] = changes.stamp++;
    // The system's commands apply now, still under its io (docs/commands.md#phases).
    if (s_->commands.pending() != 0) applyCommands();
    reg.current = 0;
    // Its observers run now, outside its io (docs/changes.md#observers).
    if (changes.queued != 0) [[unlikely]] {
      if (Status o = detail::drainObservers(*this); !o.ok() && observerFailure.ok()) observerFailure = o;
    }
    const std::int64_t end = clock(clockContext);
    detail::recordSystemTiming(rec, id, end - start);
    // Outside the measured window: a checkpoint is the caller's cost, not the system's.
    if (reg.checkpointsOn) [[unlikely]] detail::recordSystemCheckpoint(*this, id, slot, tick);
  }
  reg.running = false;
  ++reg.ticksRun;
  // Removals every system has now seen are dropped (n >= 1: the first
  // scheduled system ran earliest).
  if (n != 0 && s_->changes.anyTracked) {
    detail::pruneRemoved(*s_, s_->changes.systemLastRun[schedule.order[0]]);
  }
  return observerFailure;
}

}  // namespace laige
