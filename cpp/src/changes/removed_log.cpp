// removed_log.cpp - Removed components (docs/changes.md#removed): the
// per-component log of removals with their last values, read per system
// ("since that system last ran") and pruned once every system has run.
#include <algorithm>
#include <cstring>

#include "laige/changes.h"
#include "laige/detail/world_state.h"
#include "laige/logging.h"
#include "laige/system.h"
#include "systems/system_access.h"

namespace laige::detail {

Status eachRemovedBytes(SystemContext& ctx, ComponentTypeId id,
                        void (*fn)(void* closure, Entity e, const void* value), void* closure) noexcept {
  WorldState* wsp = ChangeAccess::state(ctx.world);
  if (wsp == nullptr) return Status::failure(ErrorCode::InvalidArgument, "world_moved_from");
  WorldState& ws = *wsp;
  if (ws.systems.current == 0) {
    return Status::failure(ErrorCode::InvalidArgument, "removed_outside_system").with("component_id", id);
  }
  if (id == 0 || id > ws.ecs.components.size()) {
    return Status::failure(ErrorCode::InvalidArgument, "component_unregistered").with("component_id", id);
  }
  if (!systemAllows(ws, id, Access::Read)) return systemIoViolation(ws, id, "read");
  ChangeState& cs = ws.changes;
  if (cs.tracked[id] == 0 || !cs.removed[id]->wanted) {
    // The first call starts the log: nothing was removed since.
    if (!enableTracking(ws, id)) {
      return Status::failure(ErrorCode::BudgetExhausted, "change_tracking_alloc_failed").with("component_id", id);
    }
    cs.removed[id]->wanted = true;
    return Status{};
  }
  const RemovedLog& log = *cs.removed[id];
  const std::uint32_t size = ws.ecs.components[id - 1]->size;
  const std::uint32_t since = cs.runningSince;
  // The entries present now: removals made by the callback are seen next run.
  const std::size_t n = log.entries.size();
  std::size_t i = 0;
  while (i < n && log.entries[i].stamp <= since) ++i;
  for (; i < n; ++i) {
    const RemovedEntry entry = log.entries[i];
    // A copy: a removal made by the callback appends to the log (it may move).
    cs.valueScratch.assign(log.bytes.data() + entry.offset, log.bytes.data() + entry.offset + size);
    fn(closure, Entity::fromBits(entry.entityBits), cs.valueScratch.data());
  }
  return Status{};
}

void pruneRemoved(WorldState& ws, std::uint32_t oldestSince) noexcept {
  ChangeState& cs = ws.changes;
  for (std::uint32_t c = 1; c <= kMaxComponentTypes; ++c) {
    if (cs.tracked[c] == 0) continue;
    RemovedLog& log = *cs.removed[c];
    std::size_t k = 0;
    while (k < log.entries.size() && log.entries[k].stamp <= oldestSince) ++k;
    if (k == 0) continue;
    const std::uint32_t cut = k < log.entries.size() ? log.entries[k].offset
                                                     : static_cast<std::uint32_t>(log.bytes.size());
    log.entries.erase(log.entries.begin(), log.entries.begin() + static_cast<std::ptrdiff_t>(k));
    log.bytes.erase(log.bytes.begin(), log.bytes.begin() + cut);
    for (RemovedEntry& e : log.entries) e.offset -= cut;
  }
}

}  // namespace laige::detail
