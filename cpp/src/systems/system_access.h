// system_access.h - the declared-io check every World entry point runs
// while a system runs (internal to the core's sources).
//
// The rule (docs/query.md#system-access): inside a running system, a call
// that reads or writes component values, or adds, removes or destroys
// components, may only touch components the system declared; a value write
// (a Writes term, a Write access, an in-place overwrite, get for writing)
// needs the component declared Write. A violation is misuse: native debug
// builds assert, release and wasm return InvalidArgument with reason
// system_io_violation and skip the call. Outside systems nothing is checked.
#pragma once

#include "laige/detail/world_state.h"

namespace laige::detail {

/// True when the running system may touch `c` with `access` (Write: only
/// a component declared Write; Read: any declared component). Requires a
/// running system (ws.systems.current != 0). O(1).
inline bool systemAllows(const WorldState& ws, ComponentTypeId c, Access access) noexcept {
  const SystemRecord& rec = ws.systems.at(ws.systems.current);
  return rec.writes.contains(c) || (access == Access::Read && rec.reads.contains(c));
}

/// The cold half: misuse assert, a rate-limited system/system_io_violation
/// warn, and the failing Status (reason system_io_violation; fields system,
/// component, access - the attempted one: read, write, add, remove,
/// destroy - and declared: none, read or write).
Status systemIoViolation(const WorldState& ws, ComponentTypeId c, const char* access) noexcept;

/// The structural rule for add/remove: ok outside systems and for a
/// declared component, else the violation. Inline: every add and remove
/// runs it.
inline Status checkStructural(const WorldState& ws, ComponentTypeId c, const char* access) noexcept {
  if (ws.systems.current == 0 || systemAllows(ws, c, Access::Read)) return Status{};
  return systemIoViolation(ws, c, access);
}

/// The destroy rule: every component of `e`'s archetype must be declared.
Status checkDestroy(const WorldState& ws, Entity e) noexcept;
/// The clear rule: every component of every archetype with live rows must
/// be declared.
Status checkClear(const WorldState& ws) noexcept;

}  // namespace laige::detail
