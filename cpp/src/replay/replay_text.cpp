// replay_text.cpp - the strict config JSON reader and the hash baseline
// parser of the replay tooling (replay_text.h).
#include "laige/replay_text.h"

#include <cstring>

#include "laige/entity.h"
#include "laige/game_loop.h"
#include "laige/logging.h"
#include "logging/log_texts.h"

namespace laige {

namespace {

constexpr int kMaxJsonDepth = 32;

/// 1-based line and column of byte `pos` in `text`.
void locate(std::string_view text, std::size_t pos, TextParseError& e) noexcept {
  e.line = 1;
  e.column = 1;
  for (std::size_t i = 0; i < pos && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++e.line;
      e.column = 1;
    } else {
      ++e.column;
    }
  }
}

/// A minimal strict JSON reader over a bounded buffer: every method either
/// consumes a complete token or records the first error and returns false.
class JsonReader {
 public:
  JsonReader(std::string_view text, TextParseError* why) noexcept : t_(text), why_(why) {}

  bool fail(const char* reason) noexcept {
    if (why_ != nullptr && why_->reason == nullptr) {
      why_->reason = reason;
      locate(t_, pos_, *why_);
    }
    return false;
  }
  void ws() noexcept {
    while (pos_ < t_.size() && std::strchr(" \t\n\r", t_[pos_]) != nullptr && t_[pos_] != '\0') ++pos_;
  }
  [[nodiscard]] bool atEnd() noexcept {
    ws();
    return pos_ == t_.size();
  }
  [[nodiscard]] char peek() noexcept {
    ws();
    return pos_ < t_.size() ? t_[pos_] : '\0';
  }
  bool eat(char c) noexcept {
    if (peek() != c) return fail("syntax");
    ++pos_;
    return true;
  }

  bool string(std::string& out) {
    out.clear();
    if (!eat('"')) return false;
    while (pos_ < t_.size()) {
      const char c = t_[pos_++];
      if (c == '"') return true;
      if (static_cast<unsigned char>(c) < 0x20) return fail("syntax");
      if (c != '\\') {
        out.push_back(c);
        continue;
      }
      if (pos_ >= t_.size()) break;
      const char e = t_[pos_++];
      switch (e) {
        case '"': case '\\': case '/': out.push_back(e); break;
        case 'b': out.push_back('\b'); break;
        case 'f': out.push_back('\f'); break;
        case 'n': out.push_back('\n'); break;
        case 'r': out.push_back('\r'); break;
        case 't': out.push_back('\t'); break;
        case 'u': {
          // Validated, then kept as '?': no key or value we read needs
          // non-ASCII text, and a replacement keeps the name printable.
          for (int i = 0; i < 4; ++i, ++pos_) {
            if (pos_ >= t_.size() || std::strchr("0123456789abcdefABCDEF", t_[pos_]) == nullptr ||
                t_[pos_] == '\0') {
              return fail("syntax");
            }
          }
          out.push_back('?');
          break;
        }
        default: --pos_; return fail("syntax");
      }
    }
    return fail("syntax");
  }

