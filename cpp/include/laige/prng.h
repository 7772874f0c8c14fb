// laige/prng.h - the deterministic pseudo-random number generator.
//
// xorshift128+ seeded through splitmix64 (docs/prng.md). The exact bit
// sequence is part of the determinism contract: replays, state hashes and the
// native-vs-wasm comparison all depend on it, so every operation here is pure
// 64-bit unsigned arithmetic (wraparound), with no floating point except the
// one exact conversion in next_float01(). See docs/prng.md.
#pragma once

#include <cassert>
#include <cstdint>
#include <type_traits>

namespace laige {

/// A small, copyable, deterministic random stream (xorshift128+).
///
/// State is three u64 words: the construction seed and the two xorshift
/// state words. A copy continues from the same position as the original
/// (copies share the stream *position*, not the stream: drawing from one
/// does not advance the other). Not thread-safe; never allocates.
class Prng {
 public:
  /// splitmix64 increment, the golden-ratio constant 2^64/phi. Also the
  /// stride between substream seeds (deriveSubstream).
  static constexpr std::uint64_t kSplitmix64Increment = 0x9E3779B97F4A7C15ULL;
  /// First multiplier of the splitmix64 finaliser.
  static constexpr std::uint64_t kMixMultiplierA = 0xBF58476D1CE4E5B9ULL;
  /// Second multiplier of the splitmix64 finaliser.
  static constexpr std::uint64_t kMixMultiplierB = 0x94D049BB133111EBULL;
  /// 2^-24: next_float01() scales a 24-bit integer by this, which is exact
  /// in binary32, so the result never rounds (and never reaches 1.0).
  static constexpr float kFloat01Unit = 0x1.0p-24f;

  /// Seeds the stream from `seed` via splitmix64 (see seedState()).
  /// Every seed, including 0, gives a valid nonzero state. Explicit so that
  /// an integer never silently becomes a stream.
  constexpr explicit Prng(std::uint64_t seed) noexcept : seed_(seed) {
    seedState(seed, s0_, s1_);
  }

  /// Same as Prng(0). A separate, non-explicit
  /// default constructor (rather than `seed = 0` on the explicit one) keeps
  /// `Prng p = {};` and aggregates holding a Prng value-initialisable.
  constexpr Prng() noexcept : Prng(std::uint64_t{0}) {}

  /// The stream for substream `id` of master seed `seed`:
  /// `Prng(seed + id * kSplitmix64Increment)` with wraparound. Id 0 is the
  /// master stream itself. Composes additively:
  /// `deriveSubstream(deriveSubstream(s, i).seed(), j) == deriveSubstream(s, i + j)`.
  [[nodiscard]] static constexpr Prng deriveSubstream(std::uint64_t seed,
                                                      std::uint64_t id) noexcept {
    return Prng(seed + id * kSplitmix64Increment);
  }

  /// Substream `id` of this stream's construction seed. Independent of how
  /// far this stream has advanced, so it is a pure function of (seed, id).
  [[nodiscard]] constexpr Prng substream(std::uint64_t id) const noexcept {
    return deriveSubstream(seed_, id);
  }

  /// Restores a stream saved as (seed(), statePart1(), statePart2()).
  /// The xorshift state (0, 0) is a fixed point that would emit zeros
  /// forever and can never be reached from a seed, so it is treated as
  /// corrupt input and replaced by the freshly seeded state of `seed`
  /// (never UB, never a stuck stream).
  [[nodiscard]] static constexpr Prng fromState(std::uint64_t seed, std::uint64_t part1,
                                                std::uint64_t part2) noexcept {
    Prng p(seed);
    if (part1 != 0 || part2 != 0) {
      p.s0_ = part1;
      p.s1_ = part2;
    }
    return p;
  }

  /// The next 64 uniformly distributed bits; advances the stream one step.
  constexpr std::uint64_t next_u64() noexcept { return stepState(s0_, s1_); }

  /// The upper 32 bits of next_u64() (the upper bits of xorshift128+ are its
  /// best bits). Consumes exactly one step.
  constexpr std::uint32_t next_u32() noexcept {
    return static_cast<std::uint32_t>(next_u64() >> 32);
  }

