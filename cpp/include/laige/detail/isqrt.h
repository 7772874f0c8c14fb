// laige/detail/isqrt.h - the exact integer square root both fixed-point
// layers use: SimMath<Fpx16_16>::sqrt (sim_math.h) and the Q30 internals of
// the math functions (sim_math_fn_fixed.h).
#pragma once

#include <cstdint>

namespace laige::detail {

/// Exact integer square root: floor(sqrt(n)) and the remainder n - s^2,
/// by the bitwise digit-by-digit method (no double, no libm, constexpr).
constexpr std::uint64_t isqrt64(std::uint64_t n, std::uint64_t& remainder) noexcept {
  std::uint64_t res = 0;
  std::uint64_t bit = std::uint64_t{1} << 62;
  while (bit > n) bit >>= 2;
  while (bit != 0) {
    if (n >= res + bit) {
      n -= res + bit;
      res = (res >> 1) + bit;
    } else {
      res >>= 1;
    }
    bit >>= 2;
  }
  remainder = n;
  return res;
}

}  // namespace laige::detail
