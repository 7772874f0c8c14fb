// libFuzzer target: World::restore on hostile bytes (docs/snapshots.md).
//
// The fixture is the `input` scenario (pawns, projectiles created and
// destroyed: freed slots, several archetypes, three systems with PRNG
// substreams) at tick 0. Byte 0 of the input picks the mode: odd = the
// rest is restored as is (the checksum catches most mutations), even = the
// rest is first re-sealed with a correct checksum, so that mutations reach
// the structural checks behind it. Seeds are real snapshots of the fixture
// at several ticks (fuzz_seedgen).
//
// Invariants (std::abort on violation):
//  - a rejected restore leaves the world EXACTLY as it was: the same state
//    hash and the same snapshot bytes as before the call;
//  - an accepted restore is canonical: snapshot() of the restored world
//    gives back the input bytes exactly, and the storage stays usable (a
//    full walk matches the live count; create, add, remove, destroy work)
//    before the baseline is restored again;
//  - no crash, no ASan / UBSan report, no leak.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "laige/logging.h"
#include "laige/snapshot.h"
#include "laige/world.h"
#include "scenario.h"

namespace {

struct Fixture {
  laige::ScenarioRun run;
  std::vector<std::uint8_t> baseline;
  std::uint64_t baselineHash;
};

Fixture& fixture() {
  static Fixture* f = [] {
    laige::log::Logger::instance().setGlobalMinimum(laige::log::Level::Off);
    const laige::Scenario* sc = laige::findScenario("input");
    if (sc == nullptr) std::abort();
    auto run = laige::ScenarioRun::create(*sc, sc->defaultSeed);
    if (run.isError()) std::abort();
    auto* fx = new Fixture{std::move(run).takeValue(), {}, 0};
    fx->baseline.resize(fx->run.world().snapshotSize());
    if (!fx->run.world().snapshot(fx->baseline).ok()) std::abort();
    fx->baselineHash = fx->run.hash();
    return fx;
  }();
  return *f;
}

std::vector<std::uint8_t> snap(const laige::World& w) {
  std::vector<std::uint8_t> out(w.snapshotSize());
  if (!w.snapshot(out).ok()) std::abort();
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  Fixture& f = fixture();
  laige::World& w = f.run.world();
  std::vector<std::uint8_t> bytes(data + 1, data + size);
  if ((data[0] & 1) == 0 && bytes.size() >= laige::kSnapshotHeaderBytes) {
    const std::uint64_t c = laige::snapshotChecksum(bytes);
    std::memcpy(bytes.data() + laige::kSnapshotChecksumOffset, &c, 8);
  }
  const laige::Status s = w.restore(bytes);
  if (!s.ok()) {
    if (s.reason()[0] == '\0') std::abort();  // every failure names its reason
    if (f.run.hash() != f.baselineHash || snap(w) != f.baseline) std::abort();
    return 0;
  }
  if (snap(w) != bytes) std::abort();
  // The storage is usable afterwards (the scenario's own systems are not
  // run: they may assume value ranges hostile component bytes break): a
  // full walk agrees with the live count, and create / add / remove /
  // destroy work on the restored tables. Then back to the baseline.
  std::uint32_t visited = 0;
  if (!w.each<>([&](laige::Entity) { ++visited; }).ok() || visited != w.entityCount()) std::abort();
  (void)w.stateHash(1);
  auto made = w.create();
  if (made.ok() && w.componentCount() != 0) {
    const laige::ComponentTypeId c = 1;
    std::uint8_t zeros[laige::kMaxComponentSize] = {};
    const std::uint32_t size = w.componentInfo(c).value().size;
    if (!w.addComponentBytes(made.value(), c, zeros, size).ok()) std::abort();
    if (!w.removeComponentById(made.value(), c).ok() || !w.destroy(made.value()).ok()) std::abort();
  }
  if (!w.restore(f.baseline).ok() || f.run.hash() != f.baselineHash) std::abort();
  return 0;
}
