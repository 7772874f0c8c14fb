// json_out.cpp - the result slot and the JSON writer of json_out.h.
#include "json_out.h"

namespace laige_wasm {

ResultSlot gResult{};
std::string gResultText;

void Json::separate() {
  if (afterKey_) {
    afterKey_ = false;
    return;
  }
  if (!first_) text_.push_back(',');
  first_ = false;
}

Json& Json::open(char c) {
  separate();
  text_.push_back(c);
  first_ = true;
  return *this;
}

Json& Json::close(char c) {
  text_.push_back(c);
  first_ = false;
  return *this;
}

Json& Json::key(const char* k) {
  separate();
  text_.push_back('"');
  text_.append(k);
  text_.append("\":");
  afterKey_ = true;
  return *this;
}

Json& Json::raw(std::string_view v) {
  separate();
  text_.append(v);
  return *this;
}

Json& Json::null() { return raw("null"); }

Json& Json::boolean(bool v) { return raw(v ? "true" : "false"); }

Json& Json::integer(std::uint64_t v) {
  char buf[20];
  int i = 20;
  do {
    buf[--i] = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v != 0);
  return raw(std::string_view(buf + i, static_cast<std::size_t>(20 - i)));
}

Json& Json::integer(std::int64_t v) {
  if (v >= 0) return integer(static_cast<std::uint64_t>(v));
  separate();
  text_.push_back('-');
  afterKey_ = true;  // the digits follow without a separator
  return integer(std::uint64_t{0} - static_cast<std::uint64_t>(v));
}

Json& Json::string(std::string_view v) {
  static const char* const kHex = "0123456789abcdef";
  separate();
  text_.push_back('"');
  for (const char ch : v) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '"' || c == '\\') {
      text_.push_back('\\');
      text_.push_back(ch);
    } else if (c < 0x20) {
      // Every control character as \u00XX: JSON forbids them raw. Bytes
      // >= 0x80 pass through (the names are UTF-8, and so is JSON).
      text_.append("\\u00");
      text_.push_back(kHex[c >> 4]);
      text_.push_back(kHex[c & 0xF]);
    } else {
      text_.push_back(ch);
    }
  }
  text_.push_back('"');
  return *this;
}

Json& Json::hex64(std::uint64_t v) {
  static const char* const kHex = "0123456789abcdef";
  char buf[16];
  for (int i = 15; i >= 0; --i) {
    buf[i] = kHex[v & 0xF];
    v >>= 4;
  }
  return string(std::string_view(buf, 16));
}

Json& Json::bytes(const std::uint8_t* p, std::size_t n) {
  beginArray();
  for (std::size_t i = 0; i < n; ++i) integer(std::uint32_t{p[i]});
  return endArray();
}

}  // namespace laige_wasm
