// json_out.h - how a binding hands the TypeScript layer a string, a byte
// range or a structured result (part of the binding layer: common.h says
// how it is built).
//
// Every function of the module is a plain wasm export taking and returning
// numbers. A result that is text, bytes or an object travels through one
// module-wide result slot: the export writes {address, length} of the
// result into gResult and returns gResult's address; the TypeScript layer
// (web/src/boundary/raw.ts) reads the pair and copies the bytes out at once
// (decoding UTF-8, or parsing JSON). The slot is valid until the next call
// into the module. Objects are JSON text written by Json below: integers,
// booleans, null, strings and arrays only (no floats: nothing the bindings
// return needs one, and a float formatter would cost the module several KB).
//
// Why not embind: its runtime (registrations, invokers, RTTI lookups, the
// JS object builders behind emscripten::val) cost 7,142 bytes of the module
// (3,352 gzip) for 20 cold functions, and its generated JS invokers need
// `new Function`, which a Content-Security-Policy without 'unsafe-eval'
// forbids (docs/build.md#the-wasm-modules-size).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace laige_wasm {

// The result slot: the address and length of the last text, bytes or JSON
// result. Read by the TypeScript layer right after the call that wrote it.
struct ResultSlot {
  std::uint32_t address = 0;
  std::uint32_t length = 0;
};
extern ResultSlot gResult;
// The text of the last JSON result (the slot points into it).
extern std::string gResultText;

// Points the slot at `n` bytes at `p` (memory the caller keeps alive until
// the next call: a static string, a writer's buffer, gResultText).
inline std::uintptr_t resultAt(const void* p, std::size_t n) noexcept {
  gResult.address = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(p));
  gResult.length = static_cast<std::uint32_t>(n);
  return reinterpret_cast<std::uintptr_t>(&gResult);
}

// A JSON writer. Keys are written as given (the bindings' own ASCII
// identifiers); string values are escaped. Commas are placed by the writer:
// begin/end nest, key() precedes a member's value. Each writer builds its
// own text and moves it into gResultText at finish(): a function that runs
// TypeScript systems while it writes (replayRun, replayDiff) may be called
// into again by them, and their results must not land in its text.
class Json {
 public:
  Json() noexcept = default;
  Json(const Json&) = delete;
  Json& operator=(const Json&) = delete;

  Json& beginObject() { return open('{'); }
  Json& endObject() { return close('}'); }
  Json& beginArray() { return open('['); }
  Json& endArray() { return close(']'); }
  Json& key(const char* k);
  Json& null();
  Json& boolean(bool v);
  Json& integer(std::uint64_t v);
  Json& integer(std::int64_t v);
  Json& integer(std::uint32_t v) { return integer(std::uint64_t{v}); }
  Json& integer(std::int32_t v) { return integer(std::int64_t{v}); }
  Json& string(std::string_view v);
  // Text that already is a JSON value (a number's digits).
  Json& raw(std::string_view v);
  // 16 lowercase hex digits: a 64-bit value a double would round.
  Json& hex64(std::uint64_t v);
  // An array of the byte values (the TypeScript layer makes a Uint8Array).
  Json& bytes(const std::uint8_t* p, std::size_t n);

  // key(k) then the value.
  template <class T>
  Json& field(const char* k, T v) {
    key(k);
    if constexpr (std::is_same_v<T, bool>) {
      return boolean(v);
    } else if constexpr (std::is_convertible_v<T, std::string_view>) {
      return string(v);
    } else {
      return integer(v);
    }
  }

  // Makes the text the result: what the export returns.
  std::uintptr_t finish() noexcept {
    gResultText = std::move(text_);
    return resultAt(gResultText.data(), gResultText.size());
  }

 private:
  Json& open(char c);
  Json& close(char c);
  void separate();
  std::string text_;
  bool first_ = true;  // no value yet at this nesting level
  bool afterKey_ = false;
};

}  // namespace laige_wasm
