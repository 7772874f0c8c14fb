// game_loop_rig.h - what the game-loop tests share: a settable clock, one
// tick at 60 Hz, a world driving a single system, and the allocation guard.
#pragma once

#include <cstdint>

#include "laige/alloc_watch.h"
#include "laige/fpx16_16.h"
#include "laige/system.h"
#include "laige/world.h"
#include "support/counting_allocator.h"

namespace laige::test {

constexpr std::int64_t kTick60 = 16'666'667;  // one tick at 60 Hz, rounded up

struct Clock {
  std::int64_t now = 5'000'000'000;
  static std::int64_t read(void* ctx) noexcept { return static_cast<Clock*>(ctx)->now; }
};

// Registers `run` as the world's one system (budget 100 ms) and schedules
// it into `schedule`: every rig here drives a single system.
inline bool scheduleOneSystem(World& world, SystemSchedule& schedule, const char* name, SystemFn run,
                       void* userData = nullptr) {
  SystemDef d;
  d.name = name;
  d.run = run;
  d.budgetMs = fpx16_16::fromInt32(100);
  d.userData = userData;
  return world.registerSystem(d).ok() && world.scheduleSystems(schedule).ok();
}

// Arms the no-allocation guard of a tick (debug builds) for a scope,
// disarmed however the test ends.
struct ArmedAllocationCounter {
  ArmedAllocationCounter() { setAllocationCounter(&allocationCount); }
  ~ArmedAllocationCounter() { setAllocationCounter(nullptr); }
  ArmedAllocationCounter(const ArmedAllocationCounter&) = delete;
  ArmedAllocationCounter& operator=(const ArmedAllocationCounter&) = delete;
};

}  // namespace laige::test
