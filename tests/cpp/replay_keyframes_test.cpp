// replay_keyframes_test.cpp - LGRP v3 keyframes: what the recorders write
// (exact snapshots of the live run, version 2 without them, byte for byte the
// same in both recorders), the cap, the parser's keyframe checks, and a
// native == wasm known answer.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "laige/replay.h"
#include "support/log_capture.h"
#include "support/replay_scene.h"

namespace laige {
namespace {

using Bytes = std::vector<std::uint8_t>;
using Payloads = std::vector<std::vector<std::uint8_t>>;

void putLe(Bytes& b, std::size_t at, std::uint64_t v, int n) {
  for (int i = 0; i < n; ++i) b[at + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(v >> (8 * i));
}
std::uint64_t getLe(const Bytes& b, std::size_t at, int n) {
  std::uint64_t v = 0;
  for (int i = n - 1; i >= 0; --i) v = (v << 8) | b[at + static_cast<std::size_t>(i)];
  return v;
}
void rehash(Bytes& b) { putLe(b, b.size() - 8, replayFileHash(b.data(), b.size() - 16), 8); }

std::string reasonOf(const Bytes& b) {
  test::LogCapture quiet;
  ReplayParseError why;
  const auto r = parseReplay(b.data(), b.size(), &why);
  return r.ok() ? "ok" : why.reason;
}

/// Runs the scene live, recording every `every` ticks a keyframe (0 = none),
/// and collects the live snapshots per tick.
struct LiveRecording {
  Bytes log;
  std::vector<Bytes> snapshots;  // per tick 0..N
  std::vector<std::uint64_t> hashes;
};
LiveRecording recordLive(const ReplayConfig& c, const Payloads& payloads, std::uint64_t every) {
  LiveRecording out;
  World w = test::rpWorld(c);
  SystemSchedule s;
  EXPECT_TRUE(w.scheduleSystems(s).ok());
  ReplayWriter writer = ReplayWriter::create(makeReplayIdentity(w, c), 0, every).takeValue();
  auto keep = [&] {
    Bytes snap(w.snapshotSize());
    EXPECT_TRUE(w.snapshot(snap).ok());
    out.snapshots.push_back(std::move(snap));
    out.hashes.push_back(w.stateHash(w.systemTicksRun()));
    if (writer.keyframeDue()) {
      EXPECT_TRUE(writer.writeKeyframe(w).ok());
    }
  };
  keep();
  for (std::size_t i = 0; i < payloads.size(); ++i) {
    const auto& p = payloads[i];
    w.beginFrame();
    EXPECT_TRUE(w.runSystems(s, TickInput{p.empty() ? nullptr : p.data(), static_cast<std::uint32_t>(p.size())}).ok());
    EXPECT_TRUE(writer.writeFrame(i + 1, p.data(), static_cast<std::uint32_t>(p.size())).ok());
    keep();
  }
  EXPECT_TRUE(writer.finish().ok());
  out.log = writer.takeBytes();
  return out;
}

TEST(ReplayKeyframes, Constants) {
  EXPECT_EQ(kReplayFormatVersion, 3u);
  EXPECT_EQ(kReplayPlainFormatVersion, 2u);
  EXPECT_EQ(kReplayKeyframeOverhead, 12u);
}

TEST(ReplayKeyframes, TheWriterKeepsExactSnapshotsEveryKTicksInAVersion3Log) {
  const ReplayConfig c = test::rpConfig();
  const LiveRecording rec = recordLive(c, test::rpPayloads(45), 10);
  EXPECT_EQ(getLe(rec.log, 4, 2), 3u);
  const ReplayLog log = parseReplay(rec.log.data(), rec.log.size()).takeValue();
  EXPECT_EQ(log.formatVersion, 3u);
  EXPECT_EQ(log.frameCount(), 45u);
  ASSERT_EQ(log.keyframes.size(), 5u);  // ticks 0, 10, 20, 30, 40
  for (std::size_t i = 0; i < log.keyframes.size(); ++i) {
    EXPECT_EQ(log.keyframes[i].tick, i * 10);
    const auto snap = log.keyframeSnapshot(i);
    EXPECT_EQ(Bytes(snap.begin(), snap.end()), rec.snapshots[i * 10]) << i;
  }
  EXPECT_TRUE(log.keyframeSnapshot(5).empty());
}

TEST(ReplayKeyframes, WithoutKeyframesTheLogIsTheVersion2BytesOfBefore) {
  const ReplayConfig c = test::rpConfig();
  const Payloads payloads = test::rpPayloads(30);
  const LiveRecording rec = recordLive(c, payloads, 0);
  EXPECT_EQ(rec.log, test::rpRecord(c, payloads));
  EXPECT_EQ(getLe(rec.log, 4, 2), 2u);
  const ReplayLog log = parseReplay(rec.log.data(), rec.log.size()).takeValue();
  EXPECT_EQ(log.formatVersion, 2u);
  EXPECT_TRUE(log.keyframes.empty());
}

TEST(ReplayKeyframes, VersionsOneTwoAndThreeAreReadAndFourIsNot) {
  const ReplayConfig c = test::rpConfig();
  Bytes plain = recordLive(c, test::rpPayloads(12), 0).log;
  for (std::uint64_t v : {1u, 2u, 3u}) {
    Bytes b = plain;
    putLe(b, 4, v, 2);
    rehash(b);
    EXPECT_EQ(reasonOf(b), "ok") << v;  // a version 3 log may carry no keyframe
  }
  Bytes b = plain;
  putLe(b, 4, 4, 2);
  rehash(b);
  EXPECT_EQ(reasonOf(b), "unsupported_version");
  // Version 2 keeps refusing bytes after the frames; version 3 reads them as keyframes.
  Bytes keyed = recordLive(c, test::rpPayloads(12), 4).log;
  putLe(keyed, 4, 2, 2);
  rehash(keyed);
  EXPECT_EQ(reasonOf(keyed), "trailing_bytes");
}

TEST(ReplayKeyframes, TheFileRecorderWritesTheWritersBytes) {
  const ReplayConfig c = test::rpConfig();
  const Payloads payloads = test::rpPayloads(25);
  const LiveRecording rec = recordLive(c, payloads, 6);
  test::TempDir dir;
  const std::string path = dir.file("kf.lgrp");
  World w = test::rpWorld(c);
  SystemSchedule s;
  ASSERT_TRUE(w.scheduleSystems(s).ok());
  ReplayRecorder r = ReplayRecorder::create(makeReplayIdentity(w, c), path.c_str(), 0, 6).takeValue();
  ASSERT_TRUE(r.keyframeDue());
  ASSERT_TRUE(r.writeKeyframe(w).ok());
  for (std::size_t i = 0; i < payloads.size(); ++i) {
    const auto& p = payloads[i];
    w.beginFrame();
    ASSERT_TRUE(w.runSystems(s, TickInput{p.empty() ? nullptr : p.data(), static_cast<std::uint32_t>(p.size())}).ok());
    ASSERT_TRUE(r.writeFrame(i + 1, p.data(), static_cast<std::uint32_t>(p.size())).ok());
    if (r.keyframeDue()) {
      ASSERT_TRUE(r.writeKeyframe(w).ok());
    }
  }
  EXPECT_EQ(r.keyframeCount(), 5u);  // 0, 6, 12, 18, 24
  ASSERT_TRUE(r.finish().ok());
  EXPECT_EQ(test::readFile(path), rec.log);
}

TEST(ReplayKeyframes, KeyframeMisuseIsRefusedWithoutFailingTheRecording) {
  test::LogCapture logs;
  const ReplayConfig c = test::rpConfig();
  World w = test::rpWorld(c);
  ReplayWriter off = ReplayWriter::create(makeReplayIdentity(w, c)).takeValue();
  EXPECT_FALSE(off.keyframeDue());
  EXPECT_EQ(off.writeKeyframe(w).reason(), std::string("keyframes_off"));
  ReplayWriter on = ReplayWriter::create(makeReplayIdentity(w, c), 0, 5).takeValue();
  ASSERT_TRUE(on.writeFrame(1, nullptr, 0).ok());
  const Status wrongTick = on.writeKeyframe(w);  // the world is at tick 0, the log at 1
  EXPECT_EQ(wrongTick.error(), ErrorCode::InvalidArgument);
  EXPECT_EQ(wrongTick.reason(), std::string("keyframe_tick"));
  EXPECT_TRUE(on.status().ok());
  EXPECT_EQ(on.keyframeCount(), 0u);
  ASSERT_TRUE(on.finish().ok());
  EXPECT_EQ(reasonOf(on.bytes()), "ok");
  EXPECT_EQ(logs.count("replay", "record_failed"), 0u);
}

TEST(ReplayKeyframes, TheSizeCapCountsKeyframes) {
  test::LogCapture logs;
  const ReplayConfig c = test::rpConfig();
  World w = test::rpWorld(c);
  const std::uint64_t snap = w.snapshotSize();
  // Room for the header, one keyframe and the trailer, not one frame more.
  const std::uint64_t cap = kReplayHeaderSize + kReplayKeyframeOverhead + snap + kReplayTrailerSize;
  ReplayWriter writer = ReplayWriter::create(makeReplayIdentity(w, c), cap, 1).takeValue();
  ASSERT_TRUE(writer.writeKeyframe(w).ok());
  const std::uint8_t five[5] = {1, 2, 3, 4, 5};  // 12 + 5 bytes: more than the trailer's 16
  EXPECT_EQ(writer.canWriteFrame(5).error(), ErrorCode::BudgetExhausted);
  EXPECT_EQ(writer.writeFrame(1, five, 5).error(), ErrorCode::BudgetExhausted);
  EXPECT_EQ(logs.count("replay", "record_failed"), 1u);
  // A keyframe alone over the cap fails the recording (sticky).
  ReplayWriter tight = ReplayWriter::create(makeReplayIdentity(w, c), cap - kReplayTrailerSize - 1, 1).takeValue();
  EXPECT_EQ(tight.writeKeyframe(w).error(), ErrorCode::BudgetExhausted);
  EXPECT_EQ(tight.finish().error(), ErrorCode::BudgetExhausted);
  // The keyframe fits, the trailer after it does not.
  ReplayWriter noTrailer = ReplayWriter::create(makeReplayIdentity(w, c), cap - 1, 1).takeValue();
  ASSERT_TRUE(noTrailer.writeKeyframe(w).ok());
  EXPECT_EQ(noTrailer.finish().error(), ErrorCode::BudgetExhausted);
  // Exactly at the cap: finishes.
  ReplayWriter exact = ReplayWriter::create(makeReplayIdentity(w, c), cap, 1).takeValue();
  ASSERT_TRUE(exact.writeKeyframe(w).ok());
  ASSERT_TRUE(exact.finish().ok());
  EXPECT_EQ(exact.bytes().size(), cap);
}

/// The offset of keyframe `index`'s record in `log` bytes (walks the records).
std::size_t keyframeRecordAt(const Bytes& b, std::size_t index) {
  const std::uint64_t frames = getLe(b, b.size() - 16, 8);
  std::size_t off = kReplayHeaderSize;
  for (std::uint64_t i = 0; i < frames; ++i) off += kReplayFrameOverhead + getLe(b, off + 8, 4);
  for (std::size_t i = 0; i < index; ++i) off += kReplayKeyframeOverhead + getLe(b, off + 8, 4);
  return off;
}

TEST(ReplayKeyframes, TheParserChecksEveryKeyframe) {
  const ReplayConfig c = test::rpConfig();
  const Bytes good = recordLive(c, test::rpPayloads(20), 5).log;  // keyframes 0, 5, 10, 15, 20
  ASSERT_EQ(reasonOf(good), "ok");
  Bytes b = good;
  putLe(b, keyframeRecordAt(b, 4), 21, 8);  // past the last tick
  rehash(b);
  EXPECT_EQ(reasonOf(b), "keyframe_tick_range");
  b = good;
  putLe(b, keyframeRecordAt(b, 2), 5, 8);  // not above the previous one
  rehash(b);
  EXPECT_EQ(reasonOf(b), "keyframe_tick_order");
  b = good;
  b[keyframeRecordAt(b, 1) + kReplayKeyframeOverhead + 100] ^= 1;  // the snapshot's checksum catches it
  rehash(b);
  EXPECT_EQ(reasonOf(b), "keyframe_snapshot_invalid");
  b = good;
  putLe(b, keyframeRecordAt(b, 3), 16, 8);  // a valid snapshot of another tick
  rehash(b);
  EXPECT_EQ(reasonOf(b), "keyframe_snapshot_invalid");
  b = good;
  putLe(b, keyframeRecordAt(b, 4) + 8, 0xfffffff0u, 4);  // a length past the trailer
  rehash(b);
  EXPECT_EQ(reasonOf(b), "keyframe_past_end");
  b = good;
  b.erase(b.end() - 16 - 5, b.end() - 16);  // the last snapshot cut short
  rehash(b);
  EXPECT_EQ(reasonOf(b), "keyframe_past_end");
  // Truncated anywhere: refused, never read past the end.
  for (std::size_t n : {good.size() - 1, good.size() / 2, std::size_t{60}}) {
    Bytes t(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(n));
    EXPECT_NE(reasonOf(t), "ok") << n;
  }
  // Without a rehash a flipped keyframe byte is the file hash's.
  b = good;
  b[keyframeRecordAt(b, 0) + 2] ^= 0x40;
  EXPECT_NE(reasonOf(b), "ok");
}

// The same recording natively and in wasm: the same file hash (the
// snapshots are portable bytes, the format is byte by byte).
TEST(ReplayKeyframes, KnownAnswerNativeEqualsWasm) {
  const ReplayConfig c = test::rpConfig();
  const Bytes b = recordLive(c, test::rpPayloads(40), 8).log;
  EXPECT_EQ(b.size(), 2152u);
  EXPECT_EQ(getLe(b, b.size() - 8, 8), 0xf415082df9b86d73ull);
}

}  // namespace
}  // namespace laige
