// match_server.cpp - `laige-peer --serve` (match_server.h).
#include "match_server.h"

#include <algorithm>

#include <cstdio>
#include <unordered_map>
#include <utility>

#include "match_desync.h"
#include "peer_session.h"
#include "peer_text.h"

namespace laige::serve {

using peer::appendU64;
using peer::nextWord;
using peer::parseU64;

namespace {

// Connection counters are kept in a fixed table indexed by conn % this:
// two connections may share an entry (then they share the quota).
constexpr std::size_t kConnTable = 1024;

// A decimal connection id (no 0x form, no leading '+').
bool parseConn(std::string_view s, std::uint64_t& out) {
  if (s.empty() || s.size() > 20) return false;
  for (const char c : s) {
    if (c < '0' || c > '9') return false;
  }
  return parseU64(s, out) && out != 0;
}

bool routedVerb(std::string_view verb) {
  return verb == "create" || verb == "join" || verb == "rejoin" || verb == "input" || verb == "hash" ||
         verb == "leave" || verb == "desync-msg";
}

}  // namespace

std::uint64_t matchRouteHash(std::string_view id) noexcept {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (const char c : id) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001b3ull;
  }
  return h;
}

struct MatchServer::Worker {
  struct Item {
    std::uint64_t conn = 0;
    bool closed = false;
    std::string line;
  };
  std::mutex m;
  std::condition_variable cv;
  // A ring of reused items; `closed` items may grow it past the bound.
  std::vector<Item> ring;
  std::size_t head = 0;
  std::size_t count = 0;
  std::size_t requests = 0;  // the queued items that are not `closed`
  bool stop = false;
  std::thread thread;
  // A match and the connection that created it (its quota of connMatches).
  struct Hosted {
    Match match;
    std::uint64_t creator;
  };
  // Touched by the owning thread only.
  std::unordered_map<std::string, Hosted> matches;
  std::vector<std::uint8_t> payload;
  std::vector<Item> batch;
  std::string out;

  void push(std::uint64_t conn, bool isClosed, std::string_view line) {
    if (count == ring.size()) {
      std::vector<Item> grown(ring.size() * 2);
      for (std::size_t i = 0; i < count; ++i) grown[i] = std::move(ring[(head + i) % ring.size()]);
      ring.swap(grown);
      head = 0;
    }
    Item& it = ring[(head + count) % ring.size()];
    it.conn = conn;
    it.closed = isClosed;
    it.line.assign(line);
    ++count;
    if (!isClosed) ++requests;
  }
};

MatchServer::MatchServer(const Options& options, WriteFn sink, void* context)
    : options_(options),
      write_(sink),
      context_(context),
      connQueued_(new std::atomic<std::uint32_t>[kConnTable]),
      connCreated_(new std::atomic<std::uint32_t>[kConnTable]) {
  for (std::size_t i = 0; i < kConnTable; ++i) {
    connQueued_[i].store(0);
    connCreated_[i].store(0);
  }
  if (options_.threads > kMaxServeThreads) options_.threads = kMaxServeThreads;
  if (options_.queueLines == 0) options_.queueLines = 1;
  const std::uint32_t n = options_.threads == 0 ? 1 : options_.threads;
  for (std::uint32_t i = 0; i < n; ++i) {
    auto w = std::make_unique<Worker>();
    w->ring.resize(options_.queueLines);
    workers_.push_back(std::move(w));
  }
  if (options_.threads == 0) return;
  for (auto& w : workers_) {
    Worker* raw = w.get();
    raw->thread = std::thread([this, raw] { workerLoop(*raw); });
  }
}

MatchServer::~MatchServer() { stop(); }

void MatchServer::stop() {
  if (stopped_) return;
  stopped_ = true;
  if (options_.threads == 0) return;
  for (auto& w : workers_) {
    {
      std::lock_guard<std::mutex> lock(w->m);
      w->stop = true;
    }
    w->cv.notify_one();
  }
  for (auto& w : workers_) w->thread.join();
}

// (declared in match.h: the id rule of every match)
bool validMatchId(std::string_view id) noexcept {
  if (id.empty() || id.size() > kMaxMatchIdBytes) return false;
  for (const char c : id) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
    if (!ok) return false;
  }
  return true;
}

