// replay_diff_test.cpp - diffReplays: identical logs, the first divergent
// tick (tick 0 included), length divergence, seeds that differ only in the
// PRNG part (fullStateDivergent), the bounded report with owned byte copies
// and its clamp, presence entries, the rejections, no lock-step allocation.
#include "laige/replay_diff.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "support/counting_allocator.h"
#include "support/log_capture.h"
#include "support/replay_scene.h"

namespace laige {
namespace {

using Payloads = std::vector<std::vector<std::uint8_t>>;

ReplayLog parse(const std::vector<std::uint8_t>& bytes) {
  return parseReplay(bytes.data(), bytes.size()).takeValue();
}

/// Both sides of a diff: logs, worlds and configs of the rp scene.
struct Pair {
  ReplayConfig ca, cb;
  ReplayLog la, lb;
  World wa, wb;
  Pair(const Payloads& pa, const Payloads& pb, std::uint64_t seedA = 7, std::uint64_t seedB = 7)
      : ca(test::rpConfig(seedA)),
        cb(test::rpConfig(seedB)),
        la(parse(test::rpRecord(ca, pa))),
        lb(parse(test::rpRecord(cb, pb))),
        wa(test::rpWorld(ca)),
        wb(test::rpWorld(cb)) {}
  Result<ReplayDiffResult> diff(std::uint32_t maxEntries = kReplayDiffDefaultEntries) {
    return diffReplays(la, lb, wa, wb, ca, cb, maxEntries);
  }
};

TEST(ReplayDiff, Constants) {
  EXPECT_EQ(kReplayDiffDefaultEntries, 16u);
  EXPECT_EQ(kMaxReplayDiffEntries, 64u);
}

TEST(ReplayDiff, IdenticalLogsAreIdentical) {
  const Payloads p = test::rpPayloads(50);
  Pair pair(p, p);
  const ReplayDiffResult r = pair.diff().takeValue();
  EXPECT_TRUE(r.identical);
  EXPECT_EQ(r.firstDivergentTick, 0u);
  EXPECT_FALSE(r.lengthDivergence);
  EXPECT_FALSE(r.fullStateDivergent);
  EXPECT_EQ(r.framesA, 50u);
  EXPECT_EQ(r.framesB, 50u);
  EXPECT_EQ(r.differingItems, 0u);
  EXPECT_TRUE(r.entries.empty());
  EXPECT_EQ(pair.wa.systemTicksRun(), 50u);
}

TEST(ReplayDiff, FirstDivergentTickIsThePerturbedFrameAndWorldsStopThere) {
  const Payloads p = test::rpPayloads(60);
  Payloads q = p;
  ASSERT_FALSE(q[36].empty());
  q[36].back() ^= 0x01;  // tick 37
  Pair pair(p, q);
  const ReplayDiffResult r = pair.diff().takeValue();
  EXPECT_FALSE(r.identical);
  EXPECT_EQ(r.firstDivergentTick, 37u);
  EXPECT_FALSE(r.lengthDivergence);
  EXPECT_TRUE(r.fullStateDivergent);
  EXPECT_EQ(pair.wa.systemTicksRun(), 37u);
  EXPECT_EQ(pair.wb.systemTicksRun(), 37u);
  ASSERT_GT(r.differingItems, 0u);
  ASSERT_EQ(r.entries.size(), r.differingItems);
  const ComponentTypeId accum = pair.wa.componentId<test::RpAccum>();
  for (const ReplayDiffEntry& e : r.entries) {
    EXPECT_EQ(e.componentId, accum);
    EXPECT_EQ(e.size, sizeof(test::RpAccum));
    EXPECT_TRUE(e.presentInA && e.presentInB);
    ASSERT_EQ(e.a.size(), sizeof(test::RpAccum));
    ASSERT_EQ(e.b.size(), sizeof(test::RpAccum));
    EXPECT_NE(e.a, e.b);
    // The copies are the worlds' bytes at the divergent tick.
    const auto* va = pair.wa.get<test::RpAccum>(pair.wa.handleAt(e.slot));
    const auto* vb = pair.wb.get<test::RpAccum>(pair.wb.handleAt(e.slot));
    ASSERT_NE(va, nullptr);
    ASSERT_NE(vb, nullptr);
    EXPECT_EQ(std::memcmp(e.a.data(), va, sizeof *va), 0);
    EXPECT_EQ(std::memcmp(e.b.data(), vb, sizeof *vb), 0);
    // The slot's handles come along; a plain component is no relation entry.
    EXPECT_EQ(e.entityA, pair.wa.handleAt(e.slot));
    EXPECT_EQ(e.entityB, pair.wb.handleAt(e.slot));
    EXPECT_FALSE(e.relation);
    EXPECT_EQ(e.targetA, Entity{});
    EXPECT_TRUE(e.text.empty());
  }
  // Entries come in stateDiff order: slots ascending.
  for (std::size_t i = 1; i < r.entries.size(); ++i) EXPECT_LT(r.entries[i - 1].slot, r.entries[i].slot);
}

TEST(ReplayDiff, DivergenceInTheInitialStateIsTickZero) {
  const Payloads p = test::rpPayloads(10);
  Pair pair(p, p);
  auto* v = pair.wb.get<test::RpAccum>(pair.wb.handleAt(1));
  ASSERT_NE(v, nullptr);
  v->value += 1;
  const ReplayDiffResult r = pair.diff().takeValue();
  EXPECT_FALSE(r.identical);
  EXPECT_EQ(r.firstDivergentTick, 0u);
  EXPECT_EQ(r.differingItems, 1u);
  ASSERT_EQ(r.entries.size(), 1u);
  EXPECT_EQ(r.entries[0].slot, 1u);
  EXPECT_EQ(pair.wa.systemTicksRun(), 0u);
}

TEST(ReplayDiff, ALongerLogIsALengthDivergenceAfterTheCommonTicks) {
  const Payloads p = test::rpPayloads(30);
  const Payloads prefix(p.begin(), p.begin() + 20);
  for (bool aLonger : {true, false}) {
    Pair pair(aLonger ? p : prefix, aLonger ? prefix : p);
    const ReplayDiffResult r = pair.diff().takeValue();
    EXPECT_FALSE(r.identical);
    EXPECT_TRUE(r.lengthDivergence);
    EXPECT_EQ(r.firstDivergentTick, 21u);
    EXPECT_EQ(r.differingItems, 0u);
    EXPECT_TRUE(r.entries.empty());
    EXPECT_EQ(r.framesA, aLonger ? 30u : 20u);
    EXPECT_EQ(r.framesB, aLonger ? 20u : 30u);
    EXPECT_FALSE(r.fullStateDivergent);
  }
}

TEST(ReplayDiff, PresenceDifferencesAreComponentZeroEntries) {
  Payloads p(5, std::vector<std::uint8_t>{1});
  Payloads q = p;
  q[2] = {0xFF};  // tick 3: B spawns an entity with RpPos, A does not
  Pair pair(p, q);
  const ReplayDiffResult r = pair.diff(kMaxReplayDiffEntries).takeValue();
  EXPECT_EQ(r.firstDivergentTick, 3u);
  const ReplayDiffEntry* presence = nullptr;
  for (const ReplayDiffEntry& e : r.entries) {
    if (e.componentId == 0) presence = &e;
  }
  ASSERT_NE(presence, nullptr);
  EXPECT_EQ(presence->slot, 3u);
  EXPECT_FALSE(presence->presentInA);
  EXPECT_TRUE(presence->presentInB);
  EXPECT_EQ(presence->size, 0u);
  EXPECT_TRUE(presence->a.empty() && presence->b.empty());
}

// --- Seeds: the component alignment ---------------------------------------------

struct Acc {
  std::int32_t v;
};
LAIGE_COMPONENT(Acc, v);

// Draws from its substream every tick but keeps the draw out of the
// components: two seeds differ in PRNG state only.
void drawButIgnore(World&, SystemContext& ctx) {
  std::int32_t add = ctx.inputSize > 0 ? ctx.input[0] : 0;
  (void)ctx.rng->next_u32();
  (void)ctx.each<Acc>([add](Entity, Acc& a) { a.v += add; }, Write{});
}

World drawWorld(const ReplayConfig& c) {
  World w = World::create(worldOptionsFor(c)).takeValue();
  (void)w.registerComponent<Acc>();
  SystemDef d;
  d.name = "DrawButIgnore";
  d.run = &drawButIgnore;
  d.budgetMs = fpx16_16::fromInt32(100);
  SystemIo io[1] = {{w.componentId<Acc>(), Access::Write}};
  (void)w.registerSystem(d, io, 1);
  (void)w.addComponent(w.create().value(), Acc{5});
  return w;
}

ReplayLog drawLog(const ReplayConfig& c, std::uint64_t frames) {
  World w = drawWorld(c);
  ReplayLog log;
  log.identity = makeReplayIdentity(w, c);
  const std::uint8_t b[1] = {3};
  for (std::uint64_t i = 0; i < frames; ++i) (void)log.appendFrame(b, 1);
  return log;
}

TEST(ReplayDiff, DifferentSeedsAlignOnComponentsAndReportTheFullStateHonestly) {
  const ReplayConfig ca = test::rpConfig(1);
  const ReplayConfig cb = test::rpConfig(2);
  World wa = drawWorld(ca);
  World wb = drawWorld(cb);
  const ReplayDiffResult r = diffReplays(drawLog(ca, 40), drawLog(cb, 40), wa, wb, ca, cb).takeValue();
  EXPECT_TRUE(r.identical);  // the components never differ
  EXPECT_TRUE(r.fullStateDivergent);  // the substreams do, from tick 0
  EXPECT_EQ(r.firstDivergentTick, 0u);
  EXPECT_EQ(wa.systemTicksRun(), 40u);

  // The rp scene folds its draws into the components: divergence at tick 1.
  Pair pair(test::rpPayloads(10), test::rpPayloads(10), 1, 2);
  const ReplayDiffResult s = pair.diff().takeValue();
  EXPECT_FALSE(s.identical);
  EXPECT_EQ(s.firstDivergentTick, 1u);
  EXPECT_TRUE(s.fullStateDivergent);
}

// --- The bounded report ----------------------------------------------------------

TEST(ReplayDiff, ReportIsBoundedAndClampedWithTheExactCount) {
  auto make = [](ReplayConfig& c, World& w) {
    c = test::rpConfig();
    c.entityCapacity = 128;
    w = test::rpWorld(c);
    for (int i = 0; i < 67; ++i) (void)w.addComponent(w.create().value(), test::RpAccum{i, 0});
  };
  for (std::uint32_t asked : {0u, 1u, 16u, 64u, 65u, 1000u}) {
    ReplayConfig ca, cb;
    World wa, wb;
    make(ca, wa);
    make(cb, wb);
    ReplayLog la, lb;
    la.identity = makeReplayIdentity(wa, ca);
    lb.identity = makeReplayIdentity(wb, cb);
    const std::uint8_t x[1] = {1}, y[1] = {2};
    ASSERT_TRUE(la.appendFrame(x, 1).ok());
    ASSERT_TRUE(lb.appendFrame(y, 1).ok());
    const ReplayDiffResult r = diffReplays(la, lb, wa, wb, ca, cb, asked).takeValue();
    EXPECT_EQ(r.firstDivergentTick, 1u);
    EXPECT_EQ(r.differingItems, 70u);  // 3 + 67 accumulators, all changed
    const std::uint32_t want = asked > 64 ? 64 : asked;
    EXPECT_EQ(r.entries.size(), want) << "asked " << asked;
  }
}

// --- Rejections ---------------------------------------------------------------------

TEST(ReplayDiff, IdentityMismatchReportsBothSidesInOneWarn) {
  test::LogCapture logs;
  const Payloads p = test::rpPayloads(5);
  Pair pair(p, p);
  ReplayConfig wrongA = pair.ca;
  wrongA.tickRateHz = 30;
  ReplayConfig wrongB = pair.cb;
  wrongB.determinism.math = SimMathBackend::FloatPinned32;
  EXPECT_EQ(diffReplays(pair.la, pair.lb, pair.wa, pair.wb, wrongA, wrongB).error(), ErrorCode::InvalidArgument);
  ASSERT_EQ(logs.count("replay", "diff_identity_mismatch"), 1u);
  const auto& rec = logs.sink->records().back();
  EXPECT_NE(rec.fieldValue("a_mismatch").find("tickRateHz"), std::string::npos) << rec.line;
  EXPECT_NE(rec.fieldValue("b_mismatch").find("mathBackendId"), std::string::npos) << rec.line;
  EXPECT_TRUE(rec.hasField("a_log_tick_rate_hz") && rec.hasField("a_expected_tick_rate_hz"));
  EXPECT_TRUE(rec.hasField("b_log_math_backend_id") && rec.hasField("b_expected_math_backend_id"));
  EXPECT_EQ(pair.wa.systemTicksRun(), 0u);

  // One side only: still one warn, naming that side.
  logs.advance(10'000);
  EXPECT_EQ(diffReplays(pair.la, pair.lb, pair.wa, pair.wb, pair.ca, wrongB).error(), ErrorCode::InvalidArgument);
  EXPECT_FALSE(logs.sink->records().back().hasField("a_mismatch"));
  EXPECT_TRUE(logs.sink->records().back().hasField("b_mismatch"));
}

TEST(ReplayDiff, DeterminismMustBeEnabledOnBothSides) {
  test::LogCapture logs;
  ReplayConfig c = test::rpConfig();
  c.determinism.enabled = false;
  const Payloads p = test::rpPayloads(3);
  const ReplayLog la = parse(test::rpRecord(test::rpConfig(), p));
  const ReplayLog lb = parse(test::rpRecord(c, p));
  World wa = test::rpWorld(test::rpConfig());
  World wb = test::rpWorld(c);
  EXPECT_EQ(diffReplays(la, lb, wa, wb, test::rpConfig(), c).error(), ErrorCode::InvalidArgument);
  EXPECT_EQ(logs.count("replay", "diff_determinism_disabled"), 1u);
  EXPECT_EQ(logs.count("replay", "diff_identity_mismatch"), 0u);
}

TEST(ReplayDiff, WorldsMustShareTheirRegistry) {
  test::LogCapture logs;
  const ReplayConfig c = test::rpConfig();
  World wa = test::rpWorld(c);
  World wb = World::create(worldOptionsFor(c)).takeValue();  // registers nothing
  ReplayLog la, lb;
  la.identity = makeReplayIdentity(wa, c);
  lb.identity = makeReplayIdentity(wb, c);  // each log matches its own world
  EXPECT_EQ(diffReplays(la, lb, wa, wb, c, c).error(), ErrorCode::InvalidArgument);
  EXPECT_EQ(logs.count("replay", "diff_schema_mismatch"), 1u);
}

TEST(ReplayDiff, WorldsMustBeFresh) {
  test::LogCapture logs;
  const Payloads p = test::rpPayloads(4);
  Pair pair(p, p);
  ASSERT_TRUE(pair.diff().ok());
  EXPECT_EQ(pair.diff().error(), ErrorCode::InvalidArgument);  // both already ran 4 ticks
  EXPECT_EQ(logs.count("replay", "config_world_mismatch"), 1u);
}

TEST(ReplayDiff, ProgressCountsCommonTicks) {
  const Payloads p = test::rpPayloads(25);
  Pair pair(p, Payloads(p.begin(), p.begin() + 21));
  std::vector<std::uint64_t> calls;
  ReplayProgress prog;
  prog.fn = [](void* ctx, std::uint64_t done, std::uint64_t total) noexcept {
    static_cast<std::vector<std::uint64_t>*>(ctx)->push_back(done * 1000 + total);
  };
  prog.ctx = &calls;
  prog.interval = 10;
  ASSERT_TRUE(diffReplays(pair.la, pair.lb, pair.wa, pair.wb, pair.ca, pair.cb, 16, &prog).ok());
  EXPECT_EQ(calls, (std::vector<std::uint64_t>{10021, 20021, 21021}));
}

TEST(ReplayDiff, LockStepTicksAllocateNothing) {
  auto run = [](std::uint64_t frames) {
    Payloads p(frames, std::vector<std::uint8_t>{4, 5});
    Pair pair(p, p);
    test::AllocationWindow window;
    EXPECT_TRUE(pair.diff().value().identical);
    return window.allocations();
  };
  EXPECT_EQ(run(10), run(1000));
}

}  // namespace
}  // namespace laige
