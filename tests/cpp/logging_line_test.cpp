// logging_line_test.cpp - log fields (every integer width, shortest
// round-trip doubles, sanitised and truncated text) and the one-line format
// of a record (docs/logging.md#fields, docs/logging.md#line-format).
#include "laige/logging.h"
#include <gtest/gtest.h>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

namespace {

using namespace ::laige::log;  // NOLINT: the module under test

LogRecord makeRecord(const Field* fields, std::size_t count) {
  return LogRecord{Severity::Warn, "ecs", "stale_entity_access", "msg", fields, count, 0};
}

// ----------------------------------------------------------------- fields

TEST(LoggingFields, EveryIntegerWidth) {
  EXPECT_EQ(field("k", static_cast<signed char>(-128)).view(), "-128");
  EXPECT_EQ(field("k", static_cast<unsigned char>(255)).view(), "255");
  EXPECT_EQ(field("k", static_cast<short>(-32768)).view(), "-32768");
  EXPECT_EQ(field("k", static_cast<unsigned short>(65535)).view(), "65535");
  EXPECT_EQ(field("k", std::numeric_limits<int>::min()).view(), "-2147483648");
  EXPECT_EQ(field("k", std::numeric_limits<unsigned>::max()).view(), "4294967295");
  EXPECT_EQ(field("k", -5L).view(), "-5");
  EXPECT_EQ(field("k", 5UL).view(), "5");
  EXPECT_EQ(field("k", std::numeric_limits<long long>::min()).view(), "-9223372036854775808");
  EXPECT_EQ(field("k", std::numeric_limits<unsigned long long>::max()).view(), "18446744073709551615");
  EXPECT_EQ(field("k", std::numeric_limits<std::int64_t>::min()).view(), "-9223372036854775808");
  EXPECT_EQ(field("k", std::numeric_limits<std::uint64_t>::max()).view(), "18446744073709551615");
  EXPECT_EQ(field("k", std::int8_t{-1}).view(), "-1");
  EXPECT_EQ(field("k", std::uint8_t{200}).view(), "200");
  EXPECT_EQ(field("k", std::int16_t{-300}).view(), "-300");
  EXPECT_EQ(field("k", std::uint16_t{60000}).view(), "60000");
  EXPECT_EQ(field("k", std::int32_t{-70000}).view(), "-70000");
  EXPECT_EQ(field("k", std::uint32_t{70000}).view(), "70000");
  EXPECT_EQ(field("k", std::size_t{123}).view(), "123");
  EXPECT_EQ(field("k", std::ptrdiff_t{-123}).view(), "-123");
  EXPECT_EQ(field("k", 0).view(), "0");
  const Field f = field("entity_id", 42u);
  EXPECT_STREQ(f.key, "entity_id");
  EXPECT_EQ(f.length, 2u);
  EXPECT_STREQ(f.value, "42");
}

TEST(LoggingFields, DoubleIsShortestRoundTrip) {
  EXPECT_EQ(field("k", 0.1).view(), "0.1");
  EXPECT_EQ(field("k", -2.5).view(), "-2.5");
  EXPECT_EQ(field("k", 100.0).view(), "100");
  EXPECT_EQ(field("k", 123456.789).view(), "123456.789");
  EXPECT_EQ(field("k", 1e20).view(), "1e+20");
  EXPECT_EQ(field("k", 1e6).view(), "1e+06");
  EXPECT_EQ(field("k", 1.5e-7).view(), "1.5e-07");
  EXPECT_EQ(field("k", 0.001).view(), "0.001");
  EXPECT_EQ(field("k", 1.0 / 3.0).view(), "0.3333333333333333");
  EXPECT_EQ(field("k", 0.0).view(), "0");
  EXPECT_EQ(field("k", -0.0).view(), "-0");
  EXPECT_EQ(field("k", 5e-324).view(), "5e-324");
  EXPECT_EQ(field("k", 1.7976931348623157e308).view(), "1.7976931348623157e+308");
  EXPECT_EQ(field("k", std::nan("")).view(), "nan");
  EXPECT_EQ(field("k", -std::nan("")).view(), "nan");
  EXPECT_EQ(field("k", std::numeric_limits<double>::infinity()).view(), "inf");
  EXPECT_EQ(field("k", -std::numeric_limits<double>::infinity()).view(), "-inf");
  EXPECT_EQ(field("k", 0.1f).view(), "0.1");  // float shortest, not widened to double
  EXPECT_EQ(field("k", 16777216.0f).view(), "16777216");
  EXPECT_EQ(field("k", 3.4028235e38f).view(), "3.4028235e+38");
}

TEST(LoggingFields, TextAndBoolAreCopiedAndSanitized) {
  std::string text = "a b=c\td\ne";
  const Field f = field("k", text);
  text.assign("changed");
  EXPECT_EQ(f.view(), "a_b_c_d_e");
  EXPECT_EQ(field("k", "plain").view(), "plain");
  EXPECT_EQ(field("k", std::string_view("x y")).view(), "x_y");
  EXPECT_EQ(field("k", static_cast<const char*>(nullptr)).view(), "");
  char mutableText[] = "mutable";
  EXPECT_EQ(field("k", mutableText).view(), "mutable");
  EXPECT_EQ(field("k", "a|b").view(), "a|b");  // only whitespace and '=' are replaced
  EXPECT_EQ(field("k", true).view(), "true");
  EXPECT_EQ(field("k", false).view(), "false");
}

TEST(LoggingFields, TruncatedTo63BytesWithoutSplittingUtf8) {
  const std::string longText(100, 'a');
  const Field f = field("k", longText);
  EXPECT_EQ(f.length, 63u);
  EXPECT_EQ(f.view(), std::string(63, 'a'));
  EXPECT_EQ(f.value[63], '\0');
  // 62 ASCII bytes then a 2-byte sequence: byte 63 would be half of it.
  const std::string utf8 = std::string(62, 'b') + "\xC3\xA9" + "tail";
  EXPECT_EQ(field("k", utf8).view(), std::string(62, 'b'));
  const std::string exact(63, 'c');
  EXPECT_EQ(field("k", exact).view(), exact);
}

// ----------------------------------------------------------------- line format

TEST(LoggingFormat, LineShapeWithFields) {
  const Field fields[] = {field("entity_id", 7), field("why", "stale handle")};
  const LogRecord r = makeRecord(fields, 2);
  EXPECT_EQ(formatLine(r),
            "1970-01-01T00:00:00.000000Z [warn] ecs/stale_entity_access: msg | entity_id=7 | why=stale_handle");
  LogRecord noFields = makeRecord(nullptr, 3);  // null fields: the count is ignored
  EXPECT_EQ(formatLine(noFields), "1970-01-01T00:00:00.000000Z [warn] ecs/stale_entity_access: msg");
  noFields.message = "two\nlines\r";  // one record is one line
  EXPECT_EQ(formatLine(noFields).substr(27), " [warn] ecs/stale_entity_access: two lines ");
}

TEST(LoggingFormat, TimestampIsUtcWithMicroseconds) {
  char out[28];
  EXPECT_EQ(formatTimestamp(1700000000123456, out), 27u);
  EXPECT_STREQ(out, "2023-11-14T22:13:20.123456Z");
  formatTimestamp(951782400000001, out);  // leap day
  EXPECT_STREQ(out, "2000-02-29T00:00:00.000001Z");
  formatTimestamp(4102444799999999, out);
  EXPECT_STREQ(out, "2099-12-31T23:59:59.999999Z");
  formatTimestamp(-5, out);  // clamped
  EXPECT_STREQ(out, "1970-01-01T00:00:00.000000Z");
  formatTimestamp(std::numeric_limits<std::int64_t>::max(), out);
  EXPECT_STREQ(out, "9999-12-31T23:59:59.999999Z");
}


TEST(LoggingFormat, BufferVariantTruncatesSafely) {
  const Field fields[] = {field("a", 1), field("b", 2)};
  const LogRecord r = makeRecord(fields, 2);
  const std::string full = formatLine(r);
  std::vector<char> big(full.size() + 1);
  EXPECT_EQ(formatLine(r, big.data(), big.size()), full.size());
  EXPECT_EQ(std::string(big.data()), full);

  char small[20];
  const std::size_t n = formatLine(r, small, sizeof small);
  EXPECT_EQ(n, 19u);
  EXPECT_EQ(std::string(small), full.substr(0, 16) + "...");

  char tiny[2] = {'x', 'x'};
  EXPECT_EQ(formatLine(r, tiny, 1), 0u);
  EXPECT_EQ(tiny[0], '\0');
  EXPECT_EQ(formatLine(r, tiny, 0), 0u);
  EXPECT_EQ(formatLine(r, nullptr, 10), 0u);
}

TEST(LoggingFormat, TruncationDoesNotSplitUtf8BeforeTheMark) {
  LogRecord r = makeRecord(nullptr, 0);
  const std::string message = "\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9";
  r.message = message.c_str();
  const std::string full = formatLine(r);
  const std::size_t cut = full.find(": ") + 2 + 3;  // 1.5 characters of the message fit
  std::vector<char> buffer(cut + 3 + 1);
  const std::size_t n = formatLine(r, buffer.data(), buffer.size());
  const std::string out(buffer.data(), n);
  EXPECT_EQ(out, full.substr(0, cut - 1) + "...");
}

}  // namespace