std::string MatchServer::hello() const {
  std::string s = "0 hello laige-peer-serve ";
  appendU64(kServeProtocolVersion, s);
  s += ' ';
  for (std::uint32_t i = 0; i < scenarioCount(); ++i) {
    if (i != 0) s += ',';
    s += scenarioAt(i)->name;
  }
  s += " threads=";
  appendU64(options_.threads, s);
  s += " max_matches=";
  appendU64(options_.maxMatches, s);
  s += " spectator_delay=";
  appendU64(std::min(options_.match.spectatorDelay, kMaxSpectatorDelay), s);
  s += '\n';
  return s;
}

std::atomic<std::uint32_t>& MatchServer::connQueued(std::uint64_t conn) noexcept {
  return connQueued_[conn % kConnTable];
}

std::atomic<std::uint32_t>& MatchServer::connCreated(std::uint64_t conn) noexcept {
  return connCreated_[conn % kConnTable];
}

void MatchServer::releaseMatch(std::uint64_t creator) noexcept {
  matchCount_.fetch_sub(1);
  connCreated(creator).fetch_sub(1);
}

void MatchServer::write(std::string_view batch) {
  if (batch.empty()) return;
  std::lock_guard<std::mutex> lock(writeMutex_);
  write_(context_, batch);
}

void MatchServer::refuse(std::uint64_t conn, const char* reason, std::string_view fields) {
  refused_.fetch_add(1);
  std::string s;
  appendU64(conn, s);
  s += " error ";
  s += reason;
  if (!fields.empty()) {
    s += ' ';
    s += fields;
  }
  s += '\n';
  write(s);
}

void MatchServer::submit(std::string_view line) {
  if (stopped_) return;
  lines_.fetch_add(1);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  std::string_view rest = line;
  std::uint64_t conn = 0;
  if (!parseConn(nextWord(rest), conn)) {
    refuse(0, "server_bad_prefix");
    return;
  }
  if (line.size() > kMaxServeLine) {
    std::string f = "limit=";
    appendU64(kMaxServeLine, f);
    refuse(conn, "server_line_too_long", f);
    return;
  }
  const std::string_view request = rest.empty() ? rest : rest.substr(1);
  std::string_view args = request;
  const std::string_view verb = nextWord(args);
  if (verb.empty()) return;  // a blank request: nothing to answer
  if (verb == "closed") {
    if (options_.threads == 0) {
      Worker& w = *workers_[0];
      w.out.clear();
      runClosed(w, conn, w.out);
      write(w.out);
      return;
    }
    // Every worker hears of it (a connection may be in matches on several).
    for (auto& w : workers_) {
      {
        std::lock_guard<std::mutex> lock(w->m);
        w->push(conn, true, {});
      }
      w->cv.notify_one();
    }
    return;
  }
  std::string_view idArgs = args;
  const std::string_view id = nextWord(idArgs);
  const bool routed = routedVerb(verb) || (verb == "stats" && !id.empty());
  if (!routed) {
    handleConnLevel(conn, verb, args);
    return;
  }
  if (!validMatchId(id)) {
    std::string f = "bytes=";
    appendU64(id.size(), f);
    refuse(conn, "match_bad_id", f);
    return;
  }
  if (verb == "create") {
    if (draining_.load()) {
      refuse(conn, "server_draining");
      return;
    }
    if (connCreated(conn).load() >= options_.connMatches) {
      std::string f = "max=";
      appendU64(options_.connMatches, f);
      refuse(conn, "server_conn_matches", f);
      return;
    }
    // Reserved here (the reader is the only creator); a failed create gives it back.
    if (matchCount_.fetch_add(1) >= options_.maxMatches) {
      matchCount_.fetch_sub(1);
      std::string f = "max_matches=";
      appendU64(options_.maxMatches, f);
      refuse(conn, "server_full", f);
      return;
    }
    connCreated(conn).fetch_add(1);
  }
  Worker& w = *workers_[options_.threads == 0 ? 0 : matchRouteHash(id) % workers_.size()];
  if (options_.threads == 0) {
    w.out.clear();
    runLine(w, conn, request, w.out);
    write(w.out);
    return;
  }
  std::atomic<std::uint32_t>& queued = connQueued(conn);
  bool accepted = false;
  if (queued.load() < options_.connLines) {
    std::lock_guard<std::mutex> lock(w.m);
    if (w.requests < options_.queueLines && !w.stop) {
      w.push(conn, false, request);
      queued.fetch_add(1);
      accepted = true;
    }
  }
  if (!accepted) {
    if (verb == "create") releaseMatch(conn);
    busy_.fetch_add(1);
    std::string f = "queue=";
    appendU64(options_.queueLines, f);
    refuse(conn, "server_busy", f);
    return;
  }
  w.cv.notify_one();
}

