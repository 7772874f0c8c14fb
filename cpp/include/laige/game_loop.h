// laige/game_loop.h - the fixed-tick game loop (docs/game_loop.md).
//
// A GameLoop turns wall-clock frames into a whole number of fixed simulation
// ticks. All simulation time is integer ticks: the loop keeps no fractional
// remainder, it recomputes from the start reference how many ticks are due
// (`floor(elapsed * rate / 10^9)`, in integers, overflow-free) and runs the
// difference, capped at maxCatchUpTicks per frame; the excess is dropped
// (counted and warned), never deferred, so an overloaded machine degrades
// into a slower simulation instead of a spiral of ever longer frames.
//
// Per frame the loop calls World::beginFrame() exactly once, before the
// frame's ticks, also for a frame that runs no tick (docs/game_loop.md:
// the entity-budget and churn windows are per presentation frame, whether or not the
// simulation advanced). Per tick it asks the optional tickInput provider for
// the tick's input payload, calls World::runSystems(schedule, input), then
// the optional onTick hook (the after-tick observer). Both hooks are plain
// function pointers with a context pointer: no std::function, no
// allocation. Either may end the frame early by returning an error Status
// (a JavaScript callback that threw, in the wasm bindings).
// docs/game_loop.md.
#pragma once

#include <cstdint>

#include "laige/result.h"

namespace laige {

class World;
struct SystemSchedule;
struct TickInput;

/// The slowest fixed tick rate a loop accepts (Hz).
inline constexpr std::uint32_t kMinTickRateHz = 20;
/// The default fixed tick rate (Hz).
inline constexpr std::uint32_t kDefaultTickRateHz = 60;
/// The fastest fixed tick rate a loop accepts (Hz).
inline constexpr std::uint32_t kMaxTickRateHz = 120;
/// The default cap on ticks run by one frame.
inline constexpr std::uint32_t kDefaultMaxCatchUpTicks = 5;

/// The loop's counters since creation.
struct GameLoopStats {
  /// frame()/frameAt()/step() calls that were accepted, the first one included.
  std::uint64_t frames = 0;
  /// Completed ticks (== GameLoop::currentTick()).
  std::uint64_t ticks = 0;
  /// Ticks that were due but dropped by the catch-up cap.
  std::uint64_t droppedTicks = 0;
  /// Frames that dropped at least one tick.
  std::uint64_t droppedFrames = 0;
};

/// Drives a World's schedule at a fixed tick rate. Move-only; holds
/// non-owning views of the world and the schedule (both must outlive it and
/// stay at their addresses). A moved-from loop is stopped: frame() returns
/// InvalidArgument without logging. One owner thread (the world's).
class GameLoop {
 public:
  /// A monotonic clock in nanoseconds; `ctx` is Options::clockContext.
  using ClockFn = std::int64_t (*)(void* ctx) noexcept;
  /// The after-tick observer: called after every completed tick with the
  /// 1-based tick number (== currentTick()). Ok continues the frame; an
  /// error Status ends it after this tick (the tick stays counted; the
  /// frame's remaining ticks are not run and frameAt()/step() return that
  /// Status; frameAt's stay due, so a later frame runs them within the cap).
  using TickFn = Status (*)(void* ctx, World& world, std::uint64_t tick) noexcept;
  /// The per-tick input provider: called once before each tick's
  /// runSystems with the 1-based number of the tick about to run
  /// (currentTick() + 1); writes that tick's payload into `input` (it
  /// arrives empty) - what SystemContext::input/inputSize show every system
  /// of the tick. The bytes must stay valid until the tick's runSystems has
  /// returned. An error Status skips the tick: it is not run and not
  /// counted, the frame ends, and frameAt()/step() return that Status
  /// (frameAt's tick stays due, like a failed runSystems).
  using TickInputFn = Status (*)(void* ctx, std::uint64_t tick, TickInput& input) noexcept;

  /// How a loop runs.
  struct Options {
    /// Fixed ticks per second, kMinTickRateHz..kMaxTickRateHz.
    std::uint32_t tickRateHz = kDefaultTickRateHz;
    /// The most ticks one frame runs (>= 1); due ticks above it are dropped.
    std::uint32_t maxCatchUpTicks = kDefaultMaxCatchUpTicks;
    /// The clock frame() reads; nullptr = std::chrono::steady_clock.
    ClockFn nowNs = nullptr;
    /// Passed to nowNs.
    void* clockContext = nullptr;
    /// The after-tick observer (nullptr = none): see TickFn. It runs inside
    /// the tick, so it is covered by the no-allocation check.
    TickFn onTick = nullptr;
    /// Passed to onTick.
    void* onTickContext = nullptr;
    /// The per-tick input provider (nullptr = every tick runs with an empty
    /// payload, i.e. runSystems(schedule)): see TickInputFn. Covered by the
    /// no-allocation check like the rest of the tick.
    TickInputFn tickInput = nullptr;
    /// Passed to tickInput.
    void* tickInputContext = nullptr;
  };

