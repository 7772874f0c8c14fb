// rollback_reentry_test.cpp - a RollbackSession cannot be re-entered from
// anything advance() runs (docs/rollback.md#re-entrancy): from each hook
// (combine, afterTick, onRestore, onConfirmed) and from a system of the
// tick, advance() is `tick_inside_callback` and setLocalInput /
// addRemoteInput are `input_inside_advance`, and the session ends exactly
// like a twin that never made the call (state hash, ticks, counters,
// confirmed hashes, the order of the confirmations).
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "laige/rollback.h"
#include "laige/system.h"
#include "laige/world.h"

namespace laige {
namespace {

struct ReCounter {
  std::int32_t v;
};
LAIGE_COMPONENT(ReCounter, v);

enum class Hook { Combine, AfterTick, OnRestore, OnConfirmed, System };
enum class Call { Advance, SetLocalInput, AddRemoteInput };

const char* hookName(Hook h) {
  switch (h) {
    case Hook::Combine: return "combine";
    case Hook::AfterTick: return "afterTick";
    case Hook::OnRestore: return "onRestore";
    case Hook::OnConfirmed: return "onConfirmed";
    case Hook::System: return "system";
  }
  return "?";
}

// A world with one C++ system that adds the tick and the tick's input bytes
// to a counter, and a 2-player session over it whose hooks may re-enter it.
struct Rig {
  World world;
  SystemSchedule schedule;
  RollbackSession session;
  bool armed = false;     // re-enter from `hook` (only during the last advance)
  Hook hook = Hook::Combine;
  Call call = Call::Advance;
  std::vector<std::string> refusals;  // "reason/callback" of every re-entry
  std::vector<std::uint64_t> confirmed;

