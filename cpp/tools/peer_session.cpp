// peer_session.cpp - laige-peer's protocol (peer_session.h).
#include "peer_session.h"

#include <cstdio>

#include "peer_text.h"

namespace laige::peer {

std::string PeerSession::hello() {
  std::string s = "hello laige-peer ";
  appendU64(kProtocolVersion, s);
  s += ' ';
  for (std::uint32_t i = 0; i < scenarioCount(); ++i) {
    if (i != 0) s += ',';
    s += scenarioAt(i)->name;
  }
  s += '\n';
  return s;
}

void appendError(const Status& status, std::string& out) {
  out += "error ";
  out += status.reason()[0] != '\0' ? status.reason() : "peer_core_error";
  for (std::size_t i = 0; i < status.fieldCount(); ++i) {
    out += ' ';
    out += status.field(i).key;
    out += '=';
    // A field value is one word on the line: spaces become '_'.
    for (const char* p = status.field(i).value; *p != '\0'; ++p) out += (*p == ' ' || *p == '\n') ? '_' : *p;
  }
  out += '\n';
}

bool PeerSession::handle(std::string_view line, std::string& out) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  const bool desync = line.substr(0, 7) == "desync ";
  if (line.size() > (desync ? kMaxDesyncLine : kMaxRequestLine)) {
    char n[24];
    std::snprintf(n, sizeof n, "%zu", line.size());
    refuse(out, "peer_line_too_long", "bytes", n);
    return true;
  }
  std::string_view rest = line;
  const std::string_view verb = nextWord(rest);
  if (verb == "quit") return false;
  if (verb == "open") open(rest, out);
  else if (verb == "step") step(rest, out);
  else if (verb == "snapshot") snapshot(out);
  else if (verb == "inspect") inspector_.answer(run(), rest, out);
  else if (RollbackPeer::handles(verb)) rollback_.handle(verb, rest, out);
  else if (verb.empty()) { /* a blank line: nothing to answer */ }
  else refuse(out, "peer_bad_request", "verb", verb.substr(0, 32));
  return true;
}

void PeerSession::open(std::string_view args, std::string& out) {
  const std::string_view name = nextWord(args);
  const std::string_view seedText = nextWord(args);
  const Scenario* s = findScenario(name);
  if (s == nullptr) {
    appendError(scenarioUnknown(name), out);
    return;
  }
  std::uint64_t seed = s->defaultSeed;
  if (!seedText.empty() && !parseU64(seedText, seed)) {
    refuse(out, "peer_bad_request", "seed", seedText.substr(0, 32));
    return;
  }
  Result<ScenarioRun> r = ScenarioRun::create(*s, seed);
  if (r.isError()) {
    appendError(r.status(), out);
    return;
  }
  run_.reset();
  run_.emplace(std::move(r).takeValue());
  divergedTick_ = 0;
  inspector_.reset(*run_);
  char seedHex[24];
  std::snprintf(seedHex, sizeof seedHex, "0x%llx", static_cast<unsigned long long>(seed));
  out += "ready ";
  out += s->name;
  out += ' ';
  out += seedHex;
  out += ' ';
  appendU64(run_->tick(), out);
  out += ' ';
  appendHash(run_->hash(), out);
  out += '\n';
}

void PeerSession::step(std::string_view args, std::string& out) {
  if (!run_) {
    refuse(out, "peer_no_scenario");
    return;
  }
  const std::string_view tickText = nextWord(args);
  const std::string_view payload = nextWord(args);
  const std::string_view pageHashText = nextWord(args);
  std::uint64_t tick = 0;
  if (!parseU64(tickText, tick) || payload.empty()) {
    refuse(out, "peer_bad_request", "step", tickText.substr(0, 32));
    return;
  }
  std::uint64_t pageHash = 0;
  const bool hasPageHash = !pageHashText.empty();
  if (hasPageHash && !parseHash(pageHashText, pageHash)) {
    refuse(out, "peer_bad_request", "page_hash", pageHashText.substr(0, 32));
    return;
  }
  const std::uint64_t expected = run_->tick() + 1;
  if (tick != expected) {
    std::string fields;
    appendU64(expected, fields);
    fields += " got=";
    appendU64(tick, fields);
    refuse(out, "peer_tick_order", "expected", fields);
    return;
  }
  TickInput input;
  if (payload == "-") {
    input = run_->generatedInput(tick);
  } else if (payload != ".") {
    if (payload.size() % 2 != 0 || payload.size() / 2 > kMaxScenarioInputBytes) {
      char n[24];
      std::snprintf(n, sizeof n, "%zu", payload.size());
      refuse(out, "peer_bad_payload", "hex_digits", n);
      return;
    }
    if (const std::size_t bad = decodeHex(payload, payload_); bad != std::string_view::npos) {
      refuse(out, "peer_bad_payload", "at", payload.substr(bad, 2));
      return;
    }
    input.data = payload_.data();
    input.size = static_cast<std::uint32_t>(payload_.size());
  }
  if (const Status st = run_->step(input); st.isError()) {
    appendError(st, out);
    return;
  }
  if (payload == "-") payload_.clear();
  else if (payload == ".") payload_.clear();
  inspector_.record(*run_, payload == "-", payload_);
  if (hasPageHash && divergedTick_ == 0 && pageHash != run_->hash()) {
    // The page's state differs from here on: keep this tick's state, so the
    // page's stateDiff is taken at exactly this tick (docs/demo.md#native-peer).
    divergedSnapshot_.resize(run_->world().snapshotSize());
    if (run_->world().snapshot(divergedSnapshot_).ok()) divergedTick_ = run_->tick();
  }
  out += "hash ";
  appendU64(run_->tick(), out);
  out += ' ';
  appendHash(run_->hash(), out);
  out += '\n';
}

namespace {

void appendSnapshotLine(std::uint64_t tick, const std::vector<std::uint8_t>& bytes, std::string& out) {
  out += "snapshot ";
  appendU64(tick, out);
  out += ' ';
  out.reserve(out.size() + bytes.size() * 2 + 1);
  appendHex(bytes.data(), bytes.size(), out);
  out += '\n';
}

}  // namespace

void PeerSession::snapshot(std::string& out) {
  if (!run_) {
    refuse(out, "peer_no_scenario");
    return;
  }
  if (divergedTick_ != 0) {
    appendSnapshotLine(divergedTick_, divergedSnapshot_, out);
    return;
  }
  snapshot_.resize(run_->world().snapshotSize());
  if (const Status st = run_->world().snapshot(snapshot_); st.isError()) {
    appendError(st, out);
    return;
  }
  appendSnapshotLine(run_->tick(), snapshot_, out);
}

}  // namespace laige::peer
