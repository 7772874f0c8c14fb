// checksum_simd_test.cpp - the state checksum's AVX2 paths (natively on
// x86-64, chosen at run time: snapshot/checksum_simd.h) against the portable
// ones on the same machine: XXH3 streams of every length and cut equal to
// one-shot XXH3, the f32 NaN scan's answer on NaNs of every kind at every
// position and alignment, and the checksums of worlds (stateChecksum,
// columnChecksum, columnChecksumCached, from a snapshot too) equal on both
// paths. In wasm and on CPUs without AVX2 both runs take the portable path
// and the comparisons hold trivially.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <vector>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "laige/assert.h"
#include "laige/prng.h"
#include "laige/state_hash.h"
#include "laige/system.h"
#include "laige/world.h"
#include "snapshot/checksum_simd.h"
#include "snapshot/xxh3_sites.h"

namespace laige {
namespace {

struct SVec {  // all f32: the column is scanned as one f32 array
  float x, y, z;
};
LAIGE_COMPONENT(SVec, x, y, z);
struct SMix {
  float f;
  std::uint32_t n;
};
LAIGE_COMPONENT(SMix, f, n);

// Restores the CPU's choice whatever a test did.
struct Avx2Choice {
  ~Avx2Choice() { detail::setChecksumAvx2ForTests(true); }
};

std::uint64_t streamed(const std::vector<std::uint8_t>& bytes, Prng& rng) {
  detail::Xxh3Stream st;
  std::size_t at = 0;
  while (at < bytes.size()) {
    const std::size_t left = bytes.size() - at;
    const std::size_t n = std::min<std::size_t>(left, rng.next_range(0, 3) == 0 ? rng.next_range(1, 600) : rng.next_range(1, 20000));
    st.bytes(bytes.data() + at, n);
    at += n;
  }
  return st.value();
}

TEST(ChecksumSimd, Xxh3StreamsEqualOneShotOnBothPaths) {
  const Avx2Choice restore;
  Prng rng(0xa5a5);
  for (const std::size_t len : {0u, 1u, 16u, 63u, 64u, 65u, 128u, 240u, 241u, 255u, 256u, 257u, 1023u, 1024u, 1025u,
                                4095u, 4096u, 4097u, 40004u, 80000u, 160003u}) {
    std::vector<std::uint8_t> bytes(len);
    for (auto& b : bytes) b = static_cast<std::uint8_t>(rng.next_u32());
    const std::uint64_t want = XXH3_64bits(bytes.data(), bytes.size());
    for (const bool avx2 : {false, true}) {
      detail::setChecksumAvx2ForTests(avx2);
      for (int cut = 0; cut < 4; ++cut) EXPECT_EQ(streamed(bytes, rng), want) << "length " << len << " avx2 " << avx2;
    }
  }
}

TEST(ChecksumSimd, NanScanAnswersAlikeOnBothPaths) {
  Prng rng(0x7a7);
  const std::uint32_t nans[] = {0x7f800001u, 0x7fc00000u, 0xffc00123u, 0x7fffffffu, 0xffffffffu, 0xff800001u};
  const std::uint32_t notNans[] = {0x7f800000u, 0xff800000u, 0x7f7fffffu, 0x80000000u, 0u, 0x3f800000u};
  std::vector<std::uint8_t> buf(4 * 2100 + 8);
  for (int round = 0; round < 400; ++round) {
    const std::size_t words = rng.next_range(0, 2100);
    const std::size_t shift = rng.next_range(0, 4);  // any alignment
    std::uint8_t* data = buf.data() + shift;
    for (std::size_t i = 0; i < words; ++i) {
      // A listed non-NaN (infinities, the largest finite, zeros) or a random
      // finite value (exponent below all ones: bit 30 clear).
      const std::uint32_t v = rng.next_range(0, 2) == 0 ? notNans[rng.next_range(0, 6)] : rng.next_u32() & 0xbfffffffu;
      std::memcpy(data + 4 * i, &v, 4);
    }
    const bool withNan = words != 0 && rng.next_range(0, 2) == 0;
    if (withNan) {
      const std::uint32_t v = nans[rng.next_range(0, 6)];
      std::memcpy(data + 4 * rng.next_range(0, static_cast<std::uint32_t>(words)), &v, 4);
    }
    EXPECT_EQ(detail::f32HasNanPortable(data, words), withNan) << "round " << round;
#if LAIGE_CHECKSUM_AVX2
    if (detail::checksumAvx2()) {
      EXPECT_EQ(detail::f32HasNanAvx2(data, words), withNan) << "round " << round;
    }
#endif
  }
}

World randomWorld(std::uint64_t seed, bool nans) {
  World::Options o;
  o.capacity = 3000;
  o.seed = seed;
  World w = World::create(o).takeValue();
  EXPECT_TRUE(w.registerComponent<SVec>().ok());
  EXPECT_TRUE(w.registerComponent<SMix>().ok());
  Prng rng(seed);
  float nan;
  const std::uint32_t nanBits = 0xffc00123u;
  std::memcpy(&nan, &nanBits, 4);
  for (int i = 0; i < 2500; ++i) {
    const Entity e = w.create().value();
    const float v = static_cast<float>(rng.next_u32() >> 8) * 0.25f;
    const bool n = nans && rng.next_range(0, 700) == 0;
    if (rng.next_range(0, 4) != 0) {
      EXPECT_TRUE(w.addComponent(e, SVec{n ? nan : v, -v, v * 0.5f}).ok());
    }
    if (rng.next_range(0, 3) == 0) {
      EXPECT_TRUE(w.addComponent(e, SMix{n ? nan : v, rng.next_u32()}).ok());
    }
    if (rng.next_range(0, 9) == 0) {
      EXPECT_TRUE(w.destroy(e).ok());
    }
  }
  return w;
}

TEST(ChecksumSimd, WorldChecksumsEqualOnBothPaths) {
  const Avx2Choice restore;
  for (const bool nans : {false, true}) {
    // A NaN in a component is a misuse assert in native debug (stateHash).
    if (nans && LAIGE_DEBUG_ASSERTS) continue;
    for (std::uint64_t seed = 1; seed <= 6; ++seed) {
      World w = randomWorld(seed, nans);
      std::vector<std::uint8_t> snap(w.snapshotSize());
      ASSERT_TRUE(w.snapshot(snap).ok());
      std::uint64_t sums[2][5];
      for (const bool avx2 : {false, true}) {
        detail::setChecksumAvx2ForTests(avx2);
        ASSERT_TRUE(w.restore(snap).ok());  // forgets the column cache: columnChecksumCached hashes every column
        std::uint64_t* s = sums[avx2 ? 1 : 0];
        s[0] = w.stateChecksum(w.systemTicksRun());  // the snapshot form takes its tick from the bytes
        s[1] = w.stateChecksumOfSnapshot(snap).value();
        s[2] = columnChecksum(w, w.systemTicksRun());
        s[3] = columnChecksumCached(w, w.systemTicksRun());
        s[4] = columnChecksumOfSnapshot(w, snap).value();
      }
      for (int k = 0; k < 5; ++k) EXPECT_EQ(sums[0][k], sums[1][k]) << "seed " << seed << " nans " << nans << " sum " << k;
      // And each form equals its twin (live, cached, from the snapshot).
      EXPECT_EQ(sums[0][0], sums[0][1]);
      EXPECT_EQ(sums[0][2], sums[0][3]);
      EXPECT_EQ(sums[0][2], sums[0][4]);
    }
  }
}

}  // namespace
}  // namespace laige
