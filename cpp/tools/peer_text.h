// peer_text.h - the text helpers of laige-peer's line protocol
// (peer_session.h, rollback_peer.h): words, numbers, hex payloads and
// `error <reason> key=value` lines. Header-only; used by the tool and its
// gtest.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "tool_numbers.h"

namespace laige::peer {

/// The first space-separated word of `s` (and `s` advanced past it).
inline std::string_view nextWord(std::string_view& s) {
  std::size_t i = 0;
  while (i < s.size() && s[i] == ' ') ++i;
  std::size_t j = i;
  while (j < s.size() && s[j] != ' ') ++j;
  const std::string_view w = s.substr(i, j - i);
  s.remove_prefix(j);
  return w;
}

using laige::tools::parseU64;

/// A hex digit's value, or -1.
inline int hexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/// Decodes `hex` (pairs of hex digits; "." = no bytes) into `out`. Returns
/// the offset of the first bad pair, hex.size() for an odd length, or
/// std::string_view::npos on success. `out` is left unspecified on failure.
inline std::size_t decodeHex(std::string_view hex, std::vector<std::uint8_t>& out) {
  out.clear();
  if (hex == ".") return std::string_view::npos;
  if (hex.size() % 2 != 0) return hex.size();
  out.resize(hex.size() / 2);
  for (std::size_t i = 0; i < out.size(); ++i) {
    const int hi = hexDigit(hex[2 * i]);
    const int lo = hexDigit(hex[2 * i + 1]);
    if (hi < 0 || lo < 0) return 2 * i;
    out[i] = static_cast<std::uint8_t>(hi * 16 + lo);
  }
  return std::string_view::npos;
}

/// Appends `bytes` as lowercase hex, or "." when empty.
inline void appendHex(const std::uint8_t* bytes, std::size_t n, std::string& out) {
  constexpr char kHex[] = "0123456789abcdef";
  if (n == 0) {
    out += '.';
    return;
  }
  for (std::size_t i = 0; i < n; ++i) {
    out += kHex[bytes[i] >> 4];
    out += kHex[bytes[i] & 15];
  }
}

/// A hash as the protocol writes it (exactly 16 hex digits); false else.
inline bool parseHash(std::string_view s, std::uint64_t& out) {
  if (s.size() != 16) return false;
  std::uint64_t v = 0;
  for (const char c : s) {
    const int d = hexDigit(c);
    if (d < 0) return false;
    v = (v << 4) | static_cast<std::uint64_t>(d);
  }
  out = v;
  return true;
}

/// Appends `v` in decimal.
inline void appendU64(std::uint64_t v, std::string& out) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "%llu", static_cast<unsigned long long>(v));
  out += buf;
}

/// Appends a state hash: 16 lowercase hex digits (the golden streams' form).
inline void appendHash(std::uint64_t h, std::string& out) {
  char buf[20];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  out += buf;
}

/// Appends "error <reason>[ <key>=<value>]\n".
inline void refuse(std::string& out, const char* reason, const char* key = nullptr, std::string_view value = {}) {
  out += "error ";
  out += reason;
  if (key != nullptr) {
    out += ' ';
    out += key;
    out += '=';
    out += value;
  }
  out += '\n';
}

}  // namespace laige::peer