void MatchServer::handleConnLevel(std::uint64_t conn, std::string_view verb, std::string_view rest) {
  (void)rest;
  std::string s;
  appendU64(conn, s);
  const std::uint32_t n = matchCount_.load();
  if (verb == "hello") {
    s = hello();
    s.replace(0, 1, std::to_string(conn));
    write(s);
    return;
  }
  if (verb == "health") {
    s += draining_.load() ? " health draining" : " health ok";
    s += " matches=";
    appendU64(n, s);
    s += " capacity=";
    appendU64(options_.maxMatches, s);
    s += " free=";
    appendU64(n >= options_.maxMatches || draining_.load() ? 0 : options_.maxMatches - n, s);
    s += " threads=";
    appendU64(options_.threads, s);
    s += '\n';
  } else if (verb == "drain") {
    draining_.store(true);
    s += " draining matches=";
    appendU64(n, s);
    s += '\n';
  } else if (verb == "stats") {
    s += " stats server matches=";
    appendU64(n, s);
    s += " lines=";
    appendU64(lines_.load(), s);
    s += " refused=";
    appendU64(refused_.load(), s);
    s += " busy=";
    appendU64(busy_.load(), s);
    s += " threads=";
    appendU64(options_.threads, s);
    s += '\n';
  } else {
    std::string f = "verb_bytes=";
    appendU64(verb.size(), f);
    refuse(conn, "server_bad_request", f);
    return;
  }
  write(s);
}

namespace {

void refuseLine(std::uint64_t conn, const char* reason, std::string_view fields, std::string& out) {
  appendU64(conn, out);
  out += " error ";
  out += reason;
  if (!fields.empty()) {
    out += ' ';
    out += fields;
  }
  out += '\n';
}

}  // namespace

