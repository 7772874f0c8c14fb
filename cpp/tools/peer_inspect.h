// peer_inspect.h - laige-peer's side of the live inspector
// (docs/inspector.md#native): the `inspect <request>` verb answers with the
// core's inspector (laige/inspect.h) about the peer's run, and keeps a
// history of it so that `seek` can show an earlier tick: a keyframe
// snapshot every kKeyframeEvery ticks (the latest kKeyframes of them) and
// every tick's input payload; a seek restores the keyframe at or before
// the tick into a second run of the same scenario and re-runs the ticks
// after it. Read-only: the protocol has no write request, so an inspector
// can never change the run it looks at.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "scenario.h"

namespace laige::peer {

class PeerInspector {
 public:
  /// Ticks between keyframes, and keyframes kept (the history's depth:
  /// kKeyframeEvery x kKeyframes ticks).
  static constexpr std::uint64_t kKeyframeEvery = 60;
  static constexpr std::size_t kKeyframes = 32;
  /// Payloads kept: every tick from the oldest keyframe on.
  static constexpr std::size_t kPayloads = kKeyframeEvery * (kKeyframes + 1);

  /// Forgets the history and starts a new one at `run`'s current tick.
  /// Allocates the payload ring (about 0.5 MB) once per peer.
  void reset(ScenarioRun& run);
  /// Records the tick `run` just ran with `payload` (generated: the
  /// scenario's own input). Every kKeyframeEvery ticks takes a snapshot
  /// (into a kept buffer: it allocates only while the buffers grow);
  /// between keyframes it copies the payload and allocates nothing.
  void record(ScenarioRun& run, bool generated, const std::vector<std::uint8_t>& payload);
  /// Appends `inspect <answer>\n` for `request` about `run`, or about the
  /// earlier tick a seek shows (nullptr run: no scenario open, the
  /// peer_no_scenario error).
  void answer(ScenarioRun* run, std::string_view request, std::string& out);

 private:
  struct Keyframe {
    std::uint64_t tick = 0;
    std::vector<std::uint8_t> bytes;
  };
  struct Payload {
    bool generated = true;
    std::uint16_t size = 0;
    std::uint8_t bytes[kMaxScenarioInputBytes] = {};
  };
  void keyframe(ScenarioRun& run);
  [[nodiscard]] const Keyframe& oldest() const noexcept { return keyframes_[(next_ + kKeyframes - count_) % kKeyframes]; }
  static World* seekThunk(void* self, std::uint64_t tick) noexcept;
  World* seek(std::uint64_t tick) noexcept;

  ScenarioRun* live_ = nullptr;
  // A ring of kKeyframes: count_ taken, the next one goes to next_.
  std::vector<Keyframe> keyframes_;
  std::size_t count_ = 0;
  std::size_t next_ = 0;
  // The payload of tick t is payloads_[t % kPayloads].
  std::vector<Payload> payloads_;
  std::optional<ScenarioRun> scratch_;
  // True while a seek shows an earlier tick (the scratch run's): every
  // request answers about it until a seek to the live tick.
  bool viewing_ = false;
  std::string answer_;
};

}  // namespace laige::peer