  /// A JSON number token; `integral` is set when it has no sign, fraction
  /// or exponent, and then `value` holds it (`overflow` past 2^64 - 1).
  bool number(bool& integral, std::uint64_t& value, bool& overflow) noexcept {
    ws();
    const std::size_t start = pos_;
    integral = true;
    overflow = false;
    value = 0;
    if (pos_ < t_.size() && t_[pos_] == '-') {
      integral = false;
      ++pos_;
    }
    if (pos_ >= t_.size() || t_[pos_] < '0' || t_[pos_] > '9') return fail("syntax");
    if (t_[pos_] == '0' && pos_ + 1 < t_.size() && t_[pos_ + 1] >= '0' && t_[pos_ + 1] <= '9') {
      return fail("syntax");  // JSON forbids leading zeros
    }
    while (pos_ < t_.size() && t_[pos_] >= '0' && t_[pos_] <= '9') {
      const auto d = static_cast<std::uint64_t>(t_[pos_] - '0');
      if (value > (~0ull - d) / 10) overflow = true;
      value = value * 10 + d;
      ++pos_;
    }
    if (pos_ < t_.size() && t_[pos_] == '.') {
      integral = false;
      ++pos_;
      if (pos_ >= t_.size() || t_[pos_] < '0' || t_[pos_] > '9') return fail("syntax");
      while (pos_ < t_.size() && t_[pos_] >= '0' && t_[pos_] <= '9') ++pos_;
    }
    if (pos_ < t_.size() && (t_[pos_] == 'e' || t_[pos_] == 'E')) {
      integral = false;
      ++pos_;
      if (pos_ < t_.size() && (t_[pos_] == '+' || t_[pos_] == '-')) ++pos_;
      if (pos_ >= t_.size() || t_[pos_] < '0' || t_[pos_] > '9') return fail("syntax");
      while (pos_ < t_.size() && t_[pos_] >= '0' && t_[pos_] <= '9') ++pos_;
    }
    return pos_ > start;
  }

  bool literal(const char* word) noexcept {
    ws();
    const std::size_t n = std::strlen(word);
    if (t_.substr(pos_, n) != word) return fail("syntax");
    pos_ += n;
    return true;
  }

  bool boolean(bool& out) noexcept {
    const char c = peek();
    if (c == 't') return literal("true") && (out = true, true);
    if (c == 'f') return literal("false") && (out = false, true);
    return fail("type");
  }

  /// Skips any JSON value, checking its syntax (the unknown keys' path).
  bool skip(int depth) {
    if (depth > kMaxJsonDepth) return fail("too_deep");
    const char c = peek();
    if (c == '"') {
      std::string s;
      return string(s);
    }
    if (c == 't') return literal("true");
    if (c == 'f') return literal("false");
    if (c == 'n') return literal("null");
    if (c == '{' || c == '[') {
      const char close = c == '{' ? '}' : ']';
      ++pos_;
      if (peek() == close) {
        ++pos_;
        return true;
      }
      for (;;) {
        if (c == '{') {
          std::string key;
          if (!string(key) || !eat(':')) return false;
        }
        if (!skip(depth + 1)) return false;
        if (peek() == ',') {
          ++pos_;
          continue;
        }
        return eat(close);
      }
    }
    bool integral = false, overflow = false;
    std::uint64_t v = 0;
    return number(integral, v, overflow);
  }

  /// An unsigned integer of at most `max`.
  bool unsignedValue(std::uint64_t max, std::uint64_t& out) noexcept {
    const char c = peek();
    if (c != '-' && (c < '0' || c > '9')) return fail("type");
    bool integral = false, overflow = false;
    if (!number(integral, out, overflow)) return false;
    if (!integral) return fail("type");
    if (overflow || out > max) return fail("number_range");
    return true;
  }

  [[nodiscard]] std::size_t pos() const noexcept { return pos_; }

