// system.cpp - the system registry: registration with its validation
// order, the dependsOn parser, the PRNG substreams and the registry queries.
#include "laige/system.h"

#include <cstring>
#include <new>
#include <string_view>

#include "laige/detail/system_registry.h"
#include "laige/detail/world_state.h"
#include "laige/logging.h"
#include "laige/names.h"
#include "logging/log_texts.h"
#include "setup_code.h"

namespace laige {

namespace detail {

SystemRegistry::SystemRegistry() noexcept {
  // The setup path: the whole table and every timing window now, so that
  // registering and running systems never allocate (docs/system_timing.md: 256 records x
  // 2 small window allocations, once per world).
  records.reset(new (std::nothrow) SystemRecord[kMaxSystems]);
  if (!records) return;  // capacity 0: every registration is BudgetExhausted
  for (std::uint32_t i = 0; i < kMaxSystems; ++i) {
    records[i].window = Histogram(kSystemTimingWindowSamples);
  }
  capacity = kMaxSystems;
}

Status systemUnknown(std::uint32_t id, std::uint32_t systems) noexcept {
  return Status::failure(ErrorCode::InvalidArgument, "system_unknown").with("id", id).with("systems", systems);
}

}  // namespace detail

namespace {

bool isDepSpace(char c) noexcept { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

// Parses a dependsOn list into byte ranges of `spec`. Returns nullptr when
// valid, else the reason; `position` is then the offending name's 0-based
// index in the list.
const char* parseDeps(const char* spec, detail::DepToken (&out)[kMaxSystemDependencies],
                      std::uint32_t& count, std::uint32_t& position) noexcept {
  count = 0;
  position = 0;
  if (spec == nullptr) return nullptr;
  std::uint32_t i = 0;
  while (spec[i] != '\0' && isDepSpace(spec[i])) ++i;
  if (spec[i] == '\0') return nullptr;  // "", or only whitespace: no dependencies
  std::uint32_t start = 0;
  for (std::uint32_t index = 0;; ++index) {
    std::uint32_t end = start;
    while (spec[end] != '\0' && spec[end] != ',') ++end;
    std::uint32_t a = start;
    std::uint32_t b = end;
    while (a < b && isDepSpace(spec[a])) ++a;
    while (b > a && isDepSpace(spec[b - 1])) --b;
    position = index;
    if (a == b) return "empty_token";
    if (count == kMaxSystemDependencies) return "too_many";
    const std::string_view token(spec + a, b - a);
    if (systemNameProblem(token) != nullptr) return "name_invalid";
    for (std::uint32_t k = 0; k < count; ++k) {
      if (std::string_view(spec + out[k].offset, out[k].length) == token) return "duplicate";
    }
    out[count++] = detail::DepToken{a, b - a};
    if (spec[end] == '\0') return nullptr;
    start = end + 1;
  }
}

}  // namespace

LAIGE_SETUP_CODE Result<SystemId> World::registerSystem(const SystemDef& def, const SystemIo* io,
                                       std::uint32_t count) noexcept {
  if (!s_) return Status::failure(ErrorCode::InvalidArgument, "world_moved_from");
  detail::WorldState& ws = *s_;
  detail::SystemRegistry& reg = ws.systems;
  const char* name = def.name;
  if (name == nullptr || name[0] == '\0') {
    LAIGE_LOG_WARN("system", "name_invalid", log::texts::NameInvalid,
                   log::field("reason", name == nullptr ? "null" : "empty"));
    return Status::failure(ErrorCode::InvalidArgument, "name_invalid")
        .with("reason", name == nullptr ? "null" : "empty");
  }
  // The rules of laige/names.h (length, control characters, commas).
  if (const char* why = systemNameProblem(name); why != nullptr) {
    LAIGE_LOG_WARN("system", "name_invalid", log::texts::NameInvalid, log::field("reason", why));
    Status st = Status::failure(ErrorCode::InvalidArgument, "name_invalid").with("reason", why);
    // A too long name also says by how much (the same fields as component_name_invalid).
    const auto length = static_cast<std::uint32_t>(std::string_view(name).size());
    if (length > kMaxSystemNameLength) st.with("length", length).with("max_length", kMaxSystemNameLength);
    return st;
  }
  if (def.run == nullptr) {
    LAIGE_LOG_WARN("system", "run_invalid", log::texts::RunInvalid, log::field("system", name));
    return Status::failure(ErrorCode::InvalidArgument, "run_invalid").with("system", name);
  }
  if (def.budgetMs.raw <= 0) {
    LAIGE_LOG_WARN("system", "budget_invalid", log::texts::BudgetInvalid, log::field("system", name),
                   log::field("budget_raw", def.budgetMs.raw));
    return Status::failure(ErrorCode::InvalidArgument, "budget_invalid")
        .with("system", name)
        .with("budget_raw", def.budgetMs.raw);
  }
  detail::DepToken deps[kMaxSystemDependencies];
  std::uint32_t depCount = 0;
  std::uint32_t depPosition = 0;
  if (const char* why = parseDeps(def.dependsOn, deps, depCount, depPosition); why != nullptr) {
    LAIGE_LOG_WARN("system", "dep_spec_invalid", log::texts::DepSpecInvalid, log::field("system", name),
                   log::field("reason", why), log::field("position", depPosition));
    return Status::failure(ErrorCode::InvalidArgument, "dep_spec_invalid")
        .with("system", name)
        .with("reason", why)
        .with("position", depPosition);
  }
  for (std::uint32_t id = 1; id <= reg.count; ++id) {
    if (std::strcmp(reg.at(id).def.name, name) == 0) {
      LAIGE_LOG_WARN("system", "duplicate", log::texts::SystemDuplicate, log::field("system", name),
                     log::field("existing_system_id", id));
      return Status::failure(ErrorCode::InvalidArgument, "duplicate")
          .with("system", name)
          .with("existing_system_id", id);
    }
  }
  if (count > 0 && io == nullptr) {
    LAIGE_LOG_WARN("system", "io_invalid", log::texts::IoInvalid, log::field("system", name),
                   log::field("reason", "null_list"), log::field("position", 0u));
    return Status::failure(ErrorCode::InvalidArgument, "io_invalid")
        .with("system", name)
        .with("reason", "null_list")
        .with("position", 0u);
  }
  for (std::uint32_t i = 0; i < count; ++i) {
    if (io[i].access != Access::Read && io[i].access != Access::Write) {
      LAIGE_LOG_WARN("system", "io_invalid", log::texts::IoInvalid, log::field("system", name),
                     log::field("reason", "access_invalid"), log::field("position", i));
      return Status::failure(ErrorCode::InvalidArgument, "io_invalid")
          .with("system", name)
          .with("reason", "access_invalid")
          .with("position", i);
    }
  }
  // Every unregistered id is reported before any duplicate (docs/systems.md
  // lists the two checks in that order).
  const std::uint32_t components = componentCount();
  for (std::uint32_t i = 0; i < count; ++i) {
    if (io[i].component == kInvalidComponentTypeId || io[i].component > components) {
      LAIGE_LOG_WARN("system", "io_unregistered", log::texts::IoUnregistered, log::field("system", name),
                     log::field("position", i), log::field("component_id", io[i].component));
      return Status::failure(ErrorCode::InvalidArgument, "io_unregistered")
          .with("system", name)
          .with("position", i)
          .with("component_id", io[i].component);
    }
  }
  detail::IdSet256 reads;
  detail::IdSet256 writes;
  for (std::uint32_t i = 0; i < count; ++i) {
    const ComponentTypeId cid = io[i].component;
    if (reads.contains(cid) || writes.contains(cid)) {
      LAIGE_LOG_WARN("system", "io_duplicate", log::texts::IoDuplicate, log::field("system", name),
                     log::field("position", i), log::field("component_id", cid));
      return Status::failure(ErrorCode::InvalidArgument, "io_duplicate")
          .with("system", name)
          .with("component", ws.ecs.components[cid - 1]->name)
          .with("component_id", cid)
          .with("position", i);
    }
    (io[i].access == Access::Write ? writes : reads).insert(cid);
  }
  if (reg.count >= reg.capacity) {
    LAIGE_LOG_WARN("system", "budget_exhausted", log::texts::BudgetExhausted, log::field("system", name),
                   log::field("max_systems", kMaxSystems));
    return Status::failure(ErrorCode::BudgetExhausted, "budget_exhausted")
        .with("system", name)
        .with("max_systems", kMaxSystems);
  }

  const std::uint32_t id = ++reg.count;
  detail::SystemRecord& rec = reg.at(id);
  rec.def = def;
  rec.reads = reads;
  rec.writes = writes;
  for (std::uint32_t k = 0; k < depCount; ++k) rec.deps[k] = deps[k];
  rec.depCount = depCount;
  rec.nameLength = static_cast<std::uint32_t>(std::strlen(name));
  rec.budgetMs = fpx16_16::toDouble(def.budgetMs);
  // Deterministic mode: the substream is a pure function of (seed, id), so
  // the same registration order gives the same streams (docs/determinism.md).
  rec.hasSubstream = ws.options.deterministic;
  rec.rng = rec.hasSubstream ? Prng::deriveSubstream(ws.options.seed, id) : Prng{};
  rec.window.clear();
  rec.runs = 0;
  rec.lastMs = 0.0;
  rec.warns = 0;
  rec.errors = 0;
  return SystemId{id};
}

Result<SystemInfo> World::system(SystemId id) const noexcept {
  if (!s_ || !s_->systems.valid(id.value)) return detail::systemUnknown(id.value, systemCount());
  const detail::SystemRecord& rec = s_->systems.at(id.value);
  return SystemInfo{rec.def, id, rec.reads, rec.writes};
}

std::uint32_t World::systemCount() const noexcept { return s_ ? s_->systems.count : 0; }

Result<SystemRngState> World::systemRngState(SystemId id) const noexcept {
  if (!s_ || !s_->systems.valid(id.value)) return detail::systemUnknown(id.value, systemCount());
  const detail::SystemRecord& rec = s_->systems.at(id.value);
  SystemRngState st;
  st.id = id;
  st.hasSubstream = rec.hasSubstream;
  if (rec.hasSubstream) {
    st.seed = rec.rng.seed();
    st.state1 = rec.rng.statePart1();
    st.state2 = rec.rng.statePart2();
  }
  return st;
}

std::uint64_t World::systemTicksRun() const noexcept { return s_ ? s_->systems.ticksRun : 0; }

}  // namespace laige
