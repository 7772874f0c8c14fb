// Writes the seed corpus of the fuzz targets (tests/fuzz/corpus/<target>/):
// valid replay files made by ReplayWriter, config / baseline texts, op
// streams for fuzz_world_ops and fuzz_relation_ops. Deterministic: rerunning rewrites the same files.
// Usage: fuzz_seedgen <corpus-dir>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "laige/replay.h"
#include "laige/world.h"
#include "scenario.h"

namespace {

bool writeFile(const std::string& path, const std::vector<std::uint8_t>& bytes) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) return false;
  const bool ok = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  return std::fclose(f) == 0 && ok;
}

std::vector<std::uint8_t> text(std::uint8_t selector, const char* s) {
  std::vector<std::uint8_t> v{selector};
  for (const char* p = s; *p != 0; ++p) v.push_back(static_cast<std::uint8_t>(*p));
  return v;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: fuzz_seedgen <corpus-dir>\n");
    return 2;
  }
  const std::string dir = argv[1];
  int bad = 0;
  // Replay files: 0, 1, 3 and 17 frames of varied sizes.
  const int frameCounts[] = {0, 1, 3, 17};
  for (int k = 0; k < 4; ++k) {
    laige::ReplayIdentity id;
    id.seed = 0x1F055EEDull + static_cast<std::uint64_t>(k);
    id.tickRateHz = 60;
    id.componentSchemaHash = 0x1234u * static_cast<std::uint64_t>(k + 1);
    id.mathBackendId = static_cast<std::uint32_t>(k % 2);
    id.configHash = 0xABCDEFull + static_cast<std::uint64_t>(k);
    auto w = laige::ReplayWriter::create(id).takeValue();
    for (int t = 0; t < frameCounts[k]; ++t) {
      std::vector<std::uint8_t> payload(static_cast<std::size_t>((t * 7) % 23));
      for (std::size_t i = 0; i < payload.size(); ++i) payload[i] = static_cast<std::uint8_t>(i * 31 + t);
      if (w.writeFrame(static_cast<std::uint64_t>(t + 1), payload.empty() ? nullptr : payload.data(),
                       static_cast<std::uint32_t>(payload.size())).isError()) ++bad;
    }
    if (w.finish().isError()) ++bad;
    if (!writeFile(dir + "/replay_parse/valid-" + std::to_string(frameCounts[k]) + "-frames.lgr", w.bytes())) ++bad;
  }
  // Text parsers: byte 0 even = config JSON, odd = hash baseline.
  bad += !writeFile(dir + "/replay_text/config-full.txt",
                    text(0, "{\"scenario\": \"swarm\", \"seed\": 42, \"tickRateHz\": 60, "
                            "\"entityCapacity\": 1024, \"churnPerFrameBudget\": 64}\n"));
  bad += !writeFile(dir + "/replay_text/config-min.txt", text(0, "{\"scenario\": \"hello\"}"));
  bad += !writeFile(dir + "/replay_text/baseline.txt",
                    text(1, "1 00000000deadbeef\n2 0123456789abcdef\n3 fedcba9876543210\n"));
  bad += !writeFile(dir + "/replay_text/baseline-empty.txt", text(1, ""));
  // World op streams (see fuzz_world_ops.cpp for the encoding): header
  // (capacity, churn budget, seed), then ops.
  {
    // creates, a registered 8-byte component (two u32 fields), adds, mutation, destroy, clear.
    std::vector<std::uint8_t> s = {16, 8, 1, 2, 3, 4};
    for (int i = 0; i < 6; ++i) { s.push_back(0); s.push_back(0); }     // 6 x create
    const std::uint8_t reg[] = {5, 3, 'P', 'o', 's', 2, 0, 6, 1, 0, 1, 6, 1, 4, 1};
    s.insert(s.end(), reg, reg + sizeof reg);
    for (int i = 0; i < 4; ++i) {                                        // add to entity i
      const std::uint8_t add[] = {0, 2, 0, static_cast<std::uint8_t>(i), 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8};
      s.insert(s.end(), add, add + sizeof add);
    }
    const std::uint8_t tail[] = {1, 4, 0, 1, 0, 0, 3, 0, 9,   // mutate entity 1
                                 2, 1, 0, 2, 0,               // destroy entity 2
                                 11, 4, 0, 0};                // stats, clear, create
    s.insert(s.end(), tail, tail + sizeof tail);
    bad += !writeFile(dir + "/world_ops/components.bin", s);
  }
  {
    // a system that mutates (flags 2), schedule, run x3, a raw iteration.
    std::vector<std::uint8_t> s = {32, 16, 9, 9, 9, 9, 0, 0, 0, 0, 0, 0};
    const std::uint8_t reg[] = {5, 3, 'V', 'e', 'l', 1, 0, 5, 2, 0, 1};
    s.insert(s.end(), reg, reg + sizeof reg);
    const std::uint8_t sys[] = {6, 4, 'm', 'o', 'v', 'e', 0, 1, 0, 1, 2, 0, 0, 1, 0};
    s.insert(s.end(), sys, sys + sizeof sys);
    const std::uint8_t run[] = {7, 8, 2, 7, 7, 0, 0, 8, 0, 2, 0, 1, 0, 8, 1, 9, 9, 1, 0, 1, 1, 0, 0, 0, 0};
    s.insert(s.end(), run, run + sizeof run);
    bad += !writeFile(dir + "/world_ops/systems.bin", s);
  }
  {
    // forged handles and raw ids everywhere.
    std::vector<std::uint8_t> s = {4, 1, 0, 0, 0, 0, 0, 0, 1, 2, 0xFF, 0xFF, 0xFF, 0xFF,
                                   2, 2, 2, 1, 0, 0, 0, 240, 7, 0, 0, 3, 2, 0, 0, 0, 0, 240, 1, 0};
    bad += !writeFile(dir + "/world_ops/forged.bin", s);
  }
  // Relation op streams (see fuzz_relation_ops.cpp for the encoding):
  // header (capacity, seed), then ops. add: 3, relation, salt, handle kind
  // (0 = a seen handle), seen index, live index of the target.
  {
    // a ChildOf tree (destroy cascade) and an OwnedBy link (remove), a
    // snapshot, the root destroyed, the snapshot restored, a reparent, a
    // cycle attempt, a remove, a clear.
    std::vector<std::uint8_t> s = {20, 7, 0, 1, 0, 2};
    for (int i = 0; i < 6; ++i) s.push_back(1);                          // 6 x create
    const std::uint8_t ops[] = {3, 0, 0, 0, 1, 0,    3, 0, 0, 0, 2, 0,    // 1, 2 ChildOf 0
                                3, 0, 0, 0, 3, 1,    3, 0, 0, 0, 4, 3,    // 3 ChildOf 1, 4 ChildOf 3
                                3, 1, 0, 0, 5, 4,                         // 5 OwnedBy 4
                                11,                                       // snapshot
                                9, 0, 0,                                  // destroy 0: the tree goes
                                12, 0,                                    // restore
                                5, 0, 0, 0, 0, 0, 2,                      // reparent a ChildOf source to 2
                                6, 0, 1, 3,                               // cycle attempt
                                7, 0, 0, 4,                               // remove ChildOf from 4
                                9, 0, 4, 13, 0, 1, 1};                    // destroy 4, clear, creates
    s.insert(s.end(), ops, ops + sizeof ops);
    bad += !writeFile(dir + "/relation_ops/tree.bin", s);
  }
  {
    // stale, forged and null handles, a raw id, the component paths.
    std::vector<std::uint8_t> s = {8, 3, 0, 3, 1, 1, 1};
    const std::uint8_t ops[] = {3, 0, 0, 0, 1, 0,                         // 1 OwnedBy 0
                                9, 0, 0,                                  // destroy 0 (1 unlinks)
                                3, 0, 2, 0, 1, 0, 0, 0,                   // add to the stale 0
                                3, 0, 2, 6, 1, 2, 3, 4, 0, 1,             // a forged source
                                3, 0, 4, 0, 1, 1,                         // the bytes path
                                3, 240, 5, 0, 1, 1,                       // the plain component
                                7, 0, 4, 1, 7, 240, 2, 7, 0, 0, 0, 0, 1,  // removes
                                10, 1, 7, 13, 1};
    s.insert(s.end(), ops, ops + sizeof ops);
    bad += !writeFile(dir + "/relation_ops/stale.bin", s);
  }
  {
    // a snapshot, a relation registered after it (its restore is refused),
    // restores of changed bytes.
    std::vector<std::uint8_t> s = {12, 1, 0, 1, 1, 1, 1, 3, 0, 0, 0, 1, 0, 11,
                                   0, 2, 12, 0, 11, 3, 1, 0, 0, 2, 1,
                                   12, 7, 40, 0, 5, 12, 7, 90, 0, 1, 12, 0, 9, 0, 0};
    bad += !writeFile(dir + "/relation_ops/restore.bin", s);
  }
  // Snapshots of fuzz_snapshot_restore's fixture (the `input` scenario) at
  // ticks 0, 7 and 40; byte 0 = 1: restored as is (0 would re-seal).
  {
    const laige::Scenario* sc = laige::findScenario("input");
    auto run = laige::ScenarioRun::create(*sc, sc->defaultSeed).takeValue();
    const int ticks[] = {0, 7, 40};
    int done = 0;
    for (const int t : ticks) {
      while (done < t) {
        if (!run.step().ok()) ++bad;
        ++done;
      }
      std::vector<std::uint8_t> s(run.world().snapshotSize() + 1);
      s[0] = 1;
      if (!run.world().snapshot(std::span<std::uint8_t>(s.data() + 1, s.size() - 1)).ok()) ++bad;
      bad += !writeFile(dir + "/snapshot_restore/tick-" + std::to_string(t) + ".bin", s);
    }
  }
  if (bad != 0) {
    std::fprintf(stderr, "fuzz_seedgen: %d failures\n", bad);
    return 1;
  }
  std::printf("fuzz_seedgen: corpus written to %s\n", dir.c_str());
  return 0;
}
