// query.cpp - the TypeScript Query as a handle to a query registered once
// in the core (part of the binding layer: web/bindings/common.h says how it
// is built). Creating one is the only time its component ids cross; a walk
// is one call to begin (the core's cache matches, guards, applies `without`
// and the change filters, and writes the cursor table) and one to end;
// count() is one call. Plain wasm exports, as the per-entity hot path of
// world.cpp (raw.ts calls them straight through the instance's exports).
#include "common.h"
#include "query_cursors.h"

using namespace laige_wasm;

namespace {

// Queries a world may hold at once (each Query object, including the ones
// World.each caches and every system's, holds one until it is collected or
// the world is disposed).
constexpr std::uint32_t kMaxQueriesPerWorld = 16384;

}  // namespace

extern "C" {
// Registers a query of n terms (ids[i], kinds[i]: laige::detail::TermKind);
// the cursor table's columns are terms [0, columns). Writes its id (>= 1) at out.
LAIGE_COLD_BINDING EMSCRIPTEN_KEEPALIVE std::uint32_t laige_world_query_create(std::uintptr_t w, std::uintptr_t ids, std::uintptr_t kinds,
                                                      std::uint32_t n, std::uint32_t columns, std::uintptr_t out) {
  JsWorld& jw = W(w);
  if (columns > n) return fail(ErrorCode::InvalidArgument, "query_invalid");
  auto jq = std::unique_ptr<JsWorld::Query>(new (std::nothrow) JsWorld::Query());
  if (!jq) {  // the memory for one more query is the limit reached
    return code(Status::failure(ErrorCode::BudgetExhausted, "query_limit_exceeded").with("max", kMaxQueriesPerWorld));
  }
  const Status st = laige::detail::QueryAccess::init(jw.world, jq->q, at<const laige::ComponentTypeId>(ids),
                                                     at<const std::uint8_t>(kinds), n);
  if (!st.ok()) return code(st);
  jq->columns = columns;
  std::uint32_t id = 0;
  if (!jw.freeQueries.empty()) {
    id = jw.freeQueries.back();
    jw.freeQueries.pop_back();
    jw.queries[id - 1] = std::move(jq);
  } else {
    if (jw.queries.size() >= kMaxQueriesPerWorld) {
      return code(Status::failure(ErrorCode::BudgetExhausted, "query_limit_exceeded").with("max", kMaxQueriesPerWorld));
    }
    jw.queries.push_back(std::move(jq));
    id = static_cast<std::uint32_t>(jw.queries.size());
  }
  *at<std::uint32_t>(out) = id;
  return 0;
}

// Frees query q (its Query object was collected). Not during its own walk.
EMSCRIPTEN_KEEPALIVE void laige_world_query_destroy(std::uintptr_t w, std::uint32_t q) {
  JsWorld& jw = W(w);
  if (queryAt(jw, q) == nullptr) return;
  jw.queries[q - 1].reset();
  jw.freeQueries.push_back(q);
}

// Begins a walk of query q: the core's guard, io check and change filters,
// then the cursor table (its address written at out) and, when `handles`
// is non-zero, the walked rows' live handles there. Returns the begin code
// when it failed, else count << 8 (codes < 256).
EMSCRIPTEN_KEEPALIVE std::uint32_t laige_world_query_begin(std::uintptr_t w, std::uint32_t q, std::uintptr_t handles,
                                                     std::uintptr_t out) {
  JsWorld& jw = W(w);
  JsWorld::Query* jq = queryAt(jw, q);
  if (jq == nullptr) return fail(ErrorCode::InvalidArgument, "query_invalid");
  CursorWriter cw{jw.cursorTable, jq->q, jq->columns, at<std::uint32_t>(handles), jw.world.generationTable()};
  const Status st = laige::detail::QueryAccess::begin(jw.world, jq->q, jw.change, cw);
  if (!st.ok()) return code(st);
  // The column pointers, per cursor (after the runs: the table may have moved while it grew).
  *at<std::uint32_t>(out) = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(jw.cursorTable.data()));
  return cw.count << 8;
}

// Ends the walk begun by laige_world_query_begin (always, from a finally).
EMSCRIPTEN_KEEPALIVE void laige_world_query_end(std::uintptr_t w, std::uint32_t q) {
  JsWorld& jw = W(w);
  JsWorld::Query* jq = queryAt(jw, q);
  if (jq == nullptr) {
    jw.world.endIteration();
    return;
  }
  laige::detail::QueryAccess::end(jw.world, jq->q, jw.change);
}

// Live rows of the archetypes query q matches (its filters not applied).
EMSCRIPTEN_KEEPALIVE std::uint32_t laige_world_query_count(std::uintptr_t w, std::uint32_t q) {
  JsWorld& jw = W(w);
  JsWorld::Query* jq = queryAt(jw, q);
  return jq == nullptr ? 0u : laige::detail::QueryAccess::count(jw.world, jq->q);
}

// The archetypes query q matches now, ascending, at out (u32, at most 256). Returns their count.
EMSCRIPTEN_KEEPALIVE std::uint32_t laige_world_query_archetypes(std::uintptr_t w, std::uint32_t q, std::uintptr_t out) {
  JsWorld& jw = W(w);
  JsWorld::Query* jq = queryAt(jw, q);
  if (jq == nullptr) return 0;
  const laige::detail::IdSet256 m = laige::detail::QueryAccess::matched(jw.world, jq->q);
  auto* o = at<std::uint32_t>(out);
  std::uint32_t n = 0;
  for (std::uint32_t id = 1; id <= 256; ++id) {
    if (m.contains(id)) o[n++] = id;
  }
  return n;
}
}  // extern "C"

// The exports web/boundary.json lists for this file.
#define LAIGE_BINDINGS_QUERY
#include "registrations.gen.inc"
