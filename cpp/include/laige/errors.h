// laige/errors.h - the frozen error-code registry and its 5-field message line.
//
// Every failure in laige-sim is one of a handful of ErrorCode values. Each
// code renders as one build-stable line with five fields:
//
//   {code} | {what} | {why} | {fix} | {doc_anchor}
//
// The values are frozen forever: additive only, never renumbered or reused,
// because they cross the wasm boundary and appear in logs and replays.
// Contract: docs/errors.md.
#pragma once

#include <cstdint>
#include <string_view>

namespace laige {

/// The registry of error codes. 0 is not a code: it is the "no error"
/// sentinel of an ok Status. Values are frozen (additive only).
enum class ErrorCode : std::uint32_t {
  /// A failure that is not mapped to a more specific code.
  Unknown = 1,
  /// Input outside the documented domain, rejected at the API boundary
  /// (stale handle, bad option, illegal mutation during iteration...).
  InvalidArgument = 2,
  /// A parser or decoder rejected structurally invalid input, or input over
  /// a size or depth limit.
  MalformedInput = 3,
  /// A declared budget or capacity ran out. Never grown silently: raise the
  /// budget through typed configuration.
  BudgetExhausted = 4,
  /// A file open/read/write/flush or an OS interface failed.
  IoError = 5,
};

/// The highest registered ErrorCode value (the registry is dense from 1).
inline constexpr std::uint32_t kMaxErrorCodeValue = 5;

/// One registry entry: the five message fields plus the pre-rendered line.
/// All strings are static, NUL-terminated and never empty.
struct ErrorEntry {
  /// The code this entry describes (Unknown for unregistered lookups).
  ErrorCode code;
  /// Field 1: the stable snake_case code id, e.g. "invalid_argument".
  const char* codeId;
  /// Field 2: what failed, in general terms.
  const char* whatFailed;
  /// Field 3: why such a failure happens.
  const char* why;
  /// Field 4: how a caller fixes it.
  const char* fix;
  /// Field 5: the documentation anchor, e.g. "`docs/errors.md#invalid-argument`".
  const char* docAnchor;
  /// The whole 5-field line, pre-rendered: "{code} | {what} | {why} | {fix} | {doc_anchor}".
  const char* text;
};

/// The registry entry of `code`. Looking up 0 or any unregistered value
/// yields the `unknown` entry: never null, never a crash. O(1), no allocation.
[[nodiscard]] const ErrorEntry& errorInfo(ErrorCode code) noexcept;

/// Field 1 of `code`: its snake_case id ("unknown" for unregistered values).
[[nodiscard]] const char* errorName(ErrorCode code) noexcept;

/// The pre-rendered 5-field line of `code`.
[[nodiscard]] const char* errorText(ErrorCode code) noexcept;

/// The code whose id is `codeId` (e.g. "io_error"), or Unknown when none is.
[[nodiscard]] ErrorCode errorCodeFromName(std::string_view codeId) noexcept;

}  // namespace laige
