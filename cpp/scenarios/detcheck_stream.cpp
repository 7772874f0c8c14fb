// detcheck_stream.cpp - the laige-detcheck stream contract
// (docs/determinism.md#laige-detcheck): validation, comparison, combined output, reports.
#include "detcheck_stream.h"

#include <string>

namespace laige::detcheck {

namespace {

std::string number(std::uint64_t v) { return std::to_string(v); }

std::string lineError(std::uint64_t line, std::string_view what) {
  return "line " + number(line + 1) + ": " + std::string(what);
}

bool isLowerHex(char c) noexcept { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); }

// Checks one line (without '\n' and '\r') for tick `expected`; "" when ok.
std::string checkLine(std::string_view line, std::uint64_t expected) {
  const std::size_t space = line.find(' ');
  if (space == std::string_view::npos) return "no space between tick and hash";
  const std::string_view tick = line.substr(0, space);
  const std::string_view hash = line.substr(space + 1);
  if (tick.empty()) return "empty tick";
  if (tick.size() > 1 && tick[0] == '0') return "tick with a leading zero";
  std::uint64_t value = 0;
  for (const char c : tick) {
    if (c < '0' || c > '9') return "tick is not a decimal number";
    if (value > (UINT64_MAX - 9) / 10) return "tick out of range";
    value = value * 10 + static_cast<std::uint64_t>(c - '0');
  }
  if (value != expected) return "tick " + number(value) + " where " + number(expected) + " was expected";
  if (hash.size() != 16) return "hash is not exactly 16 hex digits";
  for (const char c : hash) {
    if (!isLowerHex(c)) return "hash is not lowercase hex";
  }
  return {};
}

std::string streamEnds(std::uint64_t n) { return "stream ends: " + number(n) + " ticks"; }

// Parses the exit status of an end marker line `<prefix><int>@@`.
bool parseEndMarker(std::string_view line, std::string_view prefix, int& exit) {
  if (line.substr(0, prefix.size()) != prefix || line.size() < prefix.size() + 3) return false;
  if (line.substr(line.size() - 2) != "@@") return false;
  const std::string_view digits = line.substr(prefix.size(), line.size() - prefix.size() - 2);
  if (digits.empty() || digits.size() > 9) return false;
  int v = 0;
  for (const char c : digits) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  exit = v;
  return true;
}

}  // namespace

std::string validateStream(std::string_view text, std::vector<std::string_view>& lines) {
  lines.clear();
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();  // no final newline: tolerated
    std::string_view line = text.substr(at, end - at);
    if (line.size() > kMaxLineBytes) return lineError(lines.size(), "longer than 64 bytes");
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (lines.size() == kMaxStreamLines) return lineError(lines.size(), "more than 65537 lines (ticks 0..65536)");
    if (std::string err = checkLine(line, lines.size()); !err.empty()) return lineError(lines.size(), err);
    lines.push_back(line);
    at = end + 1;
  }
  if (lines.empty()) return "empty stream (no tick 0 line)";
  return {};
}

Comparison compareStreams(std::string_view a, std::string_view b) {
  Comparison c;
  std::vector<std::string_view> la;
  std::vector<std::string_view> lb;
  if (std::string err = validateStream(a, la); !err.empty()) {
    c.error = "run-a: " + err;
    return c;
  }
  if (std::string err = validateStream(b, lb); !err.empty()) {
    c.error = "run-b: " + err;
    return c;
  }
  const std::size_t n = la.size() < lb.size() ? la.size() : lb.size();
  for (std::size_t i = 0; i < n; ++i) {
    if (la[i] != lb[i]) {
      c.verdict = Verdict::Diverged;
      c.firstDiffTick = i;
      c.lineA = std::string(la[i]);
      c.lineB = std::string(lb[i]);
      return c;
    }
  }
  if (la.size() != lb.size()) {
    c.verdict = Verdict::Diverged;
    c.firstDiffTick = n;
    c.lineA = la.size() > n ? std::string(la[n]) : streamEnds(la.size());
    c.lineB = lb.size() > n ? std::string(lb[n]) : streamEnds(lb.size());
    return c;
  }
  c.verdict = Verdict::Agree;
  c.ticks = n;
  return c;
}

std::string formatReport(std::string_view name, const Comparison& c) {
  std::string out = "detcheck scenario=" + std::string(name);
  switch (c.verdict) {
    case Verdict::Agree:
      out += " result=OK ticks=" + number(c.ticks) + "\n";
      break;
    case Verdict::Diverged:
      out += " result=DIVERGED first_diff_tick=" + number(c.firstDiffTick) + "\n";
      out += "run-a: " + c.lineA + "\n";
      out += "run-b: " + c.lineB + "\n";
      break;
    case Verdict::ContractError:
      out += " result=ERROR reason=" + c.error + "\n";
      break;
  }
  return out;
}

std::string splitCombined(std::string_view text, CombinedRuns& out) {
  out = CombinedRuns{};
  // 0 = outside, 1 = inside A, 2 = inside B.
  int inside = 0;
  bool seenA = false;
  bool seenB = false;
  std::size_t bodyStart = 0;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(at, end - at);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const std::size_t next = end < text.size() ? end + 1 : end;
    if (inside == 0) {
      if (line == kRunABegin || line == kRunBBegin) {
        const bool isA = line == kRunABegin;
        if (isA ? seenA : seenB) return std::string("a second ") + (isA ? "run-a" : "run-b") + " begin marker";
        (isA ? seenA : seenB) = true;
        inside = isA ? 1 : 2;
        bodyStart = next;
      }
    } else {
      const std::string_view prefix = inside == 1 ? kRunAEndPrefix : kRunBEndPrefix;
      if (line.substr(0, prefix.size()) == prefix) {
        int exit = -1;
        if (!parseEndMarker(line, prefix, exit)) return "malformed end marker: " + std::string(line);
        const std::string_view body = text.substr(bodyStart, at - bodyStart);
        if (inside == 1) {
          out.a = body;
          out.exitA = exit;
        } else {
          out.b = body;
          out.exitB = exit;
        }
        inside = 0;
      } else if (line == kRunABegin || line == kRunBBegin) {
        return "a begin marker inside the " + std::string(inside == 1 ? "run-a" : "run-b") + " block";
      }
    }
    at = next;
    if (end == text.size()) break;
  }
  if (inside != 0) return std::string("no end marker for ") + (inside == 1 ? "run-a" : "run-b");
  if (!seenA) return "no run-a block (@@DETCHK-RUN-A-BEGIN@@)";
  if (!seenB) return "no run-b block (@@DETCHK-RUN-B-BEGIN@@)";
  return {};
}

Comparison compareCombined(std::string_view text) {
  CombinedRuns runs;
  if (std::string err = splitCombined(text, runs); !err.empty()) {
    Comparison c;
    c.error = err;
    return c;
  }
  if (runs.exitA != 0 || runs.exitB != 0) {
    Comparison c;
    c.error = runs.exitA != 0 ? "run-a exited with status " + number(static_cast<std::uint64_t>(runs.exitA))
                              : "run-b exited with status " + number(static_cast<std::uint64_t>(runs.exitB));
    return c;
  }
  return compareStreams(runs.a, runs.b);
}

}  // namespace laige::detcheck
