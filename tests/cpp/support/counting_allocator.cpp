// counting_allocator.cpp - global operator new/delete replacements that count.
//
// Under ASan these call malloc, which ASan intercepts: counting still works.
#include "support/counting_allocator.h"

#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <new>

namespace {
std::atomic<std::uint64_t> gAllocs{0};
std::atomic<std::uint64_t> gFrees{0};

void* countedAlloc(std::size_t size, std::size_t align) {
  gAllocs.fetch_add(1, std::memory_order_relaxed);
  if (size == 0) size = 1;
  void* p = nullptr;
  if (align > alignof(std::max_align_t)) {
    const std::size_t rounded = (size + align - 1) / align * align;
    p = std::aligned_alloc(align, rounded);
  } else {
    p = std::malloc(size);
  }
  if (p == nullptr) std::abort();  // tests never run out of memory on purpose
  return p;
}

void countedFree(void* p) noexcept {
  if (p == nullptr) return;
  gFrees.fetch_add(1, std::memory_order_relaxed);
  std::free(p);
}
}  // namespace

namespace laige::test {
std::uint64_t allocationCount() noexcept { return gAllocs.load(std::memory_order_relaxed); }
std::uint64_t deallocationCount() noexcept { return gFrees.load(std::memory_order_relaxed); }
}  // namespace laige::test

void* operator new(std::size_t n) { return countedAlloc(n, alignof(std::max_align_t)); }
void* operator new[](std::size_t n) { return countedAlloc(n, alignof(std::max_align_t)); }
void* operator new(std::size_t n, std::align_val_t a) { return countedAlloc(n, static_cast<std::size_t>(a)); }
void* operator new[](std::size_t n, std::align_val_t a) { return countedAlloc(n, static_cast<std::size_t>(a)); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return countedAlloc(n, alignof(std::max_align_t)); }
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept { return countedAlloc(n, alignof(std::max_align_t)); }
void operator delete(void* p) noexcept { countedFree(p); }
void operator delete[](void* p) noexcept { countedFree(p); }
void operator delete(void* p, std::size_t) noexcept { countedFree(p); }
void operator delete[](void* p, std::size_t) noexcept { countedFree(p); }
void operator delete(void* p, std::align_val_t) noexcept { countedFree(p); }
void operator delete[](void* p, std::align_val_t) noexcept { countedFree(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { countedFree(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { countedFree(p); }
