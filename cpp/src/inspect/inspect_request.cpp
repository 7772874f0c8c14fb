// inspect_request.cpp - the inspector's request grammar and value text
// (laige/inspect.h, docs/inspector.md#protocol).
#include <cstring>

#include "inspect/inspect_json.h"
#include "laige/inspect.h"

namespace laige {

namespace {

// The next space-separated token of `rest` (empty at the end).
std::string_view nextToken(std::string_view& rest) noexcept {
  std::size_t i = 0;
  while (i < rest.size() && rest[i] == ' ') ++i;
  std::size_t j = i;
  while (j < rest.size() && rest[j] != ' ') ++j;
  const std::string_view t = rest.substr(i, j - i);
  rest.remove_prefix(j);
  return t;
}

// A plain decimal (no sign, 1..20 digits) that fits `max`.
bool parseDecimal(std::string_view t, std::uint64_t max, std::uint64_t& out) noexcept {
  if (t.empty() || t.size() > 20) return false;
  std::uint64_t v = 0;
  for (const char c : t) {
    if (c < '0' || c > '9') return false;
    const std::uint64_t d = static_cast<std::uint64_t>(c - '0');
    if (v > (max - d) / 10) return false;
    v = v * 10 + d;
  }
  out = v;
  return true;
}

bool parseU32(std::string_view t, std::uint32_t& out) noexcept {
  std::uint64_t v = 0;
  if (!parseDecimal(t, 0xFFFFFFFFu, v)) return false;
  out = static_cast<std::uint32_t>(v);
  return true;
}

Status malformed(std::string_view part) noexcept {
  return Status::failure(ErrorCode::MalformedInput, "inspect_malformed").with("part", part.substr(0, 40));
}

}  // namespace

namespace inspect_detail {

JsonText& JsonText::num(std::uint64_t v) {
  comma();
  char buf[24];
  int n = 0;
  do {
    buf[n++] = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v != 0);
  while (n > 0) out_ += buf[--n];
  return *this;
}

JsonText& JsonText::str(std::string_view v) {
  comma();
  out_ += '"';
  for (const char ch : v) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '"' || c == '\\') {
      out_ += '\\';
      out_ += ch;
    } else if (c < 0x20 || c == 0x7f) {
      static const char* kHex = "0123456789abcdef";
      out_ += "\\u00";
      out_ += kHex[c >> 4];
      out_ += kHex[c & 15];
    } else {
      out_ += ch;
    }
  }
  out_ += '"';
  return *this;
}

JsonText& JsonText::hex64(std::uint64_t v) {
  char buf[16];
  for (int i = 15; i >= 0; --i) {
    buf[i] = "0123456789abcdef"[v & 15];
    v >>= 4;
  }
  return str(std::string_view(buf, 16));
}

}  // namespace inspect_detail

std::size_t formatFx(std::int32_t raw, char* out) noexcept {
  std::size_t n = 0;
  std::int64_t v = raw;
  if (v < 0) {
    out[n++] = '-';
    v = -v;
  }
  // The integer part, then raw's 16 fraction bits as exactly 16 decimal
  // digits (x / 2^16 = x * 5^16 / 10^16), trailing zeros dropped.
  char digits[8];
  int d = 0;
  std::uint64_t whole = static_cast<std::uint64_t>(v) >> 16;
  do {
    digits[d++] = static_cast<char>('0' + whole % 10);
    whole /= 10;
  } while (whole != 0);
  while (d > 0) out[n++] = digits[--d];
  std::uint64_t frac = (static_cast<std::uint64_t>(v) & 0xFFFF) * 152587890625ull;  // 5^16
  if (frac != 0) {
    out[n++] = '.';
    char f[16];
    for (int i = 15; i >= 0; --i) {
      f[i] = static_cast<char>('0' + frac % 10);
      frac /= 10;
    }
    int last = 15;
    while (f[last] == '0') --last;
    for (int i = 0; i <= last; ++i) out[n++] = f[i];
  }
  return n;
}

Result<InspectRequest> parseInspectRequest(std::string_view text) noexcept {
  if (text.size() > kMaxInspectRequestBytes) {
    return Status::failure(ErrorCode::InvalidArgument, "inspect_request_too_large")
        .with("size", static_cast<std::uint64_t>(text.size()))
        .with("max", static_cast<std::uint64_t>(kMaxInspectRequestBytes));
  }
  for (const char c : text) {
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) > 0x7e) return malformed("control or non-ASCII byte");
  }
  std::string_view rest = text;
  const std::string_view version = nextToken(rest);
  std::uint64_t v = 0;
  if (!parseDecimal(version, 0xFFFFFFFFu, v)) return malformed(version.empty() ? "version" : version);
  if (v != kInspectProtocolVersion) {
    return Status::failure(ErrorCode::InvalidArgument, "inspect_version").with("got", v).with("expected", kInspectProtocolVersion);
  }
  const std::string_view verb = nextToken(rest);
  InspectRequest r;
  if (verb == "summary") {
    r.verb = InspectVerb::Summary;
  } else if (verb == "history") {
    r.verb = InspectVerb::History;
  } else if (verb == "entity") {
    r.verb = InspectVerb::Entity;
    const std::string_view h = nextToken(rest);
    if (!parseU32(h, r.entity)) return malformed(h.empty() ? "handle" : h);
  } else if (verb == "seek") {
    r.verb = InspectVerb::Seek;
    const std::string_view t = nextToken(rest);
    if (!parseDecimal(t, ~std::uint64_t{0}, r.tick)) return malformed(t.empty() ? "tick" : t);
  } else if (verb == "entities") {
    r.verb = InspectVerb::Entities;
    const std::string_view off = nextToken(rest);
    if (!parseU32(off, r.offset)) return malformed(off.empty() ? "offset" : off);
    const std::string_view lim = nextToken(rest);
    if (!parseU32(lim, r.limit)) return malformed(lim.empty() ? "limit" : lim);
    if (r.limit > kMaxInspectPage) {
      return Status::failure(ErrorCode::InvalidArgument, "inspect_page_too_large").with("limit", r.limit).with("max", kMaxInspectPage);
    }
    for (std::string_view opt = nextToken(rest); !opt.empty(); opt = nextToken(rest)) {
      if (opt.substr(0, 10) == "archetype=" && !r.hasArchetype && parseU32(opt.substr(10), r.archetype)) {
        r.hasArchetype = true;
      } else if (opt.substr(0, 5) == "find=" && !r.hasFind && parseU32(opt.substr(5), r.find)) {
        r.hasFind = true;
      } else {
        return malformed(opt);
      }
    }
  } else {
    return Status::failure(ErrorCode::InvalidArgument, "inspect_unknown_request").with("request", verb.substr(0, 40));
  }
  const std::string_view extra = nextToken(rest);
  if (!extra.empty()) return malformed(extra);
  return r;
}

}  // namespace laige
