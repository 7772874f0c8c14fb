// match.cpp - one match of `laige-peer --serve` (match.h).
#include "match.h"

#include <algorithm>
#include <cstring>
#include <span>
#include <utility>

#include "laige/rollback.h"
#include "peer_text.h"
#include "player_input.h"

namespace laige::serve {

using peer::appendHash;
using peer::appendHex;
using peer::appendU64;

namespace {

// A splitmix64 step: the reconnect tokens (not secret-grade; they only keep
// a confused or hostile client from taking another player's slot by guessing).
std::uint64_t mix64(std::uint64_t x) noexcept {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

struct Slot {
  SlotState state = SlotState::Free;
  ConnId conn = 0;
  std::uint64_t token = 0;
  // The next tick this slot's input is expected for (inputs are sent in order).
  std::uint64_t nextTick = 1;
  // Away: dropped when the match confirms this tick.
  std::uint64_t dropAt = 0;
};

}  // namespace

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
  Slot slot[kMaxMatchPlayers];
  std::vector<ConnId> spectators;
  // Pending inputs (ticks confirmed+1 .. confirmed+lead): [tick % lead][player].
  std::vector<std::uint8_t> pendingBytes;
  std::vector<std::uint8_t> pendingSize;
  // Confirmed inputs of the last keptTicks ticks (snapshotEvery +
  // spectatorDelay: back to the spectators' kept snapshot): [tick % keptTicks][player].
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
  std::uint64_t snapshotTick = 0;
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
  void refuse(ConnId conn, const char* reason, std::string& out) {
    ++stats.refused;
    to(conn, out);
    out += "error ";
    out += reason;
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
    snapshot.resize(run.world().snapshotSize());
    if (run.world().snapshot(snapshot).isError()) return false;
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
      for (std::uint32_t p = 0; p < players; ++p) {
        if (slot[p].state == SlotState::Away && t >= slot[p].dropAt) {
          slot[p].state = SlotState::Dropped;
          slot[p].conn = 0;
          playerEvent(p, "dropped", 0, out);
        }
      }
    }
  }

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

Result<Match> Match::create(std::string_view id, const Scenario& scenario, std::uint64_t seed, std::uint32_t players,
                            const MatchOptions& options) noexcept {
  if (players == 0 || players > kMaxMatchPlayers) {
    return Status::failure(ErrorCode::InvalidArgument, "match_bad_players").with("players", players);
  }
  Result<ScenarioRun> run = ScenarioRun::create(scenario, seed);
  if (run.isError()) return run.status();
  auto s = std::make_unique<State>(std::move(run).takeValue());
  s->id.assign(id);
  s->players = players;
  s->options = options;
  // Clamped: a zero would divide by zero in the rings' indexing.
  s->options.snapshotEvery = std::clamp<std::uint32_t>(options.snapshotEvery, 1, 3600);
  s->options.hashHistory = std::clamp<std::uint32_t>(options.hashHistory, 1, 4096);
  s->options.reconnectTicks = std::min<std::uint32_t>(options.reconnectTicks, 1000000);
  s->options.spectatorDelay = std::min(options.spectatorDelay, kMaxSpectatorDelay);
  s->keptTicks = s->options.snapshotEvery + s->options.spectatorDelay;
  s->hashRing = std::max(s->options.hashHistory, s->options.snapshotEvery) + s->options.spectatorDelay + 1;
  s->snapshots.resize(s->options.spectatorDelay / s->options.snapshotEvery + 2);
  const PlayerInputGenerator* g = findPlayerInputGenerator(scenario.name);
  s->maxInputBytes = g != nullptr ? g->maxInputBytes : kMaxMatchInputBytes;
  s->combine = g != nullptr && g->concatenate ? &RollbackSession::combineConcatenated
                                              : &RollbackSession::combineLengthPrefixed;
  s->pendingBytes.resize(std::size_t{kMatchInputLead} * players * s->maxInputBytes);
  s->pendingSize.resize(std::size_t{kMatchInputLead} * players);
  s->confirmedBytes.resize(std::size_t{s->keptTicks} * players * s->maxInputBytes);
  s->confirmedSize.resize(std::size_t{s->keptTicks} * players);
  s->hashes.resize(s->hashRing);
  s->hashOf(0) = s->run.hash();
  s->combined.resize(std::size_t{players} * (1 + s->maxInputBytes));
  s->stats.players = players;
  if (!s->keepSnapshot()) return Status::failure(ErrorCode::InvalidArgument, "match_snapshot_failed");
  return Match(std::move(s));
}

Match::Match(std::unique_ptr<State> s) noexcept : s_(std::move(s)) {}
Match::Match(Match&&) noexcept = default;
Match& Match::operator=(Match&&) noexcept = default;
Match::~Match() = default;

void Match::join(ConnId conn, bool spectator, std::string& out) {
  State& s = *s_;
  if (s.findPlayer(conn) < kMaxMatchPlayers || s.isSpectator(conn)) {
    s.refuse(conn, "match_already_joined", out);
    out += '\n';
    return;
  }
  if (spectator) {
    if (s.spectators.size() >= kMaxMatchSpectators) {
      s.refuse(conn, "match_full", out);
      out += " spectators=";
      appendU64(kMaxMatchSpectators, out);
      out += '\n';
      return;
    }
    s.spectators.push_back(conn);
    s.appendJoined(conn, "spectator", kMaxMatchPlayers, 0, out);
    s.catchUp(conn, false, out);
    s.stats.spectators = static_cast<std::uint32_t>(s.spectators.size());
    return;
  }
  std::uint32_t p = 0;
  while (p < s.players && s.slot[p].state != SlotState::Free && s.slot[p].state != SlotState::Dropped) ++p;
  if (p == s.players) {
    s.refuse(conn, "match_full", out);
    out += " players=";
    appendU64(s.players, out);
    out += '\n';
    return;
  }
  Slot& slot = s.slot[p];
  slot.state = SlotState::Connected;
  slot.conn = conn;
  slot.token = mix64(s.options.tokenSecret ^ mix64(++s.joins) ^ (std::uint64_t{p} << 56) ^ conn);
  if (slot.nextTick < s.confirmed() + 1) slot.nextTick = s.confirmed() + 1;
  ++s.stats.connected;
  s.appendJoined(conn, "player", p, slot.token, out);
  s.catchUp(conn, true, out);
  s.playerEvent(p, "joined", 0, out);  // to the joiner too: the last line of its catch-up
  if (!s.started) {
    bool all = true;
    for (std::uint32_t q = 0; q < s.players; ++q) all = all && s.slot[q].state == SlotState::Connected;
    if (all) {
      s.started = true;
      std::string line = "start ";
      line += s.id;
      line += " 0";
      s.broadcast(line, 0, true, out);
    }
  }
  s.confirmTicks(out);
}

void Match::rejoin(ConnId conn, std::uint32_t player, std::uint64_t token, std::string& out) {
  State& s = *s_;
  if (player >= s.players) {
    s.refuse(conn, "match_bad_player", out);
    out += " player=";
    appendU64(player, out);
    out += " players=";
    appendU64(s.players, out);
    out += '\n';
    return;
  }
  if (s.findPlayer(conn) < kMaxMatchPlayers || s.isSpectator(conn)) {
    s.refuse(conn, "match_already_joined", out);
    out += '\n';
    return;
  }
  Slot& slot = s.slot[player];
  if (slot.state != SlotState::Away) {
    s.refuse(conn, "match_not_away", out);
    out += " player=";
    appendU64(player, out);
    out += '\n';
    return;
  }
  if (token != slot.token) {
    s.refuse(conn, "match_bad_token", out);
    out += " player=";
    appendU64(player, out);
    out += '\n';
    return;
  }
  slot.state = SlotState::Connected;
  slot.conn = conn;
  ++s.stats.connected;
  s.appendJoined(conn, "player", player, slot.token, out);
  s.catchUp(conn, true, out);
  s.playerEvent(player, "back", 0, out);  // to the rejoiner too: the last line of its catch-up
}

void Match::input(ConnId conn, std::uint64_t tick, const std::uint8_t* bytes, std::uint32_t size, std::string& out) {
  State& s = *s_;
  const std::uint32_t p = s.findPlayer(conn);
  if (p == kMaxMatchPlayers) {
    s.refuse(conn, s.isSpectator(conn) ? "match_spectator_input" : "match_not_member", out);
    out += '\n';
    return;
  }
  if (size > s.maxInputBytes) {
    s.refuse(conn, "match_input_too_large", out);
    out += " size=";
    appendU64(size, out);
    out += " max=";
    appendU64(s.maxInputBytes, out);
    out += '\n';
    return;
  }
  Slot& slot = s.slot[p];
  if (tick != slot.nextTick) {
    s.refuse(conn, "match_tick_order", out);
    out += " expected=";
    appendU64(slot.nextTick, out);
    out += " got=";
    appendU64(tick, out);
    out += '\n';
    return;
  }
  if (tick > s.confirmed() + kMatchInputLead) {
    s.refuse(conn, "match_input_ahead", out);
    out += " tick=";
    appendU64(tick, out);
    out += " confirmed=";
    appendU64(s.confirmed(), out);
    out += " lead=";
    appendU64(kMatchInputLead, out);
    out += '\n';
    return;
  }
  if (size != 0) std::memcpy(s.pending(tick, p), bytes, size);
  s.pendingLen(tick, p) = static_cast<std::uint8_t>(size);
  slot.nextTick = tick + 1;
  s.line.clear();
  s.appendInputLine(p, tick, bytes, size, s.line);
  s.broadcast(s.line, conn, false, out);
  s.confirmTicks(out);
}

void Match::reportHash(ConnId conn, std::uint64_t tick, std::uint64_t hash, std::string& out) {
  State& s = *s_;
  const std::uint32_t p = s.findPlayer(conn);
  if (p == kMaxMatchPlayers && !s.isSpectator(conn)) {
    s.refuse(conn, "match_not_member", out);
    out += '\n';
    return;
  }
  // A spectator's window ends at the last tick it was sent.
  const std::uint64_t confirmed = p == kMaxMatchPlayers ? s.spectatorTick() : s.confirmed();
  const std::uint64_t oldest = confirmed + 1 > s.options.hashHistory ? confirmed + 1 - s.options.hashHistory : 0;
  if (tick > confirmed || tick < oldest) {
    s.refuse(conn, "match_hash_unknown_tick", out);
    out += " tick=";
    appendU64(tick, out);
    out += " confirmed=";
    appendU64(confirmed, out);
    out += " oldest=";
    appendU64(oldest, out);
    out += '\n';
    return;
  }
  const std::uint64_t expected = s.hashOf(tick);
  State::to(conn, out);
  if (expected == hash) {
    ++s.stats.verdicts;
    out += "verdict ";
    out += s.id;
    out += ' ';
    appendU64(tick, out);
    out += " ok\n";
    return;
  }
  ++s.stats.desyncs;
  out += "desync ";
  out += s.id;
  out += ' ';
  appendU64(tick, out);
  out += " player=";
  if (p == kMaxMatchPlayers) out += "spectator";
  else appendU64(p, out);
  out += " expected=";
  appendHash(expected, out);
  out += " got=";
  appendHash(hash, out);
  out += '\n';
}

void Match::leave(ConnId conn, std::string& out) {
  State& s = *s_;
  const std::uint32_t p = s.findPlayer(conn);
  if (p == kMaxMatchPlayers && !s.isSpectator(conn)) {
    s.refuse(conn, "match_not_member", out);
    out += '\n';
    return;
  }
  State::to(conn, out);
  out += "left ";
  out += s.id;
  out += '\n';
  if (p == kMaxMatchPlayers) {
    std::erase(s.spectators, conn);
    s.stats.spectators = static_cast<std::uint32_t>(s.spectators.size());
    return;
  }
  --s.stats.connected;
  s.slot[p].conn = 0;
  s.slot[p].state = s.started ? SlotState::Dropped : SlotState::Free;
  s.playerEvent(p, s.started ? "dropped" : "left", 0, out);
  s.confirmTicks(out);
}

void Match::closed(ConnId conn, std::string& out) {
  State& s = *s_;
  if (std::erase(s.spectators, conn) != 0) s.stats.spectators = static_cast<std::uint32_t>(s.spectators.size());
  const std::uint32_t p = s.findPlayer(conn);
  if (p == kMaxMatchPlayers) return;
  --s.stats.connected;
  Slot& slot = s.slot[p];
  slot.conn = 0;
  if (!s.started) {
    slot.state = SlotState::Free;
    s.playerEvent(p, "left", 0, out);
    return;
  }
  slot.state = SlotState::Away;
  slot.dropAt = s.confirmed() + (s.options.reconnectTicks == 0 ? 1 : s.options.reconnectTicks);
  s.playerEvent(p, "away", 0, out);
  // The others may now be waiting on this player only: its input is filled.
  s.confirmTicks(out);
}

void Match::stats(ConnId conn, std::string& out) const {
  const State& s = *s_;
  State::to(conn, out);
  out += "stats ";
  out += s.id;
  out += " hash=";
  appendHash(s.run.hash(), out);
  const std::pair<const char*, std::uint64_t> fields[] = {
      {" tick=", s.confirmed()},           {" players=", s.players},
      {" connected=", s.stats.connected},  {" spectators=", s.spectators.size()},
      {" verdicts=", s.stats.verdicts},    {" desyncs=", s.stats.desyncs},
      {" refused=", s.stats.refused},      {" snapshot_tick=", s.snapshotTick},
      {" snapshot_bytes=", s.stats.snapshotBytes}};
  for (const auto& [key, value] : fields) {
    out += key;
    appendU64(value, out);
  }
  out += '\n';
}

bool Match::abandoned() const noexcept { return s_->stats.connected == 0 && s_->spectators.empty(); }
bool Match::isMember(ConnId conn) const noexcept {
  return s_->findPlayer(conn) < kMaxMatchPlayers || s_->isSpectator(conn);
}
std::uint64_t Match::confirmedTick() const noexcept { return s_->confirmed(); }
std::uint64_t Match::confirmedHash() const noexcept { return s_->run.hash(); }
MatchStats Match::statsSnapshot() const noexcept {
  MatchStats m = s_->stats;
  m.confirmedTick = s_->confirmed();
  return m;
}
SlotState Match::slotState(std::uint32_t p) const noexcept { return s_->slot[p].state; }
const ScenarioRun& Match::run() const noexcept { return s_->run; }

}  // namespace laige::serve
