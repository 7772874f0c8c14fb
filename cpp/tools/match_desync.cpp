// match_desync.cpp - a match's desync investigation (match_desync.h), and
// the match's side of it (match_state.h: opening one after a player's
// `desync` verdict, closing it, the `desync-msg` request;
// docs/netplay-protocol.md#desync-reports).
#include "match_desync.h"

#include <utility>
#include <vector>

#include "laige/desync.h"
#include "laige/desync_exchange.h"
#include "match_state.h"
#include "peer_session.h"
#include "peer_text.h"

namespace laige::serve {

struct MatchInvestigation::State {
  DesyncExchange exchange;
  std::uint64_t tick = 0;
  std::uint32_t player = 0;
  std::uint64_t conn = 0;
  std::uint32_t requests = 0;
  std::uint64_t answerBytes = 0;
  // Where the exchange's answers go during receive() (the send callback).
  std::string* out = nullptr;
  std::string_view match;
  std::uint64_t sent = 0;
};

namespace {

void sendAnswer(void* context, std::span<const std::uint8_t> message) noexcept {
  auto& s = *static_cast<MatchInvestigation::State*>(context);
  if (s.out == nullptr) return;  // the server never starts a walk: nothing is sent outside receive()
  peer::appendU64(s.conn, *s.out);
  *s.out += " desync-msg ";
  *s.out += s.match;
  *s.out += ' ';
  s.out->reserve(s.out->size() + 2 * message.size() + 1);
  peer::appendHex(message.data(), message.size(), *s.out);
  *s.out += '\n';
  s.sent += message.size();
}

// Ticks keyframeTick + 1 .. tick of the match again in `run` (a fresh run
// of its scenario), from its keyframe, with per-system checkpoints on.
Status rerun(const MatchPinSource& src, std::uint64_t tick, ScenarioRun& run, DesyncPin& pin) noexcept {
  if (Status st = run.world().restore(src.keyframe); st.isError()) return st;
  if (Status st = setSystemCheckpoints(run.world(), true); st.isError()) return st;
  std::vector<std::uint8_t> combined(src.combinedBytes);
  for (std::uint64_t t = src.keyframeTick + 1; t <= tick; ++t) {
    RollbackTickInputs inputs;
    inputs.players = src.players;
    for (std::uint32_t p = 0; p < src.players; ++p) inputs.input[p] = src.input(src.inputContext, t, p);
    std::uint32_t written = 0;
    if (Status st = src.combine(nullptr, t, inputs, combined, written); st.isError()) return st;
    TickInput in;
    in.data = written == 0 ? nullptr : combined.data();
    in.size = written;
    if (Status st = run.step(in); st.isError()) return st;
  }
  const std::uint64_t got = run.hash();
  if (got != src.expected) {
    return Status::failure(ErrorCode::InvalidArgument, "desync_pin_mismatch")
        .with("tick", tick)
        .with("expected", src.expected)
        .with("got", got);
  }
  const std::span<const SystemCheckpoint> cps = systemCheckpoints(run.world());
  pin.checkpoints.assign(cps.begin(), cps.end());
  pin.snapshot.resize(run.world().snapshotSize());
  if (Status st = run.world().snapshot(pin.snapshot); st.isError()) return st;
  pin.tick = tick;
  return Status{};
}

}  // namespace

Result<MatchInvestigation> MatchInvestigation::open(const MatchPinSource& source, std::uint64_t tick,
                                                    std::uint32_t player, std::uint64_t conn) noexcept {
  Result<ScenarioRun> run = ScenarioRun::create(*source.scenario, source.seed);
  if (run.isError()) return run.status();
  DesyncPin pin;
  if (Status st = rerun(source, tick, run.value(), pin); st.isError()) return st;
  MatchInvestigation inv;
  inv.s_ = std::make_unique<State>();
  State& s = *inv.s_;
  s.tick = tick;
  s.player = player;
  s.conn = conn;
  DesyncExchange::Options o;
  o.send = &sendAnswer;
  o.sendContext = &s;
  o.pin = nullptr;  // only this tick is answered
  // The scratch world gets the setup of the re-run's world (the match's).
  Result<DesyncExchange> x = DesyncExchange::create(run.value().world(), o);
  if (x.isError()) return x.status();
  s.exchange = std::move(x).takeValue();
  if (Status st = s.exchange.pin(pin); st.isError()) return st;
  return inv;
}

MatchInvestigation::MatchInvestigation() noexcept = default;
MatchInvestigation::MatchInvestigation(MatchInvestigation&&) noexcept = default;
MatchInvestigation& MatchInvestigation::operator=(MatchInvestigation&&) noexcept = default;
MatchInvestigation::~MatchInvestigation() = default;

Status MatchInvestigation::receive(std::span<const std::uint8_t> message, std::string_view match,
                                   std::string& out) noexcept {
  State& s = *s_;
  if (s.requests >= kMaxDesyncRequests || s.answerBytes >= kMaxDesyncAnswerBytes) {
    return Status::failure(ErrorCode::BudgetExhausted, "match_desync_budget")
        .with("requests", s.requests)
        .with("bytes", s.answerBytes);
  }
  s.out = &out;
  s.match = match;
  s.sent = 0;
  const Status st = s.exchange.receive(message);
  s.out = nullptr;
  if (st.ok()) {
    ++s.requests;
    s.answerBytes += s.sent;
  }
  return st;
}

std::uint64_t MatchInvestigation::tick() const noexcept { return s_ ? s_->tick : 0; }
std::uint32_t MatchInvestigation::player() const noexcept { return s_ ? s_->player : 0; }
std::uint64_t MatchInvestigation::conn() const noexcept { return s_ ? s_->conn : 0; }
std::uint32_t MatchInvestigation::requests() const noexcept { return s_ ? s_->requests : 0; }
std::uint64_t MatchInvestigation::answerBytes() const noexcept { return s_ ? s_->answerBytes : 0; }


// --- The match's side (Match::State, match_state.h) ---------------------------

std::span<const std::uint8_t> Match::State::keptInput(const void* context, std::uint64_t tick,
                                                      std::uint32_t p) noexcept {
  const State& s = *static_cast<const State*>(context);
  const std::size_t at = (tick % s.keptTicks) * s.players + p;
  return {s.confirmedBytes.data() + at * s.maxInputBytes, s.confirmedSize[at]};
}

void Match::State::desyncStateLine(ConnId conn, const char* verb, std::uint64_t tick, std::string& out) {
  to(conn, out);
  out += verb;
  out += ' ';
  out += id;
  out += ' ';
  appendU64(tick, out);
}

void Match::State::closeInvestigation(std::string_view why, std::string& out) {
  const std::uint32_t p = investigation.player();
  if (slot[p].state == SlotState::Connected && slot[p].conn == investigation.conn()) {
    desyncStateLine(investigation.conn(), "desync-closed", investigation.tick(), out);
    out += " reason=";
    out += why;
    out += '\n';
  }
  investigation = MatchInvestigation{};
}

void Match::State::endInvestigationOf(std::uint32_t p) noexcept {
  if (investigation.isOpen() && investigation.player() == p) investigation = MatchInvestigation{};
}

void Match::State::investigate(std::uint32_t p, ConnId conn, std::uint64_t tick, std::uint64_t expected,
                               std::string& out) {
  // The same player asking about the same tick again is told it is open.
  const bool same = investigation.isOpen() && investigation.player() == p && investigation.tick() == tick;
  std::string_view why;
  if (!same && investigation.isOpen()) why = "busy";
  else if (!same && slot[p].investigated) why = "done";
  // The keyframe at or before the tick, and the confirmed inputs since it.
  // (Tick 0 is the setup, before any system ran: exchanges walk ticks from 1.)
  const std::uint64_t keyframe = tick / options.snapshotEvery * options.snapshotEvery;
  const bool kept = tick != 0 && snapshotTicks[(keyframe / options.snapshotEvery) % snapshots.size()] == keyframe &&
                    confirmed() - keyframe <= keptTicks;
  if (why.empty() && !same && !kept) why = "tick_unavailable";
  if (why.empty() && !same) {
    MatchPinSource src;
    src.scenario = &run.scenario();
    src.seed = run.seed();
    src.keyframe = snapshotOf(keyframe);
    src.keyframeTick = keyframe;
    src.input = &keptInput;
    src.inputContext = this;
    src.players = players;
    src.combine = combine;
    src.combinedBytes = static_cast<std::uint32_t>(combined.size());
    src.expected = expected;
    Result<MatchInvestigation> opened = MatchInvestigation::open(src, tick, p, conn);
    if (opened.isError()) {
      why = opened.status().reason();
    } else {
      investigation = std::move(opened).takeValue();
      investigationEnds = confirmed() + options.desyncTicks;
      slot[p].investigated = true;
      ++stats.investigations;
    }
  }
  if (!why.empty()) {
    desyncStateLine(conn, "desync-closed", tick, out);
    out += " reason=";
    out += why;
    out += '\n';
    return;
  }
  desyncStateLine(conn, "desync-open", tick, out);
  out += ' ';
  appendHash(expected, out);
  out += '\n';
}

void Match::desyncMessage(ConnId conn, const std::uint8_t* bytes, std::uint32_t size, std::string& out) {
  State& s = *s_;
  const std::uint32_t p = s.findPlayer(conn);
  if (p == kMaxMatchPlayers) {
    s.refuse(conn, s.isSpectator(conn) ? "match_not_player" : "match_not_member", out);
    return;
  }
  if (size > kMaxDesyncRequestBytes) {
    s.refuse(conn, "match_desync_too_large", out, {{"bytes", size}, {"max", kMaxDesyncRequestBytes}});
    return;
  }
  if (!s.investigation.isOpen() || s.investigation.player() != p) {
    s.refuse(conn, "match_desync_not_open", out, {{"player", p}});
    return;
  }
  const Status st = s.investigation.receive(std::span<const std::uint8_t>(bytes, size), s.id, out);
  if (st.ok()) return;
  ++s.stats.refused;
  State::to(conn, out);
  peer::appendError(st, out);
  if (std::string_view(st.reason()) == "match_desync_budget") s.closeInvestigation("budget", out);
}

}  // namespace laige::serve
