// laige/replay_text.h - the two text formats of the replay tooling: the
// replay config JSON (what laige-replay and laige-run read) and the
// `<tick> <hash>` baseline files (what --expect compares against).
//
// Both parsers are strict and bounded - they read files a person or a CI
// job hands them, so anything outside the grammar is an error with a
// stable reason and a position, never a guess - and both live in the core
// so the same code is tested natively and in wasm. `docs/replay.md#config`.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "laige/replay.h"
#include "laige/result.h"

namespace laige {

/// The largest config file accepted (1 MiB).
inline constexpr std::size_t kMaxReplayConfigBytes = std::size_t{1} << 20;
/// The longest scenario name accepted.
inline constexpr std::size_t kMaxScenarioNameLength = 63;
/// The largest baseline file accepted (8 MiB).
inline constexpr std::size_t kMaxBaselineBytes = std::size_t{8} << 20;
/// The most lines a baseline may have.
inline constexpr std::size_t kMaxBaselineLines = 65536;
/// The longest baseline line, without its line terminator.
inline constexpr std::size_t kMaxBaselineLineBytes = 64;

/// Where and why a text parser stopped.
struct TextParseError {
  /// Stable snake_case reason (nullptr when nothing failed), e.g.
  /// "syntax", "duplicate_key", "tick_rate_out_of_range", "bad_hash".
  const char* reason = nullptr;
  /// 1-based line of the offending text (0 when not about a position).
  std::uint32_t line = 0;
  /// 1-based column (byte) on that line.
  std::uint32_t column = 0;
};

/// A parsed config file: the replay config plus the scenario it names.
struct ReplayConfigFile {
  /// tickRateHz, entityCapacity, churnPerFrameBudget, seed, determinism;
  /// keys that are absent keep ReplayConfig's defaults.
  ReplayConfig config;
  /// The "scenario" value ("" when absent).
  std::string scenario;
};

/// Parses the config JSON: one object with the keys tickRateHz,
/// entityCapacity, churnPerFrameBudget (non-negative integers), seed (a
/// non-negative integer up to 2^64 - 1, or a string "0x" + 1..16 hex
/// digits, since JSON tools lose precision above 2^53), determinism (an
/// object {enabled: bool, math: "fixed_point_16_16" | "float_pinned_32"})
/// and scenario (a string of [A-Za-z0-9_-], 1..63 chars). Any other key
/// (at either level) is skipped after checking it is valid JSON, with a
/// rate-limited warn config/unknown_key (field key). Errors, all
/// MalformedInput: over 1 MiB ("too_large"), a syntax error ("syntax"), a
/// duplicate key ("duplicate_key"), a wrong value type ("type"), nesting
/// over 32 levels ("too_deep"), tickRateHz outside 20..120
/// ("tick_rate_out_of_range"), entityCapacity outside 1..65536
/// ("capacity_out_of_range"), an integer over its width ("number_range"),
/// an unknown math backend ("unknown_math"), a bad scenario name
/// ("scenario_name").
Result<ReplayConfigFile> parseReplayConfigJson(std::string_view text, TextParseError* why = nullptr);

/// Parses a baseline: exactly one `<tick> <16 lowercase hex>` per line,
/// where tick is the line's 0-based index in decimal without leading zeros.
/// A final newline is optional and CRLF line ends are accepted. Appends the
/// hashes to `out` (cleared first). Errors, all MalformedInput: over 8 MiB
/// ("too_large"), more than 65536 lines ("too_many_lines"), a line over
/// 64 bytes ("line_too_long"), an empty line ("empty_line"), a tick that is
/// not the line index or has a leading zero ("bad_tick"), anything but one
/// space between the fields ("syntax"), a hash that is not 16 lowercase hex
/// digits ("bad_hash").
Status parseHashBaseline(std::string_view text, std::vector<std::uint64_t>& out,
                         TextParseError* why = nullptr);

/// How a hash stream compares with a baseline.
struct HashStreamComparison {
  /// Same length and every hash equal.
  bool match = true;
  /// A hash differs at a tick both streams have.
  bool hashMismatch = false;
  /// The first such tick (valid when hashMismatch).
  std::uint64_t firstMismatchTick = 0;
  /// The lengths differ (and the common ticks all agree).
  bool lengthMismatch = false;
  /// The first tick one stream has and the other lacks (valid when
  /// lengthMismatch): the actual stream's first extra tick when it is
  /// longer, else its first missing tick.
  std::uint64_t firstUnmatchedTick = 0;
  /// True when the actual stream is the longer one.
  bool actualLonger = false;
};

/// Compares `actual` (runReplay's tickHashes) with `expected` (a
/// baseline): the first differing common tick wins over a length
/// difference.
[[nodiscard]] HashStreamComparison compareHashStreams(const std::vector<std::uint64_t>& actual,
                                                      const std::vector<std::uint64_t>& expected) noexcept;

}  // namespace laige
