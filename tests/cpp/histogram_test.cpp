// histogram_test.cpp - the rolling window: O(1) record, truncation made
// observable by totalRecorded, nearest-rank percentiles, no allocation.
#include "laige/histogram.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <utility>

#include "support/counting_allocator.h"

namespace laige {
namespace {

TEST(Histogram, EmptyWindowReportsZeros) {
  Histogram h(8);
  EXPECT_EQ(h.capacity(), 8u);
  EXPECT_EQ(h.size(), 0u);
  EXPECT_TRUE(h.empty());
  EXPECT_EQ(h.totalRecorded(), 0u);
  const HistogramStats st = h.stats();
  EXPECT_EQ(st.count, 0u);
  EXPECT_EQ(st.p99, 0.0);
  EXPECT_EQ(h.percentile(50.0), 0.0);
  EXPECT_EQ(h.last(), 0.0);
  EXPECT_EQ(h.sample(0), 0.0);
}

TEST(Histogram, RecordingPastCapacityDropsTheOldestAndKeepsCounting) {
  Histogram h(4);
  for (int i = 1; i <= 10; ++i) h.record(i);
  EXPECT_EQ(h.size(), 4u);
  EXPECT_EQ(h.totalRecorded(), 10u);
  EXPECT_EQ(h.sample(0), 7.0);  // oldest kept
  EXPECT_EQ(h.sample(3), 10.0);
  EXPECT_EQ(h.sample(4), 0.0);  // out of range
  EXPECT_EQ(h.last(), 10.0);
  const HistogramStats st = h.stats();
  EXPECT_EQ(st.count, 4u);
  EXPECT_EQ(st.totalRecorded, 10u);
  EXPECT_EQ(st.min, 7.0);
  EXPECT_EQ(st.max, 10.0);
  EXPECT_EQ(st.mean, 8.5);
}

TEST(Histogram, NearestRankPercentilesOneToHundred) {
  Histogram h(100);
  // Recorded in descending order: the queries sort.
  for (int i = 100; i >= 1; --i) h.record(i);
  EXPECT_EQ(h.percentile(50.0), 50.0);
  EXPECT_EQ(h.percentile(95.0), 95.0);
  EXPECT_EQ(h.percentile(99.0), 99.0);
  EXPECT_EQ(h.percentile(100.0), 100.0);
  EXPECT_EQ(h.percentile(0.0), 1.0);    // rank clamps to 1
  EXPECT_EQ(h.percentile(-5.0), 1.0);
  EXPECT_EQ(h.percentile(250.0), 100.0);
  EXPECT_EQ(h.percentile(std::numeric_limits<double>::quiet_NaN()), 1.0);
  EXPECT_EQ(h.percentile(0.5), 1.0);    // ceil(0.5) = rank 1
  EXPECT_EQ(h.percentile(1.5), 2.0);    // ceil(1.5) = rank 2
}

TEST(Histogram, NearestRankPercentilesOfA64SampleWindow) {
  Histogram h(64);
  for (int i = 1; i <= 64; ++i) h.record(i);
  const HistogramStats st = h.stats();
  EXPECT_EQ(st.p50, 32.0);  // ceil(32)
  EXPECT_EQ(st.p95, 61.0);  // ceil(60.8)
  EXPECT_EQ(st.p99, 64.0);  // ceil(63.36)
  EXPECT_EQ(st.min, 1.0);
  EXPECT_EQ(st.max, 64.0);
  EXPECT_EQ(st.mean, 32.5);
}

TEST(Histogram, SmallWindowsUseTheNearestRank) {
  Histogram h(8);
  h.record(5.0);
  EXPECT_EQ(h.percentile(99.0), 5.0);
  EXPECT_EQ(h.percentile(1.0), 5.0);
  h.record(1.0);
  h.record(3.0);
  EXPECT_EQ(h.percentile(50.0), 3.0);  // ceil(1.5) = rank 2 of {1, 3, 5}
  EXPECT_EQ(h.percentile(99.0), 5.0);
}

TEST(Histogram, NaNIsIgnoredAndZeroIsASample) {
  Histogram h(4);
  h.record(std::numeric_limits<double>::quiet_NaN());
  EXPECT_EQ(h.totalRecorded(), 0u);
  h.record(0.0);
  EXPECT_EQ(h.totalRecorded(), 1u);
  EXPECT_EQ(h.size(), 1u);
  EXPECT_EQ(h.stats().p99, 0.0);
}

TEST(Histogram, RecordAndStatsAllocateNothing) {
  Histogram h(64);
  test::AllocationWindow w;
  double sink = 0.0;
  for (int i = 0; i < 1000; ++i) {
    h.record(static_cast<double>(i % 97));
    if (i % 100 == 0) sink += h.stats().p99 + h.percentile(50.0);
  }
  EXPECT_EQ(w.allocations(), 0u);
  EXPECT_GT(sink, 0.0);
}

TEST(Histogram, QueriesDoNotDisturbTheWindowOrder) {
  Histogram h(4);
  h.record(4.0);
  h.record(1.0);
  h.record(3.0);
  (void)h.stats();
  EXPECT_EQ(h.sample(0), 4.0);
  EXPECT_EQ(h.sample(1), 1.0);
  EXPECT_EQ(h.sample(2), 3.0);
  EXPECT_EQ(h.last(), 3.0);
}

TEST(Histogram, MoveLeavesAnEmptySourceAndClearKeepsCapacity) {
  Histogram a(4);
  a.record(2.0);
  Histogram b(std::move(a));
  EXPECT_EQ(b.size(), 1u);
  EXPECT_EQ(b.capacity(), 4u);
  EXPECT_EQ(a.capacity(), 0u);  // NOLINT(bugprone-use-after-move): the documented state
  EXPECT_EQ(a.size(), 0u);
  a.record(1.0);  // capacity 0: counted, not stored
  EXPECT_EQ(a.totalRecorded(), 1u);
  EXPECT_EQ(a.size(), 0u);
  EXPECT_EQ(a.stats().count, 0u);
  Histogram c;
  c = std::move(b);
  EXPECT_EQ(c.last(), 2.0);
  c.clear();
  EXPECT_EQ(c.size(), 0u);
  EXPECT_EQ(c.totalRecorded(), 0u);
  EXPECT_EQ(c.capacity(), 4u);
}

}  // namespace
}  // namespace laige
