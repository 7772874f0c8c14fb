// result_test.cpp - Result<T, E> and Status (FACTS section 1).
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

}  // namespace
}  // namespace laige
