// inspect_json.h - the inspector's answer writer (laige/inspect.h): JSON
// text with the commas placed by the writer. Internal to cpp/src/inspect.
// Numbers that a double would round (64-bit) and field values go out as
// strings, so the text a user sees is the text the core wrote.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace laige::inspect_detail {

class JsonText {
 public:
  explicit JsonText(std::string& out) noexcept : out_(out) {}
  JsonText& open(char c) {
    comma();
    out_ += c;
    first_ = true;
    return *this;
  }
  JsonText& close(char c) {
    out_ += c;
    first_ = false;
    return *this;
  }
  JsonText& key(const char* k) {
    comma();
    out_ += '"';
    out_ += k;
    out_ += "\":";
    first_ = true;
    return *this;
  }
  JsonText& num(std::uint64_t v);
  JsonText& str(std::string_view v);
  // Text that already is a JSON number.
  JsonText& raw(std::string_view v) {
    comma();
    out_ += v;
    return *this;
  }
  JsonText& boolean(bool v) {
    comma();
    out_ += v ? "true" : "false";
    return *this;
  }
  // 16 lowercase hex digits, as a string.
  JsonText& hex64(std::uint64_t v);
  // key(k) then the value.
  JsonText& kv(const char* k, std::uint64_t v) { return key(k).num(v); }
  JsonText& ks(const char* k, std::string_view v) { return key(k).str(v); }

 private:
  void comma() {
    if (!first_) out_ += ',';
    first_ = false;
  }
  std::string& out_;
  bool first_ = true;
};

}  // namespace laige::inspect_detail
