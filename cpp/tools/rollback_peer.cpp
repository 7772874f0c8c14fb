// rollback_peer.cpp - laige-peer's rollback mode (rollback_peer.h).
#include "rollback_peer.h"

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "laige/desync_exchange.h"
#include "laige/detail/change_walk.h"
#include "laige/detail/system_registry.h"
#include "laige/detail/world_state.h"
#include "laige/rollback.h"
#include "peer_session.h"
#include "peer_text.h"
#include "player_input.h"
#include "scenario.h"

namespace laige::peer {

namespace {
// setLocalInput accepts ticks up to currentTick + inputLead (32 by default);
// advance gives up to currentTick + 1 + delay.
constexpr std::uint64_t kMaxDelay = kDefaultRollbackInputLead - 1;
}  // namespace

struct RollbackPeerState {
  explicit RollbackPeerState(ScenarioRun r) noexcept : run(std::move(r)) {}

  ScenarioRun run;
  RollbackSession session;
  const PlayerInputGenerator* generator = nullptr;
  std::uint32_t localPlayer = 0;
  std::uint64_t delay = 0;
  // The last tick whose local input an advance reported.
  std::uint64_t localGiven = 0;
  // The ticks the running advance() confirmed (onConfirmed), reserved at session.
  std::vector<std::pair<std::uint64_t, std::uint64_t>> confirmed;
  std::vector<std::uint8_t> bytes;
  // The desync exchange (docs/desync.md#across-peers): its outgoing messages
  // as `desync <hex>` lines until the request's reply is written.
  DesyncExchange exchange;
  std::string desyncOut;
  bool reported = false;
};

namespace {

void recordConfirmed(void* ctx, std::uint64_t tick, std::uint64_t hash) noexcept {
  static_cast<RollbackPeerState*>(ctx)->confirmed.emplace_back(tick, hash);
}

void sendDesync(void* ctx, std::span<const std::uint8_t> m) noexcept {
  std::string& out = static_cast<RollbackPeerState*>(ctx)->desyncOut;
  out += "desync ";
  appendHex(m.data(), m.size(), out);
  out += '\n';
}
Status pinDesync(void* ctx, std::uint64_t tick, DesyncPin& pin) noexcept {
  return pinRollbackTick(static_cast<RollbackPeerState*>(ctx)->session, tick, pin);
}

// The test fault (`fault`): one bit of one component word of one entity,
// flipped at the end of one system's run at one tick, on every run of that
// tick (re-simulations included), as a nondeterministic system would.
struct Fault {
  SystemFn original = nullptr;
  std::uint64_t tick = 0;
  std::uint32_t system = 0;
  ComponentTypeId component = 0;
  std::uint32_t word = 0;
  std::uint32_t bit = 0;
  std::uint32_t pick = 0;
};
Fault gFault;  // one rollback session per process

void faultySystem(World& w, SystemContext& ctx) {
  gFault.original(w, ctx);
  if (ctx.tick != gFault.tick || ctx.id.value != gFault.system) return;
  for (std::uint32_t k = 0; k < w.capacity(); ++k) {
    const Entity e = w.handleAt(static_cast<std::uint16_t>((gFault.pick + k) % w.capacity()));
    auto* bytes = w.isValid(e) ? static_cast<std::uint8_t*>(w.getBytes(e, gFault.component)) : nullptr;
    if (bytes == nullptr) continue;
    bytes[4 * gFault.word + gFault.bit / 8] ^= static_cast<std::uint8_t>(1u << (gFault.bit % 8));
    return;
  }
}

}  // namespace

RollbackPeer::RollbackPeer() noexcept = default;
RollbackPeer::RollbackPeer(RollbackPeer&&) noexcept = default;
RollbackPeer& RollbackPeer::operator=(RollbackPeer&&) noexcept = default;
RollbackPeer::~RollbackPeer() = default;

bool RollbackPeer::handles(std::string_view verb) noexcept {
  return verb == "session" || verb == "input" || verb == "advance" || verb == "hash" || verb == "stats" ||
         verb == "desync" || verb == "desync-start" || verb == "fault";
}

void RollbackPeer::handle(std::string_view verb, std::string_view args, std::string& out) {
  if (verb == "session") {
    open(args, out);
    return;
  }
  if (!s_) {
    refuse(out, "peer_no_session");
    return;
  }
  if (verb == "input") input(args, out);
  else if (verb == "advance") advance(out);
  else if (verb == "hash") hash(args, out);
  else if (verb == "stats") stats(out);
  else if (verb == "fault") fault(args, out);
  else desync(verb, args, out);
}

void RollbackPeer::open(std::string_view args, std::string& out) {
  const std::string_view name = nextWord(args);
  const std::string_view seedText = nextWord(args);
  const Scenario* scenario = findScenario(name);
  if (scenario == nullptr) {
    appendError(scenarioUnknown(name), out);
    return;
  }
  const PlayerInputGenerator* generator = findPlayerInputGenerator(name);
  if (generator == nullptr) {
    refuse(out, "peer_no_player_input", "scenario", name);
    return;
  }
  std::uint64_t seed = scenario->defaultSeed;
  if (seedText != "-" && !parseU64(seedText, seed)) {
    refuse(out, "peer_bad_request", "seed", seedText.substr(0, 32));
    return;
  }
  const char* keys[] = {"players", "local_player", "depth", "delay"};
  std::uint64_t v[4] = {};
  for (int i = 0; i < 4; ++i) {
    const std::string_view w = nextWord(args);
    // The session checks the ranges of players, localPlayer and depth itself.
    if (!parseU64(w, v[i]) || v[i] > 0xffffffffu || (i == 3 && v[i] > kMaxDelay)) {
      refuse(out, "peer_bad_request", keys[i], w.empty() ? std::string_view("missing") : w.substr(0, 32));
      return;
    }
  }
  Result<ScenarioRun> r = ScenarioRun::create(*scenario, seed);
  if (r.isError()) {
    appendError(r.status(), out);
    return;
  }
  auto state = std::make_unique<RollbackPeerState>(std::move(r).takeValue());
  RollbackSession::Options o;
  o.players = static_cast<std::uint32_t>(v[0]);
  o.localPlayer = static_cast<std::uint32_t>(v[1]);
  o.depth = static_cast<std::uint32_t>(v[2]);
  o.maxInputBytes = generator->maxInputBytes;
  if (generator->concatenate) o.combine = &RollbackSession::combineConcatenated;
  o.onConfirmed = &recordConfirmed;
  o.onConfirmedContext = state.get();
  Result<RollbackSession> session = RollbackSession::create(state->run.world(), state->run.schedule(), o);
  if (session.isError()) {
    appendError(session.status(), out);
    return;
  }
  state->session = std::move(session).takeValue();
  state->generator = generator;
  state->localPlayer = o.localPlayer;
  state->delay = v[3];
  state->confirmed.reserve(o.depth + 2);
  state->bytes.reserve(generator->maxInputBytes);
  DesyncExchange::Options x;
  x.send = &sendDesync;
  x.sendContext = state.get();
  x.pin = &pinDesync;
  x.pinContext = state.get();
  x.maxItems = 64;
  Result<DesyncExchange> exchange = DesyncExchange::create(state->run.world(), x);
  if (exchange.isError()) {
    appendError(exchange.status(), out);
    return;
  }
  state->exchange = std::move(exchange).takeValue();
  s_ = std::move(state);
  char seedHex[24];
  std::snprintf(seedHex, sizeof seedHex, "0x%llx", static_cast<unsigned long long>(seed));
  out += "session ";
  out += scenario->name;
  out += ' ';
  out += seedHex;
  out += ' ';
  appendHash(s_->run.hash(), out);
  out += '\n';
}

void RollbackPeer::input(std::string_view args, std::string& out) {
  const std::string_view playerText = nextWord(args);
  const std::string_view tickText = nextWord(args);
  const std::string_view payload = nextWord(args);
  std::uint64_t player = 0;
  std::uint64_t tick = 0;
  const auto orMissing = [](std::string_view w) { return w.empty() ? std::string_view("missing") : w.substr(0, 32); };
  if (!parseU64(playerText, player) || player > 0xffffffffu) {
    refuse(out, "peer_bad_request", "player", orMissing(playerText));
    return;
  }
  if (!parseU64(tickText, tick)) {
    refuse(out, "peer_bad_request", "tick", orMissing(tickText));
    return;
  }
  if (payload.empty()) {
    refuse(out, "peer_bad_request", "payload", "missing");
    return;
  }
  if (const std::size_t bad = decodeHex(payload, s_->bytes); bad != std::string_view::npos) {
    char n[24];
    std::snprintf(n, sizeof n, "%zu", bad);
    refuse(out, "peer_bad_payload", "at", n);
    return;
  }
  const Status st = s_->session.addRemoteInput(static_cast<std::uint32_t>(player), tick, s_->bytes);
  if (!st.ok()) {
    appendError(st, out);
    return;
  }
  out += "ok\n";
}

void RollbackPeer::advance(std::string& out) {
  RollbackPeerState& s = *s_;
  const std::uint64_t next = s.session.currentTick() + 1;
  std::uint8_t buf[kMaxRollbackInputBytes];
  std::string locals;
  // Local inputs the generator gives are the same bytes every time, so ones
  // given by an advance that then failed are a no-op to give again.
  for (std::uint64_t t = s.localGiven + 1; t <= next + s.delay; ++t) {
    const std::uint32_t n = s.generator->input(s.localPlayer, t, buf);
    if (const Status st = s.session.setLocalInput(t, std::span<const std::uint8_t>(buf, n)); !st.ok()) {
      appendError(st, out);
      return;
    }
    locals += "local ";
    appendU64(t, locals);
    locals += ' ';
    appendHex(buf, n, locals);
    locals += '\n';
  }
  s.confirmed.clear();
  if (const Status st = s.session.advance(); !st.ok()) {
    appendError(st, out);
    return;
  }
  s.localGiven = next + s.delay;
  out += locals;
  for (const auto& [tick, hash] : s.confirmed) {
    out += "confirmed ";
    appendU64(tick, out);
    out += ' ';
    appendHash(hash, out);
    out += '\n';
  }
  out += "advanced ";
  appendU64(s.session.currentTick(), out);
  out += ' ';
  appendU64(s.session.stats().lastAdvanceRolledBackTicks, out);
  out += '\n';
}

void RollbackPeer::hash(std::string_view args, std::string& out) {
  const std::string_view tickText = nextWord(args);
  std::uint64_t tick = 0;
  if (!parseU64(tickText, tick)) {
    refuse(out, "peer_bad_request", "tick", tickText.empty() ? std::string_view("missing") : tickText.substr(0, 32));
    return;
  }
  const Result<std::uint64_t> h = s_->session.confirmedHash(tick);
  if (h.isError()) {
    appendError(h.status(), out);
    return;
  }
  out += "confirmed ";
  appendU64(tick, out);
  out += ' ';
  appendHash(h.value(), out);
  out += '\n';
}

void RollbackPeer::stats(std::string& out) {
  const RollbackStats st = s_->session.stats();
  const std::pair<const char*, std::uint64_t> fields[] = {
      {"advances", st.advances},        {"rollbacks", st.rollbacks},       {"resimulated", st.resimulatedTicks},
      {"misses", st.predictionMisses},  {"hits", st.predictionHits},       {"duplicates", st.duplicateInputs},
      {"deepest", st.deepestRollback},  {"confirmed", s_->session.confirmedTick()}};
  out += "stats";
  for (const auto& [key, value] : fields) {
    out += ' ';
    out += key;
    out += '=';
    appendU64(value, out);
  }
  out += '\n';
}

void RollbackPeer::fault(std::string_view args, std::string& out) {
  World& w = s_->run.world();
  const std::string_view tickText = nextWord(args);
  const std::string_view systemName = nextWord(args);
  const std::string_view componentName = nextWord(args);
  std::uint64_t v[4] = {};  // tick, word, bit, pick
  const std::string_view words[3] = {nextWord(args), nextWord(args), nextWord(args)};
  bool ok = parseU64(tickText, v[0]);
  for (int i = 0; i < 3; ++i) ok = ok && parseU64(words[i], v[i + 1]) && v[i + 1] <= 0xffffu;
  Fault f;
  for (std::uint32_t id = 1; id <= w.systemCount(); ++id) {
    if (std::string_view{w.system(SystemId{id}).value().def.name} == systemName) f.system = id;
  }
  for (ComponentTypeId c = 1; c <= w.componentCount(); ++c) {
    if (w.componentInfo(c).value().name == componentName) f.component = c;
  }
  if (!ok || f.system == 0 || f.component == 0 || gFault.original != nullptr ||
      4 * v[1] + v[2] / 8 >= w.componentInfo(f.component).value().size) {
    refuse(out, "peer_bad_request", "fault", systemName.substr(0, 32));
    return;
  }
  f.tick = v[0];
  f.word = static_cast<std::uint32_t>(v[1]);
  f.bit = static_cast<std::uint32_t>(v[2]);
  f.pick = static_cast<std::uint32_t>(v[3]);
  // The system's body is swapped in the registry (a test hook of this tool only).
  detail::SystemRecord& rec = detail::ChangeAccess::state(w)->systems.at(f.system);
  f.original = rec.def.run;
  gFault = f;
  rec.def.run = &faultySystem;
  out += "ok\n";
}

void RollbackPeer::desync(std::string_view verb, std::string_view args, std::string& out) {
  RollbackPeerState& s = *s_;
  s.desyncOut.clear();
  Status st;
  if (verb == "desync-start") {
    std::uint64_t tick = 0;
    const std::string_view tickText = nextWord(args);
    if (!parseU64(tickText, tick)) {
      refuse(out, "peer_bad_request", "tick", tickText.empty() ? std::string_view("missing") : tickText.substr(0, 32));
      return;
    }
    st = s.exchange.start(tick);
  } else {
    const std::string_view hex = nextWord(args);
    if (hex.empty() || decodeHex(hex, s.bytes) != std::string_view::npos) {
      refuse(out, "peer_bad_payload", "desync", hex.substr(0, 32));
      return;
    }
    st = s.exchange.receive(s.bytes);
  }
  // Answers (an Error answer to a refused request included) go out first.
  out += s.desyncOut;
  s.desyncOut.clear();
  if (!st.ok()) {
    appendError(st, out);
    return;
  }
  if (s.exchange.hasReport() && !s.reported) {
    s.reported = true;
    const DesyncExchangeReport& r = s.exchange.report();
    const World& w = *s.exchange.pinnedWorld();
    out += "report ";
    appendU64(r.summary.tick, out);
    out += ' ';
    out += r.summary.firstSystem.value == 0 ? "-" : w.system(r.summary.firstSystem).value().def.name;
    out += ' ';
    appendU64(r.summary.differences, out);
    out += ' ';
    appendHash(r.summary.checksumA, out);
    out += '\n';
    for (const DesyncExchangeItem& d : r.items) {
      out += "item ";
      appendU64(d.slot, out);
      out += ' ';
      out += d.componentId == 0 ? std::string_view("-") : w.componentInfo(d.componentId).value().name;
      out += ' ';
      out += d.fieldName.empty() ? std::string_view("-") : std::string_view(d.fieldName);
      out += ' ';
      appendU64(d.entityA.bits(), out);
      out += ' ';
      appendHex(d.bytesA.data(), d.bytesA.size(), out);
      out += ' ';
      appendHex(d.bytesB.data(), d.bytesB.size(), out);
      out += '\n';
    }
    out += "end\n";
  }
  out += "ok\n";
}

}  // namespace laige::peer
