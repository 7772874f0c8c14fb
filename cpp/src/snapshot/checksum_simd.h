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
/// (a NaN), and never carries into the next lane. Twice the scalar test's
/// speed in wasm (no SIMD there).
[[gnu::always_inline]] inline bool f32HasNanPortable(const std::uint8_t* data, std::size_t words) noexcept {
  std::uint64_t any = 0;
  std::size_t i = 0;
  for (; i + 2 <= words; i += 2) {
    std::uint64_t pair;
    std::memcpy(&pair, data + 4 * i, 8);
    any |= ((pair & 0x7fffffff7fffffffull) + 0x007fffff007fffffull) & 0x8000000080000000ull;
  }
  for (; i < words; ++i) {
    std::uint32_t bits;
    std::memcpy(&bits, data + 4 * i, 4);
    any |= (bits & 0x7fffffffu) > 0x7f800000u ? 1u : 0u;
  }
  return any != 0;
}

}  // namespace laige::detail
