// world.cpp - the World, its components, the JS iteration and the state hash
// (part of the binding layer: web/bindings/common.h says how it is built).
#include "common.h"
#include "layouts.gen.h"

using namespace laige_wasm;

namespace {

// ---------------------------------------------------------------------------
// World
// ---------------------------------------------------------------------------



LAIGE_COLD_BINDING std::uint32_t worldCreate(std::uint32_t capacity, std::uint32_t churn, std::uint32_t seedLo,
                          std::uint32_t seedHi, bool deterministic, std::uintptr_t out) {
  laige::World::Options o;
  o.capacity = capacity;
  o.churnPerFrameBudget = churn;
  o.seed = u64(seedLo, seedHi);
  o.deterministic = deterministic;
  auto r = laige::World::create(o);
  if (r.isError()) return code(r);
  auto* jw = new JsWorld(std::move(r).takeValue());
  *at<std::uint32_t>(out) = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(jw));
  return 0;
}
void worldDestroy(std::uintptr_t w) { delete at<JsWorld>(w); }

std::uint32_t worldCreateEntity(std::uintptr_t w, std::uintptr_t out) {
  auto r = W(w).world.create();
  if (r.isError()) return code(r);
  *at<std::uint32_t>(out) = r.value().bits();
  return 0;
}
std::uint32_t worldDestroyEntity(std::uintptr_t w, std::uint32_t e) { return code(W(w).world.destroy(ent(e))); }
std::uint32_t worldCheck(std::uintptr_t w, std::uint32_t e) { return code(W(w).world.check(ent(e))); }
bool worldIsValid(std::uintptr_t w, std::uint32_t e) { return W(w).world.isValid(ent(e)); }
std::uint32_t worldCapacity(std::uintptr_t w) { return W(w).world.capacity(); }
std::uint32_t worldEntityCount(std::uintptr_t w) { return W(w).world.entityCount(); }
std::uint32_t worldClear(std::uintptr_t w) { return code(W(w).world.clear()); }
std::uint32_t worldHandleAt(std::uintptr_t w, std::uint32_t id) {
  return id > 0xFFFF ? 0u : W(w).world.handleAt(static_cast<std::uint16_t>(id)).bits();
}
// each([]) walks slots with this: an entity created during the live
// iteration reads as absent (docs/query.md).
std::uint32_t worldIterationHandleAt(std::uintptr_t w, std::uint32_t id) {
  if (id > 0xFFFF) return 0u;
  const laige::World& world = W(w).world;
  const auto slot = static_cast<std::uint16_t>(id);
  return world.createdDuringIteration(slot) ? 0u : world.handleAt(slot).bits();
}
void worldBeginFrame(std::uintptr_t w) { W(w).world.beginFrame(); }

// The stats as the table web/layouts.json lays them out (layouts.gen.h).
// EntityStats and ArchetypeStats counters stay far below 2^53 as doubles.
LAIGE_COLD_BINDING void worldStats(std::uintptr_t w, std::uintptr_t out) {
  laige_layout::EntityStats::write(W(w).world.stats(), at<double>(out));
}
LAIGE_COLD_BINDING void worldGuardrailStats(std::uintptr_t w, std::uintptr_t out) {
  laige_layout::GuardrailStats::write(W(w).world.guardrailStats(), at<std::uint32_t>(out));
}
LAIGE_COLD_BINDING void worldArchetypeStats(std::uintptr_t w, std::uintptr_t out) {
  laige_layout::ArchetypeStats::write(W(w).world.archetypeStats(), at<double>(out));
}

// ---------------------------------------------------------------------------
// Components
// ---------------------------------------------------------------------------

