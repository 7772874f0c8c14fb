// serve_lines.h - test helpers for the match server's line protocol
// (cpp/tools/match.h, match_server.h): split a reply batch into (conn,
// line) pairs, pick one connection's lines, and replay a join's `snapshot
// + confirmed` tail into a plain ScenarioRun.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "peer_text.h"
#include "player_input.h"
#include "scenario.h"

namespace laige::serve::test {

using ConnLine = std::pair<std::uint64_t, std::string>;

/// Splits "<conn> <message>\n..." into pairs.
inline std::vector<ConnLine> splitLines(std::string_view out) {
  std::vector<ConnLine> lines;
  while (!out.empty()) {
    const std::size_t nl = out.find('\n');
    std::string_view line = out.substr(0, nl);
    out.remove_prefix(nl == std::string_view::npos ? out.size() : nl + 1);
    std::uint64_t conn = 0;
    const std::string_view word = peer::nextWord(line);
    peer::parseU64(word, conn);
    lines.emplace_back(conn, std::string(line.empty() ? line : line.substr(1)));
  }
  return lines;
}

/// The messages for `conn`, in order.
inline std::vector<std::string> linesFor(const std::vector<ConnLine>& all, std::uint64_t conn) {
  std::vector<std::string> v;
  for (const auto& [c, line] : all) {
    if (c == conn) v.push_back(line);
  }
  return v;
}

/// The words of a line.
inline std::vector<std::string> words(std::string_view line) {
  std::vector<std::string> w;
  for (std::string_view word = peer::nextWord(line); !word.empty(); word = peer::nextWord(line)) w.emplace_back(word);
  return w;
}

/// The `input` scenario's combined payload (the players' inputs concatenated).
inline std::vector<std::uint8_t> concatInputs(const std::vector<std::vector<std::uint8_t>>& inputs) {
  std::vector<std::uint8_t> all;
  for (const auto& i : inputs) all.insert(all.end(), i.begin(), i.end());
  return all;
}

/// Player p's generated input for tick t in the `input` scenario.
inline std::vector<std::uint8_t> playerInput(std::uint32_t p, std::uint64_t t) {
  std::uint8_t buf[kInputScenarioPlayerInputBytes];
  const std::uint32_t n = inputScenarioPlayerInput(p, t, buf);
  return std::vector<std::uint8_t>(buf, buf + n);
}

/// Hex of bytes ("." when empty), as the protocol writes payloads.
inline std::string hex(const std::vector<std::uint8_t>& b) {
  std::string s;
  peer::appendHex(b.data(), b.size(), s);
  return s;
}

/// What a late joiner does with a join reply over the `input` scenario:
/// restores the `snapshot` line into `run`, then steps every `confirmed`
/// line's concatenated inputs, checking each tick's hash against the line.
/// Returns the number of ticks stepped, or -1 on a mismatch or failure.
inline int catchUpFrom(const std::vector<std::string>& lines, ScenarioRun& run) {
  int stepped = 0;
  std::vector<std::uint8_t> bytes;
  for (const std::string& line : lines) {
    const std::vector<std::string> w = words(line);
    if (w[0] == "snapshot") {
      if (peer::decodeHex(w[3], bytes) != std::string_view::npos) return -1;
      if (run.world().restore(bytes).isError()) return -1;
      std::uint64_t tick = 0;
      if (!peer::parseU64(w[2], tick) || run.tick() != tick) return -1;
    } else if (w[0] == "confirmed") {
      std::vector<std::vector<std::uint8_t>> inputs;
      for (std::size_t i = 4; i < w.size(); ++i) {
        if (peer::decodeHex(w[i], bytes) != std::string_view::npos) return -1;
        inputs.push_back(bytes);
      }
      const std::vector<std::uint8_t> all = concatInputs(inputs);
      TickInput in;
      in.data = all.empty() ? nullptr : all.data();
      in.size = static_cast<std::uint32_t>(all.size());
      if (run.step(in).isError()) return -1;
      std::uint64_t hash = 0;
      if (!peer::parseHash(w[3], hash) || hash != run.hash()) return -1;
      ++stepped;
    }
  }
  return stepped;
}

}  // namespace laige::serve::test
