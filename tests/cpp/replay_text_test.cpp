// replay_text_test.cpp - the strict config JSON reader (every key, every
// rejection with its reason, unknown keys warned and skipped) and the
// baseline grammar and bounds, plus the stream comparison.
#include "laige/replay_text.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/log_capture.h"

namespace laige {
namespace {

std::string configReason(const std::string& text) {
  TextParseError why;
  const Result<ReplayConfigFile> r = parseReplayConfigJson(text, &why);
  if (r.ok()) return "ok";
  EXPECT_EQ(r.error(), ErrorCode::MalformedInput);
  return why.reason != nullptr ? why.reason : "(none)";
}

TEST(ReplayConfigJson, ReadsEveryKey) {
  const Result<ReplayConfigFile> r = parseReplayConfigJson(R"({
    "tickRateHz": 30, "entityCapacity": 2000, "churnPerFrameBudget": 0,
    "seed": 18446744073709551615,
    "determinism": {"enabled": false, "math": "float_pinned_32"},
    "scenario": "swarm"
  })");
  ASSERT_TRUE(r.ok());
  const ReplayConfig& c = r.value().config;
  EXPECT_EQ(c.tickRateHz, 30u);
  EXPECT_EQ(c.entityCapacity, 2000u);
  EXPECT_EQ(c.churnPerFrameBudget, 0u);
  EXPECT_EQ(c.seed, ~0ull);
  EXPECT_FALSE(c.determinism.enabled);
  EXPECT_EQ(c.determinism.math, SimMathBackend::FloatPinned32);
  EXPECT_EQ(r.value().scenario, "swarm");
}

TEST(ReplayConfigJson, AbsentKeysKeepTheDefaultsAndSeedMayBeHex) {
  const Result<ReplayConfigFile> r = parseReplayConfigJson(R"({"seed": "0x1F055EED"})");
  ASSERT_TRUE(r.ok());
  const ReplayConfig def;
  EXPECT_EQ(r.value().config.seed, 0x1f055eedull);
  EXPECT_EQ(r.value().config.tickRateHz, def.tickRateHz);
  EXPECT_EQ(r.value().config.entityCapacity, def.entityCapacity);
  EXPECT_TRUE(r.value().config.determinism.enabled);
  EXPECT_EQ(r.value().config.determinism.math, SimMathBackend::FixedPoint16_16);
  EXPECT_EQ(r.value().scenario, "");
  EXPECT_TRUE(parseReplayConfigJson("{}").ok());
  EXPECT_TRUE(parseReplayConfigJson(" \r\n{ \"determinism\" : { } }\n").ok());
}

TEST(ReplayConfigJson, UnknownKeysAreWarnedAndSkipped) {
  test::LogCapture logs;
  const Result<ReplayConfigFile> r = parseReplayConfigJson(
      R"({"comment": {"a": [1, 2.5e3, -4, "x\"y\u00e9", true, null, {}]}, "tickRateHz": 120})");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.value().config.tickRateHz, 120u);
  ASSERT_EQ(logs.count("config", "unknown_key"), 1u);
  EXPECT_EQ(logs.sink->records().back().fieldValue("key"), "comment");
  logs.advance(10'000);
  ASSERT_TRUE(parseReplayConfigJson(R"({"determinism": {"fast": true}})").ok());
  EXPECT_EQ(logs.sink->records().back().fieldValue("key"), "determinism.fast");
}

TEST(ReplayConfigJson, SyntaxErrorsAreRejectedWithAPosition) {
  for (const char* bad : {"", "   ", "[]", "{", "{\"tickRateHz\" 60}", "{\"tickRateHz\": 60,}", "{,}",
                          "{\"a\": 01}", "{\"a\": 1.}", "{\"a\": tru}", "{\"a\": \"x}", "{\"a\": \"\\q\"}",
                          "{\"a\": \"\x01\"}", "{} {}", "{\"a\": [1,]}", "{'a': 1}", "{\"a\": \"\\u12g4\"}"}) {
    EXPECT_EQ(configReason(bad), "syntax") << bad;
  }
  TextParseError why;
  EXPECT_TRUE(parseReplayConfigJson("{\n  \"seed\": 1,\n  oops\n}", &why).isError());
  EXPECT_EQ(why.line, 3u);
  EXPECT_EQ(why.column, 3u);
}

