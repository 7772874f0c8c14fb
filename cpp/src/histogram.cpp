// histogram.cpp - the rolling window's cold path: allocation at
// construction and the sorted (nearest-rank) queries.
#include "laige/histogram.h"

#include <algorithm>
#include <cmath>
#include <new>
#include <utility>

namespace laige {

Histogram::Histogram(std::uint32_t capacity) noexcept {
  if (capacity == 0) return;
  // nothrow: the core builds without exceptions; a failed allocation leaves
  // a capacity-0 histogram rather than a crash.
  samples_.reset(new (std::nothrow) double[capacity]);
  scratch_.reset(new (std::nothrow) double[capacity]);
  if (!samples_ || !scratch_) {
    samples_.reset();
    scratch_.reset();
    return;
  }
  capacity_ = capacity;
}

Histogram::Histogram(Histogram&& other) noexcept
    : samples_(std::move(other.samples_)),
      scratch_(std::move(other.scratch_)),
      capacity_(std::exchange(other.capacity_, 0)),
      head_(std::exchange(other.head_, 0)),
      size_(std::exchange(other.size_, 0)),
      total_(std::exchange(other.total_, 0)) {}

Histogram& Histogram::operator=(Histogram&& other) noexcept {
  if (this != &other) {
    samples_ = std::move(other.samples_);
    scratch_ = std::move(other.scratch_);
    capacity_ = std::exchange(other.capacity_, 0);
    head_ = std::exchange(other.head_, 0);
    size_ = std::exchange(other.size_, 0);
    total_ = std::exchange(other.total_, 0);
  }
  return *this;
}

double Histogram::sample(std::uint32_t i) const noexcept {
  if (i >= size_) return 0.0;
  // The oldest sample sits at head_ once the window is full, at 0 before.
  const std::uint32_t oldest = size_ == capacity_ ? head_ : 0;
  std::uint32_t at = oldest + i;
  if (at >= capacity_) at -= capacity_;
  return samples_[at];
}

std::uint32_t Histogram::sortedInto() const noexcept {
  double* out = scratch_.get();
  for (std::uint32_t i = 0; i < size_; ++i) out[i] = sample(i);
  // std::sort does not allocate; equal doubles are indistinguishable, so the
  // unspecified order of equal elements cannot show.
  std::sort(out, out + size_);
  return size_;
}

double Histogram::rankOf(const double* sorted, std::uint32_t n, double p) noexcept {
  // p * n is exact for integral p and any realistic n, so the division by
  // 100 is the only rounding: ceil(99 * 64 / 100.0) = 64, ceil(50 * 64 / 100.0) = 32.
  const double r = std::ceil(p * static_cast<double>(n) / 100.0);
  std::uint32_t rank = 1;
  if (r >= static_cast<double>(n)) {
    rank = n;
  } else if (r > 1.0) {
    rank = static_cast<std::uint32_t>(r);
  }
  return sorted[rank - 1];
}

double Histogram::percentile(double p) const noexcept {
  if (size_ == 0) return 0.0;
  if (p != p) p = 0.0;  // NaN: treat as the minimum rather than index garbage
  const std::uint32_t n = sortedInto();
  return rankOf(scratch_.get(), n, p);
}

HistogramStats Histogram::stats() const noexcept {
  HistogramStats st;
  st.totalRecorded = total_;
  if (size_ == 0) return st;
  double sum = 0.0;
  for (std::uint32_t i = 0; i < size_; ++i) sum += sample(i);
  const std::uint32_t n = sortedInto();
  const double* s = scratch_.get();
  st.count = n;
  st.min = s[0];
  st.max = s[n - 1];
  st.mean = sum / static_cast<double>(n);
  st.p50 = rankOf(s, n, 50.0);
  st.p95 = rankOf(s, n, 95.0);
  st.p99 = rankOf(s, n, 99.0);
  return st;
}

}  // namespace laige
