// game_loop.cpp - the integer tick accumulator, the catch-up cap and
// the no-allocation guard around every tick.
#include "laige/game_loop.h"

#include <utility>

#include "laige/alloc_watch.h"
#include "laige/assert.h"
#include "laige/logging.h"
#include "laige/system.h"
#include "laige/system_timing.h"
#include "laige/world.h"
#include "logging/log_texts.h"

namespace laige {

namespace {

constexpr std::uint64_t kNsPerSecond = 1'000'000'000ULL;

}  // namespace

GameLoop::GameLoop(World& world, const SystemSchedule& schedule, const Options& options) noexcept
    : world_(&world), schedule_(&schedule), options_(options) {
  if (options_.nowNs == nullptr) options_.nowNs = &steadyClockNs;
}

GameLoop::GameLoop(GameLoop&& other) noexcept
    : world_(other.world_),
      schedule_(other.schedule_),
      options_(other.options_),
      stats_(other.stats_),
      startNs_(other.startNs_),
      started_(other.started_),
      clockTicks_(other.clockTicks_) {
  other.reset();
}

GameLoop& GameLoop::operator=(GameLoop&& other) noexcept {
  if (this != &other) {
    world_ = other.world_;
    schedule_ = other.schedule_;
    options_ = other.options_;
    stats_ = other.stats_;
    startNs_ = other.startNs_;
    started_ = other.started_;
    clockTicks_ = other.clockTicks_;
    other.reset();
  }
  return *this;
}

void GameLoop::reset() noexcept {
  world_ = nullptr;
  schedule_ = nullptr;
  options_ = Options{0, 0, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr};
  stats_ = GameLoopStats{};
  startNs_ = 0;
  started_ = false;
  clockTicks_ = 0;
}

Result<GameLoop> GameLoop::create(World& world, const SystemSchedule& schedule,
                                  const Options& options) noexcept {
  if (options.tickRateHz < kMinTickRateHz || options.tickRateHz > kMaxTickRateHz) {
    LAIGE_LOG_WARN("loop", "tick_rate_invalid", log::texts::TickRateInvalid,
                   log::field("tick_rate_hz", options.tickRateHz));
    return Status::failure(ErrorCode::InvalidArgument, "tick_rate_invalid")
        .with("tick_rate_hz", options.tickRateHz)
        .with("min_hz", kMinTickRateHz)
        .with("max_hz", kMaxTickRateHz);
  }
  if (options.maxCatchUpTicks == 0) {
    LAIGE_LOG_WARN("loop", "catchup_invalid", log::texts::CatchupInvalid,
                   log::field("max_catch_up", options.maxCatchUpTicks));
    return Status::failure(ErrorCode::InvalidArgument, "catchup_invalid")
        .with("max_catch_up", options.maxCatchUpTicks);
  }
  return GameLoop(world, schedule, options);
}

Status GameLoop::admitFrame() const noexcept {
  if (world_ == nullptr) return Status::failure(ErrorCode::InvalidArgument, "loop_moved_from");
  if (inFrame_) {
    return Status::failure(ErrorCode::InvalidArgument, "tick_inside_callback").with("callback", "loop_hook");
  }
  return world_->tickAllowed();
}

namespace {
// Marks the loop as inside a frame for the frame's whole duration.
struct FrameScope {
  bool& flag;
  explicit FrameScope(bool& f) noexcept : flag(f) { flag = true; }
  ~FrameScope() { flag = false; }
  FrameScope(const FrameScope&) = delete;
  FrameScope& operator=(const FrameScope&) = delete;
};
}  // namespace

Status GameLoop::frame() noexcept {
  if (Status st = admitFrame(); st.isError()) return st;
  return frameAt(options_.nowNs(options_.clockContext));
}

Status GameLoop::frameAt(std::int64_t nowNs) noexcept {
  if (Status st = admitFrame(); st.isError()) return st;
  const FrameScope scope(inFrame_);
  // Once per frame, before its ticks, whether or not any run
  // (docs/game_loop.md#frames-and-beginframe).
  world_->beginFrame();
  ++stats_.frames;
  if (!started_) {
    started_ = true;
    startNs_ = nowNs;
    return Status{};
  }
  if (nowNs < startNs_) {
    LAIGE_MISUSE("GameLoop::frameAt: the clock reads earlier than the first frame");
    nowNs = startNs_;  // release: the frame contributes no time
  }
  // Unsigned difference: nowNs - startNs_ may not fit an int64.
  const std::uint64_t elapsed = static_cast<std::uint64_t>(nowNs) - static_cast<std::uint64_t>(startNs_);
  const std::uint64_t rate = options_.tickRateHz;
  // floor(elapsed * rate / 10^9) without the 128-bit product.
  const std::uint64_t due =
      (elapsed / kNsPerSecond) * rate + ((elapsed % kNsPerSecond) * rate) / kNsPerSecond;
  if (due <= clockTicks_) return Status{};
  const std::uint64_t want = due - clockTicks_;
  const std::uint64_t cap = options_.maxCatchUpTicks;
  const std::uint64_t run = want < cap ? want : cap;
  if (want > cap) {
    // Dropped ticks are consumed, not deferred: the next frame owes nothing.
    const std::uint64_t dropped = want - cap;
    clockTicks_ += dropped;
    stats_.droppedTicks += dropped;
    ++stats_.droppedFrames;
    LAIGE_LOG_WARN("loop", "tick_dropped", log::texts::TickDropped, log::field("dropped", dropped),
                   log::field("total_dropped", stats_.droppedTicks),
                   log::field("max_catch_up", options_.maxCatchUpTicks),
                   log::field("tick_rate_hz", options_.tickRateHz));
  }
  for (std::uint64_t i = 0; i < run; ++i) {
    const std::uint64_t done = stats_.ticks;
    const Status st = runTick();
    // A tick that completed is consumed from the clock even when its onTick
    // hook ended the frame; a skipped or failed one stays due.
    if (stats_.ticks != done) ++clockTicks_;
    if (st.isError()) return st;
  }
  return Status{};
}

Status GameLoop::step(std::uint64_t n) noexcept {
  if (Status st = admitFrame(); st.isError()) return st;
  const FrameScope scope(inFrame_);
  world_->beginFrame();
  ++stats_.frames;
  for (std::uint64_t i = 0; i < n; ++i) {
    const Status st = runTick();
    if (st.isError()) return st;
  }
  return Status{};
}

Status GameLoop::runTick() noexcept {
#if LAIGE_DEBUG_ASSERTS
  // No allocation in a tick: the watch covers the whole tick body, both hooks included.
  const AllocationCounterFn counter = allocationCounter();
  const std::uint64_t before = counter != nullptr ? counter() : 0;
#endif
  TickInput input;
  if (options_.tickInput != nullptr) {
    const Status st = options_.tickInput(options_.tickInputContext, stats_.ticks + 1, input);
    if (st.isError()) return st;  // the tick is skipped: not run, not counted
  }
#if LAIGE_DEBUG_ASSERTS
  const std::uint64_t afterInput = counter != nullptr ? counter() : 0;
#endif
  const Status st = world_->runSystems(*schedule_, input);
  if (st.isError()) return st;  // not counted, no hook
#if LAIGE_DEBUG_ASSERTS
  const std::uint64_t afterSystems = counter != nullptr ? counter() : 0;
#endif
  ++stats_.ticks;
  Status hook;
  if (options_.onTick != nullptr) hook = options_.onTick(options_.onTickContext, *world_, stats_.ticks);
#if LAIGE_DEBUG_ASSERTS
  if (counter != nullptr) {
    const std::uint64_t after = counter();
    if (after != before) {
      const char* site = afterInput != before ? "tick_input" : afterSystems != afterInput ? "run_systems" : "on_tick";
      LAIGE_LOG_ERROR("alloc", "sim_tick_allocation", log::texts::SimTickAllocation,
                      log::field("tick", stats_.ticks), log::field("allocs", after - before),
                      log::field("site", site));
      LAIGE_MISUSE("a simulation tick allocated (alloc/sim_tick_allocation)");
    }
  }
#endif
  return hook;
}

}  // namespace laige
