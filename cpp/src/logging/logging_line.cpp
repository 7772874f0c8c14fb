// logging_line.cpp - log fields and the one-line format of a log record
// (docs/logging.md#fields, docs/logging.md#line-format): rendering into
// inline buffers and stack buffers, never the heap (formatLine(record) to a
// std::string aside, for tools and tests).
#include "laige/logging.h"
#include "laige/detail/shortest_float.h"

#include <charconv>
#include <cmath>
#include <cstring>
#include <version>

namespace laige::log {

// ---------------------------------------------------------------------------
// Fields

namespace {

constexpr std::size_t kMaxValue = kFieldValueCapacity - 1;

// Whitespace would split the ` | k=v` form and '=' would make the key
// ambiguous, so neither may survive in a rendered value.
constexpr char sanitize(char c) noexcept {
  return (c == ' ' || c == '=' || (c >= '\t' && c <= '\r')) ? '_' : c;
}

// Renders with `render(buffer, capacity) -> length` straight into the field.
template <typename Render>
Field renderedField(const char* key, Render render) noexcept {
  Field f;
  f.key = key;
  const std::size_t n = render(f.value, kMaxValue);
  f.value[n] = '\0';
  f.length = static_cast<std::uint8_t>(n);
  return f;
}

Field textField(const char* key, std::string_view text) noexcept {
  return renderedField(key, [text](char* out, std::size_t cap) {
    std::size_t n = std::min(text.size(), cap);
    // Never cut inside a UTF-8 sequence: back off to its lead byte.
    while (n < text.size() && n > 0 && (static_cast<unsigned char>(text[n]) & 0xC0u) == 0x80u) --n;
    for (std::size_t i = 0; i < n; ++i) out[i] = sanitize(text[i]);
    return n;
  });
}

template <typename Int>
Field integerField(const char* key, Int value) noexcept {
  return renderedField(key, [value](char* out, std::size_t cap) {
    return static_cast<std::size_t>(std::to_chars(out, out + cap, value).ptr - out);  // <= 20 chars
  });
}

#if defined(__cpp_lib_to_chars) && __cpp_lib_to_chars >= 201611L && !defined(LAIGE_LOG_NO_FP_TO_CHARS)
template <typename Float>
std::size_t shortestFloat(Float value, char* out, std::size_t cap) noexcept {
  return static_cast<std::size_t>(std::to_chars(out, out + cap, value).ptr - out);
}
#else
// Emscripten 3.1.6's libc++ has no floating-point to_chars: the same text
// from exact integer arithmetic (laige/detail/shortest_float.h), not from
// printf/strtod, whose float code is about 15 KB of the wasm module.
std::size_t shortestFloat(double value, char* out, std::size_t cap) noexcept {
  return ::laige::detail::shortestDouble(value, out, cap);
}
std::size_t shortestFloat(float value, char* out, std::size_t cap) noexcept {
  return ::laige::detail::shortestFloat(value, out, cap);
}
#endif

template <typename Float>
Field floatField(const char* key, Float value) noexcept {
  // NaN's sign and payload are noise in a log: spell the specials one way everywhere.
  if (std::isnan(value)) return textField(key, "nan");
  if (std::isinf(value)) return textField(key, value > 0 ? "inf" : "-inf");
  return renderedField(key, [value](char* out, std::size_t cap) { return shortestFloat(value, out, cap); });
}

}  // namespace

Field field(const char* key, std::string_view value) noexcept { return textField(key, value); }
Field field(const char* key, const char* value) noexcept {
  return textField(key, value != nullptr ? std::string_view(value) : std::string_view());
}
Field field(const char* key, char* value) noexcept { return field(key, static_cast<const char*>(value)); }
Field field(const char* key, bool value) noexcept { return textField(key, value ? "true" : "false"); }
Field field(const char* key, signed char value) noexcept { return integerField(key, value); }
Field field(const char* key, unsigned char value) noexcept { return integerField(key, value); }
Field field(const char* key, short value) noexcept { return integerField(key, value); }
Field field(const char* key, unsigned short value) noexcept { return integerField(key, value); }
Field field(const char* key, int value) noexcept { return integerField(key, value); }
Field field(const char* key, unsigned value) noexcept { return integerField(key, value); }
Field field(const char* key, long value) noexcept { return integerField(key, value); }
Field field(const char* key, unsigned long value) noexcept { return integerField(key, value); }
Field field(const char* key, long long value) noexcept { return integerField(key, value); }
Field field(const char* key, unsigned long long value) noexcept { return integerField(key, value); }
Field field(const char* key, double value) noexcept { return floatField(key, value); }
Field field(const char* key, float value) noexcept { return floatField(key, value); }

// ---------------------------------------------------------------------------
// Line format

std::size_t formatTimestamp(std::int64_t timestampUs, char (&out)[28]) noexcept {
  constexpr std::int64_t kMaxUs = 253402300799999999;  // 9999-12-31T23:59:59.999999Z
  const std::int64_t us = timestampUs < 0 ? 0 : (timestampUs > kMaxUs ? kMaxUs : timestampUs);
  const std::int64_t secs = us / 1000000;
  const auto sod = static_cast<int>(secs % 86400);
  // Civil-from-days (H. Hinnant): exact proleptic Gregorian with no libc
  // call, so it is thread-safe and identical on every target.
  const std::int64_t z = secs / 86400 + 719468;
  const std::int64_t era = z / 146097;
  const std::int64_t doe = z - era * 146097;
  const std::int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const std::int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const std::int64_t mp = (5 * doy + 2) / 153;
  const auto month = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
  const int fields[7] = {static_cast<int>(yoe + era * 400 + (month <= 2 ? 1 : 0)), month,
                         static_cast<int>(doy - (153 * mp + 2) / 5 + 1), sod / 3600, sod / 60 % 60, sod % 60,
                         static_cast<int>(us % 1000000)};
  constexpr int kPos[7] = {0, 5, 8, 11, 14, 17, 20};
  constexpr int kWidth[7] = {4, 2, 2, 2, 2, 2, 6};
  std::memcpy(out, "0000-00-00T00:00:00.000000Z", 28);
  for (int f = 0; f < 7; ++f) {
    int v = fields[f];
    for (int i = kWidth[f] - 1; i >= 0; --i, v /= 10) out[kPos[f] + i] = static_cast<char>('0' + v % 10);
  }
  return 27;
}

namespace {

// Counts every character it is offered and stores those that fit (keeping
// one byte for the NUL), so one routine both measures and renders a line.
struct Writer {
  char* buffer;
  std::size_t capacity;
  std::size_t pos = 0;

