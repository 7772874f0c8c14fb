// shortest_float.h - the shortest decimal text that reads back as the same
// double or float, laid out as std::to_chars(first, last, value) does
// (docs/logging.md#fields). Internal: log::field(key, double/float) uses it
// where the standard library has no floating-point to_chars (emscripten
// 3.1.6's libc++), so log lines read the same on native and wasm.
//
// Exact integer arithmetic (a small fixed-size big integer on the stack),
// no libc formatting or parsing: printf's and strtod's float code would
// cost the wasm module about 15 KB (docs/build.md#the-wasm-modules-size).
#pragma once

#include <cstddef>

namespace laige::detail {

/// Writes the shortest round-trip text of `value` (finite) to `out`, at most
/// `cap` bytes (cut there; the text is at most 24 bytes), and returns its
/// length. Digits: the fewest that read back to `value`; of those, the ones
/// nearest to it (ties to even); at a power of two, where the gap below is
/// half the gap above, the next decimal up when the nearest does not read
/// back. Layout: fixed or scientific (`1e+20`, `1.5e-07`), whichever is
/// shorter, ties to fixed; a fixed integer prints the exact integer value;
/// `-0` for negative zero. No allocation; about 800 bytes of stack.
std::size_t shortestDouble(double value, char* out, std::size_t cap) noexcept;
/// shortestDouble for a float: the fewest digits that read back as this
/// float (not the double it widens to).
std::size_t shortestFloat(float value, char* out, std::size_t cap) noexcept;

}  // namespace laige::detail
