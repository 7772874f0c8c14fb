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
  for (std::uint32_t i = 0; i < n; ++i) q.anyWith = q.anyWith || q.kinds[i] == TermKind::With;
  return Status{};
}

Status QueryAccess::beginGuard(World& w, DynamicQuery& q, QueryRun& run, ChangeRun& window) noexcept {
  const QuerySpec spec = specOf(q);
  const Status st = q.filtered ? ChangeAccess::beginFiltered(w, q.cache, spec, run, window)
                               : w.beginQuery(q.cache, spec, run);
  if (!st.ok() || run.archetypes == nullptr || !q.anyWith) return st;
  // The TypeScript layer's rule: a With term (a tag) is guarded as read
  // too: an in-place write of it during the walk is rejected.
  for (std::uint32_t i = 0; i < q.count; ++i) {
    if (q.kinds[i] == TermKind::With) w.s_->ecs.guard.read.insert(q.ids[i]);
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
