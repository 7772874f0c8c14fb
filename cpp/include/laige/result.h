// laige/result.h - Result<T, E> and Status: errors as values, never exceptions.
//
// The core builds with -fno-exceptions -fno-rtti; every fallible operation
// returns a Result (a value or an error) or a Status (ok or an error).
// Neither allocates. Contract: FACTS.md section 1; docs/errors.md.
#pragma once

#include <cassert>
#include <optional>
#include <type_traits>
#include <utility>

#include "laige/errors.h"

namespace laige {

/// A value of type T or an error of type E. There is no default constructor:
/// an empty Result is unrepresentable. T may not be void (use Status).
template <typename T, typename E = ErrorCode>
class [[nodiscard]] Result {
  static_assert(!std::is_void_v<T>, "Result<void> is Status");
  static constexpr bool kDistinct = !std::is_convertible_v<T, E> && !std::is_convertible_v<E, T>;

 public:
  /// Success from a value (implicit only when T and E are not inter-convertible).
  template <typename U = T, std::enable_if_t<kDistinct && std::is_same_v<U, T>, int> = 0>
  Result(const T& value) noexcept(std::is_nothrow_copy_constructible_v<T>) : value_(value) {}
  /// Success from a moved value.
  template <typename U = T, std::enable_if_t<kDistinct && std::is_same_v<U, T>, int> = 0>
  Result(T&& value) noexcept(std::is_nothrow_move_constructible_v<T>) : value_(std::move(value)) {}
  /// Failure from an error (implicit only when T and E are not inter-convertible).
  template <typename U = E, std::enable_if_t<kDistinct && std::is_same_v<U, E>, int> = 0>
  Result(const E& error) noexcept : error_(error) {}

  /// Explicit success, for when T and E are convertible into each other.
  static Result success(T value) noexcept(std::is_nothrow_move_constructible_v<T>) {
    Result r{Tag{}};
    r.value_.emplace(std::move(value));
    return r;
  }
  /// Explicit failure, for when T and E are convertible into each other.
  static Result failure(E error) noexcept {
    Result r{Tag{}};
    r.error_ = error;
    return r;
  }

  /// True when this holds a value.
  [[nodiscard]] bool ok() const noexcept { return value_.has_value(); }
  /// True when this holds an error.
  [[nodiscard]] bool isError() const noexcept { return !value_.has_value(); }

  /// The value. Requires ok() (debug assert).
  [[nodiscard]] T& value() & noexcept {
    assert(ok() && "Result::value() on an error");
    return *value_;
  }
  /// The value. Requires ok() (debug assert).
  [[nodiscard]] const T& value() const& noexcept {
    assert(ok() && "Result::value() on an error");
    return *value_;
  }
  /// The value of a temporary, moved out (so `world.create().value()` is safe).
  [[nodiscard]] T value() && noexcept(std::is_nothrow_move_constructible_v<T>) {
    assert(ok() && "Result::value() on an error");
    return std::move(*value_);
  }
  /// Moves the value out: `std::move(r).takeValue()`. Requires ok().
  [[nodiscard]] T takeValue() && noexcept(std::is_nothrow_move_constructible_v<T>) {
    assert(ok() && "Result::takeValue() on an error");
    return std::move(*value_);
  }
  /// The error. Requires isError() (debug assert).
  [[nodiscard]] const E& error() const noexcept {
    assert(isError() && "Result::error() on a value");
    return error_;
  }
  /// A pointer to the value, or nullptr on error.
  [[nodiscard]] T* valueIfOk() noexcept { return ok() ? &*value_ : nullptr; }
  /// A pointer to the value, or nullptr on error.
  [[nodiscard]] const T* valueIfOk() const noexcept { return ok() ? &*value_ : nullptr; }
  /// A pointer to the error, or nullptr on success.
  [[nodiscard]] const E* errorIfError() const noexcept { return ok() ? nullptr : &error_; }

 private:
  struct Tag {};
  explicit Result(Tag) noexcept {}
  std::optional<T> value_;
  E error_{};
};

/// Ok, or an ErrorCode. Default-constructed = ok. Implicit from an ErrorCode.
class [[nodiscard]] Status {
 public:
  /// An ok status.
  constexpr Status() noexcept = default;
  /// A failed status with `code` (implicit so that `return ErrorCode::X;` works).
  constexpr Status(ErrorCode code) noexcept : code_(static_cast<std::uint32_t>(code)) {}
  /// An ok status, spelled out.
  static constexpr Status success() noexcept { return Status{}; }
  /// A failed status with `code`.
  static constexpr Status failure(ErrorCode code) noexcept { return Status{code}; }

  /// True when no error is held.
  [[nodiscard]] constexpr bool ok() const noexcept { return code_ == 0; }
  /// True when an error is held.
  [[nodiscard]] constexpr bool isError() const noexcept { return code_ != 0; }
  /// The error. Requires isError() (debug assert).
  [[nodiscard]] ErrorCode error() const noexcept {
    assert(isError() && "Status::error() on ok");
    return static_cast<ErrorCode>(code_);
  }
  /// The raw code value: 0 when ok, else the ErrorCode value (for bindings).
  [[nodiscard]] constexpr std::uint32_t codeValue() const noexcept { return code_; }
  /// The 5-field line of the held error ("" when ok).
  [[nodiscard]] const char* errorText() const noexcept {
    return ok() ? "" : laige::errorText(static_cast<ErrorCode>(code_));
  }
  /// Two statuses are equal when they hold the same code (or are both ok).
  friend constexpr bool operator==(Status a, Status b) noexcept { return a.code_ == b.code_; }

 private:
  std::uint32_t code_ = 0;
};

}  // namespace laige
