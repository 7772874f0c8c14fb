// replay_test.cpp - the LGRP v1 encoding (byte by byte), the identity hashes
// and the two recorders: temp file + rename, caps, sticky failure, every
// error code, file and memory output identical, no per-frame allocation.
#include "laige/replay.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "support/counting_allocator.h"
#include "support/log_capture.h"
#include "support/replay_scene.h"

namespace laige {
namespace {

using test::TempDir;

// The house word-stream convention, written out independently of the
// library so the identity hashes are checked against the definition.
std::uint64_t fnvWords(std::initializer_list<std::uint64_t> words) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (std::uint64_t w : words) {
    for (int s = 56; s >= 0; s -= 8) {
      h ^= (w >> s) & 0xffu;
      h *= 0x100000001b3ull;
    }
  }
  return h;
}

std::uint64_t le(const std::vector<std::uint8_t>& b, std::size_t at, int n) {
  std::uint64_t v = 0;
  for (int i = n - 1; i >= 0; --i) v = (v << 8) | b[at + static_cast<std::size_t>(i)];
  return v;
}

ReplayIdentity sampleIdentity() {
  ReplayIdentity id;
  id.seed = 0x0102030405060708ull;
  id.tickRateHz = 0x11223344u;
  id.componentSchemaHash = 0xa1a2a3a4a5a6a7a8ull;
  id.mathBackendId = 0x01u;
  id.configHash = 0xc1c2c3c4c5c6c7c8ull;
  return id;
}

// --- Format ------------------------------------------------------------------

TEST(ReplayFormat, Constants) {
  EXPECT_EQ(kReplayHeaderSize, 40u);
  EXPECT_EQ(kReplayFormatVersion, 3u);
  EXPECT_EQ(kReplayPlainFormatVersion, 2u);
  EXPECT_EQ(kMinReplayFormatVersion, 1u);
  EXPECT_EQ(kMaxReplayFrameBytes, 1024u * 1024u);
  EXPECT_EQ(kReplayFrameOverhead, 12u);
  EXPECT_EQ(kReplayTrailerSize, 16u);
  EXPECT_EQ(kMinReplaySizeLimit, 56u);
  EXPECT_EQ(kDefaultReplaySizeLimit, 128ull * 1024 * 1024);
}

TEST(ReplayFormat, HeaderFramesAndTrailerAreLittleEndianAtTheirOffsets) {
  ReplayWriter w = ReplayWriter::create(sampleIdentity()).takeValue();
  const std::uint8_t payload[3] = {0xde, 0xad, 0xbe};
  ASSERT_TRUE(w.writeFrame(1, payload, 3).ok());
  ASSERT_TRUE(w.writeFrame(2, nullptr, 0).ok());
  ASSERT_TRUE(w.finish().ok());
  const std::vector<std::uint8_t>& b = w.bytes();
  ASSERT_EQ(b.size(), 40u + 12 + 3 + 12 + 16);
  EXPECT_EQ(std::string(b.begin(), b.begin() + 4), "LGRP");
  EXPECT_EQ(le(b, 4, 2), 2u);
  EXPECT_EQ(le(b, 6, 2), 0u);
  EXPECT_EQ(le(b, 8, 8), 0x0102030405060708ull);
  EXPECT_EQ(b[8], 0x08);  // least significant byte first
  EXPECT_EQ(le(b, 16, 4), 0x11223344u);
  EXPECT_EQ(b[16], 0x44);
  EXPECT_EQ(le(b, 20, 8), 0xa1a2a3a4a5a6a7a8ull);
  EXPECT_EQ(le(b, 28, 4), 1u);
  EXPECT_EQ(le(b, 32, 8), 0xc1c2c3c4c5c6c7c8ull);
  // Frame 1 at 40, frame 2 at 55.
  EXPECT_EQ(le(b, 40, 8), 1u);
  EXPECT_EQ(le(b, 48, 4), 3u);
  EXPECT_EQ(b[52], 0xde);
  EXPECT_EQ(b[54], 0xbe);
  EXPECT_EQ(le(b, 55, 8), 2u);
  EXPECT_EQ(le(b, 63, 4), 0u);
  // Trailer: frame count, then the byte-stream FNV of everything before it.
  EXPECT_EQ(le(b, 67, 8), 2u);
  EXPECT_EQ(le(b, 75, 8), replayFileHash(b.data(), 67));
}

TEST(ReplayFormat, EmptyFramesLogSizeIs40Plus12PerTickPlus16) {
  for (std::uint64_t n : {0u, 1u, 17u}) {
    ReplayWriter w = ReplayWriter::create(sampleIdentity()).takeValue();
    for (std::uint64_t t = 1; t <= n; ++t) ASSERT_TRUE(w.writeFrame(t, nullptr, 0).ok());
    ASSERT_TRUE(w.finish().ok());
    EXPECT_EQ(w.bytes().size(), 40 + 12 * n + 16);
  }
}

TEST(ReplayFormat, FileHashIsByteStreamFnv1a64) {
  EXPECT_EQ(replayFileHash(nullptr, 0), 0xcbf29ce484222325ull);
  const std::uint8_t a[1] = {'a'};
  EXPECT_EQ(replayFileHash(a, 1), 0xaf63dc4c8601ec8cull);  // the published FNV-1a-64("a")
  const std::uint8_t foobar[6] = {'f', 'o', 'o', 'b', 'a', 'r'};
  EXPECT_EQ(replayFileHash(foobar, 6), 0x85944171f73967e8ull);
  // Incremental continuation equals one pass.
  EXPECT_EQ(replayFileHash(foobar + 3, 3, replayFileHash(foobar, 3)), replayFileHash(foobar, 6));
}

TEST(ReplayFormat, HashLineIsDecimalTickAndSixteenLowercaseHexDigits) {
  char line[kReplayHashLineCapacity];
  EXPECT_EQ(formatReplayHashLine(0, 0, line), 19u);
  EXPECT_STREQ(line, "0 0000000000000000\n");
  formatReplayHashLine(600, 0xABCDEF0123456789ull, line);
  EXPECT_STREQ(line, "600 abcdef0123456789\n");
  EXPECT_EQ(formatReplayHashLine(~0ull, ~0ull, line), 38u);
  EXPECT_STREQ(line, "18446744073709551615 ffffffffffffffff\n");
}

// --- Identity -----------------------------------------------------------------

TEST(ReplayIdentity, ConfigHashIsTheWordStreamOfTheDefinition) {
  ReplayConfig c;
  EXPECT_EQ(configHash(c), fnvWords({1, 60, 1024, 256, 0, 1, 0}));
  c.tickRateHz = 30;
  c.entityCapacity = 2000;
  c.churnPerFrameBudget = 0;
  c.seed = 0x1f055eedull;
  c.determinism.enabled = false;
  c.determinism.math = SimMathBackend::FloatPinned32;
  EXPECT_EQ(configHash(c), fnvWords({1, 30, 2000, 0, 0x1f055eed, 0, 1}));
}

TEST(ReplayIdentity, EveryConfigFieldChangesTheConfigHash) {
  const ReplayConfig base;
  std::vector<ReplayConfig> variants(6, base);
  variants[0].tickRateHz = 61;
  variants[1].entityCapacity = 1025;
  variants[2].churnPerFrameBudget = 257;
  variants[3].seed = 1;
  variants[4].determinism.enabled = false;
  variants[5].determinism.math = SimMathBackend::FloatPinned32;
  for (const ReplayConfig& v : variants) EXPECT_NE(configHash(v), configHash(base));
}

TEST(ReplayIdentity, ComponentSchemaHashCoversCountIdsSizesAndAlignments) {
  World empty = World::create(8).takeValue();
  EXPECT_EQ(componentSchemaHash(empty), fnvWords({0}));
  EXPECT_EQ(componentSchemaHash(World{}), fnvWords({0}));  // moved-from: an empty registry

  World a = World::create(8).takeValue();
  (void)a.registerComponent<test::RpAccum>();
  (void)a.registerComponent<test::RpPos>();
  // Version 1's rule: ids, sizes and alignments only (version 2 adds names
  // and field layouts: replay_identity_layout_test.cpp).
  EXPECT_EQ(componentSchemaHash(a, 1), fnvWords({2, 1, 8, 4, 2, 8, 4}));
  EXPECT_NE(componentSchemaHash(a), componentSchemaHash(a, 1));

  World same = World::create(32).takeValue();  // capacity is not schema
  (void)same.registerComponent<test::RpAccum>();
  (void)same.registerComponent<test::RpPos>();
  EXPECT_EQ(componentSchemaHash(same), componentSchemaHash(a));

  // A registry with fewer types hashes differently.
  World other = World::create(8).takeValue();
  (void)other.registerComponent<test::RpAccum>();
  EXPECT_NE(componentSchemaHash(other), componentSchemaHash(a));
}

TEST(ReplayIdentity, MakeIdentityTakesConfigFieldsAndTheWorldSchema) {
  ReplayConfig c = test::rpConfig(99);
  c.tickRateHz = 30;
  c.determinism.math = SimMathBackend::FloatPinned32;
  World w = test::rpWorld(c);
  const ReplayIdentity id = makeReplayIdentity(w, c);
  EXPECT_EQ(id.seed, 99u);
  EXPECT_EQ(id.tickRateHz, 30u);
  EXPECT_EQ(id.componentSchemaHash, componentSchemaHash(w));
  EXPECT_EQ(id.mathBackendId, 1u);
  EXPECT_EQ(id.configHash, configHash(c));
}

TEST(ReplayIdentity, DiffFlagsEachFieldAlone) {
  const ReplayIdentity base = sampleIdentity();
  EXPECT_TRUE(replayIdentityDiff(base, base).empty());
  ReplayIdentity x = base;
  x.seed ^= 1;
  ReplayIdentityDiff d = replayIdentityDiff(base, x);
  EXPECT_TRUE(d.seed && !d.tickRateHz && !d.componentSchemaHash && !d.mathBackendId && !d.configHash);
  x = base;
  x.tickRateHz ^= 1;
  d = replayIdentityDiff(base, x);
  EXPECT_TRUE(!d.seed && d.tickRateHz && !d.empty());
  x = base;
  x.componentSchemaHash ^= 1;
  EXPECT_TRUE(replayIdentityDiff(base, x).componentSchemaHash);
  x = base;
  x.mathBackendId ^= 1;
  EXPECT_TRUE(replayIdentityDiff(base, x).mathBackendId);
  x = base;
  x.configHash ^= 1;
  EXPECT_TRUE(replayIdentityDiff(base, x).configHash);
}

TEST(ReplayIdentity, WorldOptionsForMirrorsTheConfig) {
  ReplayConfig c;
  c.entityCapacity = 77;
  c.churnPerFrameBudget = 5;
  c.seed = 123;
  c.determinism.enabled = false;
  const World::Options o = worldOptionsFor(c);
  EXPECT_EQ(o.capacity, 77u);
  EXPECT_EQ(o.churnPerFrameBudget, 5u);
  EXPECT_EQ(o.seed, 123u);
  EXPECT_FALSE(o.deterministic);
}

// --- ReplayRecorder ----------------------------------------------------------------

TEST(ReplayRecorder, WritesTempThenRenamesAndMatchesTheMemoryWriter) {
  TempDir dir;
  const std::string path = dir.file("run.lgrp");
  const auto payloads = test::rpPayloads(25);
  ReplayRecorder rec = ReplayRecorder::create(sampleIdentity(), path.c_str()).takeValue();
  ReplayWriter mem = ReplayWriter::create(sampleIdentity()).takeValue();
  for (std::size_t i = 0; i < payloads.size(); ++i) {
    const auto len = static_cast<std::uint32_t>(payloads[i].size());
    ASSERT_TRUE(rec.writeFrame(i + 1, payloads[i].data(), len).ok());
    ASSERT_TRUE(mem.writeFrame(i + 1, payloads[i].data(), len).ok());
  }
  EXPECT_TRUE(test::fileExists(path + ".tmp"));
  EXPECT_FALSE(test::fileExists(path));  // nothing at the final path before finish
  EXPECT_EQ(rec.frameCount(), 25u);
  ASSERT_TRUE(rec.finish().ok());
  ASSERT_TRUE(mem.finish().ok());
  EXPECT_TRUE(rec.finished());
  EXPECT_FALSE(test::fileExists(path + ".tmp"));
  EXPECT_EQ(test::readFile(path), mem.bytes());
  EXPECT_EQ(rec.bytesWritten(), mem.bytes().size());
}

TEST(ReplayRecorder, ReplacesAnExistingFileOnlyAtFinish) {
  TempDir dir;
  const std::string path = dir.file("old.lgrp");
  ASSERT_TRUE(test::writeFile(path, {1, 2, 3}));
  {
    ReplayRecorder rec = ReplayRecorder::create(sampleIdentity(), path.c_str()).takeValue();
    ASSERT_TRUE(rec.writeFrame(1, nullptr, 0).ok());
  }  // abandoned: the old file is untouched
  EXPECT_EQ(test::readFile(path), (std::vector<std::uint8_t>{1, 2, 3}));
  ReplayRecorder rec = ReplayRecorder::create(sampleIdentity(), path.c_str()).takeValue();
  ASSERT_TRUE(rec.finish().ok());
  EXPECT_EQ(test::readFile(path).size(), 56u);
}

TEST(ReplayRecorder, DestructorRemovesTheTempFileOfAnUnfinishedRecording) {
  test::LogCapture logs;
  TempDir dir;
  const std::string path = dir.file("abandoned.lgrp");
  {
    ReplayRecorder rec = ReplayRecorder::create(sampleIdentity(), path.c_str()).takeValue();
    ASSERT_TRUE(rec.writeFrame(1, nullptr, 0).ok());
    EXPECT_TRUE(test::fileExists(path + ".tmp"));
  }
  EXPECT_FALSE(test::fileExists(path + ".tmp"));
  EXPECT_FALSE(test::fileExists(path));
  EXPECT_EQ(logs.count("replay", "record_aborted"), 1u);
  EXPECT_EQ(logs.count("replay", "record_started"), 1u);
}

TEST(ReplayRecorder, CreateRejectsEmptyPathSmallCapAndUnwritableDirectory) {
  test::LogCapture logs;
  EXPECT_EQ(ReplayRecorder::create(sampleIdentity(), "").error(), ErrorCode::InvalidArgument);
  EXPECT_EQ(ReplayRecorder::create(sampleIdentity(), nullptr).error(), ErrorCode::InvalidArgument);
  TempDir dir;
  const std::string path = dir.file("cap.lgrp");
  EXPECT_EQ(ReplayRecorder::create(sampleIdentity(), path.c_str(), 55).error(), ErrorCode::InvalidArgument);
  EXPECT_FALSE(test::fileExists(path + ".tmp"));
  EXPECT_EQ(ReplayRecorder::create(sampleIdentity(), "/nonexistent-dir-laige/x.lgrp").error(), ErrorCode::IoError);
  EXPECT_GE(logs.count("replay", "record_start_failed"), 1u);
  // A cap of 0 means the default; 56 is the smallest that works.
  EXPECT_TRUE(ReplayRecorder::create(sampleIdentity(), path.c_str(), 0).ok());
  ReplayRecorder r56 = ReplayRecorder::create(sampleIdentity(), path.c_str(), 56).takeValue();
  EXPECT_TRUE(r56.finish().ok());
}

TEST(ReplayRecorder, WrongTickIsInvalidArgumentAndSticky) {
  test::LogCapture logs;
  TempDir dir;
  const std::string path = dir.file("tick.lgrp");
  for (std::uint64_t bad : {0ull, 2ull}) {
    ReplayRecorder rec = ReplayRecorder::create(sampleIdentity(), path.c_str()).takeValue();
    EXPECT_EQ(rec.writeFrame(bad, nullptr, 0).error(), ErrorCode::InvalidArgument);
    EXPECT_FALSE(test::fileExists(path + ".tmp"));  // discarded at once
    EXPECT_EQ(rec.writeFrame(1, nullptr, 0).error(), ErrorCode::InvalidArgument);  // sticky
    EXPECT_EQ(rec.finish().error(), ErrorCode::InvalidArgument);
    EXPECT_EQ(rec.status().error(), ErrorCode::InvalidArgument);
    EXPECT_FALSE(test::fileExists(path));
  }
  EXPECT_EQ(logs.count("replay", "record_failed"), 1u);
  EXPECT_EQ(logs.count("replay", "record_aborted"), 0u);  // a failure is not an abort
}

TEST(ReplayRecorder, FrameOverOneMebibyteOrNullDataIsInvalidArgument) {
  TempDir dir;
  const std::string path = dir.file("big.lgrp");
  std::vector<std::uint8_t> big(kMaxReplayFrameBytes + 1, 0x5a);
  {
    ReplayRecorder rec = ReplayRecorder::create(sampleIdentity(), path.c_str()).takeValue();
    EXPECT_EQ(rec.writeFrame(1, big.data(), kMaxReplayFrameBytes + 1).error(), ErrorCode::InvalidArgument);
  }
  {
    ReplayRecorder rec = ReplayRecorder::create(sampleIdentity(), path.c_str()).takeValue();
    EXPECT_EQ(rec.writeFrame(1, nullptr, 4).error(), ErrorCode::InvalidArgument);
  }
  ReplayRecorder rec = ReplayRecorder::create(sampleIdentity(), path.c_str()).takeValue();
  EXPECT_TRUE(rec.writeFrame(1, big.data(), kMaxReplayFrameBytes).ok());  // exactly 1 MiB is fine
  ASSERT_TRUE(rec.finish().ok());
  EXPECT_EQ(test::readFile(path).size(), 40u + 12 + kMaxReplayFrameBytes + 16);
}

TEST(ReplayRecorder, CapBreachIsBudgetExhaustedForFramesAndForTheTrailer) {
  TempDir dir;
  const std::string path = dir.file("cap.lgrp");
  {
    // 40 + 12 + 4 = 56 fits; the trailer then does not: caught at finish.
    ReplayRecorder rec = ReplayRecorder::create(sampleIdentity(), path.c_str(), 56).takeValue();
    const std::uint8_t p[4] = {1, 2, 3, 4};
    ASSERT_TRUE(rec.writeFrame(1, p, 4).ok());
    EXPECT_EQ(rec.finish().error(), ErrorCode::BudgetExhausted);
    EXPECT_EQ(rec.finish().error(), ErrorCode::BudgetExhausted);
    EXPECT_FALSE(test::fileExists(path));
    EXPECT_FALSE(test::fileExists(path + ".tmp"));
  }
  {
    ReplayRecorder rec = ReplayRecorder::create(sampleIdentity(), path.c_str(), 60).takeValue();
    const std::uint8_t p[9] = {};
    EXPECT_EQ(rec.writeFrame(1, p, 9).error(), ErrorCode::BudgetExhausted);  // 40 + 21 > 60
    EXPECT_EQ(rec.writeFrame(1, nullptr, 0).error(), ErrorCode::BudgetExhausted);  // sticky
    EXPECT_FALSE(test::fileExists(path));
  }
  // Exactly at the cap: 40 + 12 + 16 = 68.
  ReplayRecorder rec = ReplayRecorder::create(sampleIdentity(), path.c_str(), 68).takeValue();
  ASSERT_TRUE(rec.writeFrame(1, nullptr, 0).ok());
  ASSERT_TRUE(rec.finish().ok());
  EXPECT_EQ(test::readFile(path).size(), 68u);
}

TEST(ReplayRecorder, CallsAfterFinishAreRejectedAndLeaveTheFile) {
  TempDir dir;
  const std::string path = dir.file("done.lgrp");
  ReplayRecorder rec = ReplayRecorder::create(sampleIdentity(), path.c_str()).takeValue();
  ASSERT_TRUE(rec.finish().ok());
  EXPECT_EQ(rec.finish().error(), ErrorCode::InvalidArgument);
  EXPECT_EQ(rec.writeFrame(1, nullptr, 0).error(), ErrorCode::InvalidArgument);
  EXPECT_TRUE(rec.status().ok());  // misuse after publishing is not a failure
  EXPECT_EQ(test::readFile(path).size(), 56u);
}

TEST(ReplayRecorder, MovedFromAndDefaultRecordersAreInert) {
  TempDir dir;
  const std::string path = dir.file("move.lgrp");
  ReplayRecorder a = ReplayRecorder::create(sampleIdentity(), path.c_str()).takeValue();
  ASSERT_TRUE(a.writeFrame(1, nullptr, 0).ok());
  ReplayRecorder b = std::move(a);
  EXPECT_EQ(a.writeFrame(2, nullptr, 0).error(), ErrorCode::InvalidArgument);  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(a.finish().error(), ErrorCode::InvalidArgument);
  EXPECT_TRUE(b.writeFrame(2, nullptr, 0).ok());
  ASSERT_TRUE(b.finish().ok());
  EXPECT_EQ(test::readFile(path).size(), 40u + 24 + 16);
  ReplayRecorder none;
  EXPECT_EQ(none.finish().error(), ErrorCode::InvalidArgument);
  EXPECT_EQ(none.frameCount(), 0u);
}

TEST(ReplayRecorder, WriteFrameAllocatesNothing) {
  TempDir dir;
  const std::string path = dir.file("alloc.lgrp");
  ReplayRecorder rec = ReplayRecorder::create(sampleIdentity(), path.c_str()).takeValue();
  std::uint8_t payload[200] = {};
  ASSERT_TRUE(rec.writeFrame(1, payload, sizeof payload).ok());  // the first write sets up stdio
  test::AllocationWindow window;
  for (std::uint64_t t = 2; t <= 2000; ++t) {
    payload[0] = static_cast<std::uint8_t>(t);
    ASSERT_TRUE(rec.writeFrame(t, payload, sizeof payload).ok());
  }
  EXPECT_EQ(window.allocations(), 0u);
  ASSERT_TRUE(rec.finish().ok());
}

// --- ReplayWriter ---------------------------------------------------------------

TEST(ReplayWriter, SameChecksAsTheFileRecorder) {
  EXPECT_EQ(ReplayWriter::create(sampleIdentity(), 55).error(), ErrorCode::InvalidArgument);
  ReplayWriter w = ReplayWriter::create(sampleIdentity(), 56).takeValue();
  EXPECT_EQ(w.bytes().size(), 40u);
  EXPECT_EQ(w.writeFrame(2, nullptr, 0).error(), ErrorCode::InvalidArgument);
  EXPECT_EQ(w.writeFrame(1, nullptr, 0).error(), ErrorCode::InvalidArgument);  // sticky
  EXPECT_EQ(w.finish().error(), ErrorCode::InvalidArgument);

  ReplayWriter cap = ReplayWriter::create(sampleIdentity(), 56).takeValue();
  ASSERT_TRUE(cap.writeFrame(1, nullptr, 0).ok());
  EXPECT_EQ(cap.finish().error(), ErrorCode::BudgetExhausted);

  std::vector<std::uint8_t> big(kMaxReplayFrameBytes + 1);
  ReplayWriter large = ReplayWriter::create(sampleIdentity()).takeValue();
  EXPECT_EQ(large.writeFrame(1, big.data(), kMaxReplayFrameBytes + 1).error(), ErrorCode::InvalidArgument);
}

TEST(ReplayWriter, ReservedWriterAllocatesNothingPerFrameAndTakeBytesEmptiesIt) {
  ReplayWriter w = ReplayWriter::create(sampleIdentity()).takeValue();
  w.reserve(40 + 1000 * (12 + 8) + 16);
  const std::uint8_t p[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  test::AllocationWindow window;
  for (std::uint64_t t = 1; t <= 1000; ++t) ASSERT_TRUE(w.writeFrame(t, p, 8).ok());
  ASSERT_TRUE(w.finish().ok());
  EXPECT_EQ(window.allocations(), 0u);
  std::vector<std::uint8_t> bytes = w.takeBytes();
  EXPECT_EQ(bytes.size(), 40u + 20000 + 16);
  EXPECT_TRUE(w.bytes().empty());
  EXPECT_EQ(w.finish().error(), ErrorCode::InvalidArgument);
}

}  // namespace
}  // namespace laige
