// laige-replay - replays LGRP v1 logs (docs/replay.md).
//
//   laige-replay --log <log> --config <cfg.json> [--expect <baseline>] [--scenario <name>]
//   laige-replay --diff <logA> <logB> --config <cfg.json> [--entries <n>] [--scenario <name>]
//
// Log mode prints the `<tick> <hash>` stream (ticks 0..N) on stdout and
// nothing else; with --expect it compares the stream with a baseline file.
// Diff mode replays two logs in lock step and prints the replay_diff report.
// Diagnostics go to stderr, and so does a progress line every 10% for long
// logs (over 10,000 frames) or when stderr is a terminal.
// Exit codes: 0 ok / match / identical; 1 hash or length mismatch /
// divergence; 2 usage, I/O, config, log, identity or engine error.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "laige/desync.h"
#include "laige/logging.h"
#include "laige/replay.h"
#include "laige/replay_diff.h"
#include "laige/replay_text.h"
#include "replay_tool_scenes.h"

namespace {

using namespace laige;

constexpr int kExitOk = 0;
constexpr int kExitMismatch = 1;
constexpr int kExitError = 2;

constexpr const char kUsage[] =
    "usage:\n"
    "  laige-replay --log <log> --config <cfg.json> [--expect <baseline>] [--scenario <name>]\n"
    "  laige-replay --diff <logA> <logB> --config <cfg.json> [--entries <n>] [--scenario <name>]\n"
    "  laige-replay --help | -h\n"
    "\n"
    "Log mode prints one '<tick> <16 hex>' line per tick (0..N) of the replayed state hash;\n"
    "--expect compares that stream with a baseline in the same format.\n"
    "Diff mode replays both logs in lock step (each with its own header's seed) and reports\n"
    "the first tick whose component state differs, with up to <n> (0..64, default 16)\n"
    "differing items, then the desync report there: the first system after which the\n"
    "two runs' per-system checkpoints differ and each item's first differing field.\n"
    "The scenario that sets the world up comes from --scenario or the\n"
    "config's \"scenario\" key.\n"
    "Exit: 0 ok/match/identical, 1 mismatch/divergence, 2 usage, I/O, config, log,\n"
    "identity or engine error.\n";

/// The command line, as given.
struct Args {
  const char* log = nullptr;
  const char* config = nullptr;
  const char* expect = nullptr;
  const char* diffA = nullptr;
  const char* diffB = nullptr;
  const char* scenario = nullptr;
  const char* entries = nullptr;
  /// --entries as a number (the default when absent).
  std::uint32_t entryCount = 16;
};

int usageError(const char* what, const char* detail = "") {
  std::fprintf(stderr, "laige-replay: %s%s\n(run laige-replay --help for usage)\n", what, detail);
  return kExitError;
}

/// Parses --entries: decimal 0..64, nothing else (no sign, no spaces).
bool parseEntries(const char* text, std::uint32_t& out) {
  if (text == nullptr) {
    out = kReplayDiffDefaultEntries;
    return true;
  }
  const std::size_t n = std::strlen(text);
  if (n == 0 || n > 2) return false;
  std::uint32_t v = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (text[i] < '0' || text[i] > '9') return false;
    v = v * 10 + static_cast<std::uint32_t>(text[i] - '0');
  }
  if (v > kMaxReplayDiffEntries) return false;
  out = v;
  return true;
}

/// Parses argv into `a`. Returns -1 to go on, else the exit code.
int parseArgs(int argc, char** argv, Args& a) {
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0) {
      std::fputs(kUsage, stdout);
      return kExitOk;
    }
  }
  for (int i = 1; i < argc; ++i) {
    const std::string_view flag = argv[i];
    const char** slot = flag == "--log"        ? &a.log
                        : flag == "--config"   ? &a.config
                        : flag == "--expect"   ? &a.expect
                        : flag == "--scenario" ? &a.scenario
                        : flag == "--entries"  ? &a.entries
                        : flag == "--diff"     ? &a.diffA
                                               : nullptr;
    if (slot == nullptr) return usageError("unknown argument: ", argv[i]);
    if (*slot != nullptr) return usageError("argument given twice: ", argv[i]);
    const int values = flag == "--diff" ? 2 : 1;
    if (i + values >= argc) return usageError("missing value for ", argv[i]);
    *slot = argv[++i];
    if (values == 2) a.diffB = argv[++i];
  }
  const bool diff = a.diffA != nullptr;
  if (diff && (a.log != nullptr || a.expect != nullptr)) {
    return usageError("--diff cannot be combined with --log or --expect");
  }
  if (!diff && a.log == nullptr) return usageError("give --log <log> or --diff <logA> <logB>");
  if (!diff && a.entries != nullptr) return usageError("--entries applies to --diff only");
  if (!parseEntries(a.entries, a.entryCount)) return usageError("--entries takes a number 0..64, not ", a.entries);
  if (a.config == nullptr) return usageError("missing --config <cfg.json>");
  return -1;
}

