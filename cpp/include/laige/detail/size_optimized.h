// size_optimized.h - LAIGE_SIZE_OPTIMIZED marks a function that runs at setup
// only (creating a world, registering a system, a scenario's setup) in a
// source file otherwise compiled for speed: the wasm build compiles it for
// size (docs/build.md#the-wasm-modules-size); elsewhere the mark is nothing.
// Optimisation levels do not change results (docs/determinism.md#the-rules).
#pragma once

#if defined(__EMSCRIPTEN__) && defined(__clang__)
#define LAIGE_SIZE_OPTIMIZED [[clang::minsize]]
#else
#define LAIGE_SIZE_OPTIMIZED
#endif
