// log_texts_test.cpp - the catalogue of log texts (docs/logging.md#message-texts):
// a record logged with a catalogue id carries the id and the catalogue's text;
// the core's own warnings come from the catalogue; unknown ids give "".
// (The wasm module's copy without texts is checked from TypeScript:
// tests/ts/log_texts.test.ts.)
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "laige/logging.h"
#include "laige/world.h"

namespace {

using namespace ::laige::log;  // NOLINT: the module under test

struct Seen {
  std::string event;
  std::string message;
  TextId textId;
};

void collect(void* ctx, const LogRecord& r) noexcept {
  static_cast<std::vector<Seen>*>(ctx)->push_back({r.event, r.message, r.textId});
}

class LogTextsTest : public ::testing::Test {
 protected:
  LogTextsTest() : saved_(Logger::instance().options()) {}
  void SetUp() override {
    LoggerOptions options;
    options.sink = std::make_shared<CallbackSink>(&collect, &seen);
    options.rateLimiting = false;
    Logger::instance().init(options);
  }
  void TearDown() override { Logger::instance().init(saved_); }

  std::vector<Seen> seen;

 private:
  const LoggerOptions saved_;
};

// The ids the catalogue has: 1.. until the first empty text.
std::uint16_t catalogueSize() {
  std::uint16_t n = 1;
  while (catalogueText(TextId{n})[0] != '\0') ++n;
  return static_cast<std::uint16_t>(n - 1);
}

TEST_F(LogTextsTest, EveryIdHasItsText) {
  const std::uint16_t n = catalogueSize();
  EXPECT_GT(n, 70u);
  EXPECT_STREQ(catalogueText(TextId{}), "");
  EXPECT_STREQ(catalogueText(TextId{static_cast<std::uint16_t>(n + 1)}), "");
  EXPECT_STREQ(catalogueText(TextId{0xffff}), "");
  for (std::uint16_t i = 1; i <= n; ++i) {
    const std::string text = catalogueText(TextId{i});
    // A warning's text is "event | what | why | fix | <page>.md#<anchor>" under docs; an info line is short prose.
    if (text.find(" | ") != std::string::npos) {
      EXPECT_EQ(text.rfind(" | docs/", std::string::npos), text.rfind(" | ")) << text;
      EXPECT_NE(text.find(".md#", text.rfind(" | ")), std::string::npos) << text;
    }
  }
}

TEST_F(LogTextsTest, ARecordCarriesTheIdAndItsText) {
  Logger::instance().log(Severity::Warn, "ecs", "e", TextId{3}, {field("a", 1)});
  Logger::instance().log(Severity::Warn, "ecs", "f", "inline text", {});
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[0].textId, TextId{3});
  EXPECT_EQ(seen[0].message, catalogueText(TextId{3}));
  EXPECT_EQ(seen[1].textId, TextId{});
  EXPECT_EQ(seen[1].message, "inline text");
}

TEST_F(LogTextsTest, TheCoreWarnsWithCatalogueTexts) {
  auto w = laige::World::create({.capacity = 8});
  ASSERT_TRUE(w.ok());
  laige::World& world = w.value();
  const laige::Entity e = world.create().value();
  ASSERT_TRUE(world.destroy(e).ok());
  seen.clear();
  EXPECT_TRUE(world.check(e).isError());
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0].event, "stale_entity_access");
  EXPECT_NE(seen[0].textId, TextId{});
  EXPECT_EQ(seen[0].message, catalogueText(seen[0].textId));
  EXPECT_EQ(seen[0].message.rfind("stale_entity_access | ", 0), 0u);
}

}  // namespace
