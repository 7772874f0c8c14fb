// match_state.h - the state of one match of `laige-peer --serve` (match.h),
// shared by match.cpp (the protocol's requests) and match_desync.cpp (its
// desync investigations). Internal to the server: not a public header.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "laige/rollback.h"
#include "match.h"
#include "match_desync.h"
#include "peer_text.h"

namespace laige::serve {

using peer::appendHash;
using peer::appendHex;
using peer::appendU64;

// One player slot.
struct MatchSlot {
  SlotState state = SlotState::Free;
  ConnId conn = 0;
  std::uint64_t token = 0;
  // The next tick this slot's input is expected for (inputs are sent in order).
  std::uint64_t nextTick = 1;
  // Away: dropped when the match confirms this tick.
  std::uint64_t dropAt = 0;
  // A desync investigation was opened for this slot's connection (one per
  // connection: docs/netplay-protocol.md#desync-reports).
  bool investigated = false;
};

// A kept-snapshot slot that holds no snapshot yet.
constexpr std::uint64_t kNoSnapshot = ~std::uint64_t{0};

struct Match::State {
  explicit State(ScenarioRun r) noexcept : run(std::move(r)) {}

  ScenarioRun run;
  std::string id;
  std::uint32_t players = 0;
  std::uint32_t maxInputBytes = kMaxMatchInputBytes;
  RollbackSession::CombineFn combine = nullptr;
  MatchOptions options;
  bool started = false;
  std::uint64_t joins = 0;
  MatchSlot slot[kMaxMatchPlayers];
  std::vector<ConnId> spectators;
  // Pending inputs (ticks confirmed+1 .. confirmed+lead): [tick % lead][player].
  std::vector<std::uint8_t> pendingBytes;
  std::vector<std::uint8_t> pendingSize;
  // Confirmed inputs of the last keptTicks ticks (2 x snapshotEvery +
  // spectatorDelay: back to the spectators' kept snapshot, and back to the
  // keyframe of any of the last snapshotEvery ticks for a desync
  // investigation): [tick % keptTicks][player].
  std::vector<std::uint8_t> confirmedBytes;
  std::vector<std::uint8_t> confirmedSize;
  std::uint32_t keptTicks = 0;
  // Confirmed hashes: [tick % hashRing] (hashHistory + spectatorDelay: the
  // spectators' report window ends spectatorDelay ticks back).
  std::vector<std::uint64_t> hashes;
  std::uint32_t hashRing = 0;
  std::vector<std::uint8_t> combined;
  // Kept snapshots, one per snapshotEvery ticks: [(tick / snapshotEvery) %
  // size]; spectatorDelay / snapshotEvery + 2 of them hold both the newest
  // (players join from it) and the newest at or before the spectators' tick.
  std::vector<std::vector<std::uint8_t>> snapshots;
  std::vector<std::uint64_t> snapshotTicks;  // the tick each kept snapshot is of (kNoSnapshot: none)
  std::uint64_t snapshotTick = 0;
  // The open desync investigation (at most one) and the confirmed tick it closes at.
  MatchInvestigation investigation;
  std::uint64_t investigationEnds = 0;
  // Reused line buffers (a broadcast line is built once, then copied per
  // member): after the first ticks, relaying and confirming allocate nothing.
  std::string line;
  std::string eventLine;
  MatchStats stats;

  std::uint64_t confirmed() const noexcept { return run.tick(); }
  // The last tick the spectators were sent.
  std::uint64_t spectatorTick() const noexcept {
    return confirmed() > options.spectatorDelay ? confirmed() - options.spectatorDelay : 0;
  }
  std::vector<std::uint8_t>& snapshotOf(std::uint64_t tick) noexcept {
    return snapshots[(tick / options.snapshotEvery) % snapshots.size()];
  }
  std::uint64_t& hashOf(std::uint64_t tick) noexcept { return hashes[tick % hashRing]; }
  std::uint8_t* pending(std::uint64_t tick, std::uint32_t p) noexcept {
    return pendingBytes.data() + ((tick % kMatchInputLead) * players + p) * maxInputBytes;
  }
  std::uint8_t& pendingLen(std::uint64_t tick, std::uint32_t p) noexcept {
    return pendingSize[(tick % kMatchInputLead) * players + p];
  }
  std::uint8_t* kept(std::uint64_t tick, std::uint32_t p) noexcept {
    return confirmedBytes.data() + ((tick % keptTicks) * players + p) * maxInputBytes;
  }
  std::uint8_t& keptLen(std::uint64_t tick, std::uint32_t p) noexcept {
    return confirmedSize[(tick % keptTicks) * players + p];
  }

