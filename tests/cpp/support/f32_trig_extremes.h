// f32_trig_extremes.h - the binary32 inputs that stress the argument
// reduction of SimMath<Fp32Pinned>::sin, cos and tan: shared by the
// known-answer table's generator (tests/ts/native/math_kat.cpp prints their
// rows after the others, so every target compares them bit for bit) and by
// tests/cpp/sim_math_trig_range_test.cpp (which checks them against an
// exact reduction and against tests/kat/f32_trig_reference.txt).
#pragma once

#include <cstdint>
#include <vector>

namespace laige::testing {

/// The inputs as bit patterns, in a fixed order (the table rows depend on it):
/// the largest floats, values where the old reduction left [-1, 1], every
/// power of two from 2^20 to 2^127, both sides of the 2^23 switch to the
/// exact reduction, the floats closest to a multiple of pi/2 (above and
/// below 2^23; found by an exhaustive search), subnormals, and negatives.
inline std::vector<std::uint32_t> f32TrigExtremeInputs() {
  std::vector<std::uint32_t> v = {
      // near FLT_MAX
      0x7F7FFFFFu, 0x7F7FFFFEu, 0x7F7FFFFDu, 0x7F7FF000u, 0x7EFFFFFFu,
      // 1e20, 1e30 and their neighbours
      0x60AD78ECu, 0x60AD78EBu, 0x60AD78EDu, 0x7149F2CAu, 0x7149F2C9u, 0x7149F2CBu,
      // where the old reduction first left [-1, 1]: sin at 0x5AC9104B (2.8297e16), cos at 0x59C91F40
      // (7.0764e15); 2.83e16 and 7.08e15
      0x5AC9104Au, 0x5AC9104Bu, 0x5AC91566u, 0x59C91F3Fu, 0x59C91F40u, 0x59C939C8u,
      // 1e38, 3e38, 123456789, 1e10, 1e18
      0x7E967699u, 0x7F61B1E6u, 0x4CEB79A3u, 0x501502F9u, 0x5D5E0B6Bu,
      // next to 2^20, next to 2^23 (where the exact reduction starts), 2^24 - 1
      0x497FFFFFu, 0x49800001u, 0x4AFFFFFFu, 0x4B000001u, 0x4B000002u, 0x4B7FFFFFu,
      // the floats closest to a multiple of pi/2 (|x 2/pi - k| from 2^-29.9), then the closest below 2^23
      0x6F79BE45u, 0x50A3E87Fu, 0x6FF9BE45u, 0x5123E87Fu, 0x7079BE45u, 0x6A1976F1u, 0x53B146A6u, 0x65898498u,
      0x51A3E87Fu, 0x77584625u, 0x4C2332E9u, 0x6C55DA58u, 0x5C07BCD0u, 0x723FA09Au, 0x7EBDCDA0u, 0x79407F54u,
      0x4A2562AEu,
      // subnormals
      0x00000001u, 0x007FFFFFu, 0x00400000u, 0x80000001u, 0x80400000u,
  };
  for (std::uint32_t e = 147; e <= 254; ++e) v.push_back(e << 23);  // 2^20 .. 2^127
  const std::uint32_t negated[] = {0x7F7FFFFFu, 0x7149F2CAu, 0x60AD78ECu, 0x5AC9104Bu, 0x59C91F40u, 0x4B000000u,
                                   0x4B000001u, 0x6F79BE45u, 0x50A3E87Fu, 0x77584625u, 0x5F000000u, 0x7F000000u};
  for (std::uint32_t b : negated) v.push_back(b | 0x80000000u);
  return v;
}

}  // namespace laige::testing