TEST(ReplayConfigJson, ValuesAreTypedAndRangeChecked) {
  EXPECT_EQ(configReason(R"({"tickRateHz": 19})"), "tick_rate_out_of_range");
  EXPECT_EQ(configReason(R"({"tickRateHz": 121})"), "tick_rate_out_of_range");
  EXPECT_EQ(configReason(R"({"tickRateHz": 20})"), "ok");
  EXPECT_EQ(configReason(R"({"tickRateHz": 60.5})"), "type");
  EXPECT_EQ(configReason(R"({"tickRateHz": 6e1})"), "type");
  EXPECT_EQ(configReason(R"({"tickRateHz": "60"})"), "type");
  EXPECT_EQ(configReason(R"({"entityCapacity": 0})"), "capacity_out_of_range");
  EXPECT_EQ(configReason(R"({"entityCapacity": 65537})"), "capacity_out_of_range");
  EXPECT_EQ(configReason(R"({"entityCapacity": 65536})"), "ok");
  EXPECT_EQ(configReason(R"({"churnPerFrameBudget": -1})"), "type");
  EXPECT_EQ(configReason(R"({"churnPerFrameBudget": 4294967296})"), "number_range");
  EXPECT_EQ(configReason(R"({"seed": 18446744073709551616})"), "number_range");
  EXPECT_EQ(configReason(R"({"seed": "12"})"), "type");
  EXPECT_EQ(configReason(R"({"seed": "0x"})"), "type");
  EXPECT_EQ(configReason(R"({"seed": "0x12345678901234567"})"), "type");
  EXPECT_EQ(configReason(R"({"seed": "0xzz"})"), "type");
  EXPECT_EQ(configReason(R"({"determinism": true})"), "type");
  EXPECT_EQ(configReason(R"({"determinism": {"enabled": 1}})"), "type");
  EXPECT_EQ(configReason(R"({"determinism": {"math": "double"}})"), "unknown_math");
  EXPECT_EQ(configReason(R"({"determinism": {"math": 0}})"), "type");
  EXPECT_EQ(configReason(R"({"scenario": ""})"), "scenario_name");
  EXPECT_EQ(configReason(R"({"scenario": "a b"})"), "scenario_name");
  EXPECT_EQ(configReason(R"({"scenario": 3})"), "type");
  EXPECT_EQ(configReason("{\"scenario\": \"" + std::string(64, 'x') + "\"}"), "scenario_name");
}

TEST(ReplayConfigJson, DuplicatesDepthAndSize) {
  EXPECT_EQ(configReason(R"({"seed": 1, "seed": 2})"), "duplicate_key");
  EXPECT_EQ(configReason(R"({"determinism": {"enabled": true, "enabled": true}})"), "duplicate_key");
  EXPECT_EQ(configReason(R"({"determinism": {}, "determinism": {}})"), "duplicate_key");
  EXPECT_EQ(configReason("{\"x\": " + std::string(40, '[') + std::string(40, ']') + "}"), "too_deep");
  EXPECT_EQ(configReason("{\"x\": " + std::string(20, '[') + std::string(20, ']') + "}"), "ok");
  std::string big = "{\"x\": \"" + std::string(kMaxReplayConfigBytes, 'a') + "\"}";
  EXPECT_EQ(configReason(big), "too_large");
}

// --- Baselines ---------------------------------------------------------------------

std::string baselineReason(const std::string& text) {
  std::vector<std::uint64_t> out;
  TextParseError why;
  const Status s = parseHashBaseline(text, out, &why);
  if (s.ok()) return "ok";
  EXPECT_EQ(s.error(), ErrorCode::MalformedInput);
  return why.reason != nullptr ? why.reason : "(none)";
}