// fields: "name kind count" per field, comma-separated (the TypeScript
// layer checked every name is an identifier, so neither separator occurs in
// one; anything else is refused as component_desc_invalid). Lays the fields
// out in C order (layoutComponentFields) and registers them. Writes {code,
// id, reason, field}.
LAIGE_COLD_BINDING void worldRegisterComponent(Json& out, std::uintptr_t w, std::string_view name, std::string_view fields) {
  std::vector<std::string_view> names;
  std::vector<laige::ComponentField> fs;
  bool wellFormed = true;
  while (!fields.empty() && wellFormed) {
    const std::size_t end = std::min(fields.find(','), fields.size());
    std::string_view item = fields.substr(0, end);
    fields.remove_prefix(end < fields.size() ? end + 1 : end);
    const std::size_t s1 = item.find(' ');
    const std::size_t s2 = s1 == std::string_view::npos ? s1 : item.find(' ', s1 + 1);
    std::uint32_t numbers[2] = {0, 0};
    wellFormed = s2 != std::string_view::npos && s1 > 0;
    for (int k = 0; k < 2 && wellFormed; ++k) {
      const std::string_view digits = k == 0 ? item.substr(s1 + 1, s2 - s1 - 1) : item.substr(s2 + 1);
      wellFormed = !digits.empty() && digits.size() <= 9;
      for (const char c : digits) {
        wellFormed = wellFormed && c >= '0' && c <= '9';
        numbers[k] = numbers[k] * 10 + static_cast<std::uint32_t>(c - '0');
      }
    }
    if (!wellFormed) break;
    names.push_back(item.substr(0, s1));
    laige::ComponentField f;
    f.name = names.back();
    f.kind = static_cast<laige::FieldKind>(numbers[0]);
    f.count = numbers[1];
    fs.push_back(f);
  }
  const auto n = static_cast<std::uint32_t>(fs.size());
  laige::ComponentDesc d;
  d.name = name;
  laige::LayoutCheck lc{};
  if (wellFormed) lc = laige::layoutComponentFields(fs, d.size, d.alignment);
  if (!wellFormed || !lc.ok()) {
    const char* reason = wellFormed ? lc.reason : "fields_malformed";
    const ErrorCode c = wellFormed ? lc.code : ErrorCode::MalformedInput;
    out.beginObject()
        .field("code", code(Status::failure(c, "component_desc_invalid")
                                .with("name", name)
                                .with("reason", reason)
                                .with("field", lc.field)
                                .with("field_name", lc.field < n ? names[lc.field] : std::string_view{})))
        .field("id", 0u)
        .field("reason", reason)
        .field("field", lc.field)
        .endObject();
    return;
  }
  d.fields = fs;
  auto r = W(w).world.registerComponentDesc(d);
  out.beginObject()
      .field("code", code(r))
      .field("id", r.ok() ? r.value() : 0u)
      .field("reason", r.ok() ? "" : "rejected_by_world")
      .field("field", 0u)
      .endObject();
}

// {id, name, size, alignment, fields: [[name, kind, count, offset]...]} or null.
LAIGE_COLD_BINDING void worldComponentInfo(Json& out, std::uintptr_t w, std::uint32_t id) {
  auto r = W(w).world.componentInfo(id);
  if (r.isError()) {
    out.null();
    return;
  }
  const laige::ComponentInfo& ci = r.value();
  out.beginObject().field("id", ci.id).field("name", ci.name).field("size", ci.size).field("alignment", ci.alignment);
  out.key("fields").beginArray();
  for (const laige::ComponentField& f : ci.fields) {
    out.beginArray().string(f.name).integer(static_cast<std::uint32_t>(f.kind)).integer(f.count).integer(f.offset).endArray();
  }
  out.endArray().endObject();
}
std::uint32_t worldComponentCount(std::uintptr_t w) { return W(w).world.componentCount(); }

std::uint32_t worldAdd(std::uintptr_t w, std::uint32_t e, std::uint32_t c, std::uintptr_t bytes,
                       std::uint32_t size) {
  return code(W(w).world.addComponentBytes(ent(e), c, at<const void>(bytes), size));
}
std::uint32_t worldRemove(std::uintptr_t w, std::uint32_t e, std::uint32_t c) {
  return code(W(w).world.removeComponentById(ent(e), c));
}
bool worldHas(std::uintptr_t w, std::uint32_t e, std::uint32_t c) {
  return W(w).world.hasComponent(ent(e), c);
}
// The component's bytes in its column (0 when absent): valid until the next
// structural change; the TS layer copies them out at once.
std::uintptr_t worldGet(std::uintptr_t w, std::uint32_t e, std::uint32_t c) {
  // The const overload: the TS get copies the value out (a read), so inside
  // a system it must not count as a get for writing (the TS layer checks
  // its own writes against the system's io).
  return reinterpret_cast<std::uintptr_t>(std::as_const(W(w).world).getBytes(ent(e), c));
}
std::uint32_t worldArchetypeOf(std::uintptr_t w, std::uint32_t e) { return W(w).world.archetypeOf(ent(e)); }
std::uint32_t worldArchetypeCount(std::uintptr_t w) { return W(w).world.archetypeCount(); }
LAIGE_COLD_BINDING void worldArchetypeComponents(Json& out, std::uintptr_t w, std::uint32_t a) {
  out.beginArray();
  if (a <= 0xFFFF) {
    for (laige::ComponentTypeId c : W(w).world.archetypeComponents(static_cast<laige::ArchetypeId>(a))) out.integer(c);
  }
  out.endArray();
}

