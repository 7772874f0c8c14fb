// system_access.cpp - the cold half of the declared-io check (the rule is
// in system_access.h and docs/query.md#system-access).
#include "systems/system_access.h"

#include "laige/assert.h"
#include "laige/logging.h"
#include "logging/log_texts.h"

namespace laige::detail {

Status systemIoViolation(const WorldState& ws, ComponentTypeId c, const char* access) noexcept {
  const SystemRecord& rec = ws.systems.at(ws.systems.current);
  const char* declared = rec.writes.contains(c) ? "write" : rec.reads.contains(c) ? "read" : "none";
  const std::string_view component =
      c != 0 && c <= ws.ecs.components.size() ? std::string_view(ws.ecs.components[c - 1]->name)
                                              : std::string_view("?");
  LAIGE_MISUSE("a running system touched a component outside its declared io (system_io_violation)");
  LAIGE_LOG_WARN("system", "system_io_violation", log::texts::SystemIoViolation, log::field("system", rec.def.name),
                 log::field("component", component), log::field("component_id", c),
                 log::field("access", access), log::field("declared", declared));
  return Status::failure(ErrorCode::InvalidArgument, "system_io_violation")
      .with("system", rec.def.name)
      .with("component", component)
      .with("access", access)
      .with("declared", declared);
}

Status checkDestroy(const WorldState& ws, Entity e) noexcept {
  if (ws.systems.current == 0) return Status{};
  const ArchetypeId aid = ws.ecs.archetypeOf[e.id()];
  if (aid == kNoArchetype) return Status{};
  const Archetype& a = *ws.ecs.archetypes[aid];
  for (std::uint32_t i = 0; i < a.componentCount; ++i) {
    if (!systemAllows(ws, a.sig[i], Access::Read)) return systemIoViolation(ws, a.sig[i], "destroy");
  }
  return Status{};
}

Status checkClear(const WorldState& ws) noexcept {
  if (ws.systems.current == 0) return Status{};
  for (std::size_t aid = 1; aid < ws.ecs.archetypes.size(); ++aid) {
    const Archetype& a = *ws.ecs.archetypes[aid];
    if (a.liveRows() == 0) continue;
    for (std::uint32_t i = 0; i < a.componentCount; ++i) {
      if (!systemAllows(ws, a.sig[i], Access::Read)) return systemIoViolation(ws, a.sig[i], "destroy");
    }
  }
  return Status{};
}

}  // namespace laige::detail
