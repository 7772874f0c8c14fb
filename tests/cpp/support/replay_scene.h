// replay_scene.h - a small input-driven scene for the replay tests: its
// state after N ticks depends on every byte of every tick's input payload
// and on the PRNG substream, so a replay that dropped, reordered or ignored
// payloads (or ran with another seed) would produce other hashes.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "laige/replay.h"
#include "laige/system.h"
#include "laige/world.h"

#if defined(_WIN32)
#error "the replay tests use POSIX temp directories"
#endif
#include <unistd.h>

namespace laige::test {

/// An accumulator the input system folds every payload into.
struct RpAccum {
  std::int32_t value;
  std::uint32_t mix;
};
LAIGE_COMPONENT(RpAccum, value, mix);

/// A position the input moves (a second archetype column).
struct RpPos {
  std::int32_t x;
  std::int32_t y;
};
LAIGE_COMPONENT(RpPos, x, y);

/// Folds the tick's payload into every RpAccum; payload byte 0 == 0xFF
/// spawns an entity with RpPos, 0xFE destroys the highest live slot. It also
/// draws from its PRNG substream every tick.
inline void rpApplyInput(World& world, SystemContext& ctx) {
  std::uint32_t sum = 0;
  for (std::uint32_t i = 0; i < ctx.inputSize; ++i) sum = sum * 131u + ctx.input[i];
  const std::uint32_t draw = ctx.rng != nullptr ? ctx.rng->next_u32() : 0u;
  (void)ctx.each<RpAccum>(
      [&](Entity, RpAccum& a) {
        a.value += static_cast<std::int32_t>(sum & 0xffffu);
        a.mix = (a.mix ^ sum) * 16777619u + (draw & 0xffu) + ctx.inputSize;
      },
      Write{});
  if (ctx.inputSize > 0 && ctx.input[0] == 0xFF) {
    auto e = world.create();
    if (e.ok()) (void)world.addComponent(e.value(), RpPos{static_cast<std::int32_t>(sum), 1});
  } else if (ctx.inputSize > 0 && ctx.input[0] == 0xFE) {
    for (std::uint32_t s = world.capacity(); s-- > 0;) {
      const Entity e = world.handleAt(static_cast<std::uint16_t>(s));
      if (!e.isNull()) {
        (void)world.destroy(e);
        break;
      }
    }
  }
}

/// The scene's configuration (capacity 64, seed 7 unless changed).
inline ReplayConfig rpConfig(std::uint64_t seed = 7) {
  ReplayConfig c;
  c.entityCapacity = 64;
  c.seed = seed;
  return c;
}

/// A fresh scene world: registrations, one system, three accumulators.
inline World rpWorld(const ReplayConfig& config) {
  World w = World::create(worldOptionsFor(config)).takeValue();
  (void)w.registerComponent<RpAccum>();
  (void)w.registerComponent<RpPos>();
  SystemDef d;
  d.name = "RpApplyInput";
  d.run = &rpApplyInput;
  d.budgetMs = fpx16_16::fromInt32(100);
  SystemIo io[2] = {{w.componentId<RpAccum>(), Access::Write}, {w.componentId<RpPos>(), Access::Write}};
  (void)w.registerSystem(d, io, 2);
  for (int i = 0; i < 3; ++i) {
    const Entity e = w.create().value();
    (void)w.addComponent(e, RpAccum{i, static_cast<std::uint32_t>(i * 7)});
  }
  return w;
}

/// A deterministic payload stream: frame t carries (t % 5) bytes, with a
/// spawn at every 7th tick and a destroy at every 11th.
inline std::vector<std::vector<std::uint8_t>> rpPayloads(std::uint64_t frames) {
  std::vector<std::vector<std::uint8_t>> out;
  for (std::uint64_t t = 1; t <= frames; ++t) {
    std::vector<std::uint8_t> p;
    for (std::uint64_t i = 0; i < t % 5; ++i) p.push_back(static_cast<std::uint8_t>(t * 13 + i * 3));
    if (t % 7 == 0) p.insert(p.begin(), 0xFF);
    if (t % 11 == 0) p.insert(p.begin(), 0xFE);
    out.push_back(std::move(p));
  }
  return out;
}

/// The log bytes of `payloads` recorded under `config` (in memory).
inline std::vector<std::uint8_t> rpRecord(const ReplayConfig& config,
                                          const std::vector<std::vector<std::uint8_t>>& payloads) {
  World w = rpWorld(config);
  ReplayWriter writer = ReplayWriter::create(makeReplayIdentity(w, config)).takeValue();
  for (std::size_t i = 0; i < payloads.size(); ++i) {
    (void)writer.writeFrame(i + 1, payloads[i].data(), static_cast<std::uint32_t>(payloads[i].size()));
  }
  (void)writer.finish();
  return writer.takeBytes();
}

/// A unique temp directory (removed with its files on destruction).
class TempDir {
 public:
  TempDir() {
    char tmpl[] = "/tmp/laige-replay-test-XXXXXX";
    const char* d = ::mkdtemp(tmpl);
    path_ = d != nullptr ? d : "/tmp";
  }
  ~TempDir() {
    for (const std::string& f : files_) std::remove(f.c_str());
    ::rmdir(path_.c_str());
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  /// A path inside the directory; it and its ".tmp" sibling are cleaned up.
  std::string file(const char* name) {
    std::string p = path_ + "/" + name;
    files_.push_back(p);
    files_.push_back(p + ".tmp");
    return p;
  }
  [[nodiscard]] const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::vector<std::string> files_;
};

/// Writes `bytes` to `path`.
inline bool writeFile(const std::string& path, const std::vector<std::uint8_t>& bytes) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) return false;
  const bool ok = bytes.empty() || std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  return std::fclose(f) == 0 && ok;
}

/// Reads `path` whole (empty when missing).
inline std::vector<std::uint8_t> readFile(const std::string& path) {
  std::vector<std::uint8_t> out;
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return out;
  std::uint8_t buf[4096];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) out.insert(out.end(), buf, buf + n);
  std::fclose(f);
  return out;
}

/// True when `path` exists.
inline bool fileExists(const std::string& path) { return ::access(path.c_str(), F_OK) == 0; }

}  // namespace laige::test
