// desync_exchange_test.cpp - the desync report across two peers
// (laige/desync_exchange.h, docs/desync.md#across-peers), native-native: two
// rollback sessions exchange inputs and confirmed checksums over delayed
// queues; one of them flips one bit of one field of one entity in one
// system at a random tick. At the first differing confirmed checksum the
// detecting peer's exchange walks the other's tree through messages only;
// the report must name that tick, that system, that entity and that field,
// with both values, and equal what desyncReport gives for the two worlds
// side by side (the plain reference). Plus: the pin leaves the world as it
// was, and bad messages are refused with nothing changed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <deque>
#include <tuple>
#include <map>
#include <vector>

#include "laige/desync.h"
#include "laige/desync_exchange.h"
#include "laige/prng.h"
#include "laige/rollback.h"
#include "support/desync_scene.h"

namespace laige {
namespace {

using test::Fault;
using test::makeDesyncWorld;

using Queue = std::deque<std::vector<std::uint8_t>>;

void enqueue(void* context, std::span<const std::uint8_t> m) noexcept {
  static_cast<Queue*>(context)->emplace_back(m.begin(), m.end());
}
Status pinSession(void* context, std::uint64_t tick, DesyncPin& out) noexcept {
  return pinRollbackTick(*static_cast<RollbackSession*>(context), tick, out);
}
void keepConfirmed(void* context, std::uint64_t tick, std::uint64_t hash) noexcept {
  (*static_cast<std::map<std::uint64_t, std::uint64_t>*>(context))[tick] = hash;
}

struct Peer {
  SystemSchedule sched;
  World world;
  RollbackSession session;
  std::map<std::uint64_t, std::uint64_t> confirmed;
  Queue outbox;  // desync messages to the other peer
  DesyncExchange exchange;
};

void setUp(Peer& p, std::uint32_t entities, std::uint64_t seed, Fault* fault, std::uint32_t player) {
  p.world = makeDesyncWorld(entities, seed, fault, p.sched);
  RollbackSession::Options o;
  o.players = 2;
  o.localPlayer = player;
  o.depth = 8;
  o.maxInputBytes = 1;
  o.onConfirmed = &keepConfirmed;
  o.onConfirmedContext = &p.confirmed;
  p.session = RollbackSession::create(p.world, p.sched, o).takeValue();
  DesyncExchange::Options x;
  x.send = &enqueue;
  x.sendContext = &p.outbox;
  x.pin = &pinSession;
  x.pinContext = &p.session;
  x.maxItems = 64;
  p.exchange = DesyncExchange::create(p.world, x).takeValue();
}

// Runs both peers with inputs delivered `lag` ticks late (so they predict
// and roll back) until a confirmed checksum differs; returns that tick.
std::uint64_t runUntilDesync(Peer& a, Peer& b, std::uint64_t seed, std::uint64_t maxTicks) {
  const std::uint64_t lag = 2;
  for (std::uint64_t t = 1; t <= maxTicks; ++t) {
    const std::uint8_t ia = static_cast<std::uint8_t>((t * 7 + seed) % 5);
    const std::uint8_t ib = static_cast<std::uint8_t>((t * 3 + seed) % 4);
    EXPECT_TRUE(a.session.setLocalInput(t, std::span(&ia, 1)).ok());
    EXPECT_TRUE(b.session.setLocalInput(t, std::span(&ib, 1)).ok());
    if (t > lag) {
      const std::uint64_t late = t - lag;
      const std::uint8_t la = static_cast<std::uint8_t>((late * 7 + seed) % 5);
      const std::uint8_t lb = static_cast<std::uint8_t>((late * 3 + seed) % 4);
      EXPECT_TRUE(a.session.addRemoteInput(1, late, std::span(&lb, 1)).ok());
      EXPECT_TRUE(b.session.addRemoteInput(0, late, std::span(&la, 1)).ok());
    }
    EXPECT_TRUE(a.session.advance().ok());
    EXPECT_TRUE(b.session.advance().ok());
    for (const auto& [tick, hash] : a.confirmed) {
      const auto other = b.confirmed.find(tick);
      if (other != b.confirmed.end() && other->second != hash) return tick;
    }
  }
  return 0;
}

// Delivers queued messages both ways until both queues are empty.
void pump(Peer& a, Peer& b) {
  while (!a.outbox.empty() || !b.outbox.empty()) {
    while (!a.outbox.empty()) {
      const std::vector<std::uint8_t> m = std::move(a.outbox.front());
      a.outbox.pop_front();
      const Status st = b.exchange.receive(m);
      ASSERT_TRUE(st.ok()) << st.reason();
    }
    while (!b.outbox.empty()) {
      const std::vector<std::uint8_t> m = std::move(b.outbox.front());
      b.outbox.pop_front();
      const Status st = a.exchange.receive(m);
      ASSERT_TRUE(st.ok()) << st.reason();
    }
  }
}

TEST(DesyncExchange, NamesTheTickSystemEntityAndFieldAcrossTwoPeers) {
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    Prng rng(seed * 104729);
    Fault fault;
    fault.tick = rng.next_range(3, 40);
    fault.system = rng.next_range(1, 4);
    fault.pick = rng.next_range(0, 300);
    fault.field = rng.next_range(0, 2);
    fault.bit = rng.next_range(0, 32);
    Peer a;
    Peer b;
    setUp(a, 300, seed, nullptr, 0);
    setUp(b, 300, seed, &fault, 1);
    const std::uint64_t tick = runUntilDesync(a, b, seed, 60);
    ASSERT_TRUE(fault.fired) << "seed " << seed;
    ASSERT_EQ(tick, fault.tick) << "seed " << seed;
    const std::uint64_t hashA = a.world.stateHash(a.world.systemTicksRun());
    const std::uint64_t hashB = b.world.stateHash(b.world.systemTicksRun());

    ASSERT_TRUE(a.exchange.start(tick).ok());
    pump(a, b);
    ASSERT_TRUE(a.exchange.hasReport()) << "seed " << seed;
    EXPECT_FALSE(b.exchange.hasReport());
    EXPECT_EQ(b.exchange.pinnedTick(), tick);
    // The pins put both worlds back exactly.
    EXPECT_EQ(a.world.stateHash(a.world.systemTicksRun()), hashA);
    EXPECT_EQ(b.world.stateHash(b.world.systemTicksRun()), hashB);

    const DesyncExchangeReport& r = a.exchange.report();
    EXPECT_EQ(r.summary.tick, fault.tick);
    EXPECT_TRUE(r.summary.checkpointsCompared);
    EXPECT_EQ(r.summary.firstSystem.value, fault.system) << "seed " << seed;
    EXPECT_EQ(r.summary.checksumA, a.confirmed.at(tick));
    const ComponentTypeId flipped = fault.system;  // Move -> DPos, Steer -> DVel, Damage -> DHp
    bool named = false;
    for (const DesyncExchangeItem& d : r.items) {
      if (d.slot != fault.slot || d.componentId != flipped) continue;
      named = true;
      EXPECT_EQ(d.field, fault.field);
      EXPECT_EQ(d.fieldName, a.world.componentInfo(flipped).value().fields[fault.field].name);
      EXPECT_EQ(d.entityA, a.world.handleAt(static_cast<std::uint16_t>(fault.slot)));
      ASSERT_EQ(d.bytesA.size(), d.bytesB.size());
      std::uint32_t va;
      std::uint32_t vb;
      std::memcpy(&va, d.bytesA.data() + 4 * fault.field, 4);
      std::memcpy(&vb, d.bytesB.data() + 4 * fault.field, 4);
      EXPECT_EQ(va ^ vb, 1u << fault.bit);
    }
    EXPECT_TRUE(named) << "seed " << seed << " slot " << fault.slot;

    // The plain reference: the two pinned states side by side in one process.
    std::vector<DesyncItem> local;
    const Result<DesyncReport> ref = desyncReport(*a.exchange.pinnedWorld(), *b.exchange.pinnedWorld(), 64,
                                                  [&](const DesyncItem& d) { local.push_back(d); });
    ASSERT_TRUE(ref.ok()) << ref.status().reason();
    EXPECT_EQ(ref.value().differences, r.summary.differences) << "seed " << seed;
    ASSERT_EQ(local.size(), r.items.size());
    std::vector<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>> want;
    std::vector<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>> got;
    for (const DesyncItem& d : local) want.emplace_back(d.item.componentId, d.item.slot, d.field);
    for (const DesyncExchangeItem& d : r.items) got.emplace_back(d.componentId, d.slot, d.field);
    std::sort(want.begin(), want.end());
    std::sort(got.begin(), got.end());
    EXPECT_EQ(want, got) << "seed " << seed;
    // O(log n): the root's parts, one part's and one group's children, leaves.
    const DesyncExchangeStats st = a.exchange.stats();
    EXPECT_LE(st.hashesReceived, 5u + 32u * 2u * (r.summary.differences + 1));
    EXPECT_LE(st.messagesSent, 2u + 3u * r.summary.differences);
  }
}

TEST(DesyncExchange, BadMessagesAreRefusedWithNothingChanged) {
  Fault fault;
  fault.tick = 6;
  fault.system = 2;
  fault.pick = 11;
  Peer a;
  Peer b;
  setUp(a, 100, 3, nullptr, 0);
  setUp(b, 100, 3, &fault, 1);
  const std::uint64_t tick = runUntilDesync(a, b, 3, 20);
  ASSERT_EQ(tick, 6u);
  const std::uint64_t hashB = b.world.stateHash(b.world.systemTicksRun());
  const auto refused = [&](std::vector<std::uint8_t> m, const char* reason) {
    const Status st = b.exchange.receive(m);
    EXPECT_STREQ(st.reason(), reason);
  };
  // A well-formed request of tick `t` for node (level, part, index).
  const auto request = [](std::uint8_t kind, std::uint64_t t, std::uint32_t level, std::uint32_t part, std::uint32_t index) {
    std::vector<std::uint8_t> m(kDesyncHeaderBytes + 12, 0);
    m[0] = kind;
    m[1] = kDesyncMessageVersion;
    m[4] = static_cast<std::uint8_t>(m.size());
    for (int i = 0; i < 8; ++i) m[8 + i] = static_cast<std::uint8_t>(t >> (8 * i));
    std::memcpy(m.data() + 16, &level, 4);
    std::memcpy(m.data() + 20, &part, 4);
    std::memcpy(m.data() + 24, &index, 4);
    return m;
  };
  refused({}, "desync_message_malformed");
  refused({1, 1, 0}, "desync_message_malformed");
  std::vector<std::uint8_t> wrongSize = request(2, tick, 0, 0, 0);
  wrongSize[4] = 99;
  refused(wrongSize, "desync_message_malformed");
  std::vector<std::uint8_t> wrongVersion = request(2, tick, 0, 0, 0);
  wrongVersion[1] = 9;
  refused(wrongVersion, "desync_message_malformed");
  refused(request(42, tick, 0, 0, 0), "desync_message_unknown_kind");
  refused(std::vector<std::uint8_t>(kDesyncMaxMessageBytes + 1, 0), "desync_message_too_large");
  // Answers nobody asked for.
  std::vector<std::uint8_t> answer = request(5, tick, 0, 0, 0);
  answer.insert(answer.end(), {0, 0, 0, 0});
  answer[4] = static_cast<std::uint8_t>(answer.size());
  refused(answer, "desync_answer_unexpected");
  EXPECT_EQ(b.exchange.pinnedTick(), 0u);
  EXPECT_TRUE(b.outbox.empty());
  // A tick that is not confirmed (or left the ring): refused, and the remote is told.
  refused(request(2, 500, 0, 0, 0), "desync_tick_unavailable");
  EXPECT_EQ(b.outbox.size(), 1u);
  EXPECT_EQ(b.outbox.front()[0], static_cast<std::uint8_t>(DesyncMessageKind::Error));
  EXPECT_STREQ(a.exchange.receive(b.outbox.front()).reason(), "desync_remote_refused");
  b.outbox.clear();
  // Nodes outside the tree (the tick is pinned by then).
  refused(request(2, tick, 0, 1, 0), "state_tree_node_invalid");
  refused(request(2, tick, 3, 1, 0), "state_tree_node_is_leaf");
  refused(request(3, tick, 7, 0, 0), "state_tree_node_invalid");
  EXPECT_EQ(b.exchange.pinnedTick(), tick);
  // A peer that walks itself stays at its tick.
  ASSERT_TRUE(b.exchange.start(tick).ok());
  b.outbox.clear();
  refused(request(2, tick - 1, 0, 0, 0), "desync_already_pinned");
  EXPECT_STREQ(b.exchange.start(tick).reason(), "desync_already_pinned");
  b.outbox.clear();
  EXPECT_EQ(b.world.stateHash(b.world.systemTicksRun()), hashB);
  // The checksum of the pinned state is the confirmed one.
  EXPECT_EQ(b.exchange.pinnedWorld()->stateChecksum(tick), b.confirmed.at(tick));
  // A moved-from exchange and an exchange without send.
  DesyncExchange moved = std::move(b.exchange);
  EXPECT_STREQ(b.exchange.receive(request(2, tick, 0, 0, 0)).reason(), "desync_exchange_invalid");
  EXPECT_STREQ(DesyncExchange::create(a.world, DesyncExchange::Options{}).status().reason(), "desync_exchange_invalid");
  // pinRollbackTick on ticks it cannot pin.
  DesyncPin pin;
  EXPECT_STREQ(pinRollbackTick(a.session, 0, pin).reason(), "desync_tick_unavailable");
  EXPECT_STREQ(pinRollbackTick(a.session, a.session.confirmedTick() + 1, pin).reason(), "desync_tick_unavailable");
  EXPECT_EQ(pin.tick, 0u);
}

}  // namespace
}  // namespace laige
