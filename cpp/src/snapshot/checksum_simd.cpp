// checksum_simd.cpp - the AVX2 builds of the state checksum's XXH3 update
// and f32 NaN scan, and the run-time choice (checksum_simd.h). Natively on
// x86-64 only: everywhere else this file is empty, and the wasm module does
// not change. The functions carry the AVX2 target themselves (no file-wide
// flag), so nothing else compiled here, and nothing the linker might share
// with other files, uses AVX2 instructions.
#include "snapshot/checksum_simd.h"

#if LAIGE_CHECKSUM_AVX2

#include <immintrin.h>  // the AVX2 types and intrinsics (xxhash.h includes only what the build's flags enable)

#include <atomic>

#define XXH_INLINE_ALL
#define XXH_STATIC_LINKING_ONLY
#define XXH_DISPATCH_AVX2 1
// The accumulators on the stack aligned for 32-byte loads (xxhash.h picks
// 16 for the SSE2 build this file is compiled as; its own dispatcher uses 64).
#define XXH_ACC_ALIGN 64
#define XXH_TARGET_AVX2 __attribute__((__target__("avx2")))
#include <xxhash.h>

namespace laige::detail {

namespace {

bool cpuAvx2() noexcept {
  // The CPU has AVX2 and the OS saves its registers (libgcc checks XCR0).
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") != 0;
}

// 1 = on, 0 = off; the first read asks the CPU.
std::atomic<int> avx2State{-1};

}  // namespace

bool checksumAvx2() noexcept {
  int v = avx2State.load(std::memory_order_relaxed);
  if (v < 0) {
    v = cpuAvx2() ? 1 : 0;
    avx2State.store(v, std::memory_order_relaxed);
  }
  return v == 1;
}

void setChecksumAvx2ForTests(bool allowed) noexcept {
  avx2State.store(allowed && cpuAvx2() ? 1 : 0, std::memory_order_relaxed);
}

XXH_TARGET_AVX2 void xxh3UpdateAvx2(void* state, const void* p, std::size_t n) noexcept {
  (void)XXH3_update(static_cast<XXH3_state_t*>(state), static_cast<const xxh_u8*>(p), n, XXH3_accumulate_512_avx2,
                    XXH3_scrambleAcc_avx2);
}

XXH_TARGET_AVX2 bool f32HasNanAvx2(const std::uint8_t* data, std::size_t words) noexcept {
  return f32HasNanPortable(data, words);
}

}  // namespace laige::detail

#else

namespace laige::detail {

bool checksumAvx2() noexcept { return false; }
void setChecksumAvx2ForTests(bool) noexcept {}

}  // namespace laige::detail

#endif
