// errors.cpp - the static error registry (docs/errors.md) and the cold,
// out-of-line half of Status (building a failure's fields).
#include "laige/errors.h"

#include <cstring>

#include "laige/result.h"

namespace laige {
namespace {

#define LAIGE_ERROR_ENTRY(code, id, what, why, fix, anchor) \
  ErrorEntry { code, id, what, why, fix, anchor, id " | " what " | " why " | " fix " | " anchor }

// Index = code value; index 0 is the `unknown` entry returned for 0 and every
// unregistered value. Strings contain no '|' and no field is empty (tested).
constexpr ErrorEntry kRegistry[kMaxErrorCodeValue + 1] = {
    LAIGE_ERROR_ENTRY(ErrorCode::Unknown, "unknown", "an operation failed",
                      "the failure is not mapped to a more specific code",
                      "report the operation and its input; map the failure to a specific code",
                      "docs/errors.md#unknown"),
    LAIGE_ERROR_ENTRY(ErrorCode::Unknown, "unknown", "an operation failed",
                      "the failure is not mapped to a more specific code",
                      "report the operation and its input; map the failure to a specific code",
                      "docs/errors.md#unknown"),
    LAIGE_ERROR_ENTRY(ErrorCode::InvalidArgument, "invalid_argument",
                      "an argument was rejected at the API boundary",
                      "the input is outside the documented domain of the call",
                      "check the argument against the API contract before calling",
                      "docs/errors.md#invalid-argument"),
    LAIGE_ERROR_ENTRY(ErrorCode::MalformedInput, "malformed_input",
                      "a parser rejected its input",
                      "the input is structurally invalid or over a size or depth limit",
                      "regenerate the input with a conforming writer, or stay within the limits",
                      "docs/errors.md#malformed-input"),
    LAIGE_ERROR_ENTRY(ErrorCode::BudgetExhausted, "budget_exhausted",
                      "a declared budget or capacity ran out",
                      "the operation needs more than the configured budget allows",
                      "free capacity first, or raise the budget through typed configuration",
                      "docs/errors.md#budget-exhausted"),
    LAIGE_ERROR_ENTRY(ErrorCode::IoError, "io_error", "a file or OS operation failed",
                      "an open, read, write, flush or OS call reported an error",
                      "check the path, its permissions and the free space, then retry",
                      "docs/errors.md#io-error"),
};

#undef LAIGE_ERROR_ENTRY

}  // namespace

const ErrorEntry& errorInfo(ErrorCode code) noexcept {
  const auto v = static_cast<std::uint32_t>(code);
  return v <= kMaxErrorCodeValue ? kRegistry[v] : kRegistry[0];
}

const char* errorName(ErrorCode code) noexcept { return errorInfo(code).codeId; }

const char* errorText(ErrorCode code) noexcept { return errorInfo(code).text; }

// Failure paths only: kept out of line so that the many call sites that
// build a failure cost a call each, not an inlined copy loop.
[[gnu::cold]] Status& Status::with(const char* key, std::string_view value) & noexcept {
  if (code_ == 0 || fieldCount_ >= kMaxErrorFields || key == nullptr) return *this;
  ErrorField& f = fields_[fieldCount_++];
  f.key = key;
  std::size_t n = value.size();
  if (n > kMaxErrorFieldValue) {
    std::memcpy(f.value, value.data(), kMaxErrorFieldValue - 3);
    std::memcpy(f.value + kMaxErrorFieldValue - 3, "...", 3);
    n = kMaxErrorFieldValue;
  } else if (n > 0) {
    std::memcpy(f.value, value.data(), n);
  }
  f.value[n] = '\0';
  f.isNumber = false;
  return *this;
}

[[gnu::cold]] Status& Status::withInteger(const char* key, std::uint64_t magnitude, bool negative) & noexcept {
  char buf[24];
  std::size_t n = 0;
  do {
    buf[sizeof buf - 1 - n++] = static_cast<char>('0' + magnitude % 10);
    magnitude /= 10;
  } while (magnitude != 0);
  if (negative) buf[sizeof buf - 1 - n++] = '-';
  const std::uint32_t before = fieldCount_;
  with(key, std::string_view{buf + sizeof buf - n, n});
  if (fieldCount_ != before) fields_[fieldCount_ - 1].isNumber = true;
  return *this;
}

ErrorCode errorCodeFromName(std::string_view codeId) noexcept {
  for (std::uint32_t v = 1; v <= kMaxErrorCodeValue; ++v) {
    if (codeId == kRegistry[v].codeId) return static_cast<ErrorCode>(v);
  }
  return ErrorCode::Unknown;
}

}  // namespace laige
