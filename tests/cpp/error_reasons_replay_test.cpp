// error_reasons_replay_test.cpp - the replay recorders, parser, loader,
// runner and diff driver, and the scenario runner return a Status whose
// reason is the event name their warn log uses, with the log's key fields
// (docs/errors.md#core-reasons). The other core paths: error_reasons_test.cpp.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "laige/entity.h"
#include "laige/logging.h"
#include "laige/replay.h"
#include "laige/replay_diff.h"
#include "laige/replay_text.h"
#include "scenario.h"
#include "support/replay_scene.h"

namespace laige {
namespace {

std::string field(const Status& st, const char* key) { return st.fieldValue(key); }

std::vector<std::uint8_t> recordScene(const ReplayConfig& c, std::uint64_t frames) {
  return test::rpRecord(c, test::rpPayloads(frames));
}

ReplayLog parsed(const std::vector<std::uint8_t>& bytes) { return parseReplay(bytes.data(), bytes.size()).takeValue(); }

TEST(ErrorReasonsReplay, WriterStartAndStickyFailures) {
  Status st = ReplayWriter::create(ReplayIdentity{}, 10).status();
  EXPECT_STREQ(st.reason(), "record_start_failed");
  EXPECT_EQ(field(st, "reason"), "cap_too_small");
  EXPECT_EQ(field(st, "max_bytes"), "10");
  EXPECT_EQ(field(st, "min_bytes"), std::to_string(kMinReplaySizeLimit));

  ReplayWriter w = ReplayWriter::create(ReplayIdentity{}, 80).takeValue();
  const std::uint8_t big[40] = {};
  st = w.writeFrame(2, big, 0);
  EXPECT_STREQ(st.reason(), "record_failed");
  EXPECT_EQ(field(st, "reason"), "tick_sequence");
  EXPECT_EQ(field(st, "frames"), "0");
  // Sticky: every later call returns the first failure, reason and fields.
  EXPECT_EQ(field(w.writeFrame(1, big, 0), "reason"), "tick_sequence");
  EXPECT_EQ(field(w.finish(), "reason"), "tick_sequence");
  EXPECT_STREQ(w.status().reason(), "record_failed");

  ReplayWriter capped = ReplayWriter::create(ReplayIdentity{}, 80).takeValue();
  st = capped.writeFrame(1, big, sizeof big);
  EXPECT_EQ(st.error(), ErrorCode::BudgetExhausted);
  EXPECT_EQ(field(st, "reason"), "size_cap");
  EXPECT_EQ(field(st, "max_bytes"), "80");

  ReplayWriter done = ReplayWriter::create(ReplayIdentity{}).takeValue();
  ASSERT_TRUE(done.finish().ok());
  st = done.writeFrame(1, nullptr, 0);
  EXPECT_STREQ(st.reason(), "record_after_finish");
  EXPECT_TRUE(done.status().ok());  // misuse after finish does not fail the published log
}

TEST(ErrorReasonsReplay, FileRecorderStartFailures) {
  Status st = ReplayRecorder::create(ReplayIdentity{}, "").status();
  EXPECT_STREQ(st.reason(), "record_start_failed");
  EXPECT_EQ(field(st, "reason"), "empty_path");
  st = ReplayRecorder::create(ReplayIdentity{}, "/nonexistent-dir/x/log.lgr").status();
  EXPECT_EQ(st.error(), ErrorCode::IoError);
  EXPECT_EQ(field(st, "reason"), "open_failed");
  EXPECT_NE(field(st, "path"), "");
}

TEST(ErrorReasonsReplay, ParseAndLoad) {
  const std::vector<std::uint8_t> bytes = recordScene(test::rpConfig(), 3);
  std::vector<std::uint8_t> bad = bytes;
  bad[0] = 'X';
  Status st = parseReplay(bad.data(), bad.size()).status();
  EXPECT_EQ(st.error(), ErrorCode::MalformedInput);
  EXPECT_STREQ(st.reason(), "parse_rejected");
  EXPECT_EQ(field(st, "reason"), "bad_magic");
  EXPECT_EQ(field(st, "offset"), "0");
  bad = bytes;
  bad[bytes.size() - 1] ^= 1;
  EXPECT_EQ(field(parseReplay(bad.data(), bad.size()).status(), "reason"), "file_hash_mismatch");

  st = loadReplay("").status();
  EXPECT_STREQ(st.reason(), "load_failed");
  EXPECT_EQ(field(st, "reason"), "empty_path");
  st = loadReplay("/nonexistent-dir/none.lgr").status();
  EXPECT_EQ(st.error(), ErrorCode::IoError);
  EXPECT_EQ(field(st, "reason"), "open_failed");
  EXPECT_EQ(field(st, "path"), "/nonexistent-dir/none.lgr");

  ReplayLog log;
  st = log.appendFrame(nullptr, 3);
  EXPECT_STREQ(st.reason(), "log_invalid");
  EXPECT_EQ(field(st, "reason"), "null_data");
}

TEST(ErrorReasonsReplay, RunChecksNameWhatDiffers) {
  const ReplayConfig c = test::rpConfig();
  const ReplayLog log = parsed(recordScene(c, 4));

  ReplayLog broken = log;
  broken.frames[1].tick = 7;
  World w0 = test::rpWorld(c);
  Status st = runReplay(broken, w0, c).status();
  EXPECT_STREQ(st.reason(), "log_invalid");
  EXPECT_EQ(field(st, "frame_index"), "1");
  EXPECT_EQ(field(st, "tick"), "7");

  World used = test::rpWorld(c);
  SystemSchedule s;
  ASSERT_TRUE(used.scheduleSystems(s).ok());
  ASSERT_TRUE(used.runSystems(s).ok());
  st = runReplay(log, used, c).status();
  EXPECT_STREQ(st.reason(), "config_world_mismatch");
  EXPECT_EQ(field(st, "mismatch"), "ticks_run");
  EXPECT_EQ(field(st, "ticks_run"), "1");

  ReplayConfig other = c;
  other.tickRateHz = 30;
  World w1 = test::rpWorld(other);
  st = runReplay(log, w1, other).status();
  EXPECT_STREQ(st.reason(), "identity_mismatch");
  EXPECT_EQ(field(st, "mismatch"), "tickRateHz,configHash");

  ReplayConfig loose = c;
  loose.determinism.enabled = false;
  ReplayLog looseLog = log;
  World w2 = test::rpWorld(loose);
  looseLog.identity = makeReplayIdentity(w2, loose);
  st = runReplay(looseLog, w2, loose).status();
  EXPECT_STREQ(st.reason(), "determinism_disabled");
  EXPECT_EQ(field(st, "config_enabled"), "false");
  EXPECT_EQ(field(st, "world_deterministic"), "false");
}

TEST(ErrorReasonsReplay, ASchedulingFailureKeepsItsOwnReason) {
  const ReplayConfig c = test::rpConfig();
  World w = test::rpWorld(c);
  SystemDef d;
  d.name = "Needy";
  d.run = [](World&, SystemContext&) {};
  d.budgetMs = fpx16_16::one();
  d.dependsOn = "Ghost";
  ASSERT_TRUE(w.registerSystem(d, nullptr, 0).ok());
  ReplayLog log;
  log.identity = makeReplayIdentity(w, c);
  const Status st = runReplay(log, w, c).status();
  EXPECT_STREQ(st.reason(), "dep_missing");
  EXPECT_EQ(field(st, "missing_dep"), "Ghost");
}

TEST(ErrorReasonsReplay, DiffChecks) {
  const ReplayConfig c = test::rpConfig();
  const ReplayLog log = parsed(recordScene(c, 4));
  ReplayConfig other = c;
  other.seed = 99;
  World a = test::rpWorld(c);
  World b = test::rpWorld(other);
  Status st = diffReplays(log, log, a, b, c, other, 4).status();
  EXPECT_STREQ(st.reason(), "diff_identity_mismatch");
  EXPECT_EQ(field(st, "a_mismatch"), "");
  EXPECT_EQ(field(st, "b_mismatch"), "seed,configHash");

  ReplayLog bad = log;
  bad.frames[0].size = kMaxReplayFrameBytes + 1;
  World a2 = test::rpWorld(c);
  World b2 = test::rpWorld(c);
  st = diffReplays(log, bad, a2, b2, c, c, 4).status();
  EXPECT_STREQ(st.reason(), "log_invalid");
  EXPECT_EQ(field(st, "side"), "b");
}

TEST(ErrorReasonsReplay, Scenarios) {
  Status st = runScenario("no-such-scenario", 1, 1, nullptr, nullptr).status();
  EXPECT_STREQ(st.reason(), "scenario_unknown");
  EXPECT_EQ(field(st, "scenario"), "no-such-scenario");
  EXPECT_EQ(field(st, "scenarios"), std::to_string(scenarioCount()));
  st = runScenario("hello", 1, kMaxScenarioTicks + 1, nullptr, nullptr).status();
  EXPECT_STREQ(st.reason(), "scenario_ticks_invalid");
  EXPECT_EQ(field(st, "scenario"), "hello");
  EXPECT_EQ(field(st, "max_ticks"), std::to_string(kMaxScenarioTicks));
}

TEST(ErrorReasonsReplay, TextParsersNameTheCheckAndThePosition) {
  Status st = parseReplayConfigJson("{\n  \"tickRateHz\": 500\n}").status();
  EXPECT_EQ(st.error(), ErrorCode::MalformedInput);
  EXPECT_STREQ(st.reason(), "config_rejected");
  EXPECT_EQ(field(st, "reason"), "tick_rate_out_of_range");
  EXPECT_EQ(field(st, "line"), "2");
  std::vector<std::uint64_t> hashes;
  st = parseHashBaseline("0 0123456789abcdef\n2 0123456789abcdef\n", hashes);
  EXPECT_STREQ(st.reason(), "baseline_rejected");
  EXPECT_EQ(field(st, "reason"), "bad_tick");
  EXPECT_EQ(field(st, "line"), "2");
}

TEST(ErrorReasonsReplay, LogFileAndEntityAllocator) {
  Status st = log::FileSink::create("").status();
  EXPECT_STREQ(st.reason(), "log_file_failed");
  EXPECT_EQ(field(st, "reason"), "empty_path");
  st = log::FileSink::create("/nonexistent-dir/x/laige.log").status();
  EXPECT_EQ(st.error(), ErrorCode::IoError);
  EXPECT_EQ(field(st, "reason"), "open_failed");

  Entities pool(1);
  ASSERT_TRUE(pool.spawn().ok());
  st = pool.spawn().status();
  EXPECT_STREQ(st.reason(), "entity_budget_exhausted");
  EXPECT_EQ(field(st, "capacity"), "1");
}

}  // namespace
}  // namespace laige
