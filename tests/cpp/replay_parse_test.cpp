// replay_parse_test.cpp - parseReplay's every rejection, one by one (each
// isolated: the file is otherwise valid, re-hashed where the check comes
// after the hash), truncation / bit-flip / garbage sweeps that must never
// crash, and loadReplay's bounded read.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "laige/prng.h"
#include "laige/replay.h"
#include "support/log_capture.h"
#include "support/replay_scene.h"

namespace laige {
namespace {

using Bytes = std::vector<std::uint8_t>;

void putLe(Bytes& b, std::size_t at, std::uint64_t v, int n) {
  for (int i = 0; i < n; ++i) b[at + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(v >> (8 * i));
}

/// Recomputes the trailer's fileHash (so a test isolates a structural check).
void rehash(Bytes& b) { putLe(b, b.size() - 8, replayFileHash(b.data(), b.size() - 16), 8); }

/// A valid log: 3 frames of 2, 0 and 5 payload bytes.
Bytes sampleLog() {
  ReplayIdentity id;
  id.seed = 42;
  id.tickRateHz = 60;
  id.componentSchemaHash = 0x1111;
  id.mathBackendId = 0;
  id.configHash = 0x2222;
  ReplayWriter w = ReplayWriter::create(id).takeValue();
  const std::uint8_t p1[2] = {0xaa, 0xbb};
  const std::uint8_t p3[5] = {1, 2, 3, 4, 5};
  (void)w.writeFrame(1, p1, 2);
  (void)w.writeFrame(2, nullptr, 0);
  (void)w.writeFrame(3, p3, 5);
  (void)w.finish();
  return w.takeBytes();
}
// Offsets in sampleLog(): frame 1 at 40 (payload 52..53), frame 2 at 54,
// frame 3 at 66 (payload 78..82), trailer at 83 (size 99).
constexpr std::size_t kF1 = 40, kF2 = 54, kF3 = 66, kTrailer = 83;

std::string reasonOf(const Bytes& b) {
  ReplayParseError why;
  const Result<ReplayLog> r = parseReplay(b.data(), b.size(), &why);
  if (r.ok()) return "ok";
  EXPECT_EQ(r.error(), ErrorCode::MalformedInput);
  return why.reason != nullptr ? why.reason : "(none)";
}

TEST(ReplayParse, ValidLogRoundTrips) {
  const Bytes b = sampleLog();
  ASSERT_EQ(b.size(), 99u);
  ReplayParseError why;
  const Result<ReplayLog> r = parseReplay(b.data(), b.size(), &why);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(why.reason, nullptr);
  const ReplayLog& log = r.value();
  EXPECT_EQ(log.identity.seed, 42u);
  EXPECT_EQ(log.identity.tickRateHz, 60u);
  EXPECT_EQ(log.identity.componentSchemaHash, 0x1111u);
  EXPECT_EQ(log.identity.configHash, 0x2222u);
  ASSERT_EQ(log.frameCount(), 3u);
  EXPECT_EQ(log.frames[2].tick, 3u);
  EXPECT_EQ(Bytes(log.frameBytes(0).begin(), log.frameBytes(0).end()), (Bytes{0xaa, 0xbb}));
  EXPECT_TRUE(log.frameBytes(1).empty());
  EXPECT_EQ(Bytes(log.frameBytes(2).begin(), log.frameBytes(2).end()), (Bytes{1, 2, 3, 4, 5}));
  EXPECT_TRUE(log.frameBytes(3).empty());  // out of range
  EXPECT_EQ(log.payload.size(), 7u);
}

TEST(ReplayParse, EmptyLogIsFiftySixBytes) {
  ReplayWriter w = ReplayWriter::create(ReplayIdentity{}).takeValue();
  ASSERT_TRUE(w.finish().ok());
  const Result<ReplayLog> r = parseReplay(w.bytes().data(), w.bytes().size());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.value().frameCount(), 0u);
}

TEST(ReplayParse, RejectsNullAndShortInput) {
  test::LogCapture logs;
  ReplayParseError why;
  EXPECT_EQ(parseReplay(nullptr, 100, &why).error(), ErrorCode::MalformedInput);
  EXPECT_STREQ(why.reason, "short_input");
  const Bytes b = sampleLog();
  EXPECT_EQ(parseReplay(b.data(), 55, &why).error(), ErrorCode::MalformedInput);
  EXPECT_STREQ(why.reason, "short_input");
  EXPECT_EQ(parseReplay(b.data(), 0).error(), ErrorCode::MalformedInput);
  ASSERT_GE(logs.count("replay", "parse_rejected"), 1u);
  EXPECT_EQ(logs.sink->records().front().fieldValue("reason"), "short_input");
}

TEST(ReplayParse, RejectsBadMagicOtherVersionAndNonzeroReserved) {
  Bytes b = sampleLog();
  b[3] = 'Q';
  rehash(b);
  EXPECT_EQ(reasonOf(b), "bad_magic");
  b = sampleLog();
  putLe(b, 4, 4, 2);  // newer than this build reads
  rehash(b);
  EXPECT_EQ(reasonOf(b), "unsupported_version");
  b = sampleLog();
  putLe(b, 4, 1, 2);  // version 1 stays readable (its older identity rule)
  rehash(b);
  EXPECT_EQ(reasonOf(b), "ok");
  b = sampleLog();
  putLe(b, 4, 0, 2);
  rehash(b);
  EXPECT_EQ(reasonOf(b), "unsupported_version");
  b = sampleLog();
  putLe(b, 6, 1, 2);
  rehash(b);
  EXPECT_EQ(reasonOf(b), "reserved_nonzero");
}

TEST(ReplayParse, RejectsAFrameLengthOverOneMebibyteBeforeReadingIt) {
  for (std::uint64_t len : {std::uint64_t{kMaxReplayFrameBytes} + 1, std::uint64_t{0xffffffff}}) {
    Bytes b = sampleLog();
    putLe(b, kF3 + 8, len, 4);
    rehash(b);
    ReplayParseError why;
    EXPECT_EQ(parseReplay(b.data(), b.size(), &why).error(), ErrorCode::MalformedInput);
    EXPECT_STREQ(why.reason, "frame_too_large");
    EXPECT_EQ(why.offset, kF3 + 8);
  }
  // A 1 MiB length in a small file is not "too large" but runs past the end.
  Bytes b = sampleLog();
  putLe(b, kF3 + 8, kMaxReplayFrameBytes, 4);
  rehash(b);
  EXPECT_EQ(reasonOf(b), "record_past_end");
}

TEST(ReplayParse, RejectsARecordPastTheEnd) {
  Bytes b = sampleLog();
  putLe(b, kF3 + 8, 6, 4);  // one byte more than is there
  rehash(b);
  EXPECT_EQ(reasonOf(b), "record_past_end");
  // A frame header cut by the trailer (10 of its 12 bytes left, so the
  // count is still plausible for the region's size).
  b = sampleLog();
  b.erase(b.begin() + static_cast<std::ptrdiff_t>(kF3 + 10), b.begin() + static_cast<std::ptrdiff_t>(kTrailer));
  rehash(b);
  EXPECT_EQ(reasonOf(b), "record_past_end");
}

TEST(ReplayParse, RejectsABrokenTickSequence) {
  Bytes b = sampleLog();
  putLe(b, kF1, 0, 8);  // the first tick must be 1
  rehash(b);
  EXPECT_EQ(reasonOf(b), "tick_sequence");
  b = sampleLog();
  putLe(b, kF2, 3, 8);  // 1, 3, 3
  rehash(b);
  EXPECT_EQ(reasonOf(b), "tick_sequence");
  b = sampleLog();
  putLe(b, kF3, 2, 8);  // 1, 2, 2
  rehash(b);
  EXPECT_EQ(reasonOf(b), "tick_sequence");
}

TEST(ReplayParse, RejectsAFrameCountMismatch) {
  Bytes b = sampleLog();
  putLe(b, kTrailer, 2, 8);  // the file holds a third complete frame
  EXPECT_EQ(reasonOf(b), "frame_count_mismatch");
  b = sampleLog();
  putLe(b, kTrailer, 4, 8);  // claims one more than there is
  EXPECT_EQ(reasonOf(b), "frame_count_mismatch");
  b = sampleLog();
  putLe(b, kTrailer, ~0ull, 8);  // absurd: rejected before any allocation
  EXPECT_EQ(reasonOf(b), "frame_count_mismatch");
}

TEST(ReplayParse, RejectsTrailingBytesBeforeTheTrailer) {
  Bytes b = sampleLog();
  b.insert(b.begin() + static_cast<std::ptrdiff_t>(kTrailer), {9, 9, 9, 9, 9});
  rehash(b);
  ReplayParseError why;
  EXPECT_EQ(parseReplay(b.data(), b.size(), &why).error(), ErrorCode::MalformedInput);
  EXPECT_STREQ(why.reason, "trailing_bytes");
  EXPECT_EQ(why.offset, kTrailer);
}

TEST(ReplayParse, RejectsBytesAppendedAfterTheTrailer) {
  Bytes b = sampleLog();
  b.push_back(0);
  EXPECT_NE(reasonOf(b), "ok");
  b = sampleLog();
  const Bytes copy = b;
  b.insert(b.end(), copy.begin(), copy.end());  // two logs back to back
  EXPECT_NE(reasonOf(b), "ok");
}

TEST(ReplayParse, RejectsAFileHashMismatch) {
  for (std::size_t at : {std::size_t{8}, std::size_t{33}, kF1 + 12, kF3 + 16, kTrailer + 8}) {
    Bytes b = sampleLog();
    b[at] ^= 0x01;
    EXPECT_EQ(reasonOf(b), "file_hash_mismatch") << "byte " << at;
  }
}

TEST(ReplayParse, EveryTruncationIsRejected) {
  const Bytes b = sampleLog();
  for (std::size_t n = 0; n < b.size(); ++n) {
    EXPECT_EQ(parseReplay(b.data(), n).error(), ErrorCode::MalformedInput) << "length " << n;
  }
}

TEST(ReplayParse, EverySingleBitFlipIsRejected) {
  // The hash covers every byte before the trailer and the trailer is
  // checked against the records, so no single flipped bit survives.
  const Bytes good = sampleLog();
  for (std::size_t at = 0; at < good.size(); ++at) {
    for (int bit = 0; bit < 8; ++bit) {
      Bytes b = good;
      b[at] ^= static_cast<std::uint8_t>(1u << bit);
      ASSERT_EQ(parseReplay(b.data(), b.size()).error(), ErrorCode::MalformedInput) << at << ":" << bit;
    }
  }
}

TEST(ReplayParse, RandomGarbageIsRejectedWithoutCrashing) {
  Prng rng(2024);
  for (int round = 0; round < 300; ++round) {
    Bytes b(rng.next_range(0, 400));
    for (auto& x : b) x = static_cast<std::uint8_t>(rng.next_u32());
    if (b.size() >= 8 && round % 2 == 0) {
      // Half of them get a valid-looking header, so the walk is exercised.
      b[0] = 'L', b[1] = 'G', b[2] = 'R', b[3] = 'P', b[4] = 1, b[5] = 0, b[6] = 0, b[7] = 0;
    }
    EXPECT_EQ(parseReplay(b.data(), b.size()).error(), ErrorCode::MalformedInput);
  }
}

// --- loadReplay ------------------------------------------------------------------

TEST(ReplayLoad, LoadsAFileWrittenByTheRecorder) {
  test::TempDir dir;
  const std::string path = dir.file("ok.lgrp");
  ASSERT_TRUE(test::writeFile(path, sampleLog()));
  const Result<ReplayLog> r = loadReplay(path.c_str());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.value().frameCount(), 3u);
  EXPECT_TRUE(loadReplay(path.c_str(), 0).ok());  // 0 = the default cap
  EXPECT_TRUE(loadReplay(path.c_str(), 99).ok());  // exactly the file size
}

TEST(ReplayLoad, EmptyPathIsMalformedInputAndMissingFileIsIoError) {
  test::LogCapture logs;
  EXPECT_EQ(loadReplay("").error(), ErrorCode::MalformedInput);
  EXPECT_EQ(loadReplay(nullptr).error(), ErrorCode::MalformedInput);
  test::TempDir dir;
  const std::string missing = dir.file("missing.lgrp");
  ReplayParseError why;
  EXPECT_EQ(loadReplay(missing.c_str(), kDefaultReplaySizeLimit, &why).error(), ErrorCode::IoError);
  EXPECT_STREQ(why.reason, "open_failed");
  EXPECT_GE(logs.count("replay", "load_failed"), 1u);
}

TEST(ReplayLoad, ADirectoryIsIoError) {
  test::TempDir dir;
  EXPECT_EQ(loadReplay(dir.path().c_str()).error(), ErrorCode::IoError);
}

TEST(ReplayLoad, OversizeIsMalformedInputAndEmptyFileIsShortInput) {
  test::LogCapture logs;
  test::TempDir dir;
  const std::string path = dir.file("big.lgrp");
  ASSERT_TRUE(test::writeFile(path, sampleLog()));
  ReplayParseError why;
  EXPECT_EQ(loadReplay(path.c_str(), 98, &why).error(), ErrorCode::MalformedInput);
  EXPECT_STREQ(why.reason, "oversize");
  EXPECT_EQ(logs.count("replay", "load_oversize"), 1u);
  // A large non-log file under a small cap is rejected without reading it all.
  const std::string junk = dir.file("junk.bin");
  ASSERT_TRUE(test::writeFile(junk, Bytes(300000, 0x41)));
  EXPECT_EQ(loadReplay(junk.c_str(), 1000, &why).error(), ErrorCode::MalformedInput);
  EXPECT_STREQ(why.reason, "oversize");
  // The same file under the default cap: not a log.
  EXPECT_EQ(loadReplay(junk.c_str(), 0, &why).error(), ErrorCode::MalformedInput);
  EXPECT_STREQ(why.reason, "bad_magic");
  const std::string empty = dir.file("empty.lgrp");
  ASSERT_TRUE(test::writeFile(empty, {}));
  EXPECT_EQ(loadReplay(empty.c_str(), 0, &why).error(), ErrorCode::MalformedInput);
  EXPECT_STREQ(why.reason, "short_input");
}

TEST(ReplayLoad, TruncatedAndCorruptFilesNeverCrash) {
  test::TempDir dir;
  const std::string path = dir.file("cut.lgrp");
  const Bytes good = sampleLog();
  for (std::size_t n = 0; n < good.size(); n += 7) {
    ASSERT_TRUE(test::writeFile(path, Bytes(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(n))));
    EXPECT_EQ(loadReplay(path.c_str()).error(), ErrorCode::MalformedInput);
  }
  Bytes bad = good;
  bad[60] ^= 0xff;
  ASSERT_TRUE(test::writeFile(path, bad));
  EXPECT_EQ(loadReplay(path.c_str()).error(), ErrorCode::MalformedInput);
}

}  // namespace
}  // namespace laige
