// inline_server.h - a MatchServer without worker threads (every line is
// answered inside submit()) whose replies a test reads request by request.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "match_server.h"
#include "serve_lines.h"

namespace laige::serve::test {

/// The server's batch sink: appends the batch to the std::string `context`.
inline void collectReplies(void* context, std::string_view batch) {
  static_cast<std::string*>(context)->append(batch);
}

struct InlineServer {
  /// No threads, a fixed token secret (tokens are the same every run).
  static MatchServer::Options options() {
    MatchServer::Options o;
    o.threads = 0;
    o.match.tokenSecret = 42;
    return o;
  }
  explicit InlineServer(MatchServer::Options o = options()) : server(o, &collectReplies, &out) {}
  /// The reply lines of one request.
  std::vector<ConnLine> ask(const std::string& line) {
    out.clear();
    server.submit(line);
    return splitLines(out);
  }
  std::string out;
  MatchServer server;
};

}  // namespace laige::serve::test
