// laige/result.h - Result<T, E> and Status: errors as values, never exceptions.
//
// The core builds with -fno-exceptions -fno-rtti; every fallible operation
// returns a Result (a value or an error) or a Status (ok or an error).
// Neither allocates. Contract: docs/errors.md.
#pragma once

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <optional>
#include <type_traits>
#include <utility>

#include "laige/errors.h"

namespace laige {

/// The most detail fields a failing Status carries.
inline constexpr std::size_t kMaxErrorFields = 4;
/// The longest value of one detail field, in bytes (longer values are cut
/// and end in "...").
inline constexpr std::size_t kMaxErrorFieldValue = 47;

/// One detail field of a failing Status: a static key ("system",
/// "component", "slot") and a copy of its value as text.
struct ErrorField {
  /// The field's name: a string literal (never copied, never freed).
  const char* key;
  /// The value as NUL-terminated text (an integer is rendered in decimal).
  char value[kMaxErrorFieldValue + 1];
  /// True when the value was given as an integer (the bindings hand it to
  /// JS as a number, everything else as a string).
  bool isNumber;
};

/// Ok, or an ErrorCode with the specific reason and a few fields of why.
/// Default-constructed = ok. Implicit from an ErrorCode.
///
/// A failure carries its code, optionally a reason (the stable snake_case
/// event name the log uses for the same cause, e.g. "double_writer", a
/// string literal) and up to kMaxErrorFields fields. Nothing allocates: the
/// fields are copied into the Status (values cut to kMaxErrorFieldValue
/// bytes). Building one:
///
///   return Status::failure(ErrorCode::InvalidArgument, "double_writer")
///       .with("first", a.name).with("second", b.name).with("component", c.name);
///
/// Cost: an ok Status writes three words; the field storage is touched only
/// by with(). Copying is a plain memberwise copy (trivially copyable).
class [[nodiscard]] Status {
 public:
  /// An ok status. User-provided on purpose: a defaulted constructor makes
  /// `Status{}` (and every `return Status{};`) value-initialise, which
  /// zero-fills the 240-byte field storage on every ok return (measured: a
  /// quarter of an add's time).
  constexpr Status() noexcept {}
  /// A failed status with `code` (implicit so that `return ErrorCode::X;` works).
  constexpr Status(ErrorCode code) noexcept : code_(static_cast<std::uint32_t>(code)) {}
  /// A failed status with `code` and a reason: a string literal, the stable
  /// event name of the cause (nullptr = none).
  constexpr Status(ErrorCode code, const char* reason) noexcept
      : code_(static_cast<std::uint32_t>(code)), reason_(reason) {}
  /// An ok status, spelled out.
  static constexpr Status success() noexcept { return Status{}; }
  /// A failed status with `code`.
  static constexpr Status failure(ErrorCode code) noexcept { return Status{code}; }
  /// A failed status with `code` and `reason` (a string literal).
  static constexpr Status failure(ErrorCode code, const char* reason) noexcept {
    return Status{code, reason};
  }

  /// Adds the field `key` (a string literal) = `value` (copied, cut to
  /// kMaxErrorFieldValue bytes). Ignored on an ok status and once
  /// kMaxErrorFields fields are held. Returns *this for chaining.
  /// Out of line (errors.cpp) and cold: only failure paths build fields.
  Status& with(const char* key, std::string_view value) & noexcept;
  /// with() for a C string (nullptr reads as "").
  Status& with(const char* key, const char* value) & noexcept {
    return with(key, value == nullptr ? std::string_view{} : std::string_view{value});
  }
  /// with() for an integer, rendered in decimal.
  template <class I, std::enable_if_t<std::is_integral_v<I> && !std::is_same_v<I, bool>, int> = 0>
  Status& with(const char* key, I value) & noexcept {
    const bool neg = std::is_signed_v<I> && value < 0;
    return withInteger(key,
                       neg ? static_cast<std::uint64_t>(0) - static_cast<std::uint64_t>(value)
                           : static_cast<std::uint64_t>(value),
                       neg);
  }
  /// with() for a bool, rendered "true" / "false" (a string field).
  Status& with(const char* key, bool value) & noexcept {
    return with(key, value ? std::string_view{"true"} : std::string_view{"false"});
  }
  /// with() on a temporary: `return Status::failure(...).with(...);`.
  template <class V>
  Status&& with(const char* key, V&& value) && noexcept {
    static_cast<Status&>(*this).with(key, std::forward<V>(value));
    return std::move(*this);
  }

