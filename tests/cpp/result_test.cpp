// result_test.cpp - Result<T, E> and Status (docs/errors.md).
#include "laige/result.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <type_traits>

namespace laige {
namespace {

static_assert(!std::is_default_constructible_v<Result<int>>, "an empty Result is unrepresentable");
static_assert(std::is_default_constructible_v<Status>);

TEST(Result, HoldsAValue) {
  Result<int> r = 42;
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r.isError());
  EXPECT_EQ(r.value(), 42);
  ASSERT_NE(r.valueIfOk(), nullptr);
  EXPECT_EQ(*r.valueIfOk(), 42);
  EXPECT_EQ(r.errorIfError(), nullptr);
}

TEST(Result, HoldsAnError) {
  Result<int> r = ErrorCode::BudgetExhausted;
  ASSERT_TRUE(r.isError());
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.error(), ErrorCode::BudgetExhausted);
  EXPECT_EQ(r.valueIfOk(), nullptr);
  ASSERT_NE(r.errorIfError(), nullptr);
  EXPECT_EQ(*r.errorIfError(), ErrorCode::BudgetExhausted);
}

TEST(Result, TakeValueMovesMoveOnlyTypes) {
  Result<std::unique_ptr<int>> r = std::make_unique<int>(7);
  std::unique_ptr<int> p = std::move(r).takeValue();
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(*p, 7);
}

TEST(Result, ExplicitFactoriesWhenTypesConvert) {
  // uint32_t and ErrorCode do not convert implicitly, but an int-like E does.
  using R = Result<long, int>;
  R ok = R::success(5);
  R bad = R::failure(3);
  EXPECT_TRUE(ok.ok());
  EXPECT_EQ(ok.value(), 5);
  EXPECT_TRUE(bad.isError());
  EXPECT_EQ(bad.error(), 3);
}

TEST(Result, StringValue) {
  Result<std::string> r = std::string("abc");
  EXPECT_EQ(r.value(), "abc");
}

TEST(Status, DefaultIsOk) {
  Status s;
  EXPECT_TRUE(s.ok());
  EXPECT_FALSE(s.isError());
  EXPECT_EQ(s.codeValue(), 0u);
  EXPECT_STREQ(s.errorText(), "");
  EXPECT_EQ(s, Status::success());
}

TEST(Status, FromErrorCode) {
  Status s = ErrorCode::IoError;
  EXPECT_TRUE(s.isError());
  EXPECT_EQ(s.error(), ErrorCode::IoError);
  EXPECT_EQ(s.codeValue(), 5u);
  EXPECT_STREQ(s.errorText(), errorText(ErrorCode::IoError));
  EXPECT_EQ(s, Status::failure(ErrorCode::IoError));
  EXPECT_FALSE(s == Status{});
}

TEST(Status, CarriesReasonAndFields) {
  Status s = Status::failure(ErrorCode::InvalidArgument, "double_writer")
                 .with("first", "Move")
                 .with("second", std::string_view("Steer"))
                 .with("component", "Position")
                 .with("slot", -7);
  EXPECT_EQ(s.error(), ErrorCode::InvalidArgument);
  EXPECT_STREQ(s.reason(), "double_writer");
  ASSERT_EQ(s.fieldCount(), 4u);
  EXPECT_STREQ(s.field(0).key, "first");
  EXPECT_STREQ(s.fieldValue("second"), "Steer");
  EXPECT_STREQ(s.fieldValue("slot"), "-7");
  EXPECT_STREQ(s.fieldValue("absent"), "");
  // A fifth field is dropped, never written past the storage.
  s.with("extra", 1u);
  EXPECT_EQ(s.fieldCount(), kMaxErrorFields);
  // Equality is by code: detail does not take part.
  EXPECT_EQ(s, Status{ErrorCode::InvalidArgument});
}

TEST(Status, LongFieldValuesAreCutWithAnEllipsis) {
  std::string longName(200, 'n');
  Status s = Status::failure(ErrorCode::InvalidArgument, "x").with("name", longName);
  const std::string v = s.fieldValue("name");
  EXPECT_EQ(v.size(), kMaxErrorFieldValue);
  EXPECT_EQ(v.substr(v.size() - 3), "...");
}

TEST(Status, OkStatusIgnoresDetail) {
  Status s;
  s.with("k", "v");
  EXPECT_TRUE(s.ok());
  EXPECT_STREQ(s.reason(), "");
  EXPECT_EQ(s.fieldCount(), 0u);
}

TEST(Result, KeepsTheStatusDetail) {
  auto f = []() -> Result<int> {
    return Status::failure(ErrorCode::BudgetExhausted, "entity_budget_exhausted").with("capacity", 16);
  };
  Result<int> r = f();
  ASSERT_TRUE(r.isError());
  EXPECT_EQ(r.error(), ErrorCode::BudgetExhausted);
  EXPECT_STREQ(r.status().reason(), "entity_budget_exhausted");
  EXPECT_STREQ(r.status().fieldValue("capacity"), "16");
  Result<int> bare = ErrorCode::IoError;
  EXPECT_EQ(bare.status().error(), ErrorCode::IoError);
  EXPECT_STREQ(bare.status().reason(), "");
  Result<int> value = 3;
  EXPECT_TRUE(value.status().ok());
}

}  // namespace
}  // namespace laige