  // "<conn> " then the caller writes the message and '\n'.
  static void to(ConnId conn, std::string& out) {
    appendU64(conn, out);
    out += ' ';
  }
  // One refusal line: `<conn> error <reason>[ key=value ...]\n`.
  struct Field {
    const char* key;
    std::uint64_t value;
  };
  void refuse(ConnId conn, const char* reason, std::string& out, std::initializer_list<Field> fields = {}) {
    ++stats.refused;
    to(conn, out);
    out += "error ";
    out += reason;
    for (const Field& f : fields) {
      out += ' ';
      out += f.key;
      out += '=';
      appendU64(f.value, out);
    }
    out += '\n';
  }
  // Appends `message` (no '\n') to every connected player but `except`, and to
  // the spectators when `spectatorsToo`.
  void broadcast(std::string_view message, ConnId except, bool spectatorsToo, std::string& out) {
    for (std::uint32_t p = 0; p < players; ++p) {
      if (slot[p].state != SlotState::Connected || slot[p].conn == except) continue;
      to(slot[p].conn, out);
      out += message;
      out += '\n';
    }
    if (!spectatorsToo) return;
    for (const ConnId c : spectators) {
      if (c == except) continue;
      to(c, out);
      out += message;
      out += '\n';
    }
  }
  void appendInputLine(std::uint32_t p, std::uint64_t tick, const std::uint8_t* b, std::uint32_t n, std::string& s) {
    s += "input ";
    s += id;
    s += ' ';
    appendU64(p, s);
    s += ' ';
    appendU64(tick, s);
    s += ' ';
    appendHex(b, n, s);
  }
  void appendConfirmedLine(std::uint64_t tick, std::string& s) {
    s += "confirmed ";
    s += id;
    s += ' ';
    appendU64(tick, s);
    s += ' ';
    appendHash(hashOf(tick), s);
    for (std::uint32_t p = 0; p < players; ++p) {
      s += ' ';
      appendHex(kept(tick, p), keptLen(tick, p), s);
    }
  }
  void playerEvent(std::uint32_t p, const char* what, ConnId except, std::string& out) {
    eventLine = "player ";
    eventLine += id;
    eventLine += ' ';
    appendU64(p, eventLine);
    eventLine += ' ';
    eventLine += what;
    eventLine += ' ';
    appendU64(confirmed(), eventLine);
    broadcast(eventLine, except, true, out);
  }

  // The join reply's tail: the kept snapshot, the confirmed inputs since
  // it, and (for a player) the inputs already sent for unconfirmed ticks.
  // A spectator's ends at spectatorTick(), from the kept snapshot before it.
  void catchUp(ConnId conn, bool player, std::string& out) {
    const std::uint64_t last = player ? confirmed() : spectatorTick();
    const std::uint64_t from = player ? snapshotTick : last / options.snapshotEvery * options.snapshotEvery;
    const std::vector<std::uint8_t>& snapshot = snapshotOf(from);
    to(conn, out);
    out += "snapshot ";
    out += id;
    out += ' ';
    appendU64(from, out);
    out += ' ';
    out.reserve(out.size() + snapshot.size() * 2 + 1);
    appendHex(snapshot.data(), snapshot.size(), out);
    out += '\n';
    for (std::uint64_t t = from + 1; t <= last; ++t) {
      to(conn, out);
      appendConfirmedLine(t, out);
      out += '\n';
    }
    if (!player) return;
    for (std::uint32_t p = 0; p < players; ++p) {
      for (std::uint64_t t = confirmed() + 1; t < slot[p].nextTick; ++t) {
        to(conn, out);
        appendInputLine(p, t, pending(t, p), pendingLen(t, p), out);
        out += '\n';
      }
    }
  }

  bool keepSnapshot() noexcept {
    std::vector<std::uint8_t>& snapshot = snapshotOf(confirmed());
    std::uint64_t& keptTick = snapshotTicks[(confirmed() / options.snapshotEvery) % snapshots.size()];
    keptTick = kNoSnapshot;
    snapshot.resize(run.world().snapshotSize());
    if (run.world().snapshot(snapshot).isError()) return false;
    keptTick = confirmed();
    snapshotTick = confirmed();
    stats.snapshotBytes = snapshot.size();
    stats.snapshotTick = snapshotTick;
    return true;
  }

