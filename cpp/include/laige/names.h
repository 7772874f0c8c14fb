// laige/names.h - what a valid name is, in one place per kind: system names
// (and the names a dependsOn list holds) and component names. Every entry
// point (the C++ registries, the wasm bindings, the TypeScript layer's
// web/src/component/names.ts) applies these rules, so a name accepted in one place is
// accepted everywhere. `docs/systems.md#names`, `docs/component_registry.md#errors`.
#pragma once

#include <cstdint>
#include <string_view>

namespace laige {

/// The longest system name, in bytes (UTF-8).
inline constexpr std::uint32_t kMaxSystemNameLength = 63;

/// Why `name` is not a valid system name, or nullptr when it is. Valid:
/// 1..kMaxSystemNameLength bytes, no control character (bytes 0x00-0x1f
/// and 0x7f, NUL included), no comma (dependsOn lists are comma-separated),
/// no space at either end. Reasons: "empty", "too_long", "control_char",
/// "comma", "surrounding_space". O(length), no allocation.
[[nodiscard]] const char* systemNameProblem(std::string_view name) noexcept;

/// Why `name` is not a valid component name, or nullptr when it is. Valid:
/// 1..kMaxComponentNameLength (63) bytes, no control character (NUL and
/// newline included), no space at either end (so never only spaces).
/// Reasons: "empty", "too_long", "control_char", "surrounding_space".
/// O(length), no allocation.
[[nodiscard]] const char* componentNameProblem(std::string_view name) noexcept;

}  // namespace laige
