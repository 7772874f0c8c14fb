// nothrow_new.cpp - `new (std::nothrow)` that returns nullptr in wasm.
//
// The core allocates its large blocks with `new (std::nothrow)` and turns a
// nullptr into a reason (rollback_alloc_failed, archetype_alloc_failed,
// snapshot_alloc_failed, command_buffer_alloc_failed; docs/errors.md).
// Emscripten's libc++, built without exceptions, implements the nothrow
// forms through the throwing ones, which abort() when malloc fails: the
// wasm module would stop instead of reporting the reason. These strong
// definitions replace libc++'s weak ones for the npm package's module: the
// same memory (malloc; libc++'s operator delete frees it), nullptr on
// failure. Not for native builds, whose nothrow new already returns
// nullptr (and whose test allocator replaces it).
#include <cstdlib>
#include <new>

void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  return std::malloc(size == 0 ? 1 : size);
}

void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
  return std::malloc(size == 0 ? 1 : size);
}