void MatchServer::runLine(Worker& w, std::uint64_t conn, std::string_view request, std::string& out) {
  std::string_view args = request;
  const std::string_view verb = nextWord(args);
  const std::string id(nextWord(args));
  if (verb == "create") {
    std::string_view a[4];
    std::size_t words = 0;
    while (words < 4 && !(a[words] = nextWord(args)).empty()) ++words;
    const bool extra = !nextWord(args).empty();
    std::uint64_t seed = 0;
    std::uint64_t players = 0;
    const Scenario* scenario = words >= 2 ? findScenario(a[0]) : nullptr;
    const auto release = [this, conn] { releaseMatch(conn); };
    if (words < 2 || words > 3 || extra || !parseU64(a[words - 1], players) ||
        (words == 3 && !parseU64(a[1], seed))) {
      release();
      refuseLine(conn, "server_bad_request", "verb=create", out);
      return;
    }
    if (w.matches.count(id) != 0) {
      release();
      refuseLine(conn, "match_exists", {}, out);
      return;
    }
    if (scenario == nullptr) {
      release();
      appendU64(conn, out);
      out += ' ';
      peer::appendError(scenarioUnknown(a[0].substr(0, 32)), out);
      return;
    }
    if (words == 2) seed = scenario->defaultSeed;
    if (players == 0 || players > kMaxMatchPlayers) {
      release();
      std::string f = "players=";
      appendU64(players, f);
      f += " max=";
      appendU64(kMaxMatchPlayers, f);
      refuseLine(conn, "match_bad_players", f, out);
      return;
    }
    Result<Match> m = Match::create(id, *scenario, seed, static_cast<std::uint32_t>(players), options_.match);
    if (m.isError()) {
      release();
      appendU64(conn, out);
      out += ' ';
      peer::appendError(m.status(), out);
      return;
    }
    Match& match = w.matches.emplace(id, Worker::Hosted{std::move(m).takeValue(), conn}).first->second.match;
    appendU64(conn, out);
    out += " created ";
    out += id;
    out += ' ';
    out += scenario->name;
    char seedText[24];
    std::snprintf(seedText, sizeof seedText, " 0x%llx ", static_cast<unsigned long long>(seed));
    out += seedText;
    appendU64(players, out);
    out += '\n';
    match.join(conn, false, out);
    return;
  }
  const auto found = w.matches.find(id);
  if (found == w.matches.end()) {
    refuseLine(conn, "match_unknown", {}, out);
    return;
  }
  Match& match = found->second.match;
  const std::string_view a = nextWord(args);
  const std::string_view b = nextWord(args);
  const bool extra = !nextWord(args).empty();
  std::uint64_t n = 0;
  std::uint64_t h = 0;
  if (verb == "join") {
    if ((a != "player" && a != "spectator") || !b.empty()) refuseLine(conn, "server_bad_request", "verb=join", out);
    else match.join(conn, a == "spectator", out);
  } else if (verb == "rejoin") {
    if (!parseU64(a, n) || n > kMaxMatchPlayers || !peer::parseHash(b, h) || extra) {
      refuseLine(conn, "server_bad_request", "verb=rejoin", out);
    } else {
      match.rejoin(conn, static_cast<std::uint32_t>(n), h, out);
    }
  } else if (verb == "input") {
    if (!parseU64(a, n) || b.empty() || extra) {
      refuseLine(conn, "server_bad_request", "verb=input", out);
    } else if (const std::size_t bad = peer::decodeHex(b, w.payload); bad != std::string_view::npos) {
      std::string f = "at=";
      appendU64(bad, f);
      refuseLine(conn, "server_bad_payload", f, out);
    } else {
      match.input(conn, n, w.payload.data(), static_cast<std::uint32_t>(w.payload.size()), out);
    }
  } else if (verb == "hash") {
    if (!parseU64(a, n) || !peer::parseHash(b, h) || extra) refuseLine(conn, "server_bad_request", "verb=hash", out);
    else match.reportHash(conn, n, h, out);
  } else if (verb == "desync-msg") {
    if (a.empty() || !b.empty()) {
      refuseLine(conn, "server_bad_request", "verb=desync-msg", out);
    } else if (a.size() > 2 * std::size_t{kMaxDesyncRequestBytes}) {
      // Refused on its length, before decoding (and before the match's own check).
      std::string f = "bytes=";
      appendU64(a.size() / 2, f);
      f += " max=";
      appendU64(kMaxDesyncRequestBytes, f);
      refuseLine(conn, "match_desync_too_large", f, out);
    } else if (const std::size_t bad = peer::decodeHex(a, w.payload); bad != std::string_view::npos) {
      std::string f = "at=";
      appendU64(bad, f);
      refuseLine(conn, "server_bad_payload", f, out);
    } else {
      match.desyncMessage(conn, w.payload.data(), static_cast<std::uint32_t>(w.payload.size()), out);
    }
  } else if (verb == "leave") {
    if (!a.empty()) refuseLine(conn, "server_bad_request", "verb=leave", out);
    else match.leave(conn, out);
  } else {  // stats <id>
    match.stats(conn, out);
  }
  if (match.abandoned()) {
    releaseMatch(found->second.creator);
    w.matches.erase(found);
  }
}

void MatchServer::runClosed(Worker& w, std::uint64_t conn, std::string& out) {
  for (auto it = w.matches.begin(); it != w.matches.end();) {
    Match& match = it->second.match;
    if (!match.isMember(conn)) {
      ++it;
      continue;
    }
    match.closed(conn, out);
    if (match.abandoned()) {
      releaseMatch(it->second.creator);
      it = w.matches.erase(it);
    } else {
      ++it;
    }
  }
}

void MatchServer::workerLoop(Worker& w) {
  for (;;) {
    std::size_t n = 0;
    {
      std::unique_lock<std::mutex> lock(w.m);
      w.cv.wait(lock, [&w] { return w.count > 0 || w.stop; });
      if (w.count == 0) return;  // stop, and everything queued is done
      n = w.count;
      if (w.batch.size() < n) w.batch.resize(n);
      for (std::size_t i = 0; i < n; ++i) {
        Worker::Item& it = w.ring[(w.head + i) % w.ring.size()];
        w.batch[i].conn = it.conn;
        w.batch[i].closed = it.closed;
        w.batch[i].line.swap(it.line);
      }
      w.head = (w.head + n) % w.ring.size();
      w.count = 0;
      w.requests = 0;
    }
    w.out.clear();
    for (std::size_t i = 0; i < n; ++i) {
      Worker::Item& it = w.batch[i];
      if (it.closed) {
        runClosed(w, it.conn, w.out);
      } else {
        runLine(w, it.conn, it.line, w.out);
        connQueued(it.conn).fetch_sub(1);
      }
    }
    write(w.out);
  }
}

}  // namespace laige::serve
