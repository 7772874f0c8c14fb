// detcheck_stream.h - the `<tick> <hash>` stream contract of laige-detcheck
// (docs/scenarios.md; docs/determinism.md#laige-detcheck): validation,
// comparison, the combined-output format of --run-a/--run-b and the report
// lines. Compiled into the library so that the test suite (native and
// wasm) checks the same code the CLI runs. Tool code: it allocates.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace laige::detcheck {

/// The most lines a stream may have: ticks 0..65536 (--ticks is at most
/// 65536, and tick 0 is a line too).
inline constexpr std::uint32_t kMaxStreamLines = 65537;
/// The longest line, newline excluded (a trailing '\r' included).
inline constexpr std::uint32_t kMaxLineBytes = 64;
/// Marker lines of the combined output (phase 1 writes, phase 2 reads).
inline constexpr std::string_view kRunABegin = "@@DETCHK-RUN-A-BEGIN@@";
/// The end marker prefix of run A; the line is `@@DETCHK-RUN-A-END <exit>@@`.
inline constexpr std::string_view kRunAEndPrefix = "@@DETCHK-RUN-A-END ";
/// Run B's begin marker.
inline constexpr std::string_view kRunBBegin = "@@DETCHK-RUN-B-BEGIN@@";
/// Run B's end marker prefix.
inline constexpr std::string_view kRunBEndPrefix = "@@DETCHK-RUN-B-END ";
/// The scenario name reported by --compare-combined.
inline constexpr std::string_view kCombinedName = "combined";

/// Splits `text` into lines and checks the scenario contract: one line per
/// tick, `<tick> <hash>` with the tick decimal from 0 and +1 per line, no
/// leading zeros, exactly one space, exactly 16 lowercase hex digits; a
/// trailing '\r' per line and a missing final newline are tolerated; at
/// most kMaxStreamLines lines of at most kMaxLineBytes bytes; at least one
/// line. On success `lines` holds views into `text` (without '\r') and the
/// result is empty; otherwise it is the first violation, e.g.
/// "line 3: tick 5 where 2 was expected".
[[nodiscard]] std::string validateStream(std::string_view text, std::vector<std::string_view>& lines);

/// The outcome of comparing two streams.
enum class Verdict : int {
  /// Same lines, same length (exit 0).
  Agree = 0,
  /// A differing line or a different length (exit 1).
  Diverged = 1,
  /// A stream broke the contract (exit 2).
  ContractError = 2,
};

/// What compareStreams found.
struct Comparison {
  /// The verdict; also the CLI's exit code.
  Verdict verdict = Verdict::ContractError;
  /// Lines in each stream (Agree) - the report's ticks=<n>.
  std::uint64_t ticks = 0;
  /// The first tick whose lines differ, or where the shorter stream ends.
  std::uint64_t firstDiffTick = 0;
  /// Run A's line at that tick, or "stream ends: <n> ticks".
  std::string lineA;
  /// Run B's line at that tick, or "stream ends: <n> ticks".
  std::string lineB;
  /// ContractError: which run broke it and how.
  std::string error;
};

/// Validates both streams and compares them byte for byte, line by line
/// (the hash algorithm is not part of the contract).
[[nodiscard]] Comparison compareStreams(std::string_view a, std::string_view b);

/// The stdout report of a comparison of scenario `name`:
///   detcheck scenario=<name> result=OK ticks=<n>
///   detcheck scenario=<name> result=DIVERGED first_diff_tick=<t>
///   run-a: <line or "stream ends: <n> ticks">
///   run-b: <line or "stream ends: <n> ticks">
/// and for a contract error one line `detcheck scenario=<name>
/// result=ERROR reason=<text>`. Every line ends in '\n'.
[[nodiscard]] std::string formatReport(std::string_view name, const Comparison& c);

/// The two runs found in a combined output.
struct CombinedRuns {
  /// Run A's stdout (between its markers).
  std::string_view a;
  /// Run B's stdout.
  std::string_view b;
  /// Run A's exit status from its end marker.
  int exitA = -1;
  /// Run B's exit status.
  int exitB = -1;
};

/// Finds the two marker blocks of a combined output (--run-a/--run-b's
/// stdout). Text outside the blocks is ignored. Returns "" on success, else
/// the problem (a missing or duplicated marker, a malformed end marker).
[[nodiscard]] std::string splitCombined(std::string_view text, CombinedRuns& out);

/// Compares a combined output: split, then both runs must have exited 0,
/// then compareStreams. Any problem before the comparison is a
/// ContractError.
[[nodiscard]] Comparison compareCombined(std::string_view text);

}  // namespace laige::detcheck
