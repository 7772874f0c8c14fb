// replay_identity_layout_test.cpp - a replay's setup is identified by its
// component names and field layouts too (format version 2), and version 1
// logs stay readable under their own, older rule (docs/replay.md#identity).
#include <gtest/gtest.h>

#include <cstdint>
#include <string_view>
#include <vector>

#include "laige/replay.h"
#include "laige/system.h"
#include "laige/world.h"
#include "support/log_capture.h"

namespace laige {
namespace {

World oneComponent(std::string_view name, FieldKind kind, const char* field = "v") {
  World w = World::create(8).takeValue();
  const ComponentField f[1] = {{field, kind, 1, 0}};
  ComponentDesc d;
  d.name = name;
  d.size = 4;
  d.alignment = 4;
  d.fields = f;
  EXPECT_TRUE(w.registerComponentDesc(d).ok());
  return w;
}

TEST(ReplayIdentityLayout, NamesAndFieldKindsChangeTheSchemaHash) {
  const World p = oneComponent("P", FieldKind::I32);
  EXPECT_EQ(componentSchemaHash(oneComponent("P", FieldKind::I32)), componentSchemaHash(p));
  EXPECT_NE(componentSchemaHash(oneComponent("Q", FieldKind::I32)), componentSchemaHash(p));
  EXPECT_NE(componentSchemaHash(oneComponent("P", FieldKind::U32)), componentSchemaHash(p));
  EXPECT_NE(componentSchemaHash(oneComponent("P", FieldKind::F32)), componentSchemaHash(p));
  EXPECT_NE(componentSchemaHash(oneComponent("P", FieldKind::I32, "w")), componentSchemaHash(p));
  // Version 1 saw only ids, sizes and alignments: all of these were equal.
  EXPECT_EQ(componentSchemaHash(oneComponent("Q", FieldKind::U32), 1), componentSchemaHash(p, 1));
}

void noop(World&, SystemContext&) {}

ReplayConfig config() {
  ReplayConfig c;
  c.entityCapacity = 8;
  c.seed = 0;
  return c;
}

World replayWorld(std::string_view name, FieldKind kind) {
  World w = oneComponent(name, kind);
  SystemDef d;
  d.name = "Noop";
  d.run = &noop;
  d.budgetMs = fpx16_16::one();
  EXPECT_TRUE(w.registerSystem(d, nullptr, 0).ok());
  return w;
}

std::vector<std::uint8_t> record(std::uint16_t version) {
  World w = replayWorld("P", FieldKind::I32);
  ReplayWriter writer =
      ReplayWriter::create(makeReplayIdentity(w, config(), version)).takeValue();
  EXPECT_TRUE(writer.writeFrame(1, nullptr, 0).ok());
  EXPECT_TRUE(writer.finish().ok());
  std::vector<std::uint8_t> b = writer.takeBytes();
  if (version != kReplayPlainFormatVersion) {
    // What an older build wrote: its version in the header, then the file hash again.
    b[4] = static_cast<std::uint8_t>(version);
    b[5] = 0;
    const std::size_t end = b.size() - kReplayTrailerSize;
    std::uint64_t h = replayFileHash(b.data(), end);
    for (int i = 0; i < 8; ++i) b[end + 8 + i] = static_cast<std::uint8_t>(h >> (8 * i));
  }
  return b;
}

TEST(ReplayIdentityLayout, ARecordingIsRefusedUnderAnotherLayout) {
  const std::vector<std::uint8_t> bytes = record(kReplayPlainFormatVersion);
  const ReplayLog log = parseReplay(bytes.data(), bytes.size()).takeValue();
  EXPECT_EQ(log.formatVersion, kReplayPlainFormatVersion);
  World same = replayWorld("P", FieldKind::I32);
  EXPECT_TRUE(runReplay(log, same, config()).ok());
  for (const auto& [name, kind] : {std::pair{"Q", FieldKind::U32}, std::pair{"P", FieldKind::U32},
                                   std::pair{"Q", FieldKind::I32}}) {
    test::LogCapture logs;
    World other = replayWorld(name, kind);
    const auto r = runReplay(log, other, config());
    EXPECT_EQ(r.error(), ErrorCode::InvalidArgument) << name;
    EXPECT_EQ(logs.count("replay", "identity_mismatch"), 1u);
    EXPECT_EQ(other.systemTicksRun(), 0u);
  }
}

TEST(ReplayIdentityLayout, Version1LogsAreReadUnderTheirOwnRule) {
  const std::vector<std::uint8_t> bytes = record(1);
  const ReplayLog log = parseReplay(bytes.data(), bytes.size()).takeValue();
  EXPECT_EQ(log.formatVersion, 1u);
  World same = replayWorld("P", FieldKind::I32);
  EXPECT_TRUE(runReplay(log, same, config()).ok());
  // The old rule cannot tell a same-size layout apart: that is what version 2 fixes.
  World sameSize = replayWorld("Q", FieldKind::U32);
  EXPECT_TRUE(runReplay(log, sameSize, config()).ok());
}

}  // namespace
}  // namespace laige
