// libFuzzer target: relation op streams against a plain reference model
// (docs/relations.md#tests, docs/reliability.md).
//
// The input is a header (capacity, seed) and a byte stream of operations:
// register a relation (named form; options and names from the input, so
// refusals too), add a relation (addRelation or the raw-bytes component
// path), remove (removeRelation or removeComponentById), destroy (a
// relation with cleanup `Destroy` cascades over subtrees, `Remove` unlinks),
// reparent, deliberate cycle attempts, stale / forged / null handles,
// snapshot, restore (of the last snapshot; also after the relations changed,
// and of a re-sealed snapshot with one byte changed), clear.
//
// The reference model is a live set and one parent map per relation. After
// every op (std::abort on violation):
//  - every handle the driver has seen is valid exactly when the model says
//    it is live, and entityCount() equals the model's live count;
//  - targetOf(e, rel) equals the model's parent of e for every live e and
//    relation, and sourceCount(t, rel) the model's count of children;
//  - no stale target survives: every target is live and not its source,
//    and checkRelations() is ok;
//  - the world accepts exactly the ops the model accepts; a refused op
//    leaves stateHash unchanged;
//  - restoring a snapshot gives back the snapshot's state hash (a refused
//    restore leaves the hash as it was; an accepted restore of changed
//    bytes re-reads the model from the world, then the checks above run);
//  - no crash, no ASan / UBSan report, no leak.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "laige/logging.h"
#include "laige/relations.h"
#include "laige/snapshot.h"
#include "laige/world.h"

#include "fuzz_reader.h"

