// inspect_test.cpp - the live inspector's answers (laige/inspect.h,
// docs/inspector.md): the values an `entity` answer shows equal those read
// with World::get and formatted by a plain reference (Q16.16 as printf's
// exact decimal, f32 as to_chars' shortest text), pages and filters list
// what a walk of the slots lists, the summary counts what the world counts,
// every malformed or refused request answers its reason and leaves the
// state hash unchanged, and laige-peer's `inspect` verb seeks back in its
// history to the state a fresh run has at that tick.
#include <gtest/gtest.h>

#include <charconv>
#include <cstdio>
#include <string>
#include <vector>

#include "laige/changes.h"
#include "laige/detail/shortest_float.h"
#include "laige/inspect.h"
#include "laige/system.h"
#include "laige/world.h"
#include "peer_session.h"

namespace laige {
namespace {

struct IBody {
  fpx16_16 x, y;
  float heading;
  std::int8_t flags[2];
  std::uint16_t kind;
  std::uint64_t serial;
};
LAIGE_COMPONENT(IBody, x, y, heading, flags, kind, serial);
struct ITag {};
LAIGE_COMPONENT(ITag);

void moveBodies(World& w, SystemContext&) {
  (void)w.each<IBody>([](Entity, IBody& b) { b.x.raw += 40000; b.heading += 0.1f; }, Write{});
}

World makeWorld(SystemSchedule& sched) {
  World::Options o;
  o.capacity = 64;
  o.seed = 5;
  World w = World::create(o).takeValue();
  EXPECT_TRUE(w.registerComponent<IBody>().ok());
  EXPECT_TRUE(w.registerComponent<ITag>().ok());
  EXPECT_TRUE(trackChanges(w, w.componentId<IBody>()).ok());
  EXPECT_TRUE(w.registerSystem(SystemDef{"Move", &moveBodies, fpx16_16::fromInt32(2), nullptr, nullptr}, Io<IBody, Write>{}).ok());
  EXPECT_TRUE(w.scheduleSystems(sched).ok());
  for (int i = 0; i < 40; ++i) {
    const Entity e = w.create().value();
    if (i % 4 == 3) continue;  // no components: archetype 0
    const IBody b{fpx16_16::fromRaw(i * 98765 - 1500000), fpx16_16::fromRaw(-i), 0.3f * static_cast<float>(i) - 2.0f,
                  {static_cast<std::int8_t>(-i), 7}, static_cast<std::uint16_t>(i * 3), 0xFFFFFFFFFFFFFFF0ull + static_cast<std::uint64_t>(i % 8)};
    EXPECT_TRUE(w.addComponent(e, b).ok());
    if (i % 3 == 0) {
      EXPECT_TRUE(w.addComponent(e, ITag{}).ok());
    }
  }
  for (int i = 0; i < 40; i += 7) EXPECT_TRUE(w.destroy(w.handleAt(static_cast<std::uint16_t>(i))).ok());
  for (int t = 0; t < 3; ++t) EXPECT_TRUE(w.runSystems(sched).ok());
  return w;
}

std::string ask(World& w, const std::string& request, const InspectHistory& h = {}) {
  std::string out;
  (void)answerInspect(w, request, h, out);
  return out;
}

// The reference texts.
std::string fxRef(std::int32_t raw) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.16f", static_cast<double>(raw) / 65536.0);
  std::string s = buf;
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s;
}
std::string f32Ref(float v) {
#if defined(__EMSCRIPTEN__)
  char buf[32];
  return std::string(buf, detail::shortestFloat(v, buf, sizeof buf));  // no float to_chars in emscripten's libc++
#else
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
#endif
}
std::string q(const std::string& s) { return "\"" + s + "\""; }

TEST(Inspect, FormatFxIsTheExactDecimal) {
  for (const std::int32_t raw : {0, 1, -1, 65536, -65536, 98304, 0x7FFFFFFF, static_cast<std::int32_t>(0x80000000), 12345678, -7}) {
    char buf[32];
    EXPECT_EQ(std::string(buf, formatFx(raw, buf)), fxRef(raw)) << raw;
  }
}

TEST(Inspect, EntityValuesEqualWorldGetFormattedByTheReference) {
  SystemSchedule sched;
  World w = makeWorld(sched);
  const std::uint64_t before = w.stateHash(w.systemTicksRun());
  int checked = 0;
  for (std::uint32_t id = 0; id < w.capacity(); ++id) {
    const Entity e = w.handleAt(static_cast<std::uint16_t>(id));
    if (e.isNull()) continue;
    const std::string a = ask(w, "1 entity " + std::to_string(e.bits()));
    ASSERT_EQ(a.find("\"error\""), std::string::npos) << a;
    EXPECT_NE(a.find("\"handle\":" + std::to_string(e.bits()) + ",\"id\":" + std::to_string(id)), std::string::npos) << a;
    const IBody* b = static_cast<const World&>(w).get<IBody>(e);
    if (b == nullptr) {
      EXPECT_EQ(a.find("IBody"), std::string::npos) << a;
      continue;
    }
    const std::string want = std::string("\"name\":\"IBody\",\"fields\":[") +
        "{\"name\":\"x\",\"kind\":\"fx\",\"values\":[" + q(fxRef(b->x.raw)) + "]}," +
        "{\"name\":\"y\",\"kind\":\"fx\",\"values\":[" + q(fxRef(b->y.raw)) + "]}," +
        "{\"name\":\"heading\",\"kind\":\"f32\",\"values\":[" + q(f32Ref(b->heading)) + "]}," +
        "{\"name\":\"flags\",\"kind\":\"i8\",\"values\":[" + q(std::to_string(b->flags[0])) + "," + q(std::to_string(b->flags[1])) + "]}," +
        "{\"name\":\"kind\",\"kind\":\"u16\",\"values\":[" + q(std::to_string(b->kind)) + "]}," +
        "{\"name\":\"serial\",\"kind\":\"u64\",\"values\":[" + q(std::to_string(b->serial)) + "]}]";
    EXPECT_NE(a.find(want), std::string::npos) << a << "\nwant " << want;
    EXPECT_EQ(a.find("ITag") != std::string::npos, w.has<ITag>(e)) << a;
    ++checked;
  }
  EXPECT_GT(checked, 20);
  EXPECT_EQ(w.stateHash(w.systemTicksRun()), before);
}

TEST(Inspect, PagesAndFiltersListWhatASlotWalkLists) {
  SystemSchedule sched;
  World w = makeWorld(sched);
  const ArchetypeId tagged = w.archetypeOf(w.handleAt(3));
  std::vector<Entity> all;
  std::vector<Entity> ofTagged;
  for (std::uint32_t id = 0; id < w.capacity(); ++id) {
    const Entity e = w.handleAt(static_cast<std::uint16_t>(id));
    if (e.isNull()) continue;
    all.push_back(e);
    if (w.archetypeOf(e) == tagged) ofTagged.push_back(e);
  }
  const std::string page = ask(w, "1 entities 5 3");
  EXPECT_NE(page.find("\"total\":" + std::to_string(all.size())), std::string::npos) << page;
  for (std::size_t i = 0; i < all.size(); ++i) {
    const bool listed = page.find("\"handle\":" + std::to_string(all[i].bits()) + ",") != std::string::npos;
    EXPECT_EQ(listed, i >= 5 && i < 8) << i << " " << page;
  }
  const std::string byArch = ask(w, "1 entities 0 200 archetype=" + std::to_string(tagged));
  EXPECT_NE(byArch.find("\"total\":" + std::to_string(ofTagged.size())), std::string::npos) << byArch;
  const std::string found = ask(w, "1 entities 0 10 find=" + std::to_string(all[4].bits()));
  EXPECT_NE(found.find("\"total\":1"), std::string::npos) << found;
  const std::string bySlot = ask(w, "1 entities 0 10 find=" + std::to_string(all[4].id()));
  EXPECT_NE(bySlot.find("\"handle\":" + std::to_string(all[4].bits())), std::string::npos) << bySlot;
}

TEST(Inspect, SummaryCountsWhatTheWorldCounts) {
  SystemSchedule sched;
  World w = makeWorld(sched);
  const std::string s = ask(w, "1 summary");
  char hash[17];
  std::snprintf(hash, sizeof hash, "%016llx", static_cast<unsigned long long>(w.stateHash(3)));
  EXPECT_NE(s.find("\"tick\":3,\"hash\":\"" + std::string(hash) + "\""), std::string::npos) << s;
  EXPECT_NE(s.find("\"entities\":" + std::to_string(w.entityCount()) + ",\"capacity\":64"), std::string::npos) << s;
  for (std::uint32_t a = 1; a <= w.archetypeCount(); ++a) {
    EXPECT_NE(s.find("{\"id\":" + std::to_string(a) + ",\"rows\":" + std::to_string(w.archetypeRowCount(static_cast<ArchetypeId>(a))) + ","), std::string::npos) << s;
  }
  EXPECT_NE(s.find("\"name\":\"Move\",\"budgetMs\":\"2\",\"reads\":[],\"writes\":[1],\"runs\":3"), std::string::npos) << s;
  // Every IBody row was written by the last tick's Move.
  EXPECT_NE(s.find("\"changes\":[{\"component\":1,\"added\":0,\"changed\":" + std::to_string(w.archetypeRowCount(w.archetypeOf(w.handleAt(1))) + w.archetypeRowCount(w.archetypeOf(w.handleAt(6))))), std::string::npos) << s;
  EXPECT_NE(s.find("\"guardrails\":{\"capacity\":64,\"entityCount\":" + std::to_string(w.entityCount())), std::string::npos) << s;
}

TEST(Inspect, RefusedRequestsAnswerTheirReasonAndChangeNothing) {
  SystemSchedule sched;
  World w = makeWorld(sched);
  const std::uint64_t before = w.stateHash(w.systemTicksRun());
  InspectHistory h;
  h.kept = true;
  h.firstTick = 1;
  h.lastTick = 3;
  const Entity dead = Entity(0, 1);  // slot 0 was destroyed
  const struct { std::string request; const char* reason; const char* field; } cases[] = {
      {"", "inspect_malformed", "\"part\":\"version\""},
      {"summary", "inspect_malformed", "\"part\":\"summary\""},
      {"2 summary", "inspect_version", "\"got\":2,\"expected\":1"},
      {"1 teleport", "inspect_unknown_request", "\"request\":\"teleport\""},
      {"1 summary extra", "inspect_malformed", "\"part\":\"extra\""},
      {"1 entity", "inspect_malformed", "\"part\":\"handle\""},
      {"1 entity -5", "inspect_malformed", "\"part\":\"-5\""},
      {"1 entity 99999999999", "inspect_malformed", ""},
      {"1 entity " + std::to_string(dead.bits()), "inspect_unknown_entity", ""},
      {"1 entity 0", "inspect_unknown_entity", "\"entity\":0"},
      {"1 entities 0", "inspect_malformed", "\"part\":\"limit\""},
      {"1 entities 0 201", "inspect_page_too_large", "\"limit\":201,\"max\":200"},
      {"1 entities 0 5 archetype=999", "inspect_unknown_archetype", "\"archetype\":999"},
      {"1 entities 0 5 colour=red", "inspect_malformed", "\"part\":\"colour=red\""},
      {"1 entities 0 5 find=1 find=2", "inspect_malformed", ""},
      {"1 seek 9", "inspect_tick_outside_history", "\"tick\":9,\"first\":1,\"last\":3"},
      {"1 seek 0", "inspect_tick_outside_history", ""},
      {"1 seek x", "inspect_malformed", ""},
      {"1 summary\n", "inspect_malformed", ""},
      {std::string(257, ' '), "inspect_request_too_large", "\"size\":257,\"max\":256"},
  };
  for (const auto& c : cases) {
    std::string out;
    const Status st = answerInspect(w, c.request, h, out);
    EXPECT_FALSE(st.ok()) << c.request;
    EXPECT_STREQ(st.reason(), c.reason) << c.request;
    EXPECT_EQ(out.rfind(std::string("{\"v\":1,\"error\":\"") + c.reason + "\"", 0), 0u) << out;
    EXPECT_NE(out.find(c.field), std::string::npos) << out;
    EXPECT_EQ(w.stateHash(w.systemTicksRun()), before) << c.request;
  }
  // A seek without a seek fn: the host seeks.
  EXPECT_EQ(ask(w, "1 seek 2", h), "{\"v\":1,\"kind\":\"seek\",\"tick\":2}");
  EXPECT_EQ(ask(w, "1 history", h), "{\"v\":1,\"kind\":\"history\",\"tick\":3,\"kept\":true,\"first\":1,\"last\":3}");
}

// laige-peer: `inspect` about its run, and `seek` back to a tick equal to a
// fresh run stepped to it.
TEST(Inspect, PeerSeeksBackToTheStateOfAFreshRun) {
  peer::PeerSession session;
  std::string out;
  ASSERT_TRUE(session.handle("open swarm", out));
  for (int t = 1; t <= 150; ++t) {
    out.clear();
    ASSERT_TRUE(session.handle("step " + std::to_string(t) + (t % 10 == 0 ? " 0000010000000200" : " -"), out));
    ASSERT_EQ(out.rfind("hash ", 0), 0u) << out;
  }
  out.clear();
  ASSERT_TRUE(session.handle("inspect 1 history", out));
  EXPECT_EQ(out, "inspect {\"v\":1,\"kind\":\"history\",\"tick\":150,\"kept\":true,\"first\":0,\"last\":150}\n");
  const std::uint64_t liveHash = session.run()->hash();
  // The reference: a fresh run of the same scenario stepped to tick 50.
  peer::PeerSession fresh;
  ASSERT_TRUE(fresh.handle("open swarm", out));
  for (int t = 1; t <= 50; ++t) ASSERT_TRUE(fresh.handle("step " + std::to_string(t) + (t % 10 == 0 ? " 0000010000000200" : " -"), out));
  std::string want;
  ASSERT_TRUE(fresh.handle("inspect 1 summary", want));
  std::string got;
  ASSERT_TRUE(session.handle("inspect 1 seek 50", got));
  // The timing fields differ (the fresh run's systems were measured, the scratch run's too): compare up to them.
  const auto cut = [](const std::string& s) { return s.substr(0, s.find("\"systems\"")); };
  EXPECT_EQ(cut(got), cut(want));
  std::string p1;
  std::string p2;
  ASSERT_TRUE(session.handle("inspect 1 entities 100 20", p1));
  ASSERT_TRUE(fresh.handle("inspect 1 entities 100 20", p2));
  EXPECT_EQ(p1, p2);
  int compared = 0;
  for (std::size_t at = p2.find("\"handle\":"); at != std::string::npos; at = p2.find("\"handle\":", at + 1)) {
    const std::string handle = p2.substr(at + 9, p2.find(',', at) - at - 9);
    std::string e1;
    std::string e2;
    ASSERT_TRUE(session.handle("inspect 1 entity " + handle, e1));
    ASSERT_TRUE(fresh.handle("inspect 1 entity " + handle, e2));
    EXPECT_EQ(e1, e2);
    EXPECT_EQ(e1.find("error"), std::string::npos) << e1;
    ++compared;
  }
  EXPECT_EQ(compared, 20);
  EXPECT_EQ(session.run()->hash(), liveHash);  // seeking never touches the live run
  out.clear();
  ASSERT_TRUE(session.handle("inspect 1 seek 151", out));
  EXPECT_EQ(out.rfind("inspect {\"v\":1,\"error\":\"inspect_tick_outside_history\"", 0), 0u) << out;
  peer::PeerSession none;
  out.clear();
  ASSERT_TRUE(none.handle("inspect 1 summary", out));
  EXPECT_EQ(out, "error peer_no_scenario\n");
}

}  // namespace
}  // namespace laige
