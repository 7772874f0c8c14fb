// prefabs.cpp - prefabs for web/src/relations/prefabs.ts (docs/prefabs.md;
// part of the binding layer: web/bindings/common.h says how it is built).
// Plain wasm exports only; every rule and check is the core's
// (laige/prefabs.h). Setup and structural paths: compiled with -Oz.
#include "common.h"
#include "laige/prefabs.h"

using namespace laige_wasm;

namespace {

// Overrides cross as `count` (component id, byte offset from `bytes`, size)
// u32 triples at `values`; the core checks each (prefab_override_invalid).
constexpr std::uint32_t kMaxOverrides = 32;

std::uint32_t prefabRegister(std::uintptr_t w, std::uintptr_t out) {
  auto r = laige::registerPrefabs(W(w).world);
  if (r.isError()) return code(r);
  *at<std::uint32_t>(out) = r.value();
  return 0;
}
std::uint32_t prefabCreate(std::uintptr_t w, std::uintptr_t out) {
  auto r = laige::createPrefab(W(w).world);
  if (r.isError()) return code(r);
  *at<std::uint32_t>(out) = r.value().bits();
  return 0;
}
std::uint32_t prefabMake(std::uintptr_t w, std::uint32_t e) { return code(laige::makePrefab(W(w).world, ent(e))); }
bool prefabIs(std::uintptr_t w, std::uint32_t e) { return laige::isPrefab(W(w).world, ent(e)); }
std::uint32_t prefabTag(std::uintptr_t w) { return laige::prefabTag(W(w).world); }
// instantiate (deferred: instantiateDeferred) of `prefab` copying the tree
// of relation `hierarchy` (0: the prefab alone); writes the root instance's
// handle at out.
std::uint32_t prefabInstantiate(std::uintptr_t w, std::uint32_t prefab, std::uint32_t hierarchy, std::uintptr_t values,
                                std::uint32_t count, std::uintptr_t bytes, bool deferred, std::uintptr_t out) {
  if (count > kMaxOverrides) {
    return fail(ErrorCode::InvalidArgument, "prefab_override_invalid");  // (the TypeScript layer passes at most kMaxOverrides)
  }
  laige::ComponentValue v[kMaxOverrides];
  const auto* t = at<const std::uint32_t>(values);
  for (std::uint32_t i = 0; i < count; ++i) {
    v[i] = laige::ComponentValue{t[3 * i], at<const void>(bytes + t[3 * i + 1]), t[3 * i + 2]};
  }
  laige::InstantiateOptions o;
  o.hierarchy = hierarchy;
  const std::span<const laige::ComponentValue> overrides(v, count);
  auto r = deferred ? laige::instantiateDeferred(W(w).world, ent(prefab), o, overrides)
                    : laige::instantiate(W(w).world, ent(prefab), o, overrides);
  if (r.isError()) return code(r);
  *at<std::uint32_t>(out) = r.value().bits();
  return 0;
}

}  // namespace

// The exports web/boundary.json lists for this file.
#define LAIGE_BINDINGS_PREFABS
#include "registrations.gen.inc"
