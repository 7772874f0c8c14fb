// laige/histogram.h - a fixed-capacity rolling window of samples with
// nearest-rank percentiles (the timing histogram, docs/system_timing.md).
//
// The window is the timing feed of every system (World::systemTimingWindow)
// and of the profiler: record() sits on the per-tick hot path, so it is O(1)
// and never allocates; the capacity (and a sorting scratch buffer of the same
// size) is allocated once, at construction. stats() is the cold path: it
// copies the window into the scratch buffer and sorts it, O(n log n), still
// without allocating. Recording past the capacity drops the oldest sample;
// totalRecorded() keeps counting every sample ever recorded, so the
// truncation is observable. `docs/system_timing.md#the-rolling-window`.
#pragma once

#include <cstdint>
#include <memory>

namespace laige {

/// A summary of a Histogram's current window (all zero when it is empty).
struct HistogramStats {
  /// Samples in the window (<= capacity).
  std::uint32_t count = 0;
  /// Every sample ever recorded, including the ones that rolled out.
  std::uint64_t totalRecorded = 0;
  /// The smallest sample in the window.
  double min = 0.0;
  /// The largest sample in the window.
  double max = 0.0;
  /// The arithmetic mean of the window (summed oldest to newest).
  double mean = 0.0;
  /// Nearest-rank 50th percentile (the median by the nearest-rank rule).
  double p50 = 0.0;
  /// Nearest-rank 95th percentile.
  double p95 = 0.0;
  /// Nearest-rank 99th percentile.
  double p99 = 0.0;
};

/// A rolling window over the last `capacity` samples. Move-only; one owner
/// thread (stats() reuses an internal scratch buffer, so even the const
/// queries must not run concurrently with each other or with record()).
class Histogram {
 public:
  /// An empty histogram of capacity 0: record() only counts totalRecorded().
  Histogram() noexcept = default;
  /// Allocates the window and its sorting scratch (the only allocation this
  /// type ever makes). If the allocation fails the histogram has capacity 0
  /// instead: the engine never throws (docs/errors.md).
  explicit Histogram(std::uint32_t capacity) noexcept;
  /// O(1) move; the source becomes an empty histogram of capacity 0.
  Histogram(Histogram&& other) noexcept;
  /// O(1) move; the source becomes an empty histogram of capacity 0.
  Histogram& operator=(Histogram&& other) noexcept;
  Histogram(const Histogram&) = delete;
  Histogram& operator=(const Histogram&) = delete;
  ~Histogram() = default;

  /// Appends `value`, dropping the oldest sample when the window is full.
  /// O(1), no allocation. A NaN is ignored (not stored, not counted): a NaN
  /// has no rank, and a window with one could not be sorted.
  void record(double value) noexcept {
    if (value != value) return;
    ++total_;
    if (capacity_ == 0) return;
    samples_[head_] = value;
    head_ = head_ + 1 == capacity_ ? 0 : head_ + 1;
    if (size_ < capacity_) ++size_;
  }

  /// The fixed number of samples the window holds.
  [[nodiscard]] std::uint32_t capacity() const noexcept { return capacity_; }
  /// Samples in the window now (min(totalRecorded(), capacity())).
  [[nodiscard]] std::uint32_t size() const noexcept { return size_; }
  /// True when the window holds no sample.
  [[nodiscard]] bool empty() const noexcept { return size_ == 0; }
  /// Every sample ever recorded since construction or clear().
  [[nodiscard]] std::uint64_t totalRecorded() const noexcept { return total_; }
  /// The i-th sample of the window, oldest first (i < size(); 0.0 otherwise).
  [[nodiscard]] double sample(std::uint32_t i) const noexcept;
  /// The most recent sample (0.0 when empty).
  [[nodiscard]] double last() const noexcept {
    if (size_ == 0) return 0.0;
    return samples_[head_ == 0 ? capacity_ - 1 : head_ - 1];
  }

  /// The nearest-rank percentile `p` (in percent) of the window: the sample
  /// at 1-based rank ceil(p / 100 * n) of the ascending order, with the rank
  /// clamped to [1, n] (so p <= 0 gives the minimum and p >= 100 the
  /// maximum). 0.0 for an empty window. Cold path: O(n log n), no allocation.
  [[nodiscard]] double percentile(double p) const noexcept;
  /// count, totalRecorded, min, max, mean, p50, p95, p99 in one sort.
  /// Cold path: O(n log n), no allocation.
  [[nodiscard]] HistogramStats stats() const noexcept;
  /// Empties the window and resets totalRecorded() to 0 (capacity is kept).
  void clear() noexcept {
    head_ = 0;
    size_ = 0;
    total_ = 0;
  }

 private:
  // Copies the window into scratch_ and sorts it ascending; returns size_.
  std::uint32_t sortedInto() const noexcept;
  static double rankOf(const double* sorted, std::uint32_t n, double p) noexcept;

  std::unique_ptr<double[]> samples_;
  std::unique_ptr<double[]> scratch_;  // mutable content: stats() sorts here
  std::uint32_t capacity_ = 0;
  std::uint32_t head_ = 0;  // the next write position
  std::uint32_t size_ = 0;
  std::uint64_t total_ = 0;
};

}  // namespace laige
