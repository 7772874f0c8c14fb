// detcheck_stream_test.cpp - the laige-detcheck stream contract
// (docs/determinism.md#laige-detcheck): validation, comparison, reports, the combined format.
#include "detcheck_stream.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace laige::detcheck {
namespace {

const char* const kTwo = "0 0123456789abcdef\n1 fedcba9876543210\n";

TEST(DetcheckStream, ValidStreamsAndTolerances) {
  std::vector<std::string_view> lines;
  EXPECT_EQ(validateStream(kTwo, lines), "");
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[1], "1 fedcba9876543210");
  // CRLF and a missing final newline are tolerated.
  EXPECT_EQ(validateStream("0 0123456789abcdef\r\n1 fedcba9876543210", lines), "");
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0], "0 0123456789abcdef");
}

TEST(DetcheckStream, ContractViolations) {
  std::vector<std::string_view> lines;
  EXPECT_EQ(validateStream("", lines), "empty stream (no tick 0 line)");
  EXPECT_EQ(validateStream("1 0123456789abcdef\n", lines), "line 1: tick 1 where 0 was expected");
  EXPECT_EQ(validateStream("0 0123456789abcdef\n2 0123456789abcdef\n", lines),
            "line 2: tick 2 where 1 was expected");
  EXPECT_EQ(validateStream("00 0123456789abcdef\n", lines), "line 1: tick with a leading zero");
  EXPECT_EQ(validateStream("0 0123456789ABCDEF\n", lines), "line 1: hash is not lowercase hex");
  EXPECT_EQ(validateStream("0 0123456789abcde\n", lines), "line 1: hash is not exactly 16 hex digits");
  EXPECT_EQ(validateStream("0  0123456789abcdef\n", lines), "line 1: hash is not exactly 16 hex digits");
  EXPECT_EQ(validateStream("0\t0123456789abcdef\n", lines), "line 1: no space between tick and hash");
  EXPECT_EQ(validateStream("0 0123456789abcdef\n\n", lines), "line 2: no space between tick and hash");
  EXPECT_EQ(validateStream("x 0123456789abcdef\n", lines), "line 1: tick is not a decimal number");
  EXPECT_EQ(validateStream(std::string(65, 'a'), lines), "line 1: longer than 64 bytes");
}

TEST(DetcheckStream, LineBound) {
  std::string text;
  for (std::uint32_t t = 0; t <= kMaxStreamLines; ++t) text += std::to_string(t) + " 0000000000000000\n";
  std::vector<std::string_view> lines;
  EXPECT_EQ(validateStream(text, lines), "line 65538: more than 65537 lines (ticks 0..65536)");
}

TEST(DetcheckStream, CompareAndReport) {
  Comparison ok = compareStreams(kTwo, "0 0123456789abcdef\r\n1 fedcba9876543210");
  EXPECT_EQ(ok.verdict, Verdict::Agree);
  EXPECT_EQ(formatReport("hello", ok), "detcheck scenario=hello result=OK ticks=2\n");

  Comparison d = compareStreams(kTwo, "0 0123456789abcdef\n1 fedcba9876543211\n");
  EXPECT_EQ(d.verdict, Verdict::Diverged);
  EXPECT_EQ(formatReport("synthetic", d),
            "detcheck scenario=synthetic result=DIVERGED first_diff_tick=1\n"
            "run-a: 1 fedcba9876543210\n"
            "run-b: 1 fedcba9876543211\n");

  Comparison shorter = compareStreams("0 0123456789abcdef\n", kTwo);
  EXPECT_EQ(shorter.verdict, Verdict::Diverged);
  EXPECT_EQ(formatReport("combined", shorter),
            "detcheck scenario=combined result=DIVERGED first_diff_tick=1\n"
            "run-a: stream ends: 1 ticks\n"
            "run-b: 1 fedcba9876543210\n");

  Comparison bad = compareStreams(kTwo, "0 xyz\n");
  EXPECT_EQ(bad.verdict, Verdict::ContractError);
  EXPECT_EQ(bad.error, "run-b: line 1: hash is not exactly 16 hex digits");
  EXPECT_EQ(static_cast<int>(bad.verdict), 2);
}

std::string combined(std::string_view a, int exitA, std::string_view b, int exitB) {
  return "noise before\n@@DETCHK-RUN-A-BEGIN@@\n" + std::string(a) + "@@DETCHK-RUN-A-END " + std::to_string(exitA) +
         "@@\n@@DETCHK-RUN-B-BEGIN@@\n" + std::string(b) + "@@DETCHK-RUN-B-END " + std::to_string(exitB) + "@@\n";
}

TEST(DetcheckStream, CombinedOutput) {
  CombinedRuns runs;
  const std::string text = combined(kTwo, 0, kTwo, 3);  // the runs are views into it
  EXPECT_EQ(splitCombined(text, runs), "");
  EXPECT_EQ(runs.a, kTwo);
  EXPECT_EQ(runs.exitB, 3);
  EXPECT_EQ(compareCombined(combined(kTwo, 0, kTwo, 0)).verdict, Verdict::Agree);
  const Comparison d = compareCombined(combined(kTwo, 0, "0 0123456789abcdef\n1 0000000000000000\n", 0));
  EXPECT_EQ(d.verdict, Verdict::Diverged);
  EXPECT_EQ(d.firstDiffTick, 1u);
  const Comparison failed = compareCombined(combined(kTwo, 0, kTwo, 1));
  EXPECT_EQ(failed.verdict, Verdict::ContractError);
  EXPECT_EQ(failed.error, "run-b exited with status 1");
  EXPECT_EQ(compareCombined("@@DETCHK-RUN-A-BEGIN@@\n0 0123456789abcdef\n").error, "no end marker for run-a");
  EXPECT_EQ(compareCombined(combined(kTwo, 0, kTwo, 0).substr(0, 60)).verdict, Verdict::ContractError);
  EXPECT_EQ(compareCombined("").error, "no run-a block (@@DETCHK-RUN-A-BEGIN@@)");
  EXPECT_EQ(compareCombined("@@DETCHK-RUN-A-BEGIN@@\n@@DETCHK-RUN-A-END x@@\n").error,
            "malformed end marker: @@DETCHK-RUN-A-END x@@");
  // An empty run is a contract error of its stream, not of the format.
  EXPECT_EQ(compareCombined(combined("", 0, kTwo, 0)).error, "run-a: empty stream (no tick 0 line)");
}

}  // namespace
}  // namespace laige::detcheck