  void reenter(Hook where) {
    if (!armed || where != hook) return;
    const std::uint8_t b[] = {9};
    const std::uint64_t t = session.currentTick() + 3;
    Status st;
    switch (call) {
      case Call::Advance: st = session.advance(); break;
      case Call::SetLocalInput: st = session.setLocalInput(t, b); break;
      case Call::AddRemoteInput: st = session.addRemoteInput(1, t, b); break;
    }
    const char* field = st.fieldValue("callback");  // "" when the failure has no such field
    refusals.push_back(std::string(st.ok() ? "ok" : st.reason()) + "/" + (field != nullptr && *field != '\0' ? field : "-"));
  }
};

Rig* gSystemRig = nullptr;

void sumSystem(World& w, SystemContext& ctx) {
  if (gSystemRig != nullptr) gSystemRig->reenter(Hook::System);
  std::int32_t add = static_cast<std::int32_t>(ctx.tick);
  for (std::uint32_t i = 0; i < ctx.inputSize; ++i) add += ctx.input[i];
  (void)w.each<ReCounter>([&](Entity, ReCounter& c) { c.v += add; }, Write{});
}

Status combine(void* ctx, std::uint64_t tick, const RollbackTickInputs& in, std::span<std::uint8_t> out,
               std::uint32_t& written) noexcept {
  static_cast<Rig*>(ctx)->reenter(Hook::Combine);
  return RollbackSession::combineConcatenated(nullptr, tick, in, out, written);
}
Status afterTick(void* ctx, World&, std::uint64_t) noexcept {
  static_cast<Rig*>(ctx)->reenter(Hook::AfterTick);
  return Status{};
}
void onRestore(void* ctx, World&) noexcept { static_cast<Rig*>(ctx)->reenter(Hook::OnRestore); }
void onConfirmed(void* ctx, std::uint64_t tick, std::uint64_t) noexcept {
  auto* r = static_cast<Rig*>(ctx);
  r->confirmed.push_back(tick);
  r->reenter(Hook::OnConfirmed);
}

void build(Rig& r) {
  World::Options wo;
  wo.capacity = 8;
  wo.seed = 11;
  r.world = World::create(wo).takeValue();
  ASSERT_TRUE(r.world.registerComponent<ReCounter>().ok());
  const SystemDef def{"Sum", &sumSystem, fpx16_16::fromDouble(1000.0), nullptr, nullptr};
  ASSERT_TRUE(r.world.registerSystem(def, Io<ReCounter, Write>{}).ok());
  ASSERT_TRUE(r.world.scheduleSystems(r.schedule).ok());
  const Entity e = r.world.create().value();
  ASSERT_TRUE(r.world.addComponent(e, ReCounter{0}).ok());
  RollbackSession::Options o;
  o.players = 2;
  o.depth = 6;
  o.maxInputBytes = 2;
  o.combine = &combine;
  o.combineContext = &r;
  o.afterTick = &afterTick;
  o.afterTickContext = &r;
  o.onRestore = &onRestore;
  o.onRestoreContext = &r;
  o.onConfirmed = &onConfirmed;
  o.onConfirmedContext = &r;
  auto s = RollbackSession::create(r.world, r.schedule, o);
  ASSERT_TRUE(s.ok()) << s.status().reason();
  r.session = std::move(s).takeValue();
}

// Ticks 1..6 with the remote input two ticks late; then tick 7 after the
// remote inputs of 5 and 6, where 5 differs from its prediction: a rolling
// advance (a restore, two re-run ticks, the new one) that confirms 5 and 6.
void drive(Rig& r, bool armLast) {
  for (std::uint64_t t = 1; t <= 7; ++t) {
    const std::uint8_t local[] = {static_cast<std::uint8_t>(t)};
    ASSERT_TRUE(r.session.setLocalInput(t, local).ok());
    const std::uint8_t late[] = {1};
    const std::uint8_t miss[] = {2};
    if (t > 2 && t <= 6) {
      ASSERT_TRUE(r.session.addRemoteInput(1, t - 2, late).ok());
    }
    if (t == 7) {
      ASSERT_TRUE(r.session.addRemoteInput(1, 5, miss).ok());
      ASSERT_TRUE(r.session.addRemoteInput(1, 6, miss).ok());
    }
    r.armed = armLast && t == 7;
    gSystemRig = &r;
    const Status st = r.session.advance();
    gSystemRig = nullptr;
    r.armed = false;
    ASSERT_TRUE(st.ok()) << st.reason();
  }
}

struct Seen {
  std::uint64_t hash, tick, confirmed, pending;
  RollbackStats stats;
  std::vector<std::uint64_t> hashes, order;
  bool operator==(const Seen& o) const {
    return hash == o.hash && tick == o.tick && confirmed == o.confirmed && pending == o.pending && hashes == o.hashes &&
           order == o.order && std::memcmp(&stats, &o.stats, sizeof stats) == 0;
  }
  static Seen of(const Rig& r) {
    Seen s{r.world.stateHash(r.world.systemTicksRun()), r.session.currentTick(), r.session.confirmedTick(),
           r.session.pendingRollbackTick(), r.session.stats(), {}, r.confirmed};
    for (std::uint64_t t = 1; t <= s.confirmed; ++t) s.hashes.push_back(r.session.confirmedHash(t).value());
    return s;
  }
};

class RollbackReentry : public ::testing::TestWithParam<std::tuple<Hook, Call>> {};

TEST_P(RollbackReentry, IsRefusedAndChangesNothing) {
  const auto [hook, call] = GetParam();
  Rig a;
  Rig b;
  build(a);
  build(b);
  a.hook = hook;
  a.call = call;
  drive(a, true);
  drive(b, false);
  ASSERT_FALSE(a.refusals.empty()) << hookName(hook) << " ran during the rolling advance";
  const std::string want = call == Call::Advance ? "tick_inside_callback/" : "input_inside_advance/-";
  for (const std::string& got : a.refusals) {
    if (call == Call::Advance) {
      // From the session's own hooks: callback rollback_hook; from a system
      // of the tick, World::tickAllowed() names the system.
      EXPECT_EQ(got, want + (hook == Hook::System ? "system" : "rollback_hook")) << hookName(hook);
    } else {
      EXPECT_EQ(got, want) << hookName(hook);
    }
  }
  EXPECT_TRUE(Seen::of(a) == Seen::of(b)) << hookName(hook);
  EXPECT_EQ(a.confirmed, (std::vector<std::uint64_t>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(a.session.currentTick(), 7u);
}

INSTANTIATE_TEST_SUITE_P(EveryHook, RollbackReentry,
                         ::testing::Combine(::testing::Values(Hook::Combine, Hook::AfterTick, Hook::OnRestore,
                                                              Hook::OnConfirmed, Hook::System),
                                            ::testing::Values(Call::Advance, Call::SetLocalInput,
                                                              Call::AddRemoteInput)));

}  // namespace
}  // namespace laige
