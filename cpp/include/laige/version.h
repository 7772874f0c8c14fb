// laige/version.h - the library version (kept in step with CMakeLists.txt and package.json).
#pragma once

namespace laige {

/// Major version: breaking API changes.
inline constexpr int kVersionMajor = 0;
/// Minor version: additive API changes.
inline constexpr int kVersionMinor = 1;
/// Patch version: fixes.
inline constexpr int kVersionPatch = 0;
/// "major.minor.patch".
inline constexpr const char* kVersionString = "0.1.0";

}  // namespace laige
