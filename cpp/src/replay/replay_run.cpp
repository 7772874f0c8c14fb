// replay_run.cpp - runReplay and the input checks it shares with
// diffReplays: log shape, world/config agreement, identity, determinism.
#include <cstdint>

#include "laige/logging.h"
#include "laige/replay.h"
#include "laige/scheduler.h"
#include "laige/state_hash.h"
#include "laige/system.h"
#include "logging/log_texts.h"
#include "replay/replay_internal.h"

namespace laige {

namespace {

constexpr const char* kIdentityText =
    "identity_mismatch | a replay log does not match the world it is replayed into | the seed, "
    "tick rate, registered components, math backend or configuration differ from the "
    "recording's | replay with the recording's config and scenario (the fields show both "
    "values) | docs/replay.md#identity";

/// The log-field keys of one side's identity report (keys must be static).
struct IdentityKeys {
  const char* mismatch;
  const char* recorded[5];
  const char* expected[5];
};
constexpr IdentityKeys kRunKeys = {
    "mismatch",
    {"log_seed", "log_tick_rate_hz", "log_component_schema_hash", "log_math_backend_id", "log_config_hash"},
    {"expected_seed", "expected_tick_rate_hz", "expected_component_schema_hash", "expected_math_backend_id",
     "expected_config_hash"}};
constexpr IdentityKeys kSideKeys[2] = {
    {"a_mismatch",
     {"a_log_seed", "a_log_tick_rate_hz", "a_log_component_schema_hash", "a_log_math_backend_id",
      "a_log_config_hash"},
     {"a_expected_seed", "a_expected_tick_rate_hz", "a_expected_component_schema_hash",
      "a_expected_math_backend_id", "a_expected_config_hash"}},
    {"b_mismatch",
     {"b_log_seed", "b_log_tick_rate_hz", "b_log_component_schema_hash", "b_log_math_backend_id",
      "b_log_config_hash"},
     {"b_expected_seed", "b_expected_tick_rate_hz", "b_expected_component_schema_hash",
      "b_expected_math_backend_id", "b_expected_config_hash"}}};
constexpr const char* kFieldNames[5] = {"seed", "tickRateHz", "componentSchemaHash", "mathBackendId",
                                        "configHash"};

log::Field hexField(const char* key, std::uint64_t v) noexcept {
  char text[16];
  constexpr char kHex[] = "0123456789abcdef";
  for (int i = 0; i < 16; ++i) text[i] = kHex[(v >> (60 - 4 * i)) & 0xfu];
  return log::field(key, std::string_view(text, 16));
}

/// Appends one side's mismatch fields; returns true when the side differs.
bool appendIdentityFields(const IdentityKeys& keys, const ReplayIdentity& rec, const ReplayIdentity& cur,
                          log::Field* fields, std::size_t& n) noexcept {
  const ReplayIdentityDiff d = replayIdentityDiff(rec, cur);
  if (d.empty()) return false;
  const bool differs[5] = {d.seed, d.tickRateHz, d.componentSchemaHash, d.mathBackendId, d.configHash};
  const std::uint64_t a[5] = {rec.seed, rec.tickRateHz, rec.componentSchemaHash, rec.mathBackendId,
                              rec.configHash};
  const std::uint64_t b[5] = {cur.seed, cur.tickRateHz, cur.componentSchemaHash, cur.mathBackendId,
                              cur.configHash};
  char list[80];
  std::size_t len = 0;
  for (int i = 0; i < 5; ++i) {
    if (!differs[i]) continue;
    for (const char* p = kFieldNames[i]; *p != '\0' && len + 2 < sizeof list; ++p) list[len++] = *p;
    list[len++] = ',';
  }
  fields[n++] = log::field(keys.mismatch, std::string_view(list, len - 1));
  for (int i = 0; i < 5; ++i) {
    if (!differs[i]) continue;
    fields[n++] = hexField(keys.recorded[i], a[i]);
    fields[n++] = hexField(keys.expected[i], b[i]);
  }
  return true;
}

void emitWarn(const char* event, const char* text, const log::Field* fields, std::size_t n) noexcept {
  log::Logger& logger = log::Logger::instance();
  if (logger.enabled("replay", log::Severity::Warn)) {
    logger.log(log::Severity::Warn, "replay", event, text, fields, n);
  }
}

}  // namespace

namespace detail {

Status checkReplayLogShape(const ReplayLog& log, const char* side) noexcept {
  for (std::size_t i = 0; i < log.frames.size(); ++i) {
    const ReplayFrame& f = log.frames[i];
    const bool rangeOk = f.offset <= log.payload.size() && log.payload.size() - f.offset >= f.size;
    if (f.tick != i + 1 || f.size > kMaxReplayFrameBytes || !rangeOk) {
      LAIGE_LOG_WARN("replay", "log_invalid", log::texts::LogInvalid, log::field("side", side),
                     log::field("frame_index", static_cast<std::uint64_t>(i)), log::field("tick", f.tick),
                     log::field("size", f.size));
      return Status::failure(ErrorCode::MalformedInput, "log_invalid")
          .with("side", side)
          .with("frame_index", static_cast<std::uint64_t>(i))
          .with("tick", f.tick)
          .with("size", f.size);
    }
  }
  return Status{};
}

Status checkReplayWorld(const World& world, const ReplayConfig& config, const char* side) noexcept {
  // A world on the stack (inside its each or one of its systems) cannot run
  // the replay's ticks; refused before anything is read or run.
  if (Status st = world.tickAllowed(); st.isError()) return st.with("side", side);
  const World::Options o = world.options();
  const World::Options want = worldOptionsFor(config);
  if (!world.isLive() || world.systemTicksRun() != 0 || o.seed != want.seed || o.capacity != want.capacity ||
      o.churnPerFrameBudget != want.churnPerFrameBudget || o.deterministic != want.deterministic) {
    LAIGE_LOG_WARN("replay", "config_world_mismatch", log::texts::ConfigWorldMismatch, log::field("side", side),
                   log::field("world_capacity", o.capacity), log::field("config_capacity", want.capacity),
                   log::field("world_seed", o.seed), log::field("config_seed", want.seed),
                   log::field("ticks_run", world.systemTicksRun()));
    // Which of the conditions failed, first one first (the log has the values).
    const char* mismatch = !world.isLive() ? "world_empty"
                           : world.systemTicksRun() != 0 ? "ticks_run"
                           : o.seed != want.seed ? "seed"
                           : o.capacity != want.capacity ? "capacity"
                           : o.churnPerFrameBudget != want.churnPerFrameBudget ? "churn_budget"
                                                                                : "deterministic";
    return Status::failure(ErrorCode::InvalidArgument, "config_world_mismatch")
        .with("side", side)
        .with("mismatch", mismatch)
        .with("ticks_run", world.systemTicksRun());
  }
  return Status{};
}

bool reportIdentityMismatch(const char* event, const char* side, const ReplayLog& log, const World& world,
                            const ReplayConfig& config) noexcept {
  log::Field fields[11];
  std::size_t n = 0;
  const IdentityKeys& keys = side[0] == 'a' ? kSideKeys[0] : side[0] == 'b' ? kSideKeys[1] : kRunKeys;
  if (!appendIdentityFields(keys, log.identity, makeReplayIdentity(world, config, log.formatVersion), fields, n)) return false;
  emitWarn(event, kIdentityText, fields, n);
  return true;
}

Status identityMismatch(const char* event, const char* key, const ReplayIdentity& recorded,
                        const ReplayIdentity& current) noexcept {
  const ReplayIdentityDiff d = replayIdentityDiff(recorded, current);
  const bool differs[5] = {d.seed, d.tickRateHz, d.componentSchemaHash, d.mathBackendId, d.configHash};
  char list[80];
  std::size_t len = 0;
  for (int i = 0; i < 5; ++i) {
    if (!differs[i]) continue;
    if (len != 0) list[len++] = ',';
    for (const char* p = kFieldNames[i]; *p != '\0' && len + 2 < sizeof list; ++p) list[len++] = *p;
  }
  return Status::failure(ErrorCode::InvalidArgument, event).with(key, std::string_view(list, len));
}

bool replayDeterministic(const World& world, const ReplayConfig& config) noexcept {
  return config.determinism.enabled && world.options().deterministic;
}

Status checkReplayDeterministic(const World& world, const ReplayConfig& config) noexcept {
  if (replayDeterministic(world, config)) return Status{};
  LAIGE_LOG_WARN("replay", "determinism_disabled", log::texts::DeterminismDisabled,
                 log::field("config_enabled", config.determinism.enabled),
                 log::field("world_deterministic", world.options().deterministic));
  return Status::failure(ErrorCode::InvalidArgument, "determinism_disabled")
      .with("config_enabled", config.determinism.enabled)
      .with("world_deterministic", world.options().deterministic);
}

Status runReplayFrame(World& world, const SystemSchedule& schedule, std::span<const std::uint8_t> bytes,
                      std::uint64_t tick) noexcept {
  world.beginFrame();
  const TickInput input{bytes.empty() ? nullptr : bytes.data(), static_cast<std::uint32_t>(bytes.size())};
  if (Status st = world.runSystems(schedule, input); st.isError()) {
    LAIGE_LOG_WARN("replay", "run_failed", log::texts::RunFailed, log::field("tick", tick),
                   log::field("code", errorName(st.error())));
    return Status::failure(st.error(), "run_failed")
        .with("tick", tick)
        .with("code", errorName(st.error()))
        .with("cause", st.reason());
  }
  return Status{};
}

/// Builds the diff driver's single both-sides identity report (defined here
/// next to the key tables; see replay_diff.cpp).
bool reportDiffIdentityMismatch(const ReplayLog& logA, const World& worldA, const ReplayConfig& configA,
                                const ReplayLog& logB, const World& worldB, const ReplayConfig& configB) noexcept {
  log::Field fields[22];
  std::size_t n = 0;
  const bool a = appendIdentityFields(kSideKeys[0], logA.identity, makeReplayIdentity(worldA, configA, logA.formatVersion), fields, n);
  const bool b = appendIdentityFields(kSideKeys[1], logB.identity, makeReplayIdentity(worldB, configB, logB.formatVersion), fields, n);
  if (!a && !b) return false;
  emitWarn("diff_identity_mismatch", kIdentityText, fields, n);
  return true;
}

}  // namespace detail

Result<ReplayRunResult> runReplay(const ReplayLog& log, World& world, const ReplayConfig& config,
                                  const ReplayProgress* progress) {
  if (Status st = detail::checkReplayLogShape(log, ""); st.isError()) return st;
  if (Status st = detail::checkReplayWorld(world, config, ""); st.isError()) return st;
  if (detail::reportIdentityMismatch("identity_mismatch", "", log, world, config)) {
    return detail::identityMismatch("identity_mismatch", "mismatch", log.identity,
                                    makeReplayIdentity(world, config));
  }
  if (Status st = detail::checkReplayDeterministic(world, config); st.isError()) return st;
  // The schedule is 1 KiB of plain data: a local, not an allocation.
  SystemSchedule schedule;
  if (Status st = world.scheduleSystems(schedule); st.isError()) return st;

  const std::uint64_t frames = log.frameCount();
  ReplayRunResult result;
  result.tickHashes.reserve(static_cast<std::size_t>(frames + 1));
  result.tickHashes.push_back(world.stateHash(0));
  for (std::uint64_t i = 0; i < frames; ++i) {
    const std::uint64_t tick = i + 1;
    const std::span<const std::uint8_t> bytes = log.frameBytes(static_cast<std::size_t>(i));
    if (Status st = detail::runReplayFrame(world, schedule, bytes, tick); st.isError()) return st;
    result.tickHashes.push_back(world.stateHash(tick));
    if (progress != nullptr && progress->fn != nullptr && progress->interval != 0 &&
        tick % progress->interval == 0 && tick != frames) {
      progress->fn(progress->ctx, tick, frames);
    }
  }
  if (progress != nullptr && progress->fn != nullptr) progress->fn(progress->ctx, frames, frames);
  return result;
}

}  // namespace laige