  void put(char c) noexcept {
    if (pos + 1 < capacity) buffer[pos] = c;
    ++pos;
  }
  void put(std::string_view s) noexcept {
    if (pos + 1 < capacity) std::memcpy(buffer + pos, s.data(), std::min(s.size(), capacity - 1 - pos));
    pos += s.size();
  }
};

std::string_view orEmpty(const char* s) noexcept { return s != nullptr ? std::string_view(s) : std::string_view(); }

void renderLine(const LogRecord& record, Writer& w) noexcept {
  char ts[28];
  w.put(std::string_view(ts, formatTimestamp(record.timestampUs, ts)));
  w.put(" [");
  w.put(severityName(record.severity));
  w.put("] ");
  w.put(orEmpty(record.subsystem));
  w.put('/');
  w.put(orEmpty(record.event));
  w.put(": ");
  // One record is one line: control characters (newlines...) become spaces.
  for (const char c : orEmpty(record.message)) w.put(static_cast<unsigned char>(c) < 0x20 ? ' ' : c);
  for (std::size_t i = 0; record.fields != nullptr && i < record.fieldCount; ++i) {
    w.put(" | ");
    w.put(orEmpty(record.fields[i].key));
    w.put('=');
    for (const char c : record.fields[i].view()) w.put(sanitize(c));
  }
}

}  // namespace

std::size_t formatLine(const LogRecord& record, char* buffer, std::size_t capacity) noexcept {
  if (buffer == nullptr || capacity == 0) return 0;
  Writer w{buffer, capacity};
  renderLine(record, w);
  std::size_t len = std::min(w.pos, capacity - 1);
  if (w.pos >= capacity && capacity >= 4) {
    // Mark the cut, without leaving half a UTF-8 sequence before the mark.
    len -= 3;
    while (len > 0 && (static_cast<unsigned char>(buffer[len]) & 0xC0u) == 0x80u) --len;
    std::memcpy(buffer + len, "...", 3);
    len += 3;
  }
  buffer[len] = '\0';
  return len;
}

std::string formatLine(const LogRecord& record) {
  Writer measure{nullptr, 0};
  renderLine(record, measure);
  std::string line(measure.pos, '\0');
  Writer w{line.data(), measure.pos + 1};  // data()[size()] is the writable NUL
  renderLine(record, w);
  return line;
}

}  // namespace laige::log
