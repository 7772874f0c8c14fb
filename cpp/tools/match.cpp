// match.cpp - one match of `laige-peer --serve` (match.h).
#include "match.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <span>
#include <utility>

#include "laige/rollback.h"
#include "match_state.h"
#include "player_input.h"

namespace laige::serve {

namespace {

// A splitmix64 step: the reconnect tokens (not secret-grade; they only keep
// a confused or hostile client from taking another player's slot by guessing).
std::uint64_t mix64(std::uint64_t x) noexcept {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

}  // namespace

using Slot = MatchSlot;

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
  s->options.desyncTicks = std::clamp<std::uint32_t>(options.desyncTicks, 1, 1000000);
  s->keptTicks = 2 * s->options.snapshotEvery + s->options.spectatorDelay;
  s->hashRing = std::max(s->options.hashHistory, s->options.snapshotEvery) + s->options.spectatorDelay + 1;
  s->snapshots.resize(s->options.spectatorDelay / s->options.snapshotEvery + 2);
  s->snapshotTicks.assign(s->snapshots.size(), kNoSnapshot);
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
    return;
  }
  if (spectator) {
    if (s.spectators.size() >= kMaxMatchSpectators) {
      s.refuse(conn, "match_full", out, {{"spectators", kMaxMatchSpectators}});
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
    s.refuse(conn, "match_full", out, {{"players", s.players}});
    return;
  }
  Slot& slot = s.slot[p];
  slot.state = SlotState::Connected;
  slot.conn = conn;
  slot.token = mix64(s.options.tokenSecret ^ mix64(++s.joins) ^ (std::uint64_t{p} << 56) ^ conn);
  slot.investigated = false;
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
    s.refuse(conn, "match_bad_player", out, {{"player", player}, {"players", s.players}});
    return;
  }
  if (s.findPlayer(conn) < kMaxMatchPlayers || s.isSpectator(conn)) {
    s.refuse(conn, "match_already_joined", out);
    return;
  }
  Slot& slot = s.slot[player];
  if (slot.state != SlotState::Away) {
    s.refuse(conn, "match_not_away", out, {{"player", player}});
    return;
  }
  if (token != slot.token) {
    s.refuse(conn, "match_bad_token", out, {{"player", player}});
    return;
  }
  slot.state = SlotState::Connected;
  slot.conn = conn;
  slot.investigated = false;
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
    return;
  }
  if (size > s.maxInputBytes) {
    s.refuse(conn, "match_input_too_large", out, {{"size", size}, {"max", s.maxInputBytes}});
    return;
  }
  Slot& slot = s.slot[p];
  if (tick != slot.nextTick) {
    s.refuse(conn, "match_tick_order", out, {{"expected", slot.nextTick}, {"got", tick}});
    return;
  }
  if (tick > s.confirmed() + kMatchInputLead) {
    s.refuse(conn, "match_input_ahead", out, {{"tick", tick}, {"confirmed", s.confirmed()}, {"lead", kMatchInputLead}});
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
    return;
  }
  // A spectator's window ends at the last tick it was sent.
  const std::uint64_t confirmed = p == kMaxMatchPlayers ? s.spectatorTick() : s.confirmed();
  const std::uint64_t oldest = confirmed + 1 > s.options.hashHistory ? confirmed + 1 - s.options.hashHistory : 0;
  if (tick > confirmed || tick < oldest) {
    s.refuse(conn, "match_hash_unknown_tick", out, {{"tick", tick}, {"confirmed", confirmed}, {"oldest", oldest}});
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
  if (p != kMaxMatchPlayers) s.investigate(p, conn, tick, expected, out);
}

void Match::leave(ConnId conn, std::string& out) {
  State& s = *s_;
  const std::uint32_t p = s.findPlayer(conn);
  if (p == kMaxMatchPlayers && !s.isSpectator(conn)) {
    s.refuse(conn, "match_not_member", out);
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
  s.endInvestigationOf(p);
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
  s.endInvestigationOf(p);
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
std::uint64_t Match::investigatedTick() const noexcept {
  return s_->investigation.isOpen() ? s_->investigation.tick() : 0;
}
const ScenarioRun& Match::run() const noexcept { return s_->run; }

}  // namespace laige::serve
