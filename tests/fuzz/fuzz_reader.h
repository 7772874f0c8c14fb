// fuzz_reader.h - reads a fuzz input as a stream of little-endian integers
// (zero past the end, so every input decodes to some op stream), shared by
// the op-stream targets (fuzz_world_ops.cpp, fuzz_relation_ops.cpp).
#pragma once

#include <cstddef>
#include <cstdint>

namespace laige_fuzz {

struct Reader {
  const std::uint8_t* p;
  std::size_t n;
  bool empty() const { return n == 0; }
  std::uint8_t u8() {
    if (n == 0) return 0;
    --n;
    return *p++;
  }
  std::uint16_t u16() { return static_cast<std::uint16_t>(u8() | (u8() << 8)); }
  std::uint32_t u32() { return u16() | (static_cast<std::uint32_t>(u16()) << 16); }
  // Copies up to `len` bytes (zero fill past the end).
  void bytes(std::uint8_t* out, std::size_t len) {
    for (std::size_t i = 0; i < len; ++i) out[i] = u8();
  }
};

}  // namespace laige_fuzz
