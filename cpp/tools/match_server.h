// match_server.h - `laige-peer --serve`: many matches (match.h) in one
// process, multiplexed over one line stream (docs/netplay-protocol.md).
//
// The relay (demo/peer_server.mjs's --serve mode) owns the sockets; it
// prefixes every request line with the connection id it assigned (`<conn>
// <request>`, conn >= 1) and sends `<conn> closed` when a socket ends. Every
// line the server writes starts with the connection it is for (`<conn>
// <reply>`; conn 0: the relay itself, e.g. the hello line).
//
// Threading: a fixed pool of N worker threads. A match is owned by worker
// fnv1a(match id) % N for its whole life (a World has one owner thread), so
// every line naming a match is routed there without shared match state.
// The reader thread (the caller of submit) parses the prefix and the verb,
// answers the connection-level requests itself (hello, stats, health,
// drain) and pushes a match's line into its worker's BOUNDED queue: a full
// queue, or a connection with too many lines still queued, is refused with
// `error server_busy` to that connection; the reader never blocks, so one
// hostile connection cannot stall the others. Replies go through one writer:
// each worker builds a batch for the lines it took and writes it under one
// mutex (the WriteFn flushes per batch).
//
// Options::threads == 0 is the inline mode the tests use: submit runs the
// line on the caller's thread at once (deterministic; same replies as a
// pool, per connection).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "match.h"

namespace laige::serve {

/// The serve protocol's version (the hello line's number; version 2 added
/// the desync investigation: docs/netplay-protocol.md#versions).
inline constexpr int kServeProtocolVersion = 2;
/// The longest request line, prefix included (bytes, without '\n').
inline constexpr std::size_t kMaxServeLine = 1024;
/// The most worker threads.
inline constexpr std::uint32_t kMaxServeThreads = 64;

/// Every reason a serve reply can carry (docs/errors.md documents each;
/// a test checks it), besides scenario_unknown.
inline constexpr const char* kServeReasons[] = {
    "server_bad_prefix",      "server_line_too_long", "server_bad_request", "server_bad_payload",
    "server_busy",            "server_draining",      "server_full",        "match_bad_id",
    "match_unknown",          "match_exists",         "match_bad_players",  "match_full",
    "match_already_joined",   "match_not_member",     "match_bad_player",   "match_bad_token",
    "match_not_away",         "match_spectator_input", "match_input_too_large", "match_tick_order",
    "match_input_ahead",      "match_hash_unknown_tick", "match_snapshot_failed",
    "server_conn_matches",    "match_not_player",     "match_desync_not_open", "match_desync_too_large",
    "match_desync_budget"};

class MatchServer {
 public:
  /// Receives one batch of whole reply lines; called under the writer mutex.
  using WriteFn = void (*)(void* context, std::string_view batch);

  struct Options {
    /// Worker threads (0: inline mode, see above). At most kMaxServeThreads.
    std::uint32_t threads = 2;
    /// The most matches at once (`create` past it: server_full).
    std::uint32_t maxMatches = 256;
    /// Lines one worker's queue holds.
    std::uint32_t queueLines = 4096;
    /// Lines one connection may have queued at once.
    std::uint32_t connLines = 256;
    /// Matches one connection may have created and still running
    /// (`create` past it: server_conn_matches), so one connection cannot
    /// take the server's whole capacity.
    std::uint32_t connMatches = 4;
    /// Every match's settings.
    MatchOptions match;
  };

  /// Starts the workers. `sink` receives every batch of reply lines.
  /// Allocates the queues (queueLines strings per worker) and the threads.
  MatchServer(const Options& options, WriteFn sink, void* context);
  /// stop(), then frees everything.
  ~MatchServer();
  MatchServer(const MatchServer&) = delete;
  MatchServer& operator=(const MatchServer&) = delete;

  /// The greeting, written once at start by the caller: `0 hello
  /// laige-peer-serve <version> <scenario,...> threads=<n> max_matches=<m>
  /// spectator_delay=<ticks>`.
  [[nodiscard]] std::string hello() const;

  /// Handles one request line (without '\n'; a line longer than
  /// kMaxServeLine is refused whole, so the reader may pass only its first
  /// kMaxServeLine + 1 bytes). Reader thread only (one caller). Never
  /// blocks on a worker: a full queue is a `server_busy` reply. `closed`
  /// is always delivered (to every worker; not queue-bounded). Cost:
  /// parsing plus one copy of the line into a reused queue slot.
  void submit(std::string_view line);

  /// Finishes every queued line, then joins the workers (idempotent). After
  /// it, submit runs nothing.
  void stop();

  /// Matches alive now (a create in flight counts).
  [[nodiscard]] std::uint32_t matchCount() const noexcept { return matchCount_.load(); }
  /// True after `drain`.
  [[nodiscard]] bool draining() const noexcept { return draining_.load(); }

 private:
  struct Worker;
  void handleConnLevel(std::uint64_t conn, std::string_view verb, std::string_view rest);
  void refuse(std::uint64_t conn, const char* reason, std::string_view fields = {});
  void write(std::string_view batch);
  void runLine(Worker& w, std::uint64_t conn, std::string_view request, std::string& out);
  void runClosed(Worker& w, std::uint64_t conn, std::string& out);
  void workerLoop(Worker& w);
  std::atomic<std::uint32_t>& connQueued(std::uint64_t conn) noexcept;
  std::atomic<std::uint32_t>& connCreated(std::uint64_t conn) noexcept;
  // Gives back what the reader reserved for a create (a match that failed or ended).
  void releaseMatch(std::uint64_t creator) noexcept;

  Options options_;
  WriteFn write_;
  void* context_;
  std::mutex writeMutex_;
  std::vector<std::unique_ptr<Worker>> workers_;
  std::unique_ptr<std::atomic<std::uint32_t>[]> connQueued_;
  std::unique_ptr<std::atomic<std::uint32_t>[]> connCreated_;
  std::atomic<std::uint32_t> matchCount_{0};
  std::atomic<bool> draining_{false};
  std::atomic<std::uint64_t> lines_{0};
  std::atomic<std::uint64_t> refused_{0};
  std::atomic<std::uint64_t> busy_{0};
  bool stopped_ = false;
};

/// fnv1a-64 of a match id: the worker that owns it is this % threads.
[[nodiscard]] std::uint64_t matchRouteHash(std::string_view id) noexcept;

}  // namespace laige::serve
