// counting_allocator.h - the test allocator hook: "allocates nothing" is
// asserted, not assumed.
//
// The test binary replaces the global operator new/delete (counting_allocator.cpp)
// so that every heap allocation made through C++ new is counted. A test
// opens a window with AllocationWindow and asserts its count is zero.
#pragma once

#include <cstdint>

namespace laige::test {

/// Allocations (operator new calls) since process start, all threads.
std::uint64_t allocationCount() noexcept;
/// Deallocations (operator delete calls of non-null pointers) since process start.
std::uint64_t deallocationCount() noexcept;

/// Counts the allocations made between its construction and allocations().
class AllocationWindow {
 public:
  AllocationWindow() noexcept : start_(allocationCount()) {}
  /// Allocations since construction.
  [[nodiscard]] std::uint64_t allocations() const noexcept { return allocationCount() - start_; }

 private:
  std::uint64_t start_;
};

}  // namespace laige::test
