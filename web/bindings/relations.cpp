// relations.cpp - relations between entities for web/src/relations/relations.ts
// (docs/relations.md; part of the binding layer: web/bindings/common.h says
// how it is built). Plain wasm exports only. Adds and removes of a relation
// need nothing here: they are component adds and removes (worldAdd,
// worldRemove, the command records), and the core applies the relation rules
// on every structural path. Setup and walk paths: compiled with -Oz.
#include "common.h"
#include "laige/query_object.h"
#include "laige/relations.h"
#include "query_cursors.h"

using namespace laige_wasm;

namespace {

// Calls Module.laigeRelationVisit(source, target): 0 = go on, else the JS
// callback threw (the TypeScript walk keeps the error and rethrows it after
// the walk; no further visit calls JS).
EM_JS(std::int32_t, laige_js_relation_visit, (std::uint32_t source, std::uint32_t target), {
  try {
    return Module['laigeRelationVisit'](source, target);
  } catch (e) {
    return 1;
  }
});

// name: `nameSize` UTF-8 bytes at `name`; onTargetDestroyed: the
// OnTargetDestroyed value (web/boundary.json enums.relation); writes the
// relation's component id at `out`.
std::uint32_t relationRegister(std::uintptr_t w, std::uintptr_t name, std::uint32_t nameSize,
                               std::uint32_t onTargetDestroyed, bool exclusive, std::uintptr_t out) {
  laige::RelationOptions o;
  o.exclusive = exclusive;
  o.onTargetDestroyed = static_cast<laige::OnTargetDestroyed>(onTargetDestroyed);
  auto r = laige::registerRelation(W(w).world, std::string_view(at<const char>(name), nameSize), o);
  if (r.isError()) return code(r);
  *at<std::uint32_t>(out) = r.value();
  return 0;
}
std::uint32_t relationTargetOf(std::uintptr_t w, std::uint32_t e, std::uint32_t rel) {
  return laige::targetOf(W(w).world, ent(e), rel).bits();
}
std::uint32_t relationSourceCount(std::uintptr_t w, std::uint32_t e, std::uint32_t rel) {
  return laige::sourceCount(W(w).world, ent(e), rel);
}
// Writes the sources (u32 handles, ascending slots) from out + 4 and their
// count at out; `max` handles fit.
std::uint32_t relationSourcesOf(std::uintptr_t w, std::uint32_t target, std::uint32_t rel, std::uintptr_t out,
                                std::uint32_t max) {
  auto* o = at<std::uint32_t>(out);
  std::uint32_t n = 0;
  const Status st = laige::sourcesOf(W(w).world, ent(target), rel, [&](laige::Entity s) {
    if (n < max) o[1 + n] = s.bits();
    ++n;
  });
  o[0] = n;
  return code(st);
}
std::uint32_t relationEachCascade(std::uintptr_t w, std::uint32_t rel) {
  bool stopped = false;
  return code(laige::eachCascade(W(w).world, rel, [&](laige::Entity source, laige::Entity target) {
    if (!stopped) stopped = laige_js_relation_visit(source.bits(), target.bits()) != 0;
  }));
}
// The cascade option of a TypeScript query (Query.eachCascade): begins a
// pass of query q in hierarchy order through `rel` (with a non-zero
// `target`: over the rows of target's sources, Query.eachSourceOf) and writes its cursor
// table as the archetype-order begin does (query.cpp), one cursor per run
// of entries that are consecutive rows of one matched archetype (within a
// depth the order is ascending by slot, so an archetype's rows mostly come
// in runs), and the visited handles at `handles` (0 = none). The table's
// address at out. Returns the begin code when it failed, else count << 8;
// a pass that began is ended by relationQueryEndCascade.
std::uint32_t relationQueryBeginCascade(std::uintptr_t w, std::uint32_t q, std::uint32_t rel, std::uint32_t target,
                                        std::uintptr_t handles, std::uintptr_t out) {
  JsWorld& jw = W(w);
  JsWorld::Query* jq = queryAt(jw, q);
  if (jq == nullptr) return fail(ErrorCode::InvalidArgument, "query_invalid");
  laige::detail::QueryRun run;
  laige::detail::CascadeRun cas;
  const Status st = laige::detail::QueryAccess::beginCascade(jw.world, jq->q, rel, run, cas, ent(target));
  if (!st.ok()) return code(st);
  if (run.archetypes == nullptr) return fail(ErrorCode::InvalidArgument, "world_moved_from");  // (a binding's world never is)
  CursorWriter cw{jw.cursorTable, jq->q, jq->columns, at<std::uint32_t>(handles), jw.world.generationTable()};
  const laige::detail::IdSet256 matched = *run.matched;
  for (std::uint32_t k = 0; k < cas.count;) {
    const laige::detail::CascadeEntry& e = cas.entries[k];
    if (!matched.contains(e.arch)) {
      ++k;
      continue;
    }
    std::uint32_t n = 1;
    while (k + n < cas.count && cas.entries[k + n].arch == e.arch && cas.entries[k + n].row == e.row + n) ++n;
    cw(*run.archetypes[e.arch], e.row, n);
    k += n;
  }
  *at<std::uint32_t>(out) = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(jw.cursorTable.data()));
  return cw.count << 8;
}
// Ends the pass relationQueryBeginCascade began (always, from a finally):
// the walk flag dropped, the guard off, the commands recorded during it applied.
void relationQueryEndCascade(std::uintptr_t w) { laige::detail::RelationAccess::endCascade(W(w).world); }
std::uint32_t relationCheck(std::uintptr_t w) { return code(laige::checkRelations(W(w).world)); }

}  // namespace

// The exports web/boundary.json lists for this file.
#define LAIGE_BINDINGS_RELATIONS
#include "registrations.gen.inc"