 private:
  std::string_view t_;
  TextParseError* why_;
  std::size_t pos_ = 0;
};

/// Reads the "seed" value: an integer or a "0x..." string.
bool readSeed(JsonReader& r, std::uint64_t& seed) {
  if (r.peek() != '"') return r.unsignedValue(~0ull, seed);
  std::string s;
  if (!r.string(s)) return false;
  if (s.size() < 3 || s.size() > 18 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X')) return r.fail("type");
  seed = 0;
  for (std::size_t i = 2; i < s.size(); ++i) {
    const char c = s[i];
    const int d = c >= '0' && c <= '9'   ? c - '0'
                  : c >= 'a' && c <= 'f' ? c - 'a' + 10
                  : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                         : -1;
    if (d < 0) return r.fail("type");
    seed = (seed << 4) | static_cast<std::uint64_t>(d);
  }
  return true;
}

void warnUnknown(std::string_view key) noexcept {
  LAIGE_LOG_WARN("config", "unknown_key", log::texts::UnknownKey, log::field("key", key));
}

bool readDeterminism(JsonReader& r, DeterminismConfig& out) {
  if (r.peek() != '{') return r.fail("type");
  if (!r.eat('{')) return false;
  bool seenEnabled = false, seenMath = false;
  if (r.peek() == '}') return r.eat('}');
  for (;;) {
    std::string key;
    if (!r.string(key) || !r.eat(':')) return false;
    if (key == "enabled") {
      if (seenEnabled) return r.fail("duplicate_key");
      seenEnabled = true;
      if (!r.boolean(out.enabled)) return false;
    } else if (key == "math") {
      if (seenMath) return r.fail("duplicate_key");
      seenMath = true;
      if (r.peek() != '"') return r.fail("type");
      std::string m;
      if (!r.string(m)) return false;
      if (m == simMathBackendName(SimMathBackend::FixedPoint16_16)) {
        out.math = SimMathBackend::FixedPoint16_16;
      } else if (m == simMathBackendName(SimMathBackend::FloatPinned32)) {
        out.math = SimMathBackend::FloatPinned32;
      } else {
        return r.fail("unknown_math");
      }
    } else {
      if (!r.skip(2)) return false;
      warnUnknown("determinism." + key);
    }
    if (r.peek() == ',') {
      if (!r.eat(',')) return false;
      continue;
    }
    return r.eat('}');
  }
}

bool validScenarioName(const std::string& s) noexcept {
  if (s.empty() || s.size() > kMaxScenarioNameLength) return false;
  for (const char c : s) {
    const bool ok =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
    if (!ok) return false;
  }
  return true;
}

}  // namespace

namespace {

/// The failure of a text parser: reason `event`, fields reason (the failed
/// check), line and column.
Status textRejected(const char* event, const TextParseError& e) noexcept {
  return Status::failure(ErrorCode::MalformedInput, event)
      .with("reason", e.reason)
      .with("line", e.line)
      .with("column", e.column);
}

}  // namespace

Result<ReplayConfigFile> parseReplayConfigJson(std::string_view text, TextParseError* why) {
  TextParseError local;
  TextParseError& e = why != nullptr ? *why : local;
  e = TextParseError{};
  if (text.size() > kMaxReplayConfigBytes) {
    e.reason = "too_large";
    return textRejected("config_rejected", e);
  }
  JsonReader r(text, &e);
  ReplayConfigFile out;
  // One bit per known key, for duplicate detection.
  enum : unsigned { kRate = 1, kCap = 2, kChurn = 4, kSeed = 8, kDet = 16, kScen = 32 };
  unsigned seen = 0;
  auto once = [&](unsigned bit) {
    if ((seen & bit) != 0) return r.fail("duplicate_key");
    seen |= bit;
    return true;
  };
  bool ok = r.eat('{');
  if (ok && r.peek() == '}') {
    ok = r.eat('}');
  } else {
    while (ok) {
      std::string key;
      ok = r.string(key) && r.eat(':');
      if (!ok) break;
      std::uint64_t v = 0;
      if (key == "tickRateHz") {
        ok = once(kRate) && r.unsignedValue(0xffffffffu, v);
        if (ok && (v < kMinTickRateHz || v > kMaxTickRateHz)) ok = r.fail("tick_rate_out_of_range");
        out.config.tickRateHz = static_cast<std::uint32_t>(v);
      } else if (key == "entityCapacity") {
        ok = once(kCap) && r.unsignedValue(0xffffffffu, v);
        if (ok && (v < 1 || v > Entity::kMaxEntities)) ok = r.fail("capacity_out_of_range");
        out.config.entityCapacity = static_cast<std::uint32_t>(v);
      } else if (key == "churnPerFrameBudget") {
        ok = once(kChurn) && r.unsignedValue(0xffffffffu, v);
        out.config.churnPerFrameBudget = static_cast<std::uint32_t>(v);
      } else if (key == "seed") {
        ok = once(kSeed) && readSeed(r, out.config.seed);
      } else if (key == "determinism") {
        ok = once(kDet) && readDeterminism(r, out.config.determinism);
      } else if (key == "scenario") {
        ok = once(kScen);
        if (ok && r.peek() != '"') ok = r.fail("type");
        ok = ok && r.string(out.scenario);
        if (ok && !validScenarioName(out.scenario)) ok = r.fail("scenario_name");
      } else {
        ok = r.skip(1);
        if (ok) warnUnknown(key);
      }
      if (!ok) break;
      if (r.peek() == ',') {
        ok = r.eat(',');
        continue;
      }
      ok = r.eat('}');
      break;
    }
  }
  if (ok && !r.atEnd()) ok = r.fail("syntax");  // one object, nothing after it
  if (!ok) return textRejected("config_rejected", e);
  return out;
}

Status parseHashBaseline(std::string_view text, std::vector<std::uint64_t>& out, TextParseError* why) {
  out.clear();
  if (why != nullptr) *why = TextParseError{};
  auto fail = [why](const char* reason, std::size_t line, std::size_t column) -> Status {
    const TextParseError e{reason, static_cast<std::uint32_t>(line), static_cast<std::uint32_t>(column)};
    if (why != nullptr) *why = e;
    return textRejected("baseline_rejected", e);
  };
  if (text.size() > kMaxBaselineBytes) return fail("too_large", 0, 0);
  std::size_t pos = 0;
  std::uint64_t index = 0;
  while (pos < text.size()) {
    const std::size_t nl = text.find('\n', pos);
    const std::size_t end = nl == std::string_view::npos ? text.size() : nl;
    std::string_view line = text.substr(pos, end - pos);
    pos = nl == std::string_view::npos ? text.size() : nl + 1;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const std::size_t lineNo = static_cast<std::size_t>(index) + 1;
    if (index >= kMaxBaselineLines) return fail("too_many_lines", lineNo, 1);
    if (line.size() > kMaxBaselineLineBytes) return fail("line_too_long", lineNo, kMaxBaselineLineBytes + 1);
    if (line.empty()) return fail("empty_line", lineNo, 1);
    // The tick: decimal digits equal to the line index, no leading zero.
    // (At most 65536 lines, so more than 6 digits can never be the index.)
    std::size_t i = 0;
    std::uint64_t tick = 0;
    while (i < line.size() && line[i] >= '0' && line[i] <= '9') {
      if (i < 6) tick = tick * 10 + static_cast<std::uint64_t>(line[i] - '0');
      ++i;
    }
    if (i == 0 || i > 6 || (line[0] == '0' && i > 1) || tick != index) return fail("bad_tick", lineNo, 1);
    if (i >= line.size() || line[i] != ' ') return fail("syntax", lineNo, i + 1);
    ++i;
    if (line.size() - i != 16) return fail("bad_hash", lineNo, i + 1);
    std::uint64_t hash = 0;
    for (std::size_t k = i; k < line.size(); ++k) {
      const char c = line[k];
      const int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
      if (d < 0) return fail("bad_hash", lineNo, k + 1);
      hash = (hash << 4) | static_cast<std::uint64_t>(d);
    }
    out.push_back(hash);
    ++index;
  }
  return Status{};
}

HashStreamComparison compareHashStreams(const std::vector<std::uint64_t>& actual,
                                        const std::vector<std::uint64_t>& expected) noexcept {
  HashStreamComparison c;
  const std::size_t common = actual.size() < expected.size() ? actual.size() : expected.size();
  for (std::size_t t = 0; t < common; ++t) {
    if (actual[t] != expected[t]) {
      c.match = false;
      c.hashMismatch = true;
      c.firstMismatchTick = t;
      return c;
    }
  }
  if (actual.size() != expected.size()) {
    c.match = false;
    c.lengthMismatch = true;
    c.firstUnmatchedTick = common;
    c.actualLonger = actual.size() > expected.size();
  }
  return c;
}

}  // namespace laige
