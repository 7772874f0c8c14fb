// alloc_watch.cpp - the process-wide allocation-counter slot (the no-allocation guard of a tick).
#include "laige/alloc_watch.h"

#include <atomic>

namespace laige {

namespace {
// Atomic so that a tool may register the counter from another thread than
// the one running the loop without a data race; relaxed is enough because
// the counter function itself is stateless from our side.
std::atomic<AllocationCounterFn> gCounter{nullptr};
}  // namespace

void setAllocationCounter(AllocationCounterFn counter) noexcept {
  gCounter.store(counter, std::memory_order_relaxed);
}

AllocationCounterFn allocationCounter() noexcept { return gCounter.load(std::memory_order_relaxed); }

}  // namespace laige
