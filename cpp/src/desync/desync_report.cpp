// desync_report.cpp - the desync report of two worlds (laige/desync.h,
// docs/desync.md#the-report): the first differing system from their
// checkpoints, then stateDiff's items with the first differing field.
#include <cstring>

#include "laige/desync.h"
#include "laige/detail/change_walk.h"
#include "laige/detail/world_state.h"
#include "setup_code.h"

namespace laige {

LAIGE_SETUP_CODE std::uint32_t firstDifferingField(const World& world, ComponentTypeId component,
                                                  const std::uint8_t* a, const std::uint8_t* b) noexcept {
  if (a == nullptr || b == nullptr) return kNoField;
  const Result<ComponentInfo> info = world.componentInfo(component);
  if (!info.ok()) return kNoField;
  const std::span<const ComponentField> fields = info.value().fields;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    const ComponentField& f = fields[i];
    if (std::memcmp(a + f.offset, b + f.offset, std::size_t{fieldKindSize(f.kind)} * f.count) != 0) {
      return static_cast<std::uint32_t>(i);
    }
  }
  return kNoField;
}

namespace {

struct TreeSink {
  const World* local;
  void (*fn)(void*, const DesyncTreeItem&) noexcept;
  void* context;
};

void forwardRow(void* context, const StateTreeDifference& row) noexcept {
  const TreeSink& sink = *static_cast<const TreeSink*>(context);
  DesyncTreeItem item;
  item.row = row;
  if (row.componentId != 0) {
    item.field = firstDifferingField(*sink.local, row.componentId, row.bytesA, row.bytesB);
    if (item.field != kNoField) {
      item.fieldName = sink.local->componentInfo(row.componentId).value().fields[item.field].name;
    }
  }
  if (sink.fn != nullptr) sink.fn(sink.context, item);
}

}  // namespace

LAIGE_SETUP_CODE Result<DesyncReport> desyncReportFromTree(
    const World& local, const StateTreeSource& remote, std::span<const SystemCheckpoint> remoteCheckpoints,
    std::span<std::uint8_t> scratch, std::uint32_t maxItems, void (*fn)(void*, const DesyncTreeItem&) noexcept,
    void* context) noexcept {
  if (detail::ChangeAccess::state(local) == nullptr) {
    return Status::failure(ErrorCode::InvalidArgument, "world_moved_from");
  }
  DesyncReport report;
  report.tick = local.systemTicksRun();
  if (report.tick != 0 && systemCheckpointTick(local) == report.tick && !remoteCheckpoints.empty()) {
    report.checkpointsCompared = true;
    const std::span<const SystemCheckpoint> mine = systemCheckpoints(local);
    const std::int32_t at = firstDifferingCheckpoint(mine, remoteCheckpoints);
    if (at >= 0 && static_cast<std::size_t>(at) < mine.size()) {
      report.firstSystem = SystemId{mine[static_cast<std::size_t>(at)].system};
      report.firstSystemPosition = static_cast<std::uint32_t>(at);
    }
  }
  TreeSink sink{&local, fn, context};
  const Result<std::uint32_t> rows =
      findDifferingRows(local, stateTreeSourceOf(local), remote, scratch, maxItems, &forwardRow, &sink);
  if (!rows.ok()) return rows.status();
  report.differences = rows.value();
  report.checksumA = local.stateChecksum(report.tick);
  return report;
}

namespace detail {

LAIGE_SETUP_CODE Result<DesyncReport> desyncReportImpl(const World& a, const World& b, std::uint32_t maxItems,
                                                      DesyncSink sink, void* context) noexcept {
  const WorldState* wa = ChangeAccess::state(a);
  const WorldState* wb = ChangeAccess::state(b);
  if (wa == nullptr || wb == nullptr) return Status::failure(ErrorCode::InvalidArgument, "world_moved_from");
  DesyncReport report;
  report.tick = a.systemTicksRun();
  if (b.systemTicksRun() != report.tick) {
    return Status::failure(ErrorCode::InvalidArgument, "desync_tick_mismatch")
        .with("tick_a", report.tick)
        .with("tick_b", b.systemTicksRun());
  }
  const std::uint32_t components = a.componentCount();
  bool same = components == b.componentCount();
  for (ComponentTypeId c = 1; same && c <= components; ++c) {
    same = wa->ecs.components[c - 1]->size == wb->ecs.components[c - 1]->size;
  }
  if (!same) {
    return Status::failure(ErrorCode::InvalidArgument, "desync_setup_mismatch")
        .with("components_a", components)
        .with("components_b", b.componentCount());
  }
  // The checkpoints name the first system after which the states differ,
  // when both worlds recorded the tick being compared.
  if (report.tick != 0 && systemCheckpointTick(a) == report.tick && systemCheckpointTick(b) == report.tick) {
    report.checkpointsCompared = true;
    const std::span<const SystemCheckpoint> ca = systemCheckpoints(a);
    const std::int32_t at = firstDifferingCheckpoint(ca, systemCheckpoints(b));
    if (at >= 0 && static_cast<std::size_t>(at) < ca.size()) {
      report.firstSystem = SystemId{ca[static_cast<std::size_t>(at)].system};
      report.firstSystemPosition = static_cast<std::uint32_t>(at);
    }
  }
  report.checksumA = a.stateChecksum(report.tick);
  report.checksumB = b.stateChecksum(report.tick);
  report.differences = a.stateDiff(b, maxItems, [&](const StateDiffItem& item) noexcept {
    DesyncItem d;
    d.item = item;
    if (item.componentId != 0) {
      d.field = firstDifferingField(a, item.componentId, item.bytesA, item.bytesB);
      if (d.field != kNoField) d.fieldName = a.componentInfo(item.componentId).value().fields[d.field].name;
    }
    sink(context, d);
  });
  return report;
}

}  // namespace detail

}  // namespace laige
