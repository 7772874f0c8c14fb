// laige/replay_diff.h - diffReplays: run two replay logs in lock step and
// report where, and in which entity components, they first diverge
// (docs/replay.md; componentStateHash and stateDiff: `docs/determinism.md#the-state-hash`).
//
// The walk compares World::componentStateHash after every tick, not the full
// stateHash: the per-system PRNG substreams are a function of the seed, so
// two logs with different seeds differ in full state from tick 0 while their
// components may agree for hundreds of ticks. The first component
// divergence is what a person debugging a desync wants; the full-state
// difference is still tracked and reported (fullStateDivergent). At the
// divergent tick World::stateDiff lists the differing (entity, component)
// pairs, bounded, with the exact total. `docs/replay.md#diff`.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "laige/replay.h"
#include "laige/result.h"

namespace laige {

/// The entries reported when the caller does not say.
inline constexpr std::uint32_t kReplayDiffDefaultEntries = 16;
/// The most entries one diff reports (larger requests are clamped).
inline constexpr std::uint32_t kMaxReplayDiffEntries = 64;

/// One differing (entity, component) pair at the divergent tick: a
/// StateDiffItem whose byte views were copied, because the views die with
/// the next mutation of the worlds.
struct ReplayDiffEntry {
  /// The entity slot (slots are world-local; handles are not compared).
  std::uint16_t slot = 0;
  /// The component id; 0 = the entity is live on one side only.
  std::uint32_t componentId = 0;
  /// The component's size in bytes (0 for a presence entry).
  std::uint32_t size = 0;
  /// The entity (or component) exists in world A.
  bool presentInA = false;
  /// The entity (or component) exists in world B.
  bool presentInB = false;
  /// World A's component bytes (empty when absent or for presence entries).
  std::vector<std::uint8_t> a;
  /// World B's component bytes (empty when absent or for presence entries).
  std::vector<std::uint8_t> b;
  /// The slot's handles and the relation fields, as StateDiffItem's.
  Entity entityA{}, entityB{};
  bool relation = false;
  Entity targetA{}, targetB{};
  /// A relation entry in words (formatRelationDiff; `docs/relations.md#relations-in-a-state-diff`),
  /// empty for other entries.
  std::string text;
};

/// What diffReplays found.
struct ReplayDiffResult {
  /// No component divergence and equal lengths.
  bool identical = true;
  /// The first tick whose component state differs (0 = the initial state);
  /// min(framesA, framesB) + 1 for a length divergence; 0 when identical
  /// (a placeholder: check `identical`).
  std::uint64_t firstDivergentTick = 0;
  /// The logs agree on every common tick but have different lengths.
  bool lengthDivergence = false;
  /// The full stateHash (with PRNG substreams) differed on some compared tick.
  bool fullStateDivergent = false;
  /// Frames in log A.
  std::uint64_t framesA = 0;
  /// Frames in log B.
  std::uint64_t framesB = 0;
  /// The exact number of differing items at firstDivergentTick (0 when
  /// identical or for a length divergence), even when fewer are reported.
  std::uint32_t differingItems = 0;
  /// The first min(differingItems, maxEntries) items in stateDiff order
  /// (slots ascending, presence first, then component ids ascending).
  std::vector<ReplayDiffEntry> entries;
};

/// Diffs two logs by replaying them in lock step into two fresh worlds set
/// up identically (same registrations; each built with
/// worldOptionsFor(configX), where configX is the base config with the seed
/// of log X's header). Checks, in order: both logs well formed
/// (MalformedInput + replay/log_invalid); both worlds fresh and built from
/// their configs (replay/config_world_mismatch); both identities (one warn
/// replay/diff_identity_mismatch reporting both sides); determinism enabled
/// on both sides (replay/diff_determinism_disabled); identical component
/// registries in both worlds, which stateDiff requires
/// (replay/diff_schema_mismatch) - each InvalidArgument unless noted. Then schedules both worlds and
/// compares componentStateHash at tick 0 and after every tick 1..min(fA,
/// fB), stopping at the first difference (the worlds are left in that
/// state); stateDiff lists up to maxEntries items there (clamped to
/// kMaxReplayDiffEntries; 0 = count only). A failing tick returns its
/// error. `progress` reports common ticks done. Allocates the result, plus
/// the entry copies at the divergence; the lock-step ticks allocate nothing.
Result<ReplayDiffResult> diffReplays(const ReplayLog& logA, const ReplayLog& logB, World& worldA,
                                     World& worldB, const ReplayConfig& configA,
                                     const ReplayConfig& configB,
                                     std::uint32_t maxEntries = kReplayDiffDefaultEntries,
                                     const ReplayProgress* progress = nullptr);

}  // namespace laige