// ---------------------------------------------------------------------------
// Iteration (docs/query.md; docs/typescript.md): the TS each runs over column
// views between beginIteration and endIteration.
// ---------------------------------------------------------------------------

std::uint32_t worldBeginIteration(std::uintptr_t w, std::uintptr_t ids, std::uintptr_t access, std::uint32_t n) {
  return code(W(w).world.beginIteration(std::span<const laige::ComponentTypeId>(at<const laige::ComponentTypeId>(ids), n),
                                        std::span<const laige::Access>(at<const laige::Access>(access), n)));
}
void worldEndIteration(std::uintptr_t w) { W(w).world.endIteration(); }
bool worldIsIterating(std::uintptr_t w) { return W(w).world.isIterating(); }

// For every archetype the live iteration matched (at most `max`), writes
// (3 + n) u32: archetype id, rows, slot column, then the column of ids[i]
// for each listed component. Returns the matched count.
std::uint32_t worldIterationCursors(std::uintptr_t w, std::uintptr_t ids, std::uint32_t n, std::uintptr_t out,
                                    std::uint32_t max) {
  // One pass in the core (no call per archetype): its table is this layout.
  using Cursor = laige_layout::IterationCursor;
  static_assert(sizeof(std::uintptr_t) == sizeof(std::uint32_t) && Cursor::kCount == 3 && Cursor::archetype == 0 &&
                Cursor::rows == 1 && Cursor::slots == 2);
  return W(w).world.iterationCursorTable(std::span<const laige::ComponentTypeId>(at<const laige::ComponentTypeId>(ids), n),
                                         at<std::uintptr_t>(out), max);
}

// handles[r] = the live handle of slots[r], r < rows: the entity argument of
// the TS each and Chunk.entity (rows of a matched archetype are live, so the
// generation table suffices).
void worldFillHandles(std::uintptr_t w, std::uintptr_t slots, std::uint32_t rows, std::uintptr_t out) {
  const std::uint16_t* generations = W(w).world.generationTable();
  const auto* s = at<const std::uint32_t>(slots);
  auto* o = at<std::uint32_t>(out);
  for (std::uint32_t r = 0; r < rows; ++r) {
    const auto id = static_cast<std::uint16_t>(s[r]);
    o[r] = laige::Entity(id, generations[id]).bits();
  }
}


// The live rows of an archetype (queries count() and the system io checks).
std::uint32_t worldArchetypeRowCount(std::uintptr_t w, std::uint32_t a) {
  return a > 0xFFFF ? 0u : W(w).world.archetypeRowCount(static_cast<laige::ArchetypeId>(a));
}

// ---------------------------------------------------------------------------
// State hash and diff
// ---------------------------------------------------------------------------

void worldStateHash(std::uintptr_t w, std::uint32_t tickLo, std::uint32_t tickHi, std::uintptr_t out) {
  putU64(out, W(w).world.stateHash(u64(tickLo, tickHi)));
}
void worldComponentStateHash(std::uintptr_t w, std::uint32_t tickLo, std::uint32_t tickHi, std::uintptr_t out) {
  putU64(out, W(w).world.componentStateHash(u64(tickLo, tickHi)));
}
// {total, items: [{slot, componentId, size, presentInA, presentInB, bytesA, bytesB,
// entityA, entityB, relation, targetA, targetB, text}]} (bytesA / bytesB:
// arrays of byte values, or null where absent; handles as their bits, 0 for
// none; text: a relation item in words, docs/relations.md#relations-in-a-state-diff).
LAIGE_COLD_BINDING void worldStateDiff(Json& out, std::uintptr_t a, std::uintptr_t b, std::uint32_t maxItems) {
  out.beginObject().key("items").beginArray();
  const auto value = [&](const char* k, const std::uint8_t* p, std::uint32_t n) {
    out.key(k);
    if (p == nullptr) {
      out.null();
    } else {
      out.bytes(p, n);
    }
  };
  const std::uint32_t total = W(a).world.stateDiff(W(b).world, maxItems, [&](const laige::StateDiffItem& it) {
    diffItemFields(out.beginObject(), it);
    value("bytesA", it.bytesA, it.size);
    value("bytesB", it.bytesB, it.size);
    char text[laige::kRelationDiffTextCapacity];
    const std::size_t length = laige::formatRelationDiff(W(a).world, it, text, sizeof text);
    out.field("text", std::string_view(text, length)).endObject();
  });
  out.endArray().field("total", total).endObject();
}


}  // namespace


