// xxh3_sites.h - the state checksum's XXH3 call sites and NaN
// canonicalisation, for the other hashes of the state (internal; the state
// tree of laige/desync.h). Defined in state_checksum.cpp, where the module's
// only XXH3 sites live (each extra inlined site costs kilobytes of wasm).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "laige/detail/ecs_state.h"

namespace laige::detail {

/// Room for an XXH3_state_t (576 bytes on 64-bit targets; checked where
/// xxhash.h is included), kept opaque so that this header needs no xxhash.h.
inline constexpr std::size_t kXxh3StateBytes = 640;

/// XXH3_64bits_reset / _update / _digest on an opaque state of
/// kXxh3StateBytes bytes aligned to 64.
void xxh3SiteReset(void* state) noexcept;
void xxh3SiteUpdate(void* state, const void* p, std::size_t n) noexcept;
[[nodiscard]] std::uint64_t xxh3SiteDigest(const void* state) noexcept;
/// Rewrites every f32/f64 NaN of one value of `c` as the canonical NaN (as
/// the state hash and the checksums hash them).
void canonicaliseValue(const RegisteredComponent& c, std::uint8_t* value) noexcept;
/// True when component `c` has an f32 or f64 field (its values may need
/// canonicalising).
[[nodiscard]] bool componentHasFloats(const RegisteredComponent& c) noexcept;

/// 64-bit XXH3 (seed 0) of a byte sequence fed in pieces (the value does not
/// depend on how it is cut); small pieces are gathered first.
class Xxh3Stream {
 public:
  Xxh3Stream() noexcept { xxh3SiteReset(state_); }
  void u32(std::uint32_t v) noexcept { bytes(&v, 4); }
  void u64(std::uint64_t v) noexcept { bytes(&v, 8); }
  void bytes(const void* p, std::size_t n) noexcept {
    if (n > kBuffer - used_) {
      flush();
      if (n > kBuffer) {
        xxh3SiteUpdate(state_, p, n);
        return;
      }
    }
    std::memcpy(buffer_ + used_, p, n);
    used_ += n;
  }
  [[nodiscard]] std::uint64_t value() noexcept {
    flush();
    return xxh3SiteDigest(state_);
  }

 private:
  static constexpr std::size_t kBuffer = 256;
  void flush() noexcept {
    if (used_ != 0) xxh3SiteUpdate(state_, buffer_, used_);
    used_ = 0;
  }
  alignas(64) unsigned char state_[kXxh3StateBytes];
  std::size_t used_ = 0;
  std::uint8_t buffer_[kBuffer];
};

}  // namespace laige::detail