  /// Uniform integer in [min, max) (max exclusive), by modulo with
  /// rejection: with n = max - min and rem = 2^64 mod n, draws r until
  /// r < 2^64 - rem and returns min + r mod n (one draw when n is a power of
  /// two). The exact draw pattern is contractual; do not replace it with a
  /// multiply-shift ("Lemire") reduction, the known answers depend on it.
  /// Precondition min < max: asserts in debug builds; in release returns
  /// `min` without consuming a draw.
  constexpr std::uint32_t next_range(std::uint32_t min, std::uint32_t max) noexcept {
    assert(min < max && "Prng::next_range requires min < max");
    if (min >= max) {
      return min;  // Release fallback: a defined value instead of a % 0.
    }
    const std::uint64_t n = static_cast<std::uint64_t>(max) - min;
    // 2^64 mod n without 128-bit arithmetic: ((2^64 - 1) mod n + 1) mod n.
    const std::uint64_t rem = (UINT64_MAX % n + 1) % n;
    std::uint64_t r = next_u64();
    if (rem != 0) {
      // Values >= 2^64 - rem form an incomplete block of residues; drawing
      // again removes the bias. Probability per draw < 2^-32.
      const std::uint64_t limit = 0 - rem;  // 2^64 - rem, wraparound.
      while (r >= limit) {
        r = next_u64();
      }
    }
    return min + static_cast<std::uint32_t>(r % n);
  }

  /// Uniform float in [0, 1): k * 2^-24 for k = the top 24 bits of
  /// next_u64(). Exact (no rounding), never 1.0, one step.
  constexpr float next_float01() noexcept {
    return static_cast<float>(next_u64() >> 40) * kFloat01Unit;
  }

  /// The seed this stream was constructed (or restored) with.
  [[nodiscard]] constexpr std::uint64_t seed() const noexcept { return seed_; }
  /// First xorshift state word (`s0_`); read-only, for state hashes/saves.
  [[nodiscard]] constexpr std::uint64_t statePart1() const noexcept { return s0_; }
  /// Second xorshift state word (`s1_`); read-only, for state hashes/saves.
  [[nodiscard]] constexpr std::uint64_t statePart2() const noexcept { return s1_; }

  /// The splitmix64 seeding: z = seed + K; part1 = mix(z); part2 = mix(z + K).
  /// mix is a bijection and z != z + K, so (part1, part2) is never (0, 0).
  static constexpr void seedState(std::uint64_t seed, std::uint64_t& part1,
                                  std::uint64_t& part2) noexcept {
    const std::uint64_t z = seed + kSplitmix64Increment;
    part1 = mix(z);
    part2 = mix(z + kSplitmix64Increment);
  }

  /// One xorshift128+ step on raw state words; returns the output.
  /// a = part1, b = part2; part1 = b; t = a ^ (a << 23);
  /// part2 = t ^ b ^ (t >> 18) ^ (b >> 5); output = part2 + b (mod 2^64).
  static constexpr std::uint64_t stepState(std::uint64_t& part1,
                                           std::uint64_t& part2) noexcept {
    const std::uint64_t a = part1;
    const std::uint64_t b = part2;
    part1 = b;
    const std::uint64_t t = a ^ (a << 23);
    part2 = t ^ b ^ (t >> 18) ^ (b >> 5);
    return part2 + b;
  }

  /// Streams are equal when seed and both state words are equal, i.e. they
  /// will produce the same draws and the same substreams.
  friend constexpr bool operator==(const Prng& a, const Prng& b) noexcept {
    return a.seed_ == b.seed_ && a.s0_ == b.s0_ && a.s1_ == b.s1_;
  }

 private:
  // splitmix64 finaliser (Stafford variant 13).
  static constexpr std::uint64_t mix(std::uint64_t z) noexcept {
    z = (z ^ (z >> 30)) * kMixMultiplierA;
    z = (z ^ (z >> 27)) * kMixMultiplierB;
    return z ^ (z >> 31);
  }

  std::uint64_t s0_ = 0;    // part1
  std::uint64_t s1_ = 0;    // part2
  std::uint64_t seed_ = 0;  // construction seed, for substream()
};

// Prng is stored inside worlds and replays and copied byte-wise.
static_assert(std::is_trivially_copyable_v<Prng>);
static_assert(std::is_standard_layout_v<Prng>);
static_assert(sizeof(Prng) == 3 * sizeof(std::uint64_t));

}  // namespace laige