/// Reads `path` whole, at most `maxBytes`: IoError when it cannot be read,
/// MalformedInput when it is bigger.
Status readBounded(const char* path, std::size_t maxBytes, std::string& out) {
  out.clear();
  std::FILE* f = std::fopen(path, "rb");
  if (f == nullptr) return ErrorCode::IoError;
  char buf[65536];
  bool readError = false;
  for (;;) {
    const std::size_t got = std::fread(buf, 1, sizeof buf, f);
    out.append(buf, got);
    if (out.size() > maxBytes) break;
    if (got < sizeof buf) {
      readError = std::ferror(f) != 0;
      break;
    }
  }
  std::fclose(f);
  if (readError) return ErrorCode::IoError;
  if (out.size() > maxBytes) return ErrorCode::MalformedInput;
  return Status{};
}

/// Loads and parses the config file; prints the reason and returns false on failure.
bool loadConfig(const char* path, ReplayConfigFile& out) {
  std::string text;
  const Status st = readBounded(path, kMaxReplayConfigBytes, text);
  if (st.isError()) {
    std::fprintf(stderr, "laige-replay: cannot read config %s: %s\n", path,
                 st.error() == ErrorCode::IoError ? "unreadable or missing" : "larger than 1 MiB");
    return false;
  }
  TextParseError why;
  Result<ReplayConfigFile> r = parseReplayConfigJson(text, &why);
  if (r.isError()) {
    std::fprintf(stderr, "laige-replay: invalid config %s:%u:%u: %s\n", path, why.line, why.column,
                 why.reason != nullptr ? why.reason : "malformed");
    return false;
  }
  out = std::move(r).takeValue();
  return true;
}

/// Loads a replay log; prints the reason and returns false on failure.
bool loadLog(const char* path, ReplayLog& out) {
  ReplayParseError why;
  Result<ReplayLog> r = loadReplay(path, kDefaultReplaySizeLimit, &why);
  if (r.isError()) {
    std::fprintf(stderr, "laige-replay: cannot load replay log %s: %s (%s, offset %llu)\n", path,
                 errorName(r.error()), why.reason != nullptr ? why.reason : "unknown",
                 static_cast<unsigned long long>(why.offset));
    return false;
  }
  out = std::move(r).takeValue();
  return true;
}

/// A fresh world for `config`, set up by `scenario`.
bool makeWorld(const ReplayConfig& config, const tools::ResolvedScenario& scenario, World& out) {
  Result<World> w = World::create(worldOptionsFor(config));
  if (w.isError()) {
    std::fprintf(stderr, "laige-replay: cannot create the world: %s\n", errorName(w.error()));
    return false;
  }
  out = std::move(w).takeValue();
  if (const Status st = scenario.setup(out, config.seed); st.isError()) {
    std::fprintf(stderr, "laige-replay: scenario %s setup failed: %s\n", scenario.name, errorName(st.error()));
    return false;
  }
  return true;
}

/// The scenario --scenario or the config names; prints why and returns a
/// falsy result when there is none.
tools::ResolvedScenario resolveScenario(const Args& a, const ReplayConfigFile& cfg) {
  const std::string name = a.scenario != nullptr ? a.scenario : cfg.scenario;
  if (name.empty()) {
    std::fprintf(stderr, "laige-replay: no scenario: pass --scenario <name> or set \"scenario\" in the config\n");
    return {};
  }
  const tools::ResolvedScenario s = tools::findToolScenario(name);
  if (!s) std::fprintf(stderr, "laige-replay: unknown scenario: %s\n", name.c_str());
  return s;
}

void printProgress(void* /*ctx*/, std::uint64_t done, std::uint64_t total) noexcept {
  const unsigned pct = total == 0 ? 100u : static_cast<unsigned>(done * 100 / total);
  std::fprintf(stderr, "laige-replay: %llu/%llu ticks (%u%%)\n", static_cast<unsigned long long>(done),
               static_cast<unsigned long long>(total), pct);
}

