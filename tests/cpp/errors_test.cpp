// errors_test.cpp - the frozen registry and its 5-field line (docs/errors.md).
#include "laige/errors.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>

namespace laige {
namespace {

struct Expected {
  ErrorCode code;
  std::uint32_t value;
  const char* id;
  const char* anchor;
};
// The registered list: adding a code means adding it here too.
constexpr Expected kAll[] = {
    {ErrorCode::Unknown, 1, "unknown", "docs/errors.md#unknown"},
    {ErrorCode::InvalidArgument, 2, "invalid_argument", "docs/errors.md#invalid-argument"},
    {ErrorCode::MalformedInput, 3, "malformed_input", "docs/errors.md#malformed-input"},
    {ErrorCode::BudgetExhausted, 4, "budget_exhausted", "docs/errors.md#budget-exhausted"},
    {ErrorCode::IoError, 5, "io_error", "docs/errors.md#io-error"},
};

TEST(Errors, ValuesAreFrozen) {
  for (const auto& e : kAll) EXPECT_EQ(static_cast<std::uint32_t>(e.code), e.value) << e.id;
  EXPECT_EQ(kMaxErrorCodeValue, 5u);
}

TEST(Errors, EveryEntryHasFiveNonEmptyFieldsWithoutPipes) {
  for (const auto& e : kAll) {
    const ErrorEntry& info = errorInfo(e.code);
    EXPECT_EQ(info.code, e.code);
    EXPECT_STREQ(info.codeId, e.id);
    EXPECT_STREQ(info.docAnchor, e.anchor);
    for (const char* f : {info.codeId, info.whatFailed, info.why, info.fix, info.docAnchor}) {
      ASSERT_NE(f, nullptr);
      EXPECT_GT(std::strlen(f), 0u);
      EXPECT_EQ(std::strchr(f, '|'), nullptr) << f;
    }
    const std::string line = std::string(info.codeId) + " | " + info.whatFailed + " | " +
                             info.why + " | " + info.fix + " | " + info.docAnchor;
    EXPECT_EQ(line, info.text);
    EXPECT_STREQ(errorText(e.code), info.text);
    EXPECT_STREQ(errorName(e.code), e.id);
  }
}

TEST(Errors, AnchorIsTheIdWithDashes) {
  for (const auto& e : kAll) {
    std::string id = e.id;
    for (char& c : id) c = c == '_' ? '-' : c;
    EXPECT_EQ(std::string(e.anchor), "docs/errors.md#" + id);
  }
}

TEST(Errors, ZeroAndUnregisteredValuesYieldUnknown) {
  for (std::uint32_t v : {0u, 6u, 99u, 0xFFFFFFFFu}) {
    const ErrorEntry& info = errorInfo(static_cast<ErrorCode>(v));
    EXPECT_EQ(info.code, ErrorCode::Unknown);
    EXPECT_STREQ(info.codeId, "unknown");
    EXPECT_STREQ(errorName(static_cast<ErrorCode>(v)), "unknown");
  }
}

TEST(Errors, CodeFromName) {
  for (const auto& e : kAll) EXPECT_EQ(errorCodeFromName(e.id), e.code);
  EXPECT_EQ(errorCodeFromName("no_such_code"), ErrorCode::Unknown);
  EXPECT_EQ(errorCodeFromName(""), ErrorCode::Unknown);
}

}  // namespace
}  // namespace laige
