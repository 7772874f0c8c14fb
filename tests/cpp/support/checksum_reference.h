// checksum_reference.h - the plain reference implementations of the two
// XXH3 checksums, rebuilt from the public API into one buffer and hashed in
// one call: stateChecksum (docs/determinism.md#the-state-checksum) and
// columnChecksum (docs/determinism.md#the-column-checksum). The two streams
// differ only in two places, named by ChecksumForm: whether the slot table
// and each component column go in as bytes or as their own XXH3. No NaNs
// in the worlds of these tests: no canonicalisation.
#pragma once

#include <xxhash.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "laige/world.h"
#include "support/archetype_order.h"

namespace laige::test {

enum class ChecksumForm { State, Column };

template <class T>
void putLittleEndian(std::vector<std::uint8_t>& out, T v) {
  std::uint8_t b[sizeof(T)];
  std::memcpy(b, &v, sizeof(T));
  out.insert(out.end(), b, b + sizeof(T));
}

inline std::uint64_t referenceChecksum(World& w, std::uint64_t tick, ChecksumForm form) {
  const bool column = form == ChecksumForm::Column;
  std::vector<std::uint8_t> s;
  putLittleEndian<std::uint64_t>(s, tick);
  putLittleEndian<std::uint64_t>(s, w.entityCount());
  std::vector<std::uint8_t> slots;
  std::uint32_t last = 0;
  for (std::uint32_t id = 0; id < w.capacity(); ++id) {
    if (w.isValid(w.handleAt(static_cast<std::uint16_t>(id)))) last = id + 1;
  }
  putLittleEndian<std::uint32_t>(slots, last);
  for (std::uint32_t id = 0; id < last; ++id) {
    const Entity e = w.handleAt(static_cast<std::uint16_t>(id));
    putLittleEndian<std::uint32_t>(slots, w.isValid(e) ? 0x10000u | e.generation() : 0u);
  }
  if (column) {
    putLittleEndian<std::uint64_t>(s, XXH3_64bits(slots.data(), slots.size()));
  } else {
    s.insert(s.end(), slots.begin(), slots.end());
  }
  for (const ArchetypeId a : nonEmptyArchetypesInSignatureOrder(w)) {
    const auto comps = w.archetypeComponents(a);
    putLittleEndian<std::uint32_t>(s, static_cast<std::uint32_t>(comps.size()));
    for (const ComponentTypeId c : comps) putLittleEndian<std::uint32_t>(s, c);
    const std::uint32_t rows = w.archetypeRowCount(a);
    putLittleEndian<std::uint32_t>(s, rows);
    for (const ComponentTypeId c : comps) {
      const std::uint32_t size = w.componentInfo(c).value().size;
      const std::uint8_t* col = w.archetypeColumn(a, c);
      if (!column) {
        s.insert(s.end(), col, col + std::size_t{rows} * size);
      } else if (size != 0) {
        putLittleEndian<std::uint64_t>(s, XXH3_64bits(col, std::size_t{rows} * size));
      }
    }
  }
  putLittleEndian<std::uint32_t>(s, w.systemCount());
  for (std::uint32_t id = 1; id <= w.systemCount(); ++id) {
    const SystemRngState st = w.systemRngState(SystemId{id}).value();
    putLittleEndian<std::uint64_t>(s, st.hasSubstream ? 1 : 0);
    putLittleEndian<std::uint64_t>(s, st.hasSubstream ? st.seed : 0);
    putLittleEndian<std::uint64_t>(s, st.hasSubstream ? st.state1 : 0);
    putLittleEndian<std::uint64_t>(s, st.hasSubstream ? st.state2 : 0);
  }
  return XXH3_64bits(s.data(), s.size());
}

}  // namespace laige::test