/// Every 10% for long logs or an interactive stderr; nullptr otherwise.
const ReplayProgress* progressFor(std::uint64_t frames, ReplayProgress& p) {
  if (frames <= 10000 && ::isatty(STDERR_FILENO) == 0) return nullptr;
  p.fn = &printProgress;
  p.interval = frames >= 10 ? frames / 10 : 1;
  return &p;
}

int runLogMode(const Args& a, const ReplayConfigFile& cfg, const tools::ResolvedScenario& scenario) {
  ReplayLog log;
  if (!loadLog(a.log, log)) return kExitError;
  std::vector<std::uint64_t> baseline;
  if (a.expect != nullptr) {
    // Read before replaying: a malformed baseline is a usage error, found early.
    std::string text;
    const Status st = readBounded(a.expect, kMaxBaselineBytes, text);
    if (st.isError()) {
      std::fprintf(stderr, "laige-replay: cannot read baseline %s: %s\n", a.expect,
                   st.error() == ErrorCode::IoError ? "unreadable or missing" : "larger than 8 MiB");
      return kExitError;
    }
    TextParseError why;
    if (parseHashBaseline(text, baseline, &why).isError()) {
      std::fprintf(stderr, "laige-replay: malformed baseline %s:%u:%u: %s\n", a.expect, why.line, why.column,
                   why.reason);
      return kExitError;
    }
  }
  World world;
  if (!makeWorld(cfg.config, scenario, world)) return kExitError;
  ReplayProgress p;
  Result<ReplayRunResult> r = runReplay(log, world, cfg.config, progressFor(log.frameCount(), p));
  if (r.isError()) {
    std::fprintf(stderr, "laige-replay: replay rejected: %s (see the replay/* warning above)\n",
                 errorName(r.error()));
    return kExitError;
  }
  const std::vector<std::uint64_t>& hashes = r.value().tickHashes;
  char line[kReplayHashLineCapacity];
  for (std::size_t t = 0; t < hashes.size(); ++t) {
    std::fwrite(line, 1, formatReplayHashLine(t, hashes[t], line), stdout);
  }
  if (std::fflush(stdout) != 0 || std::ferror(stdout) != 0) {
    std::fprintf(stderr, "laige-replay: writing the hash stream failed\n");
    return kExitError;
  }
  if (a.expect == nullptr) return kExitOk;
  const HashStreamComparison c = compareHashStreams(hashes, baseline);
  if (c.match) return kExitOk;
  if (c.hashMismatch) {
    const auto t = static_cast<std::size_t>(c.firstMismatchTick);
    std::fprintf(stderr, "hash mismatch at tick %llu (first divergence)\n",
                 static_cast<unsigned long long>(c.firstMismatchTick));
    std::fprintf(stderr, "  expected %016llx\n  actual   %016llx\n", static_cast<unsigned long long>(baseline[t]),
                 static_cast<unsigned long long>(hashes[t]));
    return kExitMismatch;
  }
  std::fprintf(stderr, "baseline stream length mismatch: replay has %zu lines, baseline has %zu\n", hashes.size(),
               baseline.size());
  std::fprintf(stderr, "first %s tick %llu\n", c.actualLonger ? "extra" : "missing",
               static_cast<unsigned long long>(c.firstUnmatchedTick));
  return kExitMismatch;
}

void printHex(const std::vector<std::uint8_t>& bytes) {
  constexpr char kHex[] = "0123456789abcdef";
  for (const std::uint8_t b : bytes) {
    std::fputc(kHex[b >> 4], stdout);
    std::fputc(kHex[b & 0xf], stdout);
  }
}

// The desync report of the two worlds at their first divergent tick
// (docs/desync.md#the-report): the first system after which their per-system
// checkpoints differ, then per differing item its first differing field.
// Lines: `desync first_system=<name|-> position=<n|-> checkpoints=compared|not_compared`
// and `desync_item slot=<s> component=<c> field=<name|->`.
void printDesyncReport(const World& a, const World& b, std::uint32_t maxItems) {
  std::string items;
  const Result<DesyncReport> r = desyncReport(a, b, maxItems, [&](const DesyncItem& d) {
    items += "desync_item slot=" + std::to_string(d.item.slot) + " component=" + std::to_string(d.item.componentId) +
             " field=" + (d.field == kNoField ? std::string("-") : std::string(d.fieldName)) + "\n";
  });
  if (r.isError()) {
    std::fprintf(stderr, "laige-replay: no desync report: %s\n", r.status().reason());
    return;
  }
  const DesyncReport& rep = r.value();
  const char* name = "-";
  if (rep.firstSystem.value != 0) {
    if (auto info = a.system(rep.firstSystem); info.ok() && info.value().def.name != nullptr) name = info.value().def.name;
  }
  if (rep.firstSystem.value != 0) {
    std::printf("desync first_system=%s position=%u checkpoints=compared\n", name, rep.firstSystemPosition);
  } else {
    std::printf("desync first_system=- position=- checkpoints=%s\n", rep.checkpointsCompared ? "compared" : "not_compared");
  }
  std::fputs(items.c_str(), stdout);
}