  /// True when no error is held.
  [[nodiscard]] constexpr bool ok() const noexcept { return code_ == 0; }
  /// True when an error is held.
  [[nodiscard]] constexpr bool isError() const noexcept { return code_ != 0; }
  /// The error. Requires isError() (debug assert).
  [[nodiscard]] ErrorCode error() const noexcept {
    assert(isError() && "Status::error() on ok");
    return static_cast<ErrorCode>(code_);
  }
  /// with() for an integer of magnitude `magnitude` (negative: `-` first);
  /// out of line (errors.cpp) and cold.
  Status& withInteger(const char* key, std::uint64_t magnitude, bool negative) & noexcept;

  /// The raw code value: 0 when ok, else the ErrorCode value (for bindings).
  [[nodiscard]] constexpr std::uint32_t codeValue() const noexcept { return code_; }
  /// The 5-field line of the held error ("" when ok).
  [[nodiscard]] const char* errorText() const noexcept {
    return ok() ? "" : laige::errorText(static_cast<ErrorCode>(code_));
  }
  /// The specific reason (a stable snake_case event name), or "" when the
  /// failure has none or the status is ok.
  [[nodiscard]] const char* reason() const noexcept {
    return (code_ == 0 || reason_ == nullptr) ? "" : reason_;
  }
  /// How many detail fields are held (0..kMaxErrorFields).
  [[nodiscard]] std::size_t fieldCount() const noexcept { return code_ == 0 ? 0 : fieldCount_; }
  /// Detail field `i` (requires i < fieldCount()).
  [[nodiscard]] const ErrorField& field(std::size_t i) const noexcept {
    assert(i < fieldCount() && "Status::field() out of range");
    return fields_[i];
  }
  /// The value of the field named `key`, or "" when there is none.
  [[nodiscard]] const char* fieldValue(std::string_view key) const noexcept {
    for (std::size_t i = 0; i < fieldCount(); ++i) {
      if (key == fields_[i].key) return fields_[i].value;
    }
    return "";
  }
  /// Two statuses are equal when they hold the same code (or are both ok);
  /// the reason and fields are detail and do not take part.
  friend constexpr bool operator==(const Status& a, const Status& b) noexcept {
    return a.code_ == b.code_;
  }

 private:
  std::uint32_t code_ = 0;
  std::uint32_t fieldCount_ = 0;
  const char* reason_ = nullptr;
  // Left uninitialised on purpose (only with() writes it): an ok Status on
  // a hot path costs three stores, not a 200-byte fill.
  ErrorField fields_[kMaxErrorFields];
};

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
  /// Failure from a failing Status, keeping its reason and fields (only for
  /// E = ErrorCode). Requires status.isError() (debug assert).
  template <typename U = E, std::enable_if_t<std::is_same_v<U, ErrorCode>, int> = 0>
  Result(const Status& status) noexcept : error_(static_cast<ErrorCode>(status.codeValue())), detail_(status) {
    assert(status.isError() && "Result from an ok Status");
  }

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
  /// The error as a Status with its reason and fields (ok when this holds a
  /// value; only for E = ErrorCode). A Result built from a bare ErrorCode
  /// gives a Status with that code and no reason.
  template <typename U = E, std::enable_if_t<std::is_same_v<U, ErrorCode>, int> = 0>
  [[nodiscard]] Status status() const noexcept {
    if (ok()) return Status{};
    if (detail_.isError()) return detail_;
    return Status{error_};
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
  struct NoDetail {
    [[nodiscard]] constexpr bool isError() const noexcept { return false; }
  };
  std::optional<T> value_;
  E error_{};
  // The failing Status's reason and fields, when the error came with them.
  [[no_unique_address]] std::conditional_t<std::is_same_v<E, ErrorCode>, Status, NoDetail> detail_{};
};

}  // namespace laige
