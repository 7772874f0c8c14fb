// replay_diff.cpp - diffReplays: the lock-step walk over two logs aligned on
// componentStateHash, and the bounded stateDiff report at the divergence.
#include "laige/replay_diff.h"

#include <cstdint>

#include "laige/logging.h"
#include "laige/scheduler.h"
#include "laige/state_hash.h"
#include "laige/system.h"
#include "logging/log_texts.h"
#include "replay/replay_internal.h"

namespace laige {

namespace {

/// One lock-step tick of one side.
Status stepSide(World& world, const SystemSchedule& schedule, const ReplayLog& log, std::uint64_t index,
                const char* side) noexcept {
  const std::span<const std::uint8_t> bytes = log.frameBytes(static_cast<std::size_t>(index));
  world.beginFrame();
  const TickInput input{bytes.empty() ? nullptr : bytes.data(), static_cast<std::uint32_t>(bytes.size())};
  const Status st = world.runSystems(schedule, input);
  if (st.isError()) {
    LAIGE_LOG_WARN("replay", "diff_run_failed", log::texts::DiffRunFailed, log::field("side", side),
                   log::field("tick", index + 1), log::field("code", errorName(st.error())));
    return Status::failure(st.error(), "diff_run_failed")
        .with("side", side)
        .with("tick", index + 1)
        .with("code", errorName(st.error()))
        .with("cause", st.reason());
  }
  return st;
}

}  // namespace

Result<ReplayDiffResult> diffReplays(const ReplayLog& logA, const ReplayLog& logB, World& worldA, World& worldB,
                                     const ReplayConfig& configA, const ReplayConfig& configB,
                                     std::uint32_t maxEntries, const ReplayProgress* progress) {
  if (Status st = detail::checkReplayLogShape(logA, "a"); st.isError()) return st;
  if (Status st = detail::checkReplayLogShape(logB, "b"); st.isError()) return st;
  if (Status st = detail::checkReplayWorld(worldA, configA, "a"); st.isError()) return st;
  if (Status st = detail::checkReplayWorld(worldB, configB, "b"); st.isError()) return st;
  if (detail::reportDiffIdentityMismatch(logA, worldA, configA, logB, worldB, configB)) {
    Status st = detail::identityMismatch("diff_identity_mismatch", "a_mismatch", logA.identity,
                                         makeReplayIdentity(worldA, configA));
    const Status b = detail::identityMismatch("diff_identity_mismatch", "b_mismatch", logB.identity,
                                              makeReplayIdentity(worldB, configB));
    st.with("b_mismatch", b.fieldValue("b_mismatch"));
    return st;
  }
  const bool detA = detail::replayDeterministic(worldA, configA);
  const bool detB = detail::replayDeterministic(worldB, configB);
  if (!detA || !detB) {
    LAIGE_LOG_WARN("replay", "diff_determinism_disabled", log::texts::DiffDeterminismDisabled, log::field("a_enabled", detA),
                   log::field("b_enabled", detB));
    return Status::failure(ErrorCode::InvalidArgument, "diff_determinism_disabled")
        .with("a_enabled", detA)
        .with("b_enabled", detB);
  }
  const std::uint64_t schemaA = componentSchemaHash(worldA);
  const std::uint64_t schemaB = componentSchemaHash(worldB);
  if (schemaA != schemaB) {
    LAIGE_LOG_WARN("replay", "diff_schema_mismatch", log::texts::DiffSchemaMismatch,
                   log::field("a_components", worldA.componentCount()),
                   log::field("b_components", worldB.componentCount()));
    return Status::failure(ErrorCode::InvalidArgument, "diff_schema_mismatch")
        .with("a_components", worldA.componentCount())
        .with("b_components", worldB.componentCount());
  }
  SystemSchedule scheduleA;
  SystemSchedule scheduleB;
  if (Status st = worldA.scheduleSystems(scheduleA); st.isError()) return st;
  if (Status st = worldB.scheduleSystems(scheduleB); st.isError()) return st;

  const std::uint32_t cap = maxEntries > kMaxReplayDiffEntries ? kMaxReplayDiffEntries : maxEntries;
  ReplayDiffResult r;
  r.framesA = logA.frameCount();
  r.framesB = logB.frameCount();
  const std::uint64_t common = r.framesA < r.framesB ? r.framesA : r.framesB;

  bool diverged = false;
  for (std::uint64_t t = 0;; ++t) {
    if (t > 0) {
      if (Status st = stepSide(worldA, scheduleA, logA, t - 1, "a"); st.isError()) return st;
      if (Status st = stepSide(worldB, scheduleB, logB, t - 1, "b"); st.isError()) return st;
      if (progress != nullptr && progress->fn != nullptr && progress->interval != 0 &&
          t % progress->interval == 0 && t != common) {
        progress->fn(progress->ctx, t, common);
      }
    }
    if (worldA.stateHash(t) != worldB.stateHash(t)) r.fullStateDivergent = true;
    if (worldA.componentStateHash(t) != worldB.componentStateHash(t)) {
      diverged = true;
      r.firstDivergentTick = t;
      break;
    }
    if (t == common) break;
  }
  if (progress != nullptr && progress->fn != nullptr) progress->fn(progress->ctx, common, common);

  if (diverged) {
    r.identical = false;
    r.entries.reserve(cap);
    // The item's byte views die with the next mutation: copy them now.
    r.differingItems = worldA.stateDiff(worldB, cap, [&r, &worldA](const StateDiffItem& item) {
      ReplayDiffEntry e;
      e.slot = item.slot;
      e.componentId = item.componentId;
      e.size = item.size;
      e.presentInA = item.presentInA;
      e.presentInB = item.presentInB;
      if (item.bytesA != nullptr) e.a.assign(item.bytesA, item.bytesA + item.size);
      if (item.bytesB != nullptr) e.b.assign(item.bytesB, item.bytesB + item.size);
      e.entityA = item.entityA;
      e.entityB = item.entityB;
      e.relation = item.relation;
      e.targetA = item.targetA;
      e.targetB = item.targetB;
      if (item.relation) {
        char text[kRelationDiffTextCapacity];
        e.text.assign(text, formatRelationDiff(worldA, item, text, sizeof text));
      }
      r.entries.push_back(std::move(e));
    });
  } else if (r.framesA != r.framesB) {
    r.identical = false;
    r.lengthDivergence = true;
    r.firstDivergentTick = common + 1;
  }
  return r;
}

}  // namespace laige