int runDiffMode(const Args& a, const ReplayConfigFile& cfg, const tools::ResolvedScenario& scenario) {
  ReplayLog logA, logB;
  if (!loadLog(a.diffA, logA) || !loadLog(a.diffB, logB)) return kExitError;
  // Each side runs with its own log's seed (docs/replay.md: configX = base config
  // with the seed of log X's header), so two seeds can be compared.
  ReplayConfig configA = cfg.config, configB = cfg.config;
  configA.seed = logA.identity.seed;
  configB.seed = logB.identity.seed;
  World worldA, worldB;
  if (!makeWorld(configA, scenario, worldA) || !makeWorld(configB, scenario, worldB)) return kExitError;
  // Checkpoints are diagnostics, not state: they change no hash the diff compares.
  for (World* w : {&worldA, &worldB}) {
    if (const Status st = setSystemCheckpoints(*w, true); st.isError()) {
      std::fprintf(stderr, "laige-replay: cannot record checkpoints: %s\n", st.reason());
      return kExitError;
    }
  }
  const std::uint64_t common = logA.frameCount() < logB.frameCount() ? logA.frameCount() : logB.frameCount();
  ReplayProgress p;
  Result<ReplayDiffResult> r =
      diffReplays(logA, logB, worldA, worldB, configA, configB, a.entryCount, progressFor(common, p));
  if (r.isError()) {
    std::fprintf(stderr, "laige-replay: diff rejected: %s (see the replay/* warning above)\n",
                 errorName(r.error()));
    return kExitError;
  }
  const ReplayDiffResult& d = r.value();
  const char* result = d.identical ? "identical" : d.lengthDivergence ? "length_divergence" : "divergent";
  std::printf("replay_diff result=%s\n", result);
  std::printf("frames_a=%llu\n", static_cast<unsigned long long>(d.framesA));
  std::printf("frames_b=%llu\n", static_cast<unsigned long long>(d.framesB));
  std::printf("first_divergent_tick=%llu\n", static_cast<unsigned long long>(d.firstDivergentTick));
  std::printf("length_divergence=%s\n", d.lengthDivergence ? "true" : "false");
  std::printf("full_state_divergent=%s\n", d.fullStateDivergent ? "true" : "false");
  std::printf("differing_items=%u\n", d.differingItems);
  std::printf("reported_items=%zu\n", d.entries.size());
  for (const ReplayDiffEntry& e : d.entries) {
    const char* presence = e.presentInA && e.presentInB ? "both" : e.presentInA ? "a_only" : "b_only";
    std::printf("item slot=%u component=%u presence=%s a=", static_cast<unsigned>(e.slot), e.componentId,
                presence);
    if (e.componentId != 0 && e.presentInA) printHex(e.a); else std::fputc('-', stdout);
    std::fputs(" b=", stdout);
    if (e.componentId != 0 && e.presentInB) printHex(e.b); else std::fputc('-', stdout);
    std::fputc('\n', stdout);
  }
  if (!d.identical && !d.lengthDivergence) printDesyncReport(worldA, worldB, a.entryCount);
  if (std::fflush(stdout) != 0 || std::ferror(stdout) != 0) return kExitError;
  return d.identical ? kExitOk : kExitMismatch;
}

}  // namespace

int main(int argc, char** argv) {
  // Warnings and errors (identity mismatches, rejected logs) explain a
  // failure on stderr; info records (recording lifecycle) are noise here.
  log::Logger::instance().setGlobalMinimum(log::Level::Warn);
  Args a;
  if (const int code = parseArgs(argc, argv, a); code >= 0) return code;
  ReplayConfigFile cfg;
  if (!loadConfig(a.config, cfg)) return kExitError;
  const tools::ResolvedScenario scenario = resolveScenario(a, cfg);
  if (!scenario) return kExitError;
  const int code = a.diffA != nullptr ? runDiffMode(a, cfg, scenario) : runLogMode(a, cfg, scenario);
  log::Logger::instance().shutdown();
  return code;
}
