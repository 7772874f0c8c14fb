// tool_numbers.h - the number parsing the command-line tools share
// (laige-detcheck's flags, laige-peer's protocol words). Header-only.
#pragma once

#include <cstdint>
#include <string_view>

namespace laige::tools {

/// A decimal or 0x-prefixed hex u64; false for anything else (and overflow).
inline bool parseU64(std::string_view s, std::uint64_t& out) {
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    base = 16;
    s.remove_prefix(2);
  }
  if (s.empty() || s.size() > (base == 16 ? 16u : 20u)) return false;
  std::uint64_t v = 0;
  for (const char c : s) {
    std::uint64_t d = 0;
    if (c >= '0' && c <= '9') d = static_cast<std::uint64_t>(c - '0');
    else if (base == 16 && c >= 'a' && c <= 'f') d = static_cast<std::uint64_t>(c - 'a' + 10);
    else if (base == 16 && c >= 'A' && c <= 'F') d = static_cast<std::uint64_t>(c - 'A' + 10);
    else return false;
    if (base == 10 && v > (UINT64_MAX - d) / 10) return false;
    v = v * static_cast<std::uint64_t>(base) + d;
  }
  out = v;
  return true;
}

}  // namespace laige::tools
