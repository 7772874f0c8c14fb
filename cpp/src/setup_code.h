// setup_code.h - a mark for core functions that run once per world, per
// registration or for a diagnosis (never per entity or per tick): the wasm
// build compiles them for size (docs/build.md#the-wasm-modules-size);
// native builds are untouched.
#pragma once

#if defined(__EMSCRIPTEN__)
#define LAIGE_SETUP_CODE [[clang::minsize]]
#else
#define LAIGE_SETUP_CODE
#endif
