// dynamic_query.cpp - queries whose terms are given at run time
// (laige/detail/dynamic_query.h): the TypeScript layer's Query runs on the
// core's cache, guard and change filters through these.
#include "laige/detail/dynamic_query.h"

#include <bit>

#include "laige/detail/world_state.h"
#include "laige/query_object.h"
#include "laige/world.h"

namespace laige::detail {

namespace {

QuerySpec specOf(DynamicQuery& q) noexcept { return QuerySpec{nullptr, q.kinds, q.ids, q.count}; }

Status invalidQuery(const char* reason, std::uint32_t term) noexcept {
  return Status::failure(ErrorCode::InvalidArgument, "query_invalid").with("reason", reason).with("term", term);
}

// The filtered selection of one archetype: the rows whose every filter
// passes, as runs; a selected row's Write terms are marked (as the inline
// filtered walk marks each row it visits).
void visitFiltered(const DynamicQuery& q, Archetype& a, const ChangeRun& cr, QueryRunVisitor visit,
                   void* context) noexcept {
  const std::uint32_t rows = a.rowCount;
  for (std::uint32_t i = 0; i < q.count; ++i) {
    if (!termFilters(q.kinds[i])) continue;
    const std::uint32_t col = a.colOf[q.ids[i]] - 1u;
    std::uint32_t bound = a.colTick[col] > a.moveInTick ? a.colTick[col] : a.moveInTick;
    if (q.kinds[i] == TermKind::Changed && a.bulkTick[col] > bound) bound = a.bulkTick[col];
    if (bound <= cr.since) return;  // nothing in this archetype can pass: no row read
  }
  std::uint32_t runStart = 0;
  std::uint32_t runRows = 0;
  for (std::uint32_t r = 0; r < rows; ++r) {
    const std::uint32_t slot = a.slots[r];
    bool pass = true;
    for (std::uint32_t i = 0; i < q.count && pass; ++i) {
      if (!termFilters(q.kinds[i])) continue;
      std::uint32_t t = cr.ticks[i][slot];
      if (q.kinds[i] == TermKind::Changed) {
        const std::uint32_t bulk = a.bulkTick[a.colOf[q.ids[i]] - 1u];
        if (bulk > t) t = bulk;
      }
      pass = t > cr.since;
    }
    if (!pass) {
      if (runRows != 0) visit(context, a, runStart, runRows);
      runRows = 0;
      continue;
    }
    for (std::uint32_t i = 0; i < q.count; ++i) {
      if (cr.mark[i] == nullptr || a.colOf[q.ids[i]] == 0) continue;
      cr.mark[i][slot] = cr.stamp;
      a.colTick[a.colOf[q.ids[i]] - 1u] = cr.stamp;
    }
    if (runRows == 0) runStart = r;
    ++runRows;
  }
  if (runRows != 0) visit(context, a, runStart, runRows);
}

}  // namespace

Status QueryAccess::init(const World& w, DynamicQuery& q, const ComponentTypeId* ids, const std::uint8_t* kinds,
                         std::uint32_t n) noexcept {
  if (n == 0 || n > kMaxArchetypeComponents) return invalidQuery("term_count", n);
  bool required = false;
  bool filtered = false;
  for (std::uint32_t i = 0; i < n; ++i) {
    if (kinds[i] > static_cast<std::uint8_t>(TermKind::Added)) return invalidQuery("kind", i);
    if (ids[i] == kInvalidComponentTypeId || ids[i] > w.componentCount()) return invalidQuery("component", i);
    required = required || termRequired(static_cast<TermKind>(kinds[i]));
    filtered = filtered || termFilters(static_cast<TermKind>(kinds[i]));
  }
  if (!required) return invalidQuery("no_required_term", 0);
  q = DynamicQuery{};
  for (std::uint32_t i = 0; i < n; ++i) {
    q.ids[i] = ids[i];
    q.kinds[i] = static_cast<TermKind>(kinds[i]);
  }
  q.count = n;
  q.filtered = filtered;
  return Status{};
}

Status QueryAccess::begin(World& w, DynamicQuery& q, ChangeRun& change, QueryRunVisitor visit,
                          void* context) noexcept {
  QueryRun run;
  const QuerySpec spec = specOf(q);
  // `change` is written only by a begin that succeeded: a refused one (a
  // nested walk) leaves the live walk's window as it is.
  ChangeRun window;
  const Status st = q.filtered ? ChangeAccess::beginFiltered(w, q.cache, spec, run, window)
                               : w.beginQuery(q.cache, spec, run);
  if (!st.ok() || run.archetypes == nullptr) return st;
  change = window;
  // The TypeScript layer's rule: a With term (a tag) is guarded as read
  // too: an in-place write of it during the walk is rejected.
  for (std::uint32_t i = 0; i < q.count; ++i) {
    if (q.kinds[i] == TermKind::With) w.s_->ecs.guard.read.insert(q.ids[i]);
  }
  for (std::uint32_t word = 0; word < 4; ++word) {
    std::uint64_t bits = run.matched->words[word];
    while (bits != 0) {
      const std::uint32_t aid = word * 64 + static_cast<std::uint32_t>(std::countr_zero(bits)) + 1;
      bits &= bits - 1;
      Archetype& a = *run.archetypes[aid];
      if (a.rowCount == 0) continue;  // normalised at begin: no holes, no tail
      if (q.filtered) visitFiltered(q, a, change, visit, context);
      else visit(context, a, 0, a.rowCount);
    }
  }
  return st;
}

void QueryAccess::end(World& w, DynamicQuery& q, const ChangeRun& change) noexcept {
  if (q.filtered) ChangeAccess::endFiltered(w, q.cache, change);
  w.endIteration();
}

std::uint32_t QueryAccess::count(World& w, DynamicQuery& q) noexcept { return w.queryCount(q.cache, specOf(q)); }

IdSet256 QueryAccess::matched(World& w, DynamicQuery& q) noexcept {
  if (!w.s_) return IdSet256{};
  // During a live walk the walked cache must not grow: refresh a copy.
  QueryCache copy = q.cache;
  QueryCache& c = w.s_->ecs.guard.active ? copy : q.cache;
  refreshQueryCache(*w.s_, c, specOf(q));
  return c.matched;
}

}  // namespace laige::detail
