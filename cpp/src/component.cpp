// component.cpp - the component registry (docs/component_registry.md): typed and
// runtime-described registration, lookups, and the process-wide type index.
#include "laige/component.h"

#include <atomic>
#include <utility>

#include "laige/detail/world_state.h"
#include "laige/logging.h"
#include "laige/names.h"
#include "laige/world.h"
#include "logging/log_texts.h"

namespace laige {

namespace detail {

std::uint32_t assignProcessIndex(ProcessIndex counter, std::atomic<std::uint32_t>& slot) noexcept {
  // Process-wide and only ever incremented: an index names a C++ type (or
  // type list) for the life of the process. It never enters simulation
  // state (component ids do).
  static std::atomic<std::uint32_t> next[2]{1, 1};
  std::uint32_t expected = 0;
  const std::uint32_t fresh = next[static_cast<std::size_t>(counter)].fetch_add(1, std::memory_order_relaxed);
  return slot.compare_exchange_strong(expected, fresh, std::memory_order_relaxed) ? fresh : expected;
}

}  // namespace detail

namespace {

constexpr const char* kKindNames[] = {"invalid", "i8",  "u8",  "i16", "u16", "i32",
                                      "u32",     "i64", "u64", "f32", "f64", "fx"};

}  // namespace

const char* fieldKindName(FieldKind kind) noexcept {
  const auto v = static_cast<std::uint32_t>(kind);
  return v < std::size(kKindNames) ? kKindNames[v] : kKindNames[0];
}

bool fieldKindFromName(std::string_view name, FieldKind& out) noexcept {
  for (std::uint32_t v = 1; v < std::size(kKindNames); ++v) {
    if (name == kKindNames[v]) {
      out = static_cast<FieldKind>(v);
      return true;
    }
  }
  return false;
}

Result<ComponentTypeId> World::registerComponentDesc(const ComponentDesc& desc) noexcept {
  return registerTyped(desc, 0);
}

Result<ComponentTypeId> World::registerTyped(const ComponentDesc& d, std::uint32_t typeIndex) noexcept {
  if (!s_) return Status::failure(ErrorCode::InvalidArgument, "world_moved_from");  // no registry
  detail::EcsState& ecs = s_->ecs;
  if (d.name.empty() || d.name.size() > kMaxComponentNameLength) {
    LAIGE_LOG_WARN("ecs", "component_name_invalid", log::texts::ComponentNameInvalid,
                   log::field("name", d.name), log::field("length", static_cast<std::uint32_t>(d.name.size())));
    return Status::failure(ErrorCode::InvalidArgument, "component_name_invalid")
        .with("name", d.name)
        .with("length", static_cast<std::uint32_t>(d.name.size()))
        .with("max_length", kMaxComponentNameLength)
        .with("reason", d.name.empty() ? "empty" : "too_long");
  }
  // The rules of laige/names.h (control characters, surrounding spaces).
  if (const char* why = componentNameProblem(d.name); why != nullptr) {
    LAIGE_LOG_WARN("ecs", "component_name_invalid", log::texts::ComponentNameInvalid, log::field("name", d.name),
                   log::field("reason", why));
    return Status::failure(ErrorCode::InvalidArgument, "component_name_invalid").with("name", d.name).with("reason", why);
  }
  const LayoutCheck layout = checkComponentLayout(d.size, d.alignment, d.fields);
  if (!layout.ok()) {
    LAIGE_LOG_WARN("ecs", "component_desc_invalid", log::texts::ComponentDescInvalid, log::field("name", d.name),
                   log::field("reason", layout.reason), log::field("field", layout.field),
                   log::field("size", d.size), log::field("alignment", d.alignment));
    return Status::failure(layout.code, "component_desc_invalid")
        .with("name", d.name)
        .with("reason", layout.reason)
        .with("field", layout.field)
        .with("field_name", layout.field < d.fields.size() ? d.fields[layout.field].name : std::string_view{});
  }
  const detail::RegisteredComponent* existing = nullptr;
  if (typeIndex != 0 && typeIndex < ecs.typeToId.size() && ecs.typeToId[typeIndex] != 0) {
    existing = ecs.components[ecs.typeToId[typeIndex] - 1].get();
  }
  for (std::size_t i = 0; existing == nullptr && i < ecs.components.size(); ++i) {
    if (ecs.components[i]->name == d.name) existing = ecs.components[i].get();
  }
  if (existing != nullptr) {
    LAIGE_LOG_WARN("ecs", "component_duplicate", log::texts::ComponentDuplicate,
                   log::field("component_id", existing->id), log::field("size", existing->size),
                   log::field("alignment", existing->alignment), log::field("name", d.name));
    return Status::failure(ErrorCode::InvalidArgument, "component_duplicate")
        .with("name", d.name)
        .with("component_id", existing->id);
  }
  if (ecs.components.size() >= kMaxComponentTypes) {
    LAIGE_LOG_WARN("ecs", "component_budget", log::texts::ComponentBudget,
                   log::field("component_count", static_cast<std::uint32_t>(ecs.components.size())),
                   log::field("name", d.name));
    return Status::failure(ErrorCode::BudgetExhausted, "component_budget")
        .with("name", d.name)
        .with("component_count", static_cast<std::uint32_t>(ecs.components.size()))
        .with("max_components", kMaxComponentTypes);
  }
  // Setup path: the only allocations of the registry.
  auto entry = std::make_unique<detail::RegisteredComponent>();
  entry->id = static_cast<ComponentTypeId>(ecs.components.size() + 1);
  entry->size = d.size;
  entry->alignment = d.alignment;
  entry->typeIndex = typeIndex;
  entry->name.assign(d.name.data(), d.name.size());
  entry->fieldNames.reserve(d.fields.size());
  for (const ComponentField& f : d.fields) entry->fieldNames.emplace_back(f.name.data(), f.name.size());
  entry->fields.reserve(d.fields.size());
  for (std::size_t i = 0; i < d.fields.size(); ++i) {
    ComponentField f = d.fields[i];
    f.name = entry->fieldNames[i];  // fieldNames is never resized again: stable views
    entry->fields.push_back(f);
  }
  const ComponentTypeId id = entry->id;
  ecs.components.push_back(std::move(entry));
  if (typeIndex != 0) {
    if (typeIndex >= ecs.typeToId.size()) ecs.typeToId.resize(typeIndex + 1, kInvalidComponentTypeId);
    ecs.typeToId[typeIndex] = id;
  }
  return Result<ComponentTypeId>::success(id);
}

std::uint32_t World::componentCount() const noexcept {
  return s_ ? static_cast<std::uint32_t>(s_->ecs.components.size()) : 0;
}

Result<ComponentInfo> World::componentInfo(ComponentTypeId id) const noexcept {
  if (!s_ || id == kInvalidComponentTypeId || id > s_->ecs.components.size()) {
    return Status::failure(ErrorCode::InvalidArgument, "component_unknown")
        .with("component_id", id)
        .with("components", componentCount());
  }
  const detail::RegisteredComponent& c = *s_->ecs.components[id - 1];
  ComponentInfo info;
  info.id = c.id;
  info.name = c.name;
  info.size = c.size;
  info.alignment = c.alignment;
  info.fields = std::span<const ComponentField>(c.fields.data(), c.fields.size());
  return Result<ComponentInfo>::success(info);
}

ComponentTypeId World::componentIdOfTypeIndex(std::uint32_t typeIndex) const noexcept {
  if (!s_) return kInvalidComponentTypeId;
  const auto& table = s_->ecs.typeToId;
  return typeIndex < table.size() ? table[typeIndex] : kInvalidComponentTypeId;
}

ComponentTypeId World::componentIdByName(std::string_view name) const noexcept {
  if (!s_) return kInvalidComponentTypeId;
  for (const auto& c : s_->ecs.components) {
    if (c->name == name) return c->id;
  }
  return kInvalidComponentTypeId;
}

}  // namespace laige