namespace {

using laige_fuzz::Reader;

// Outcome counts per op name (printed at exit with LAIGE_FUZZ_STATS=1,
// so a run shows that the streams reach accepted and refused ops alike).
struct OpCount {
  const char* name;
  std::uint64_t ok, refused;
};
OpCount gCounts[16];
void count(const char* name, bool ok) {
  for (OpCount& c : gCounts) {
    if (c.name == nullptr) c.name = name;
    if (c.name == name) {
      ++(ok ? c.ok : c.refused);
      return;
    }
  }
}
void printCounts() {
  for (const OpCount& c : gCounts) {
    if (c.name != nullptr) std::fprintf(stderr, "relation_ops %-20s ok %llu refused %llu\n", c.name,
                                         static_cast<unsigned long long>(c.ok), static_cast<unsigned long long>(c.refused));
  }
}

void fail(const char* what) {
  std::fprintf(stderr, "fuzz_relation_ops invariant violated: %s\n", what);
  std::abort();
}

// The reference: which handles are live, and per relation source -> target
// (handle bits). Relation i of the model is d.rels[i] of the world.
struct Model {
  std::set<std::uint32_t> live;
  std::vector<std::map<std::uint32_t, std::uint32_t>> parent;  // per relation
  std::vector<bool> destroyCascade;                            // per relation
};

struct Snapshot {
  std::vector<std::uint8_t> bytes;
  std::uint64_t hash = 0;
  Model model;
  std::size_t relations = 0;  // how many relations the world had
};

struct Driver {
  laige::World world;
  std::vector<laige::Entity> seen;             // every handle ever issued (live or stale)
  std::vector<laige::ComponentTypeId> rels;    // registered relations, in order
  std::set<std::size_t> names;                 // kNames indices registered
  laige::ComponentTypeId plain = 0;            // a plain component (never a relation)
  Model model;
  Snapshot snap;
  bool haveSnap = false;
};

// Relation names; "Pos" is the plain component's (always taken).
constexpr const char* kNames[] = {"ChildOf", "OwnedBy", "Follows", "Likes", "Pos"};
constexpr std::size_t kNameCount = sizeof kNames / sizeof kNames[0];

laige::Entity pickHandle(Driver& d, Reader& r) {
  const std::uint8_t how = r.u8();
  switch (how % 8) {
    case 6: return laige::Entity::fromBits(r.u32());  // forged
    case 7: return laige::Entity();                   // null
    default:
      if (d.seen.empty()) return laige::Entity();
      return d.seen[r.u8() % d.seen.size()];
  }
}

// A live handle of the model when there is one (ops that mostly succeed).
laige::Entity pickLive(Driver& d, Reader& r) {
  if (d.model.live.empty()) return pickHandle(d, r);
  auto it = d.model.live.begin();
  std::advance(it, r.u8() % d.model.live.size());
  return laige::Entity::fromBits(*it);
}

// Index into d.rels, or rels.size() for "not a relation" (the plain
// component or a raw id), which every relation op must refuse.
std::size_t pickRel(Driver& d, Reader& r) {
  const std::uint8_t b = r.u8();
  if (d.rels.empty() || b >= 232) return d.rels.size();
  return b % d.rels.size();
}
laige::ComponentTypeId relId(Driver& d, std::size_t rel, std::uint8_t salt) {
  if (rel < d.rels.size()) return d.rels[rel];
  // The plain component, 0, or an id no world here registers.
  return (salt & 1) ? d.plain : ((salt & 8) ? 0 : 200 + salt % 50);
}

bool live(const Driver& d, laige::Entity e) { return e.bits() != 0 && d.model.live.count(e.bits()) != 0; }

// True when `from` reaches `to` by following relation `rel` upwards.
bool reaches(const Model& m, std::size_t rel, std::uint32_t from, std::uint32_t to) {
  for (std::size_t steps = 0; steps <= m.live.size(); ++steps) {
    if (from == to) return true;
    auto it = m.parent[rel].find(from);
    if (it == m.parent[rel].end()) return false;
    from = it->second;
  }
  fail("the model has a cycle");
  return false;
}

// The model's destroy: the entity, then per relation its sources (removed
// or destroyed, recursively), and its own links.
void modelDestroy(Model& m, std::uint32_t e) {
  std::vector<std::uint32_t> work{e};
  while (!work.empty()) {
    const std::uint32_t x = work.back();
    work.pop_back();
    if (m.live.erase(x) == 0) continue;
    for (std::size_t rel = 0; rel < m.parent.size(); ++rel) {
      m.parent[rel].erase(x);
      for (auto it = m.parent[rel].begin(); it != m.parent[rel].end();) {
        if (it->second != x) {
          ++it;
          continue;
        }
        if (m.destroyCascade[rel]) work.push_back(it->first);
        it = m.parent[rel].erase(it);
      }
    }
  }
}

// Re-reads the model from the world (after an accepted restore of changed
// bytes, whose content the driver does not predict).
void resync(Driver& d) {
  laige::World& w = d.world;
  d.model.live.clear();
  for (std::uint32_t id = 0; id < w.capacity(); ++id) {
    const laige::Entity h = w.handleAt(static_cast<std::uint16_t>(id));
    if (!w.isValid(h)) continue;
    d.model.live.insert(h.bits());
    d.seen.push_back(h);
  }
  for (std::size_t rel = 0; rel < d.rels.size(); ++rel) {
    d.model.parent[rel].clear();
    for (std::uint32_t e : d.model.live) {
      const laige::Entity t = laige::targetOf(w, laige::Entity::fromBits(e), d.rels[rel]);
      if (t.bits() != 0) d.model.parent[rel][e] = t.bits();
    }
  }
}

void checkInvariants(Driver& d) {
  laige::World& w = d.world;
  const Model& m = d.model;
  for (laige::Entity e : d.seen) {
    if (w.isValid(e) != live(d, e)) fail("isValid disagrees with the model");
  }
  if (w.entityCount() != m.live.size()) fail("entityCount disagrees with the model");
  for (std::size_t rel = 0; rel < d.rels.size(); ++rel) {
    std::map<std::uint32_t, std::uint32_t> children;
    for (std::uint32_t e : m.live) {
      const laige::Entity source = laige::Entity::fromBits(e);
      const laige::Entity t = laige::targetOf(w, source, d.rels[rel]);
      auto it = m.parent[rel].find(e);
      const std::uint32_t want = it == m.parent[rel].end() ? 0 : it->second;
      if (t.bits() != want) fail("targetOf disagrees with the model");
      if (laige::hasRelation(w, source, d.rels[rel]) != (want != 0)) fail("hasRelation disagrees");
      if (want != 0) {
        if (m.live.count(want) == 0 || want == e) fail("a stale or self target survived");
        ++children[want];
      }
    }
    for (std::uint32_t e : m.live) {
      auto it = children.find(e);
      const std::uint32_t want = it == children.end() ? 0 : it->second;
      if (laige::sourceCount(w, laige::Entity::fromBits(e), d.rels[rel]) != want) fail("sourceCount disagrees");
    }
  }
  if (!laige::checkRelations(w).ok()) fail("checkRelations refused the world");
}

// Runs a call the model predicted (`expectOk`); a refusal must leave the
// hash unchanged, and the world must agree with the prediction.
template <class Call>
bool expect(Driver& d, bool expectOk, Call&& call, const char* what) {
  const std::uint64_t before = d.world.stateHash(0);
  const laige::Status s = call();
  count(what, s.ok());
  if (s.ok() != expectOk) {
    std::fprintf(stderr, "%s: the world says %s (%s), the model says %s\n", what, s.ok() ? "ok" : "refused",
                 std::string(s.reason()).c_str(), expectOk ? "ok" : "refused");
    fail("the world and the model disagree on an op");
  }
  if (!s.ok()) {
    if (s.reason()[0] == '\0') fail("a refusal without a reason");
    if (d.world.stateHash(0) != before) fail("a refused op changed stateHash");
  }
  return s.ok();
}

void opRegister(Driver& d, Reader& r) {
  const std::uint8_t b = r.u8();
  laige::RelationOptions opts;
  opts.onTargetDestroyed = static_cast<laige::OnTargetDestroyed>(b & 1);
  if ((b & 0x30) == 0x30) opts.exclusive = false;                           // refused
  if ((b & 0xC0) == 0xC0) opts.onTargetDestroyed = static_cast<laige::OnTargetDestroyed>(2 + (b & 1));  // refused
  if ((b & 0x0E) == 0x0E && d.plain != 0) {  // the plain component: not a relation layout
    expect(d, false, [&] { return laige::registerRelation(d.world, d.plain, opts); }, "register plain");
    return;
  }
  const std::size_t name = (b >> 1) % kNameCount;
  const bool fresh = name != kNameCount - 1 && d.names.count(name) == 0;
  const bool valid = opts.exclusive && static_cast<std::uint8_t>(opts.onTargetDestroyed) <= 1;
  const std::uint64_t before = d.world.stateHash(0);
  auto res = laige::registerRelation(d.world, kNames[name], opts);
  count("register", res.ok());
  if (d.world.stateHash(0) != before) fail("registerRelation changed stateHash");
  if (res.ok()) {
    if (!fresh || !valid) fail("registerRelation accepted a taken name or bad options");
    d.rels.push_back(res.value());
    d.names.insert(name);
    d.model.parent.emplace_back();
    d.model.destroyCascade.push_back(opts.onTargetDestroyed == laige::OnTargetDestroyed::Destroy);
  } else if (fresh && valid) {
    fail("registerRelation refused a fresh name with good options");
  }
}

void opAdd(Driver& d, Reader& r, bool reparent) {
  const std::size_t rel = pickRel(d, r);
  const std::uint8_t salt = r.u8();
  laige::Entity source = pickHandle(d, r);
  if (reparent && rel < d.rels.size() && !d.model.parent[rel].empty()) {
    auto it = d.model.parent[rel].begin();
    std::advance(it, r.u8() % d.model.parent[rel].size());
    source = laige::Entity::fromBits(it->first);
  }
  const laige::Entity target = (salt & 2) ? pickHandle(d, r) : pickLive(d, r);
  const laige::ComponentTypeId id = relId(d, rel, salt);
  if (rel >= d.rels.size() && (salt & 4)) {
    // Bytes of a plain or unknown id: the plain rules (not modelled beyond
    // "a refusal leaves the hash unchanged").
    const std::uint64_t before = d.world.stateHash(0);
    const std::uint32_t bits = target.bits();
    if (!d.world.addComponentBytes(source, id, &bits, 4).ok() && d.world.stateHash(0) != before) {
      fail("a refused add changed stateHash");
    }
    return;
  }
  bool ok = live(d, source) && rel < d.rels.size() && live(d, target) && target != source;
  if (ok && reaches(d.model, rel, target.bits(), source.bits())) ok = false;  // a cycle
  if (expect(d, ok, [&] {
        if (salt & 4) {  // the component path: the same rules
          const std::uint32_t bits = target.bits();
          return d.world.addComponentBytes(source, id, &bits, 4);
        }
        return laige::addRelation(d.world, source, id, target);
      }, reparent ? "reparent" : "add")) {
    d.model.parent[rel][source.bits()] = target.bits();
  }
}

// A deliberate cycle: an ancestor of a live entity (or the entity itself)
// made to relate to it.
void opCycle(Driver& d, Reader& r) {
  if (d.rels.empty() || d.model.live.empty()) return;
  const std::size_t rel = r.u8() % d.rels.size();
  const laige::Entity below = pickLive(d, r);
  std::uint32_t up = below.bits();
  for (std::uint8_t steps = r.u8() % 8; steps > 0; --steps) {
    auto it = d.model.parent[rel].find(up);
    if (it == d.model.parent[rel].end()) break;
    up = it->second;
  }
  const laige::Entity ancestor = laige::Entity::fromBits(up);
  expect(d, false, [&] { return laige::addRelation(d.world, ancestor, d.rels[rel], below); }, "cycle");
}

void opRemove(Driver& d, Reader& r) {
  const std::size_t rel = pickRel(d, r);
  const std::uint8_t salt = r.u8();
  const laige::Entity source = (salt & 2) ? pickHandle(d, r) : pickLive(d, r);
  const laige::ComponentTypeId id = relId(d, rel, salt);
  if (salt & 4) {
    // The component path: removing a component the entity lacks is a
    // no-op ok; a non-relation id follows the plain rules (not modelled
    // beyond "the hash is unchanged when refused").
    if (rel >= d.rels.size()) {
      const std::uint64_t before = d.world.stateHash(0);
      if (!d.world.removeComponentById(source, id).ok() && d.world.stateHash(0) != before) {
        fail("a refused remove changed stateHash");
      }
      return;
    }
    if (expect(d, live(d, source), [&] { return d.world.removeComponentById(source, id); }, "removeComponentById")) {
      d.model.parent[rel].erase(source.bits());
    }
    return;
  }
  const bool ok = live(d, source) && rel < d.rels.size();
  if (expect(d, ok, [&] { return laige::removeRelation(d.world, source, id); }, "removeRelation")) {
    d.model.parent[rel].erase(source.bits());
  }
}

void opDestroy(Driver& d, Reader& r) {
  const std::uint8_t salt = r.u8();
  const laige::Entity e = (salt & 1) ? pickHandle(d, r) : pickLive(d, r);
  const std::size_t before = d.model.live.size();
  if (expect(d, live(d, e), [&] { return d.world.destroy(e); }, "destroy")) {
    modelDestroy(d.model, e.bits());
    if (before - d.model.live.size() > 1) count("destroy of a subtree", true);
  }
}

void opCreate(Driver& d) {
  auto res = d.world.create();
  const bool room = d.model.live.size() < d.world.capacity();
  if (res.ok() != room) fail("create disagrees with the model's room");
  if (!res.ok()) return;
  d.seen.push_back(res.value());
  if (!d.model.live.insert(res.value().bits()).second) fail("create issued a live handle");
}

void opSnapshot(Driver& d) {
  d.snap.bytes.assign(d.world.snapshotSize(), 0);
  if (!d.world.snapshot(d.snap.bytes).ok()) fail("snapshot failed");
  d.snap.hash = d.world.stateHash(0);
  d.snap.model = d.model;
  d.snap.relations = d.rels.size();
  d.haveSnap = true;
}

void opRestore(Driver& d, Reader& r) {
  if (!d.haveSnap) return;
  const std::uint8_t how = r.u8();
  const std::uint64_t before = d.world.stateHash(0);
  if ((how & 7) == 7 && d.snap.bytes.size() > laige::kSnapshotHeaderBytes) {
    // One byte changed past the header, re-sealed: the structural and
    // relation checks behind the checksum see it.
    std::vector<std::uint8_t> bytes = d.snap.bytes;
    const std::size_t at = laige::kSnapshotHeaderBytes + r.u16() % (bytes.size() - laige::kSnapshotHeaderBytes);
    bytes[at] = static_cast<std::uint8_t>(bytes[at] ^ (r.u8() | 1));
    const std::uint64_t c = laige::snapshotChecksum(bytes);
    std::memcpy(bytes.data() + laige::kSnapshotChecksumOffset, &c, 8);
    const laige::Status s = d.world.restore(bytes);
    count("restore changed bytes", s.ok());
    if (!s.ok()) {
      if (d.world.stateHash(0) != before) fail("a refused restore changed stateHash");
      return;
    }
    // Accepted (a value the checks cannot tell from a real one): the
    // model is re-read; the relation invariant must hold all the same.
    resync(d);
    return;
  }
  const bool sameSetup = d.snap.relations == d.rels.size();
  if (expect(d, sameSetup, [&] { return d.world.restore(d.snap.bytes); }, "restore")) {
    if (d.world.stateHash(0) != d.snap.hash) fail("restore did not give back the snapshot's hash");
    d.model = d.snap.model;
  }
}

void opClear(Driver& d) {
  if (!d.world.clear().ok()) fail("clear failed");
  d.model.live.clear();
  for (auto& p : d.model.parent) p.clear();
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  if (std::getenv("LAIGE_FUZZ_LOG") == nullptr) {
    laige::log::Logger::instance().setGlobalMinimum(laige::log::Level::Off);
  }
  if (std::getenv("LAIGE_FUZZ_STATS") != nullptr) std::atexit(printCounts);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Reader r{data, size};
  laige::World::Options opt;
  opt.capacity = 2 + r.u8() % 31;
  opt.seed = r.u8();
  opt.churnPerFrameBudget = 0;
  auto created = laige::World::create(opt);
  if (created.isError()) fail("World::create with a small capacity failed");
  Driver d{std::move(created).value()};
  laige::ComponentField x;
  x.name = "x";
  x.kind = laige::FieldKind::I32;
  laige::ComponentDesc desc;
  desc.name = "Pos";
  desc.size = 4;
  desc.alignment = 4;
  desc.fields = std::span<const laige::ComponentField>(&x, 1);
  auto plain = d.world.registerComponentDesc(desc);
  if (!plain.ok()) fail("registering the plain component failed");
  d.plain = plain.value();
  std::uint32_t steps = 0;
  while (!r.empty() && steps++ < 2048) {
    switch (r.u8() % 14) {
      case 0: opRegister(d, r); break;
      case 1: case 2: opCreate(d); break;
      case 3: case 4: opAdd(d, r, false); break;
      case 5: opAdd(d, r, true); break;
      case 6: opCycle(d, r); break;
      case 7: case 8: opRemove(d, r); break;
      case 9: case 10: opDestroy(d, r); break;
      case 11: opSnapshot(d); break;
      case 12: opRestore(d, r); break;
      default:
        if ((r.u8() & 7) == 0) opClear(d);
        else opCreate(d);
        break;
    }
    checkInvariants(d);
  }
  return 0;
}
