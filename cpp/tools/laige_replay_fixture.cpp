// laige-replay-fixture - records a replay log of a scenario driven by a
// generated input stream, and the live run's `<tick> <hash>` stream: the
// fixtures the laige-replay CLI test (tests/cli/replay_cli_test.sh) replays
// and compares against. A developer tool, native only.
//
//   laige-replay-fixture --config <cfg.json> --ticks <n> --out <log>
//                        [--hashes <file>] [--scenario <name>]
//                        [--payload-seed <s>] [--perturb-tick <t>] [--spawn-every <k>]
//
// A registry scenario with an input generator (e.g. `input`) is driven by
// its own generator with the config's seed - the very stream laige-detcheck
// runs, so replaying the recording must reproduce that scenario's golden
// hashes. Otherwise, or with --payload-seed, the payload of tick t is 0..8
// bytes from a PRNG seeded with --payload-seed (default 1); --spawn-every k
// makes every k-th payload start with 0xFF (the self-test scene spawns an
// entity); --perturb-tick t flips the last byte of tick t's payload (the
// diff fixtures). The log is written
// with ReplayRecorder while the world runs, exactly as a game would.
// Exit: 0 written, 2 usage / config / I/O / engine error.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "laige/logging.h"
#include "laige/prng.h"
#include "laige/replay.h"
#include "laige/replay_text.h"
#include "replay_tool_scenes.h"

namespace {

using namespace laige;

int fail(const char* what, const char* detail = "") {
  std::fprintf(stderr, "laige-replay-fixture: %s%s\n", what, detail);
  return 2;
}

bool parseU64(const char* text, std::uint64_t& out) {
  if (text == nullptr || *text == '\0' || *text == '-') return false;
  char* end = nullptr;
  out = std::strtoull(text, &end, 10);
  return end != nullptr && *end == '\0';
}

}  // namespace

int main(int argc, char** argv) {
  log::Logger::instance().setGlobalMinimum(log::Level::Warn);
  const char* configPath = nullptr;
  const char* out = nullptr;
  const char* hashesPath = nullptr;
  const char* scenarioName = nullptr;
  std::uint64_t ticks = 0, payloadSeed = 1, perturbTick = 0, spawnEvery = 0;
  bool haveTicks = false, randomPayloads = false;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (i + 1 >= argc) return fail("missing value for ", argv[i]);
    const char* v = argv[++i];
    if (flag == "--config") configPath = v;
    else if (flag == "--out") out = v;
    else if (flag == "--hashes") hashesPath = v;
    else if (flag == "--scenario") scenarioName = v;
    else if (flag == "--ticks" && parseU64(v, ticks)) haveTicks = true;
    else if (flag == "--payload-seed" && parseU64(v, payloadSeed)) randomPayloads = true;
    else if (flag == "--perturb-tick" && parseU64(v, perturbTick)) continue;
    else if (flag == "--spawn-every" && parseU64(v, spawnEvery)) continue;
    else return fail("bad argument: ", argv[i - 1]);
  }
  if (configPath == nullptr || out == nullptr || !haveTicks) return fail("need --config, --ticks and --out");

  std::string text;
  if (std::FILE* f = std::fopen(configPath, "rb")) {
    char buf[4096];
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0 && text.size() <= kMaxReplayConfigBytes;) {
      text.append(buf, n);
    }
    std::fclose(f);
  } else {
    return fail("cannot read config ", configPath);
  }
  TextParseError why;
  Result<ReplayConfigFile> cfg = parseReplayConfigJson(text, &why);
  if (cfg.isError()) return fail("invalid config: ", why.reason);
  const ReplayConfig& config = cfg.value().config;
  const std::string name = scenarioName != nullptr ? scenarioName : cfg.value().scenario;
  const tools::ResolvedScenario scenario = tools::findToolScenario(name);
  if (!scenario) return fail("unknown scenario: ", name.c_str());
  const auto generator = scenario.shared != nullptr && !randomPayloads ? scenario.shared->input : nullptr;

  Result<World> created = World::create(worldOptionsFor(config));
  if (created.isError()) return fail("cannot create the world");
  World world = std::move(created).takeValue();
  if (scenario.setup(world, config.seed).isError()) return fail("scenario setup failed");
  SystemSchedule schedule;
  if (world.scheduleSystems(schedule).isError()) return fail("scheduling failed");

  Result<ReplayRecorder> rec = ReplayRecorder::create(makeReplayIdentity(world, config), out);
  if (rec.isError()) return fail("cannot start recording ", out);
  ReplayRecorder recorder = std::move(rec).takeValue();
  std::vector<std::uint64_t> hashes{world.stateHash(0)};
  Prng rng(payloadSeed);
  for (std::uint64_t t = 1; t <= ticks; ++t) {
    std::uint8_t payload[kMaxScenarioInputBytes + 1];
    std::uint32_t len = 0;
    if (generator != nullptr) {
      len = generator(config.seed, t, payload, kMaxScenarioInputBytes);
      if (len > kMaxScenarioInputBytes) len = kMaxScenarioInputBytes;
    } else {
      len = rng.next_range(0, 8);
      for (std::uint32_t i = 0; i < len; ++i) payload[i] = static_cast<std::uint8_t>(rng.next_u32());
      if (len > 0 && payload[0] == 0xFF) payload[0] = 0xFE;  // spawns only where asked for
    }
    if (spawnEvery != 0 && t % spawnEvery == 0) {
      if (len == 0) len = 1;
      payload[0] = 0xFF;
    }
    if (t == perturbTick) {
      if (len == 0) payload[len++] = 0;
      payload[len - 1] ^= 0x01;
    }
    world.beginFrame();
    if (world.runSystems(schedule, TickInput{len != 0 ? payload : nullptr, len}).isError()) {
      return fail("a tick failed");
    }
    // A frame is recorded once its tick has completed.
    if (recorder.writeFrame(t, len != 0 ? payload : nullptr, len).isError()) return fail("recording failed");
    hashes.push_back(world.stateHash(t));
  }
  if (recorder.finish().isError()) return fail("finishing the log failed: ", out);
  if (hashesPath != nullptr) {
    std::FILE* h = std::fopen(hashesPath, "wb");
    if (h == nullptr) return fail("cannot write ", hashesPath);
    char line[kReplayHashLineCapacity];
    for (std::size_t t = 0; t < hashes.size(); ++t) {
      std::fwrite(line, 1, formatReplayHashLine(t, hashes[t], line), h);
    }
    if (std::fclose(h) != 0) return fail("cannot write ", hashesPath);
  }
  return 0;
}