// ---------------------------------------------------------------------------
// The per-entity hot path, written by hand (web/boundary.json marks them
// `hand`): raw.ts calls these straight through the instance's exports,
// without even the generated result conversion. The TS layer validates
// every argument first; booleans come back as 0/1.
// ---------------------------------------------------------------------------
extern "C" {
EMSCRIPTEN_KEEPALIVE std::uint32_t laige_world_create_entity(std::uintptr_t w, std::uintptr_t out) {
  return worldCreateEntity(w, out);
}
EMSCRIPTEN_KEEPALIVE std::uint32_t laige_world_destroy_entity(std::uintptr_t w, std::uint32_t e) {
  return worldDestroyEntity(w, e);
}
EMSCRIPTEN_KEEPALIVE std::uint32_t laige_world_is_valid(std::uintptr_t w, std::uint32_t e) {
  return worldIsValid(w, e) ? 1u : 0u;
}
EMSCRIPTEN_KEEPALIVE std::uint32_t laige_world_add(std::uintptr_t w, std::uint32_t e, std::uint32_t c,
                                                   std::uintptr_t bytes, std::uint32_t size) {
  return worldAdd(w, e, c, bytes, size);
}
EMSCRIPTEN_KEEPALIVE std::uint32_t laige_world_remove(std::uintptr_t w, std::uint32_t e, std::uint32_t c) {
  return worldRemove(w, e, c);
}
EMSCRIPTEN_KEEPALIVE std::uint32_t laige_world_has(std::uintptr_t w, std::uint32_t e, std::uint32_t c) {
  return worldHas(w, e, c) ? 1u : 0u;
}
EMSCRIPTEN_KEEPALIVE std::uintptr_t laige_world_get(std::uintptr_t w, std::uint32_t e, std::uint32_t c) {
  return worldGet(w, e, c);
}
// Once per each / eachChunk call.
EMSCRIPTEN_KEEPALIVE std::uint32_t laige_world_begin_iteration(std::uintptr_t w, std::uintptr_t ids,
                                                               std::uintptr_t access, std::uint32_t n) {
  return worldBeginIteration(w, ids, access, n);
}
EMSCRIPTEN_KEEPALIVE std::uint32_t laige_world_iteration_cursors(std::uintptr_t w, std::uintptr_t ids, std::uint32_t n,
                                                                 std::uintptr_t out, std::uint32_t max) {
  return worldIterationCursors(w, ids, n, out, max);
}
EMSCRIPTEN_KEEPALIVE void laige_world_end_iteration(std::uintptr_t w) { worldEndIteration(w); }
EMSCRIPTEN_KEEPALIVE void laige_world_fill_handles(std::uintptr_t w, std::uintptr_t slots, std::uint32_t rows,
                                                   std::uintptr_t out) {
  worldFillHandles(w, slots, rows, out);
}
// Once per world (the tables are stable for its lifetime): what the
// TypeScript field handles and World.get read instead of calling worldGet
// (slot_tables.ts). out: [generation table, archetype table, row table,
// capacity] as u32.
EMSCRIPTEN_KEEPALIVE void laige_world_slot_tables(std::uintptr_t w, std::uintptr_t out) {
  const laige::World& world = W(w).world;
  auto* o = at<std::uint32_t>(out);
  o[0] = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(world.generationTable()));
  o[1] = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(world.archetypeTable()));
  o[2] = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(world.rowTable()));
  o[3] = world.capacity();
}
// Once per (archetype, component) a read meets, and again after a restore
// that replaced archetypes: the place of the column's base pointer, or 0
// when the archetype lacks the component.
EMSCRIPTEN_KEEPALIVE std::uintptr_t laige_world_column_ref(std::uintptr_t w, std::uint32_t a, std::uint32_t c) {
  if (a > 0xFFFF) return 0;
  return reinterpret_cast<std::uintptr_t>(W(w).world.columnDataRef(static_cast<laige::ArchetypeId>(a), c));
}
}  // extern "C"

// The exports web/boundary.json lists for this file.
#define LAIGE_BINDINGS_WORLD
#include "registrations.gen.inc"
