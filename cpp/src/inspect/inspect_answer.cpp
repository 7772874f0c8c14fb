// inspect_answer.cpp - the inspector's answers (laige/inspect.h,
// docs/inspector.md#protocol). Diagnostics: cold, compiled for size in the
// wasm module. Everything is read through the const World, so reading marks
// no change tick and logs nothing.
#include <cmath>
#include <cstring>

#include "inspect/inspect_json.h"
#include "laige/changes.h"
#include "laige/detail/shortest_float.h"
#include "laige/histogram.h"
#include "laige/inspect.h"
#include "laige/system.h"
#include "laige/system_timing.h"
#include "laige/world.h"

namespace laige {

namespace {

using inspect_detail::JsonText;

// A double as the shortest text that reads back (a string: NaN and the
// infinities have no JSON number).
void putDouble(JsonText& j, double v) {
  if (std::isnan(v)) {
    j.str("NaN");
    return;
  }
  if (std::isinf(v)) {
    j.str(v < 0 ? "-Infinity" : "Infinity");
    return;
  }
  char buf[32];
  j.str(std::string_view(buf, detail::shortestDouble(v, buf, sizeof buf)));
}

void putFloat(JsonText& j, float v) {
  if (std::isnan(v) || std::isinf(v)) {
    putDouble(j, static_cast<double>(v));
    return;
  }
  char buf[32];
  j.str(std::string_view(buf, detail::shortestFloat(v, buf, sizeof buf)));
}

template <class T>
T load(const std::uint8_t* p) noexcept {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// An integer as decimal text (a string: 64-bit values stay exact in JS).
void putInteger(JsonText& j, std::uint64_t magnitude, bool negative) {
  char buf[24];
  int n = 24;
  do {
    buf[--n] = static_cast<char>('0' + magnitude % 10);
    magnitude /= 10;
  } while (magnitude != 0);
  if (negative) buf[--n] = '-';
  j.str(std::string_view(buf + n, static_cast<std::size_t>(24 - n)));
}

void putSigned(JsonText& j, std::int64_t v) {
  putInteger(j, v < 0 ? 0 - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v), v < 0);
}

// One scalar of `kind` at `p`, as its display text.
void putScalar(JsonText& j, FieldKind kind, const std::uint8_t* p) {
  switch (kind) {
    case FieldKind::I8: putSigned(j, load<std::int8_t>(p)); return;
    case FieldKind::U8: putSigned(j, load<std::uint8_t>(p)); return;
    case FieldKind::I16: putSigned(j, load<std::int16_t>(p)); return;
    case FieldKind::U16: putSigned(j, load<std::uint16_t>(p)); return;
    case FieldKind::I32: putSigned(j, load<std::int32_t>(p)); return;
    case FieldKind::U32: putSigned(j, load<std::uint32_t>(p)); return;
    case FieldKind::I64: putSigned(j, load<std::int64_t>(p)); return;
    case FieldKind::U64: putInteger(j, load<std::uint64_t>(p), false); return;
    case FieldKind::F32: putFloat(j, load<float>(p)); return;
    case FieldKind::F64: putDouble(j, load<double>(p)); return;
    case FieldKind::Fx: {
      char buf[32];
      j.str(std::string_view(buf, formatFx(load<std::int32_t>(p), buf)));
      return;
    }
  }
  j.str("?");
}

void header(JsonText& j, const char* kind, const World& world) {
  j.open('{').kv("v", kInspectProtocolVersion).ks("kind", kind).kv("tick", world.systemTicksRun());
}

void summary(JsonText& j, World& world) {
  const World& w = world;
  header(j, "summary", w);
  j.key("hash").hex64(w.stateHash(w.systemTicksRun()));
  j.kv("entities", w.entityCount()).kv("capacity", w.capacity());
  const EntityStats st = w.stats();
  j.kv("peak", st.peakInUse).kv("created", st.totalCreated).kv("destroyed", st.totalDestroyed);
  j.key("components").open('[');
  const std::uint32_t components = w.componentCount();
  for (ComponentTypeId c = 1; c <= components; ++c) {
    const auto info = w.componentInfo(c);
    if (!info.ok()) continue;
    j.open('{').kv("id", c).ks("name", info.value().name).kv("size", info.value().size)
        .key("tracked").boolean(tracksChanges(w, c)).close('}');
  }
  j.close(']');
  j.key("archetypes").open('[');
  const std::uint32_t archetypes = w.archetypeCount();
  for (std::uint32_t a = 1; a <= archetypes; ++a) {
    const auto id = static_cast<ArchetypeId>(a);
    j.open('{').kv("id", a).kv("rows", world.archetypeRowCount(id)).key("components").open('[');
    for (const ComponentTypeId c : w.archetypeComponents(id)) j.num(c);
    j.close(']').close('}');
  }
  j.close(']');
  j.key("systems").open('[');
  const std::uint32_t systems = w.systemCount();
  for (std::uint32_t s = 1; s <= systems; ++s) {
    const auto info = w.system(SystemId{s});
    if (!info.ok()) continue;
    const SystemInfo& si = info.value();
    j.open('{').kv("id", s).ks("name", si.def.name == nullptr ? "" : si.def.name);
    j.key("budgetMs");
    putDouble(j, fpx16_16::toDouble(si.def.budgetMs));
    j.key("reads").open('[');
    for (std::uint32_t i = 0; i < si.ioCount(); ++i) {
      const SystemIo io = si.ioAt(i);
      if (io.access == Access::Read) j.num(io.component);
    }
    j.close(']').key("writes").open('[');
    for (std::uint32_t i = 0; i < si.ioCount(); ++i) {
      const SystemIo io = si.ioAt(i);
      if (io.access == Access::Write) j.num(io.component);
    }
    j.close(']');
    const auto timing = w.systemTimingStats(SystemId{s});
    const Histogram* window = w.systemTimingWindow(SystemId{s});
    const HistogramStats hs = window != nullptr ? window->stats() : HistogramStats{};
    j.kv("runs", timing.ok() ? timing.value().runs : 0);
    j.key("lastMs");
    putDouble(j, timing.ok() ? timing.value().lastMs : 0.0);
    j.key("p50Ms");
    putDouble(j, hs.p50);
    j.key("p99Ms");
    putDouble(j, hs.p99);
    j.kv("warns", timing.ok() ? timing.value().warns : 0).kv("errors", timing.ok() ? timing.value().errors : 0);
    j.close('}');
  }
  j.close(']');
  // Tracked components: the entities whose added / changed mark falls in
  // the last tick or after it (the change tick rises after every system
  // run: the marks of the last tick's S systems are now - S .. now - 1;
  // marks made outside systems since then carry now itself).
  j.key("changes").open('[');
  const std::uint32_t now = changeTick(w);
  const std::uint32_t window = systems == 0 ? 1 : systems;
  for (ComponentTypeId c = 1; c <= components; ++c) {
    if (!tracksChanges(w, c)) continue;
    std::uint32_t added = 0;
    std::uint32_t changed = 0;
    for (std::uint32_t id = 0; id < w.capacity(); ++id) {
      const Entity e = w.handleAt(static_cast<std::uint16_t>(id));
      if (e.isNull() || !w.hasComponent(e, c)) continue;
      if (now - addedTick(w, e, c) <= window) ++added;
      if (now - changedTick(w, e, c) <= window) ++changed;
    }
    j.open('{').kv("component", c).kv("added", added).kv("changed", changed).close('}');
  }
  j.close(']');
  const GuardrailStats g = w.guardrailStats();
  j.key("guardrails").open('{').kv("capacity", g.capacity).kv("entityCount", g.entityCount)
      .kv("entityBudgetLevel", g.entityBudgetLevel).key("entityBudgetWarns").open('[');
  for (const std::uint32_t n : g.entityBudgetWarns) j.num(n);
  j.close(']').kv("frameChurn", g.frameChurn).kv("churnPerFrameBudget", g.churnPerFrameBudget)
      .kv("churnWarns", g.churnWarns).close('}');
  j.close('}');
}

Status entities(JsonText& j, const World& w, const InspectRequest& r) {
  if (r.hasArchetype && r.archetype > w.archetypeCount()) {
    return Status::failure(ErrorCode::InvalidArgument, "inspect_unknown_archetype").with("archetype", r.archetype);
  }
  header(j, "entities", w);
  j.kv("offset", r.offset).key("items").open('[');
  std::uint32_t matched = 0;
  for (std::uint32_t id = 0; id < w.capacity(); ++id) {
    const Entity e = w.handleAt(static_cast<std::uint16_t>(id));
    if (e.isNull()) continue;
    const ArchetypeId a = w.archetypeOf(e);
    if (r.hasArchetype && a != r.archetype) continue;
    if (r.hasFind && r.find != id && r.find != e.bits()) continue;
    if (matched >= r.offset && matched - r.offset < r.limit) {
      j.open('{').kv("handle", e.bits()).kv("id", id).kv("gen", e.generation()).kv("archetype", a).close('}');
    }
    ++matched;
  }
  j.close(']').kv("total", matched).close('}');
  return Status{};
}

Status entity(JsonText& j, const World& w, const InspectRequest& r) {
  const Entity e = Entity::fromBits(r.entity);
  if (e.isNull() || !w.isValid(e)) {
    return Status::failure(ErrorCode::InvalidArgument, "inspect_unknown_entity").with("entity", r.entity);
  }
  header(j, "entity", w);
  j.kv("handle", e.bits()).kv("id", e.id()).kv("gen", e.generation()).kv("archetype", w.archetypeOf(e));
  j.key("components").open('[');
  const std::uint32_t components = w.componentCount();
  for (ComponentTypeId c = 1; c <= components; ++c) {
    if (!w.hasComponent(e, c)) continue;
    const auto info = w.componentInfo(c);
    if (!info.ok()) continue;
    const auto* bytes = static_cast<const std::uint8_t*>(w.getBytes(e, c));
    j.open('{').kv("id", c).ks("name", info.value().name).key("fields").open('[');
    for (const ComponentField& f : info.value().fields) {
      j.open('{').ks("name", f.name).ks("kind", fieldKindName(f.kind)).key("values").open('[');
      for (std::uint32_t k = 0; k < f.count && bytes != nullptr; ++k) {
        putScalar(j, f.kind, bytes + f.offset + k * fieldKindSize(f.kind));
      }
      j.close(']').close('}');
    }
    j.close(']').close('}');
  }
  j.close(']').close('}');
  return Status{};
}

void errorAnswer(std::string& out, const Status& s) {
  out.clear();
  JsonText j(out);
  j.open('{').kv("v", kInspectProtocolVersion).ks("error", s.reason()).kv("code", s.codeValue());
  j.key("fields").open('{');
  for (std::size_t i = 0; i < s.fieldCount(); ++i) {
    const ErrorField& f = s.field(i);
    j.key(f.key);
    if (f.isNumber) j.raw(f.value);
    else j.str(f.value);
  }
  j.close('}').close('}');
}

}  // namespace

Status answerInspect(World& world, std::string_view text, const InspectHistory& history, std::string& out) {
  out.clear();
  const auto parsed = parseInspectRequest(text);
  Status failure;
  if (!parsed.ok()) {
    failure = parsed.status();
  } else {
    const InspectRequest& r = parsed.value();
    JsonText j(out);
    const std::uint64_t now = world.systemTicksRun();
    const std::uint64_t first = history.kept ? history.firstTick : now;
    const std::uint64_t last = history.kept ? history.lastTick : now;
    switch (r.verb) {
      case InspectVerb::Summary: summary(j, world); break;
      case InspectVerb::Entities: failure = entities(j, world, r); break;
      case InspectVerb::Entity: failure = entity(j, world, r); break;
      case InspectVerb::History:
        header(j, "history", world);
        j.key("kept").boolean(history.kept).kv("first", first).kv("last", last).close('}');
        break;
      case InspectVerb::Seek:
        if (r.tick < first || r.tick > last) {
          failure = Status::failure(ErrorCode::InvalidArgument, "inspect_tick_outside_history")
                        .with("tick", r.tick).with("first", first).with("last", last);
        } else if (!history.kept) {
          summary(j, world);
        } else if (history.seek == nullptr) {
          j.open('{').kv("v", kInspectProtocolVersion).ks("kind", "seek").kv("tick", r.tick).close('}');
        } else if (World* shown = history.seek(history.context, r.tick); shown != nullptr) {
          summary(j, *shown);
        } else {
          failure = Status::failure(ErrorCode::InvalidArgument, "inspect_seek_failed").with("tick", r.tick);
        }
        break;
    }
  }
  if (!failure.ok()) errorAnswer(out, failure);
  return failure;
}

}  // namespace laige
