// laige_detcheck.cpp - laige-detcheck, the determinism checker
// (docs/determinism.md#laige-detcheck).
//
//   laige-detcheck --scenario=<name> [--ticks=N] [--seed=HEX|DEC] [--expect=<file>]
//   laige-detcheck --run-a=<bin> --run-b=<bin> [-- args...]
//   laige-detcheck --compare-combined=<file>
//   laige-detcheck --list
//
// Scenario mode prints the scenario's `<tick> <hash>` stream (ticks 0..N)
// on stdout and exits 0; with --expect it compares the stream with a
// baseline file instead and prints the report. --run-a/--run-b (phase 1)
// runs both programs with the same arguments, one after the other, and
// copies each one's stdout between marker lines onto its own stdout (exit
// 0 when both exited 0, else 2); --compare-combined (phase 2) splits such a
// file, validates both streams and compares them (report; exit 0 agree, 1
// diverged, 2 contract error). Usage errors exit 2. Diagnostics go to
// stderr, which the contract ignores.
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "detcheck_stream.h"
#include "laige/logging.h"
#include "scenario.h"
#include "tool_numbers.h"

namespace {

using namespace laige;

constexpr int kExitOk = 0;
constexpr int kExitDiverged = 1;
constexpr int kExitError = 2;
// The comparison verdicts are the exit codes (docs/scenarios.md).
static_assert(static_cast<int>(detcheck::Verdict::Agree) == kExitOk &&
              static_cast<int>(detcheck::Verdict::Diverged) == kExitDiverged &&
              static_cast<int>(detcheck::Verdict::ContractError) == kExitError);
// A combined file holds two streams of at most 65,537 lines of at most 64
// bytes plus the markers; anything larger is not a detcheck file.
constexpr std::size_t kMaxInputBytes = 16u << 20;

constexpr const char* kUsage =
    "usage:\n"
    "  laige-detcheck --scenario=<name> [--ticks=N] [--seed=HEX|DEC] [--expect=<file>]\n"
    "  laige-detcheck --run-a=<bin> --run-b=<bin> [-- args...]\n"
    "  laige-detcheck --compare-combined=<file>\n"
    "  laige-detcheck --list\n"
    "Scenario mode prints one `<tick> <hash>` line per tick (ticks 0..N; N defaults to the\n"
    "scenario's tick count, 1..65536); --seed defaults to the scenario's seed (0x prefix =\n"
    "hex). --expect compares the stream with a baseline and prints the report. --run-a/--run-b\n"
    "run both programs with the arguments after `--` and print their stdout between\n"
    "@@DETCHK-RUN-{A,B}-BEGIN@@ / @@DETCHK-RUN-{A,B}-END <exit>@@ markers; --compare-combined\n"
    "compares such an output. Exit: 0 ok/agree, 1 diverged, 2 usage/scenario/contract error.\n";

int usageError(const std::string& what) {
  std::fprintf(stderr, "laige-detcheck: %s\n%s", what.c_str(), kUsage);
  return kExitError;
}

using laige::tools::parseU64;

// Reads a whole file of at most kMaxInputBytes; "" error string when ok.
std::string readFile(const char* path, std::string& out) {
  std::FILE* f = std::fopen(path, "rb");
  if (f == nullptr) return std::string("cannot open ") + path + ": " + std::strerror(errno);
  out.clear();
  char buf[65536];
  std::size_t n = 0;
  while ((n = std::fread(buf, 1, sizeof buf, f)) != 0) {
    out.append(buf, n);
    if (out.size() > kMaxInputBytes) {
      std::fclose(f);
      return std::string(path) + " is larger than 16 MiB";
    }
  }
  const bool failed = std::ferror(f) != 0;
  std::fclose(f);
  return failed ? std::string("cannot read ") + path : std::string();
}

struct StreamSink {
  std::FILE* file = nullptr;  // print here, or
  std::string* text = nullptr;  // collect here
};

void emitLine(void* context, std::uint64_t tick, std::uint64_t hash) noexcept {
  auto* sink = static_cast<StreamSink*>(context);
  char line[kHashLineCapacity];
  const std::uint32_t n = formatHashLine(tick, hash, line);
  if (sink->file != nullptr) std::fwrite(line, 1, n, sink->file);
  if (sink->text != nullptr) sink->text->append(line, n);
}

int listScenarios() {
  for (std::uint32_t i = 0; i < scenarioCount(); ++i) {
    const Scenario& s = *scenarioAt(i);
    std::printf("%-20s ticks=%-5u seed=0x%llx rate=%uHz  %s\n", s.name, s.defaultTicks,
                static_cast<unsigned long long>(s.defaultSeed), s.tickRateHz, s.description);
  }
  return kExitOk;
}

int scenarioMode(const char* name, const char* ticksArg, const char* seedArg, const char* expect) {
  const Scenario* s = findScenario(name);
  if (s == nullptr) return usageError(std::string("unknown scenario: ") + name + " (see --list)");
  std::uint64_t ticks = s->defaultTicks;
  if (ticksArg != nullptr && (!parseU64(ticksArg, ticks) || ticks < 1 || ticks > kMaxScenarioTicks)) {
    return usageError(std::string("--ticks must be 1..65536, got ") + ticksArg);
  }
  std::uint64_t seed = s->defaultSeed;
  if (seedArg != nullptr && !parseU64(seedArg, seed)) {
    return usageError(std::string("--seed must be a decimal or 0x-prefixed hex u64, got ") + seedArg);
  }
  std::string collected;
  StreamSink sink;
  if (expect != nullptr) sink.text = &collected;
  else sink.file = stdout;
  const Result<std::uint64_t> r = runScenario(*s, seed, static_cast<std::uint32_t>(ticks), &emitLine, &sink);
  if (r.isError()) {
    std::fprintf(stderr, "laige-detcheck: scenario %s failed: %s\n", name, errorName(r.error()));
    return kExitError;
  }
  if (expect == nullptr) return std::fflush(stdout) == 0 ? kExitOk : kExitError;
  std::string baseline;
  if (std::string err = readFile(expect, baseline); !err.empty()) {
    std::fprintf(stderr, "laige-detcheck: %s\n", err.c_str());
    return kExitError;
  }
  // run-a is this run, run-b the baseline.
  const detcheck::Comparison c = detcheck::compareStreams(collected, baseline);
  const std::string report = detcheck::formatReport(name, c);
  std::fwrite(report.data(), 1, report.size(), stdout);
  return static_cast<int>(c.verdict);
}

// Runs `bin args...` with its stdout on a pipe and copies it to ours. The
// exit status: the child's, 128 + signal, or 127 when it could not start.
int runChild(const char* bin, const std::vector<char*>& args, bool& endedWithNewline) {
  int fds[2];
  if (pipe(fds) != 0) {
    std::fprintf(stderr, "laige-detcheck: pipe: %s\n", std::strerror(errno));
    return 127;
  }
  std::fflush(stdout);
  const pid_t pid = fork();
  if (pid < 0) {
    std::fprintf(stderr, "laige-detcheck: fork: %s\n", std::strerror(errno));
    close(fds[0]);
    close(fds[1]);
    return 127;
  }
  if (pid == 0) {
    dup2(fds[1], STDOUT_FILENO);
    close(fds[0]);
    close(fds[1]);
    std::vector<char*> argv;
    argv.push_back(const_cast<char*>(bin));
    for (char* a : args) argv.push_back(a);
    argv.push_back(nullptr);
    execvp(bin, argv.data());
    std::fprintf(stderr, "laige-detcheck: cannot run %s: %s\n", bin, std::strerror(errno));
    _exit(127);
  }
  close(fds[1]);
  endedWithNewline = true;
  char buf[65536];
  for (;;) {
    const ssize_t n = read(fds[0], buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    std::fwrite(buf, 1, static_cast<std::size_t>(n), stdout);
    endedWithNewline = buf[n - 1] == '\n';
  }
  close(fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return 127;
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 127;
}

int runMode(const char* binA, const char* binB, const std::vector<char*>& args) {
  int exits[2] = {0, 0};
  const char* bins[2] = {binA, binB};
  const char* tags[2] = {"A", "B"};
  for (int i = 0; i < 2; ++i) {
    std::printf("@@DETCHK-RUN-%s-BEGIN@@\n", tags[i]);
    bool newline = true;
    exits[i] = runChild(bins[i], args, newline);
    // The end marker must start its own line even when the child's last
    // line had no newline (the contract tolerates a missing final newline).
    if (!newline) std::fputc('\n', stdout);
    std::printf("@@DETCHK-RUN-%s-END %d@@\n", tags[i], exits[i]);
    std::fflush(stdout);
  }
  return exits[0] == 0 && exits[1] == 0 ? kExitOk : kExitError;
}

int compareMode(const char* path) {
  std::string text;
  if (std::string err = readFile(path, text); !err.empty()) {
    std::fprintf(stderr, "laige-detcheck: %s\n", err.c_str());
    return kExitError;
  }
  const detcheck::Comparison c = detcheck::compareCombined(text);
  const std::string report = detcheck::formatReport(detcheck::kCombinedName, c);
  std::fwrite(report.data(), 1, report.size(), stdout);
  if (c.verdict == detcheck::Verdict::ContractError) std::fprintf(stderr, "laige-detcheck: %s\n", c.error.c_str());
  return static_cast<int>(c.verdict);
}

// The value of `--flag=value`, or nullptr when `arg` is not that flag.
const char* valueOf(const char* arg, std::string_view flag) {
  const std::size_t n = flag.size();
  if (std::strncmp(arg, flag.data(), n) == 0 && arg[n] == '=') return arg + n + 1;
  return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  // Scenario setup legitimately crosses the churn budget and the scheduler notes the
  // intended read-before-write lags: warnings stay, the info chatter goes.
  log::Logger::instance().setGlobalMinimum(log::Level::Warn);
  const char* scenario = nullptr;
  const char* ticks = nullptr;
  const char* seed = nullptr;
  const char* expect = nullptr;
  const char* runA = nullptr;
  const char* runB = nullptr;
  const char* combined = nullptr;
  bool list = false;
  std::vector<char*> childArgs;
  for (int i = 1; i < argc; ++i) {
    const char* a = argv[i];
    const char* v = nullptr;
    if (std::strcmp(a, "--") == 0) {
      for (int k = i + 1; k < argc; ++k) childArgs.push_back(argv[k]);
      break;
    }
    if (std::strcmp(a, "--help") == 0 || std::strcmp(a, "-h") == 0) {
      std::fputs(kUsage, stdout);
      return kExitOk;
    }
    if (std::strcmp(a, "--list") == 0) list = true;
    else if ((v = valueOf(a, "--scenario")) != nullptr) scenario = v;
    else if ((v = valueOf(a, "--ticks")) != nullptr) ticks = v;
    else if ((v = valueOf(a, "--seed")) != nullptr) seed = v;
    else if ((v = valueOf(a, "--expect")) != nullptr) expect = v;
    else if ((v = valueOf(a, "--run-a")) != nullptr) runA = v;
    else if ((v = valueOf(a, "--run-b")) != nullptr) runB = v;
    else if ((v = valueOf(a, "--compare-combined")) != nullptr) combined = v;
    else return usageError(std::string("unknown argument: ") + a);
  }
  const int modes = (list ? 1 : 0) + (scenario != nullptr ? 1 : 0) + (runA != nullptr || runB != nullptr ? 1 : 0) +
                    (combined != nullptr ? 1 : 0);
  if (modes != 1) return usageError("give exactly one of --scenario, --run-a/--run-b, --compare-combined, --list");
  if (scenario == nullptr && (ticks != nullptr || seed != nullptr || expect != nullptr)) {
    return usageError("--ticks, --seed and --expect go with --scenario");
  }
  if (!childArgs.empty() && runA == nullptr) return usageError("arguments after -- go with --run-a/--run-b");
  if (list) return listScenarios();
  if (scenario != nullptr) return scenarioMode(scenario, ticks, seed, expect);
  if (combined != nullptr) return compareMode(combined);
  if (runA == nullptr || runB == nullptr || runA[0] == '\0' || runB[0] == '\0') {
    return usageError("--run-a and --run-b go together, each with a program");
  }
  return runMode(runA, runB, childArgs);
}