  /// Validates `options` and builds a loop over `world` and `schedule`.
  /// Errors (InvalidArgument + a rate-limited warn, subsystem `loop`):
  /// tickRateHz outside 20..120 -> `tick_rate_invalid` (field tick_rate_hz);
  /// maxCatchUpTicks == 0 -> `catchup_invalid` (field max_catch_up).
  [[nodiscard]] static Result<GameLoop> create(World& world, const SystemSchedule& schedule,
                                               const Options& options) noexcept;

  /// A stopped loop (what a moved-from loop is).
  GameLoop() noexcept = default;
  /// Moves the loop; the source becomes stopped.
  GameLoop(GameLoop&& other) noexcept;
  /// Moves the loop; the source becomes stopped.
  GameLoop& operator=(GameLoop&& other) noexcept;
  GameLoop(const GameLoop&) = delete;
  GameLoop& operator=(const GameLoop&) = delete;
  ~GameLoop() = default;

  /// One presentation frame at the configured clock's current time: see
  /// frameAt(). A stopped loop returns InvalidArgument without logging.
  Status frame() noexcept;
  /// One presentation frame at time `nowNs` (the browser passes
  /// requestAnimationFrame's timestamp converted to ns). Calls
  /// World::beginFrame() once, then: the first frame records `nowNs` as the
  /// start reference and runs no tick; a later frame runs the ticks due
  /// since the start (at most maxCatchUpTicks; the rest are dropped with a
  /// rate-limited `loop/tick_dropped` warn). A time before the start
  /// reference is misuse (debug assert) and otherwise counts as the start.
  /// Returns the first failing tickInput / runSystems / onTick Status (see
  /// TickInputFn and TickFn for which tick counts); the frame's remaining
  /// ticks are not run and stay due. Rejected before anything changes (no
  /// beginFrame, no frame counted): a stopped loop (InvalidArgument), a call
  /// from the loop's own tickInput/onTick hook, from a system or from a live
  /// each of its world (InvalidArgument, reason `tick_inside_callback`,
  /// field `callback` = `loop_hook` / `system` / `each`).
  Status frameAt(std::int64_t nowNs) noexcept;
  /// Runs exactly `n` ticks as one frame, without the clock and the cap
  /// (tests and tools): beginFrame() once, then n ticks. It does not touch
  /// the clock accounting, so frame() later still runs the ticks the clock
  /// says are due. Returns the first failing tickInput / runSystems /
  /// onTick Status; the remaining of the n ticks are not run. Rejected
  /// before anything changes exactly as frameAt().
  Status step(std::uint64_t n) noexcept;

  /// Completed ticks since creation (the last onTick's tick number).
  [[nodiscard]] std::uint64_t currentTick() const noexcept { return stats_.ticks; }
  /// The counters since creation.
  [[nodiscard]] GameLoopStats stats() const noexcept { return stats_; }
  /// The clock reading of the first frame (0 before it).
  [[nodiscard]] std::int64_t startReferenceNs() const noexcept { return startNs_; }
  /// The fixed tick rate (0 for a stopped loop).
  [[nodiscard]] std::uint32_t tickRateHz() const noexcept { return options_.tickRateHz; }
  /// The per-frame catch-up cap (0 for a stopped loop).
  [[nodiscard]] std::uint32_t maxCatchUpTicks() const noexcept { return options_.maxCatchUpTicks; }
  /// False for a stopped (default-constructed or moved-from) loop.
  [[nodiscard]] bool isRunning() const noexcept { return world_ != nullptr; }

 private:
  GameLoop(World& world, const SystemSchedule& schedule, const Options& options) noexcept;
  // One tick: input, runSystems, count, hook, and the no-allocation check around all of it.
  Status runTick() noexcept;
  void reset() noexcept;

  World* world_ = nullptr;
  const SystemSchedule* schedule_ = nullptr;
  Options options_{0, 0, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr};
  GameLoopStats stats_;
  std::int64_t startNs_ = 0;
  bool started_ = false;
  // Ticks consumed from the clock: completed by frame() plus dropped. step()
  // ticks are not part of it, so the clock's count stays a pure function of
  // (clock readings, rate, cap).
  std::uint64_t clockTicks_ = 0;
  // True while frameAt/step runs: a frame or step called from the loop's
  // own hooks is rejected (tick_inside_callback) before it changes anything.
  bool inFrame_ = false;
  // The checks a frame makes before its first side effect.
  Status admitFrame() const noexcept;
};

}  // namespace laige