  // Runs every tick whose inputs are all known: a connected player's must
  // have arrived; a missing player's is filled with the empty input (and
  // sent to the players). Needs one connected player, else nothing moves.
  void confirmTicks(std::string& out) {
    if (!started) return;
    for (;;) {
      const std::uint64_t t = confirmed() + 1;
      bool anyConnected = false;
      for (std::uint32_t p = 0; p < players; ++p) {
        if (slot[p].state != SlotState::Connected) continue;
        anyConnected = true;
        if (slot[p].nextTick <= t) return;
      }
      if (!anyConnected) return;
      RollbackTickInputs inputs;
      inputs.players = players;
      for (std::uint32_t p = 0; p < players; ++p) {
        if (slot[p].nextTick <= t) {
          // The missing-player rule: the empty input, sent like a real one.
          pendingLen(t, p) = 0;
          slot[p].nextTick = t + 1;
          line.clear();
          appendInputLine(p, t, nullptr, 0, line);
          broadcast(line, 0, false, out);
        }
        inputs.input[p] = std::span<const std::uint8_t>(pending(t, p), pendingLen(t, p));
        std::memcpy(kept(t, p), pending(t, p), pendingLen(t, p));
        keptLen(t, p) = pendingLen(t, p);
      }
      std::uint32_t written = 0;
      if (combine(nullptr, t, inputs, combined, written).isError()) return;  // sized at create: cannot fail
      TickInput in;
      in.data = written == 0 ? nullptr : combined.data();
      in.size = written;
      if (run.step(in).isError()) return;  // the built-in scenarios do not fail a tick
      hashOf(t) = run.hash();
      stats.confirmedTick = t;
      if (!spectators.empty() && t > options.spectatorDelay) {
        line.clear();
        appendConfirmedLine(t - options.spectatorDelay, line);
        for (const ConnId c : spectators) {
          to(c, out);
          out += line;
          out += '\n';
        }
      }
      if (t % options.snapshotEvery == 0) keepSnapshot();
      if (investigation.isOpen() && t >= investigationEnds) closeInvestigation("expired", out);
      for (std::uint32_t p = 0; p < players; ++p) {
        if (slot[p].state == SlotState::Away && t >= slot[p].dropAt) {
          slot[p].state = SlotState::Dropped;
          slot[p].conn = 0;
          playerEvent(p, "dropped", 0, out);
        }
      }
    }
  }

  // --- Desync investigations (match_desync.cpp; docs/netplay-protocol.md#desync-reports) ---
  // Player p's confirmed input of `tick` from the kept inputs (a KeptInputFn).
  static std::span<const std::uint8_t> keptInput(const void* context, std::uint64_t tick, std::uint32_t p) noexcept;
  // After player p's `desync` verdict of `tick`: opens the match's
  // investigation of that tick for it (`desync-open`), or says why not
  // (`desync-closed ... reason=`).
  void investigate(std::uint32_t p, ConnId conn, std::uint64_t tick, std::uint64_t expected, std::string& out);
  // Closes the open investigation, telling its player why when it is still connected.
  void closeInvestigation(std::string_view why, std::string& out);
  // Player p's connection leaves: its investigation (if any) ends.
  void endInvestigationOf(std::uint32_t p) noexcept;
  void desyncStateLine(ConnId conn, const char* verb, std::uint64_t tick, std::string& out);

  std::uint32_t findPlayer(ConnId conn) const noexcept {
    for (std::uint32_t p = 0; p < players; ++p) {
      if (slot[p].state == SlotState::Connected && slot[p].conn == conn) return p;
    }
    return kMaxMatchPlayers;
  }
  bool isSpectator(ConnId conn) const noexcept {
    for (const ConnId c : spectators) {
      if (c == conn) return true;
    }
    return false;
  }
  void appendJoined(ConnId conn, const char* role, std::uint32_t p, std::uint64_t token, std::string& out) {
    to(conn, out);
    out += "joined ";
    out += id;
    out += ' ';
    out += role;
    out += ' ';
    if (p < kMaxMatchPlayers) {
      appendU64(p, out);
      out += ' ';
      appendHash(token, out);
    } else {
      out += "- -";
    }
    out += ' ';
    appendU64(players, out);
    out += ' ';
    out += run.scenario().name;
    char seed[24];
    std::snprintf(seed, sizeof seed, " 0x%llx\n", static_cast<unsigned long long>(run.seed()));
    out += seed;
  }
};

}  // namespace laige::serve
