// checksum_simd.h - the state checksum's two hot loops compiled for AVX2 as
// well, chosen at run time on x86-64 (native builds only; internal). The
// XXH3 update and the f32 NaN scan give the same answers on either path:
// XXH3's value is defined on the bytes, not on the vector width
// (docs/determinism.md#the-state-checksum), and the scan answers a yes/no
// question. Elsewhere (wasm, other CPUs) the portable loops run alone.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#if defined(__x86_64__) && !defined(__EMSCRIPTEN__) && (defined(__GNUC__) || defined(__clang__))
#define LAIGE_CHECKSUM_AVX2 1
#else
#define LAIGE_CHECKSUM_AVX2 0
#endif

namespace laige::detail {

/// True when the AVX2 paths below run (the CPU and the OS support AVX2, and
/// no test turned them off). Read once per hashed column or stream piece.
[[nodiscard]] bool checksumAvx2() noexcept;

/// Tests only: turns the AVX2 paths off (false) or back to what the CPU
/// supports (true), so that both paths can be compared on one machine.
void setChecksumAvx2ForTests(bool allowed) noexcept;

#if LAIGE_CHECKSUM_AVX2
/// XXH3_64bits_update on an XXH3_state_t, with XXH3's AVX2 accumulate and
/// scramble. Only when checksumAvx2().
void xxh3UpdateAvx2(void* state, const void* p, std::size_t n) noexcept;
/// True when one of `words` f32 values at `data` (any alignment) is a NaN.
/// Only when checksumAvx2().
[[nodiscard]] bool f32HasNanAvx2(const std::uint8_t* data, std::size_t words) noexcept;
#endif

/// The portable scan (f32HasNanAvx2's answer, without AVX2): two f32 per
/// 64-bit word; a lane without its sign is at most 0x7fffffff, so adding
/// 0x007fffff sets the lane's top bit exactly when it was above 0x7f800000
/// (a NaN), and never carries into the next lane; the sums are OR-ed and
/// the top bits tested once at the end. Four independent words per step:
/// in wasm (no SIMD there) twice the speed of one word per step, and g++
/// still vectorises it (SSE2: 1.7x; AVX2: as fast as one word per step).
[[gnu::always_inline]] inline bool f32HasNanPortable(const std::uint8_t* data, std::size_t words) noexcept {
  constexpr std::uint64_t kMagnitude = 0x7fffffff7fffffffull;
  constexpr std::uint64_t kAboveInf = 0x007fffff007fffffull;
  std::uint64_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
  std::size_t i = 0;
  for (; i + 8 <= words; i += 8) {
    // Four separate loads: one 32-byte copy into an array kept g++ from
    // vectorising the loop (it went through the stack).
    std::uint64_t w0, w1, w2, w3;
    std::memcpy(&w0, data + 4 * i, 8);
    std::memcpy(&w1, data + 4 * i + 8, 8);
    std::memcpy(&w2, data + 4 * i + 16, 8);
    std::memcpy(&w3, data + 4 * i + 24, 8);
    a0 |= (w0 & kMagnitude) + kAboveInf;
    a1 |= (w1 & kMagnitude) + kAboveInf;
    a2 |= (w2 & kMagnitude) + kAboveInf;
    a3 |= (w3 & kMagnitude) + kAboveInf;
  }
  for (; i < words; ++i) {
    std::uint32_t bits;
    std::memcpy(&bits, data + 4 * i, 4);
    a0 |= (bits & 0x7fffffffu) + 0x007fffffu;  // the low lane's top bit: bit 31
  }
  return (((a0 | a1) | (a2 | a3)) & 0x8000000080000000ull) != 0;
}

}  // namespace laige::detail