TEST(ReplayBaseline, ReadsTheGrammarWithCrlfAndAMissingFinalNewline) {
  std::vector<std::uint64_t> out{99};
  ASSERT_TRUE(parseHashBaseline("0 0000000000000001\n1 abcdef0123456789\n", out).ok());
  EXPECT_EQ(out, (std::vector<std::uint64_t>{1, 0xabcdef0123456789ull}));
  ASSERT_TRUE(parseHashBaseline("0 0000000000000001\r\n1 ffffffffffffffff", out).ok());
  EXPECT_EQ(out, (std::vector<std::uint64_t>{1, ~0ull}));
  ASSERT_TRUE(parseHashBaseline("", out).ok());
  EXPECT_TRUE(out.empty());
}

TEST(ReplayBaseline, RejectsEverythingOutsideTheGrammar) {
  EXPECT_EQ(baselineReason("1 0000000000000001\n"), "bad_tick");  // must start at 0
  EXPECT_EQ(baselineReason("0 0000000000000001\n2 0000000000000001\n"), "bad_tick");
  EXPECT_EQ(baselineReason("00 0000000000000001\n"), "bad_tick");
  EXPECT_EQ(baselineReason("0 0000000000000001\n01 0000000000000001\n"), "bad_tick");
  EXPECT_EQ(baselineReason("x 0000000000000001\n"), "bad_tick");
  EXPECT_EQ(baselineReason("0  0000000000000001\n"), "bad_hash");
  EXPECT_EQ(baselineReason("0\t0000000000000001\n"), "syntax");
  EXPECT_EQ(baselineReason("0 000000000000000A\n"), "bad_hash");  // lowercase only
  EXPECT_EQ(baselineReason("0 000000000000001\n"), "bad_hash");
  EXPECT_EQ(baselineReason("0 00000000000000011\n"), "bad_hash");
  EXPECT_EQ(baselineReason("0 0000000000000001 \n"), "bad_hash");
  EXPECT_EQ(baselineReason("0 0000000000000001\n\n"), "empty_line");
  EXPECT_EQ(baselineReason("\n"), "empty_line");
  EXPECT_EQ(baselineReason("0 0000000000000001\r\r\n"), "bad_hash");
  EXPECT_EQ(baselineReason("0 " + std::string(63, '0') + "\n"), "line_too_long");
  TextParseError why;
  std::vector<std::uint64_t> out;
  EXPECT_TRUE(parseHashBaseline("0 0000000000000000\n1 000000000000000g\n", out, &why).isError());
  EXPECT_EQ(why.line, 2u);
  EXPECT_EQ(why.column, 18u);
}

TEST(ReplayBaseline, EnforcesTheLineAndSizeBounds) {
  std::string text;
  char line[kReplayHashLineCapacity];
  for (std::uint64_t t = 0; t < kMaxBaselineLines; ++t) text.append(line, formatReplayHashLine(t, t, line));
  std::vector<std::uint64_t> out;
  ASSERT_TRUE(parseHashBaseline(text, out).ok());
  EXPECT_EQ(out.size(), kMaxBaselineLines);
  text.append(line, formatReplayHashLine(kMaxBaselineLines, 0, line));
  EXPECT_EQ(baselineReason(text), "too_many_lines");
  EXPECT_EQ(baselineReason(std::string(kMaxBaselineBytes + 1, '0')), "too_large");
}

TEST(ReplayBaseline, CompareReportsTheFirstMismatchBeforeLength) {
  const std::vector<std::uint64_t> a{1, 2, 3, 4};
  EXPECT_TRUE(compareHashStreams(a, a).match);
  HashStreamComparison c = compareHashStreams(a, {1, 2, 9});
  EXPECT_TRUE(c.hashMismatch);
  EXPECT_FALSE(c.lengthMismatch);
  EXPECT_EQ(c.firstMismatchTick, 2u);
  c = compareHashStreams(a, {1, 2});
  EXPECT_TRUE(c.lengthMismatch && c.actualLonger);
  EXPECT_EQ(c.firstUnmatchedTick, 2u);
  c = compareHashStreams({1}, {1, 2, 3});
  EXPECT_TRUE(c.lengthMismatch && !c.actualLonger);
  EXPECT_EQ(c.firstUnmatchedTick, 1u);
}

}  // namespace
}  // namespace laige
