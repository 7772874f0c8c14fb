// peer_inspect.cpp - laige-peer's inspector history (peer_inspect.h).
#include "peer_inspect.h"

#include <algorithm>
#include <cstring>

#include "laige/inspect.h"
#include "peer_text.h"

namespace laige::peer {

void PeerInspector::keyframe(ScenarioRun& run) {
  Keyframe& k = keyframes_[next_];
  k.bytes.resize(run.world().snapshotSize());
  if (!run.world().snapshot(k.bytes).ok()) return;
  k.tick = run.tick();
  next_ = (next_ + 1) % kKeyframes;
  if (count_ < kKeyframes) ++count_;
}

void PeerInspector::reset(ScenarioRun& run) {
  live_ = &run;
  viewing_ = false;
  keyframes_.resize(kKeyframes);
  payloads_.resize(kPayloads);
  count_ = 0;
  next_ = 0;
  scratch_.reset();
  keyframe(run);
}

void PeerInspector::record(ScenarioRun& run, bool generated, const std::vector<std::uint8_t>& payload) {
  if (live_ != &run) reset(run);
  Payload& p = payloads_[run.tick() % kPayloads];
  p.generated = generated;
  p.size = static_cast<std::uint16_t>(generated ? 0 : std::min<std::size_t>(payload.size(), kMaxScenarioInputBytes));
  if (p.size != 0) std::memcpy(p.bytes, payload.data(), p.size);
  if (run.tick() % kKeyframeEvery == 0) keyframe(run);
}

World* PeerInspector::seekThunk(void* self, std::uint64_t tick) noexcept {
  return static_cast<PeerInspector*>(self)->seek(tick);
}

World* PeerInspector::seek(std::uint64_t tick) noexcept {
  if (live_ == nullptr || count_ == 0) return nullptr;
  viewing_ = false;
  if (tick == live_->tick()) return &live_->world();
  const Keyframe* from = nullptr;
  for (std::size_t i = 0; i < count_; ++i) {
    const Keyframe& k = keyframes_[(next_ + kKeyframes - count_ + i) % kKeyframes];
    if (k.tick <= tick) from = &k;
  }
  if (from == nullptr) return nullptr;
  if (!scratch_) {
    Result<ScenarioRun> r = ScenarioRun::create(live_->scenario(), live_->seed());
    if (r.isError()) return nullptr;
    scratch_.emplace(std::move(r).takeValue());
  }
  // The scratch run already at or before `tick` on the same history steps on.
  if (!(scratch_->tick() >= from->tick && scratch_->tick() <= tick)) {
    if (!scratch_->world().restore(from->bytes).ok()) return nullptr;
  }
  while (scratch_->tick() < tick) {
    const std::uint64_t t = scratch_->tick() + 1;
    const Payload& p = payloads_[t % kPayloads];
    TickInput input;
    if (p.generated) {
      input = scratch_->generatedInput(t);
    } else {
      input.data = p.bytes;
      input.size = p.size;
    }
    if (!scratch_->step(input).ok()) return nullptr;
  }
  viewing_ = true;
  return &scratch_->world();
}

void PeerInspector::answer(ScenarioRun* run, std::string_view request, std::string& out) {
  if (run == nullptr) {
    refuse(out, "peer_no_scenario");
    return;
  }
  if (live_ != run) reset(*run);
  // The words after `inspect ` are the request (the separator is not part of it).
  while (!request.empty() && request.front() == ' ') request.remove_prefix(1);
  InspectHistory h;
  h.kept = count_ != 0;
  h.firstTick = h.kept ? oldest().tick : run->tick();
  h.lastTick = run->tick();
  h.seek = &PeerInspector::seekThunk;
  h.context = this;
  World& shown = viewing_ && scratch_ ? scratch_->world() : run->world();
  (void)answerInspect(shown, request, h, answer_);
  out += "inspect ";
  out += answer_;
  out += '\n';
}

}  // namespace laige::peer
