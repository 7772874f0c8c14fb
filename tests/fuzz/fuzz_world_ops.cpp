// libFuzzer target: an op-stream driver of the World API (docs/reliability.md).
//
// The input is a byte stream of operations: create, destroy (live, stale and
// forged handles), add / remove / mutate components by raw bytes, clear,
// registerComponentDesc with fuzzed schemas, registerSystem (systems that
// themselves create, destroy, add and remove), scheduleSystems + runSystems
// with fuzzed tick input, raw iteration with mutations inside it, beginFrame.
//
// Invariants checked after every op (std::abort on violation):
//  - entityCount() equals the number of distinct valid handles the driver
//    has seen created (the driver records every create, also inside systems);
//  - handleAt(e.id()) == e for every valid handle;
//  - stateHash / componentStateHash are pure: hashing twice gives one value;
//  - a rejected destroy / add / remove leaves stateHash unchanged;
//  - no crash, no ASan / UBSan report, no leak.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <string>
#include <unordered_set>
#include <vector>

#include "laige/logging.h"
#include "laige/query.h"
#include "laige/scheduler.h"
#include "laige/system.h"
#include "laige/world.h"

#include "fuzz_reader.h"

namespace {

using laige_fuzz::Reader;

struct Driver {
  laige::World world;
  std::vector<laige::Entity> seen;  // every handle ever created (valid or stale)
  std::vector<laige::ComponentTypeId> comps;  // registered component ids
  std::deque<std::string> strings;   // names kept alive for the world's lifetime
  std::deque<std::vector<laige::ComponentField>> fieldStore;
  std::vector<std::uint8_t> scratch = std::vector<std::uint8_t>(laige::kMaxComponentSize + 16);
  Reader* in = nullptr;  // the op stream (systems draw from it too)
  int depth = 0;
};

void fail(const char* what) {
  std::fprintf(stderr, "fuzz_world_ops invariant violated: %s\n", what);
  std::abort();
}

laige::Entity pickHandle(Driver& d, Reader& r) {
  const std::uint8_t how = r.u8();
  switch (how % 4) {
    case 0:
    case 1:
      if (!d.seen.empty()) return d.seen[r.u16() % d.seen.size()];
      return laige::Entity();
    case 2: return laige::Entity::fromBits(r.u32());  // forged
    default: return laige::Entity();                  // null
  }
}

laige::ComponentTypeId pickComp(Driver& d, Reader& r) {
  const std::uint8_t b = r.u8();
  if (b >= 240 || d.comps.empty()) return static_cast<laige::ComponentTypeId>(r.u16());  // raw id
  return d.comps[b % d.comps.size()];
}

std::uint32_t compSize(Driver& d, laige::ComponentTypeId id) {
  auto info = d.world.componentInfo(id);
  return info.ok() ? info.value().size : 0;
}

void checkInvariants(Driver& d) {
  laige::World& w = d.world;
  std::unordered_set<std::uint32_t> valid;
  for (laige::Entity e : d.seen) {
    if (w.isValid(e)) {
      valid.insert(e.bits());
      if (w.handleAt(e.id()) != e) fail("handleAt(id) != valid handle");
    }
  }
  if (valid.size() != w.entityCount()) fail("entityCount != distinct valid handles");
  if (w.entityCount() > w.capacity()) fail("entityCount > capacity");
  const std::uint64_t h1 = w.stateHash(7), h2 = w.stateHash(7);
  if (h1 != h2) fail("stateHash not pure");
  if (w.componentStateHash(3) != w.componentStateHash(3)) fail("componentStateHash not pure");
}

// One structural op on the world (used at top level, inside systems and
// inside an iteration). `strictHash`: a rejected op must not change the hash.
void structuralOp(Driver& d, Reader& r, bool strictHash) {
  laige::World& w = d.world;
  const std::uint8_t op = r.u8() % 6;
  const std::uint64_t before = strictHash ? w.stateHash(1) : 0;
  bool rejected = false;
  switch (op) {
    case 0: {
      auto res = w.create();
      if (res.ok()) d.seen.push_back(res.value());
      else rejected = true;
      break;
    }
    case 1: {
      laige::Entity e = pickHandle(d, r);
      rejected = w.destroy(e).isError();
      break;
    }
    case 2: {
      laige::Entity e = pickHandle(d, r);
      laige::ComponentTypeId id = pickComp(d, r);
      std::uint32_t size = compSize(d, id);
      const std::uint8_t skew = r.u8();
      if (skew >= 250) size += static_cast<std::uint32_t>(skew - 252);  // wrong sizes
      if (size > laige::kMaxComponentSize + 8) size = 0;
      r.bytes(d.scratch.data(), size);
      const void* ptr = (skew == 255) ? nullptr : d.scratch.data();
      rejected = w.addComponentBytes(e, id, ptr, size).isError();
      break;
    }
    case 3: {
      laige::Entity e = pickHandle(d, r);
      laige::ComponentTypeId id = pickComp(d, r);
      rejected = w.removeComponentById(e, id).isError();
      break;
    }
    case 4: {  // mutate a component in place through getBytes
      laige::Entity e = pickHandle(d, r);
      laige::ComponentTypeId id = pickComp(d, r);
      void* p = w.getBytes(e, id);
      if (p != nullptr) {
        const std::uint32_t size = compSize(d, id);
        if (size == 0) break;  // a tag: a non-null pointer with no bytes behind it
        const std::uint32_t at = r.u16() % size;
        static_cast<std::uint8_t*>(p)[at] = r.u8();
      }
      break;
    }
    default: {
      (void)w.hasComponent(pickHandle(d, r), pickComp(d, r));
      (void)w.archetypeOf(pickHandle(d, r));
      (void)w.check(pickHandle(d, r));
      break;
    }
  }
  if (strictHash && rejected && w.stateHash(1) != before) fail("a rejected op changed stateHash");
}

void registerFuzzedComponent(Driver& d, Reader& r) {
  d.strings.emplace_back();
  std::string& name = d.strings.back();
  const std::uint8_t nameLen = r.u8() % 70;
  for (std::uint8_t i = 0; i < nameLen; ++i) name.push_back(static_cast<char>(r.u8()));
  d.fieldStore.emplace_back();
  auto& fields = d.fieldStore.back();
  const std::uint8_t nf = r.u8() % 6;
  for (std::uint8_t i = 0; i < nf; ++i) {
    d.strings.emplace_back(1, static_cast<char>('a' + (r.u8() % 4)));
    laige::ComponentField f;
    f.name = d.strings.back();
    f.kind = static_cast<laige::FieldKind>(r.u8() % 13);
    f.count = r.u8() % 5;
    f.offset = r.u8() % 48;
    fields.push_back(f);
  }
  laige::ComponentDesc desc;
  desc.name = name;
  const std::uint8_t mode = r.u8();
  if (mode & 1) {
    // Mostly valid: lay the fields out; keep the computed size / alignment.
    std::uint32_t size = 0, align = 1;
    auto chk = laige::layoutComponentFields(std::span<laige::ComponentField>(fields), size, align);
    (void)chk;
    desc.size = size;
    desc.alignment = align;
  } else {
    desc.size = r.u16() % 5000;
    desc.alignment = r.u8() % 17;
  }
  desc.fields = std::span<const laige::ComponentField>(fields);
  const std::uint32_t before = d.world.componentCount();
  auto res = d.world.registerComponentDesc(desc);
  if (res.ok()) {
    bool known = false;
    for (auto c : d.comps) known = known || c == res.value();
    if (!known) d.comps.push_back(res.value());
    auto info = d.world.componentInfo(res.value());
    if (!info.ok()) fail("componentInfo of a registered component failed");
  } else if (d.world.componentCount() != before) {
    fail("a rejected registration changed componentCount");
  }
}

void systemFn(laige::World& world, laige::SystemContext& ctx) {
  Driver& d = *static_cast<Driver*>(ctx.userData);
  if (&world != &d.world) fail("system got another world");
  if (d.in == nullptr || d.depth > 0) return;
  ++d.depth;
  const std::uint8_t n = d.in->u8() % 4;
  for (std::uint8_t i = 0; i < n && !d.in->empty(); ++i) structuralOp(d, *d.in, false);
  if (ctx.rng != nullptr && (d.in->u8() & 1)) (void)ctx.rng->next_u32();
  --d.depth;
}

void noopSystem(laige::World&, laige::SystemContext&) {}

void registerFuzzedSystem(Driver& d, Reader& r) {
  d.strings.emplace_back();
  std::string& name = d.strings.back();
  const std::uint8_t nameLen = r.u8() % 12;
  for (std::uint8_t i = 0; i < nameLen; ++i) name.push_back(static_cast<char>('a' + r.u8() % 26));
  std::string* dep = nullptr;
  if (r.u8() & 1) {
    d.strings.emplace_back();
    dep = &d.strings.back();
    const std::uint8_t dl = r.u8() % 12;
    for (std::uint8_t i = 0; i < dl; ++i) dep->push_back(static_cast<char>('a' + r.u8() % 26));
  }
  laige::SystemIo io[6];
  const std::uint32_t nio = r.u8() % 6;
  for (std::uint32_t i = 0; i < nio; ++i) {
    io[i].component = pickComp(d, r);
    io[i].access = static_cast<laige::Access>(r.u8() % 3);
  }
  laige::SystemDef def;
  const std::uint8_t flags = r.u8();
  def.name = (flags & 1) ? nullptr : name.c_str();
  def.run = (flags & 2) ? &systemFn : ((flags & 4) ? nullptr : &noopSystem);
  def.budgetMs = laige::fpx16_16::fromRaw(static_cast<std::int32_t>(r.u32()));
  def.dependsOn = dep != nullptr ? dep->c_str() : nullptr;
  def.userData = &d;
  (void)d.world.registerSystem(def, (flags & 8) ? nullptr : io, nio);
}

void rawIteration(Driver& d, Reader& r) {
  laige::World& w = d.world;
  laige::ComponentTypeId ids[4];
  laige::Access acc[4];
  const std::uint32_t n = r.u8() % 5;
  for (std::uint32_t i = 0; i < n; ++i) {
    ids[i] = pickComp(d, r);
    acc[i] = static_cast<laige::Access>(r.u8() % 3);
  }
  const std::uint32_t na = (r.u8() & 7) == 0 ? (n > 0 ? n - 1 : 0) : n;  // sometimes mismatched
  if (w.beginIteration(std::span<const laige::ComponentTypeId>(ids, n),
                       std::span<const laige::Access>(acc, na)).isError()) {
    return;
  }
  if (!w.isIterating()) fail("beginIteration ok but not iterating");
  const std::uint32_t count = w.iterationArchetypeCount();
  for (std::uint32_t a = 0; a < count; ++a) {
    const laige::ArchetypeId arch = w.iterationArchetype(a);
    const std::uint32_t rows = w.archetypeRowCount(arch);
    for (std::uint32_t i = 0; i < n; ++i) {
      std::uint8_t* col = w.archetypeColumn(arch, ids[i]);
      const std::uint32_t size = compSize(d, ids[i]);
      if (col != nullptr && rows > 0 && size > 0 && acc[i] == laige::Access::Write) {
        col[(static_cast<std::size_t>(r.u16()) % rows) * size + r.u16() % size] = r.u8();
      }
    }
    // Structural changes inside the iteration: must be rejected or safe.
    if (r.u8() & 1) structuralOp(d, r, false);
  }
  w.endIteration();
  if (w.isIterating()) fail("endIteration left the guard on");
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  if (std::getenv("LAIGE_FUZZ_LOG") == nullptr) {
    laige::log::Logger::instance().setGlobalMinimum(laige::log::Level::Off);
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Reader r{data, size};
  laige::World::Options opt;
  opt.capacity = 1 + r.u8() % 64;
  opt.churnPerFrameBudget = r.u8();
  opt.seed = r.u32();
  auto created = laige::World::create(opt);
  if (created.isError()) fail("World::create with a small capacity failed");
  Driver d{std::move(created).value()};
  d.in = &r;
  laige::SystemSchedule schedule;
  std::uint64_t tick = 0;
  std::uint32_t steps = 0;
  while (!r.empty() && steps++ < 4096) {
    const std::uint8_t op = r.u8() % 12;
    switch (op) {
      case 0: case 1: case 2: case 3:
        structuralOp(d, r, true);
        break;
      case 4: {
        const std::uint64_t h = d.world.stateHash(0);
        const bool wasEmpty = d.world.entityCount() == 0;
        if (d.world.clear().isError()) break;
        if (d.world.entityCount() != 0) fail("clear left entities");
        (void)h;
        (void)wasEmpty;
        break;
      }
      case 5:
        registerFuzzedComponent(d, r);
        break;
      case 6:
        registerFuzzedSystem(d, r);
        break;
      case 7:
        (void)d.world.scheduleSystems(schedule);
        break;
      case 8: {
        std::uint8_t input[64];
        const std::uint32_t n = r.u8() % 65;
        r.bytes(input, n);
        laige::TickInput ti{n > 0 ? input : nullptr, n};
        (void)d.world.runSystems(schedule, ti);
        ++tick;
        break;
      }
      case 9:
        rawIteration(d, r);
        break;
      case 10:
        d.world.beginFrame();
        break;
      default: {
        (void)d.world.stats();
        (void)d.world.guardrailStats();
        (void)d.world.archetypeStats();
        (void)d.world.stateHash(tick);
        break;
      }
    }
    checkInvariants(d);
  }
  // A second world: hash of an identical empty world is the same, and a move
  // leaves the source dead but harmless.
  laige::World moved = std::move(d.world);
  if (d.world.isLive()) fail("moved-from world is live");
  (void)d.world.stateHash(0);
  (void)d.world.entityCount();
  (void)d.world.create();
  (void)d.world.clear();
  return 0;
}
