// laige_peer.cpp - laige-peer, the browser demo's live native peer
// (docs/demo.md#native-peer): the reference scenarios stepped natively with
// the input payloads a page generates, one `<tick> <hash>` answer per tick,
// so the page can check its wasm stream against native for as long as it
// runs (with pointer input, past the goldens' 600 ticks). Its rollback
// mode (rollback_peer.h) runs a RollbackSession paired live with another
// session through the driver (docs/rollback.md#native-peer).
//
//   laige-peer            speaks the protocol of peer_session.h on stdin/stdout
//   laige-peer --serve [--threads N] [--max-matches M] [--reconnect-ticks T]
//              [--snapshot-every K] [--spectator-delay D]
//                         the match server (match_server.h,
//                         docs/netplay-protocol.md): many matches, one line
//                         stream multiplexed by connection id
//   laige-peer --help
//
// demo/serve.mjs runs one laige-peer per page session (a WebSocket) and
// relays lines both ways. By hand: type `open swarm`, then `step 1 -`.
// Stdout carries protocol lines only (flushed per request); log records go
// to stderr. Exit 0 on `quit` or end of input, 2 on a usage or I/O error.
#include <cstdio>
#include <cstring>
#include <string>

#include <random>

#include "laige/logging.h"
#include "match_server.h"
#include "peer_session.h"
#include "tool_numbers.h"

namespace {

constexpr const char* kUsage =
    "usage: laige-peer   (reads requests on stdin, one per line; replies on stdout)\n"
    "  open <scenario> [seed]   -> ready <scenario> 0x<seed> <tick> <hash>\n"
    "  step <tick> -|.|<hex>    -> hash <tick> <hash>  (- the scenario's own input, . none)\n"
    "  snapshot                 -> snapshot <tick> <hex of World::snapshot>\n"
    "rollback mode (a RollbackSession; its local inputs from the scenario's player generator):\n"
    "  session <scenario> <seed|-> <players> <localPlayer> <depth> <delay>\n"
    "                           -> session <scenario> 0x<seed> <hash>\n"
    "  input <player> <tick> <hex|.>  -> ok\n"
    "  advance                  -> local <tick> <hex|.>..., confirmed <tick> <hash>..., advanced <tick> <rolled back>\n"
    "  hash <tick>              -> confirmed <tick> <hash>\n"
    "  stats                    -> stats advances=.. rollbacks=.. ...\n"
    "  quit\n"
    "A refused request answers `error <reason> [key=value ...]` and changes nothing.\n"
    "\n"
    "usage: laige-peer --serve [--threads N] [--max-matches M] [--reconnect-ticks T] [--snapshot-every K]\n"
    "                          [--spectator-delay D]\n"
    "  the match server: every line is `<conn> <request>` in, `<conn> <reply>` out\n"
    "  (docs/netplay-protocol.md): create, join, rejoin, input, hash, leave, stats,\n"
    "  health, drain, hello; `<conn> closed` when a connection ends.\n";

void writeStdout(void*, std::string_view batch) {
  // A relay that stopped reading is fatal to the server: nothing can be answered.
  if (std::fwrite(batch.data(), 1, batch.size(), stdout) != batch.size() || std::fflush(stdout) != 0) {
    std::fprintf(stderr, "laige-peer: cannot write to stdout\n");
    std::_Exit(2);
  }
}

bool parseServeFlag(const char* text, std::uint64_t lo, std::uint64_t hi, std::uint32_t& out) {
  std::uint64_t v = 0;
  if (!laige::tools::parseU64(text, v) || v < lo || v > hi) return false;
  out = static_cast<std::uint32_t>(v);
  return true;
}

// --serve: reads `<conn> <request>` lines until end of input, then finishes
// every queued line and exits 0.
int runServer(int argc, char** argv) {
  using namespace laige::serve;
  MatchServer::Options options;
  options.match.tokenSecret = (std::uint64_t{std::random_device{}()} << 32) ^ std::random_device{}();
  for (int i = 2; i < argc; i += 2) {
    const char* flag = argv[i];
    const char* value = i + 1 < argc ? argv[i + 1] : "";
    bool ok = false;
    if (std::strcmp(flag, "--threads") == 0) ok = parseServeFlag(value, 1, kMaxServeThreads, options.threads);
    else if (std::strcmp(flag, "--max-matches") == 0) ok = parseServeFlag(value, 1, 100000, options.maxMatches);
    else if (std::strcmp(flag, "--reconnect-ticks") == 0) ok = parseServeFlag(value, 0, 1000000, options.match.reconnectTicks);
    else if (std::strcmp(flag, "--snapshot-every") == 0) ok = parseServeFlag(value, 1, 3600, options.match.snapshotEvery);
    else if (std::strcmp(flag, "--spectator-delay") == 0) ok = parseServeFlag(value, 0, kMaxSpectatorDelay, options.match.spectatorDelay);
    if (!ok) {
      std::fprintf(stderr, "laige-peer: bad serve flag: %s %s\n%s", flag, value, kUsage);
      return 2;
    }
  }
  MatchServer server(options, &writeStdout, nullptr);
  writeStdout(nullptr, server.hello());
  std::string line;
  for (;;) {
    const int c = std::fgetc(stdin);
    if (c == EOF) break;
    if (c != '\n') {
      // Past the limit only one more byte is kept: the server refuses the line whole.
      if (line.size() <= kMaxServeLine) line += static_cast<char>(c);
      continue;
    }
    server.submit(line);
    line.clear();
  }
  server.stop();
  return std::ferror(stdin) != 0 ? 2 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace laige;
  if (argc == 2 && (std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0)) {
    std::fputs(kUsage, stdout);
    return 0;
  }
  if (argc >= 2 && std::strcmp(argv[1], "--serve") == 0) {
    log::Logger::instance().setGlobalMinimum(log::Level::Warn);
    return runServer(argc, argv);
  }
  if (argc != 1) {
    std::fprintf(stderr, "laige-peer: unknown argument: %s\n%s", argv[1], kUsage);
    return 2;
  }
  // Scenario setup crosses the churn budget on purpose: warnings stay, info goes.
  log::Logger::instance().setGlobalMinimum(log::Level::Warn);
  peer::PeerSession session;
  std::string reply = peer::PeerSession::hello();
  std::fwrite(reply.data(), 1, reply.size(), stdout);
  std::fflush(stdout);
  std::string line;
  bool tooLong = false;
  for (;;) {
    const int c = std::fgetc(stdin);
    if (c == EOF) break;
    if (c != '\n') {
      // Past the limit only the length is kept: the request is refused whole.
      if (line.size() <= peer::kMaxRequestLine) line += static_cast<char>(c);
      else tooLong = true;
      continue;
    }
    reply.clear();
    bool more = true;
    if (tooLong) {
      reply = "error peer_line_too_long\n";
    } else {
      more = session.handle(line, reply);
    }
    line.clear();
    tooLong = false;
    if (!more) break;
    if (!reply.empty() && (std::fwrite(reply.data(), 1, reply.size(), stdout) != reply.size() || std::fflush(stdout) != 0)) {
      std::fprintf(stderr, "laige-peer: cannot write to stdout\n");
      return 2;
    }
  }
  return std::ferror(stdin) != 0 ? 2 : 0;
}
