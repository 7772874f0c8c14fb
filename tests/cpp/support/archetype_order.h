// archetype_order.h - the archetypes the canonical state streams walk, for
// the tests' plain reference implementations of stateHash, stateChecksum
// and columnChecksum: every non-empty archetype, in ascending order of its
// component-id signature (docs/determinism.md#the-state-hash).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "laige/world.h"

namespace laige::test {

inline std::vector<ArchetypeId> nonEmptyArchetypesInSignatureOrder(World& w) {
  std::vector<ArchetypeId> order;
  for (std::uint32_t a = 1; a <= w.archetypeCount(); ++a) {
    if (w.archetypeRowCount(static_cast<ArchetypeId>(a)) != 0) order.push_back(static_cast<ArchetypeId>(a));
  }
  std::sort(order.begin(), order.end(), [&](ArchetypeId x, ArchetypeId y) {
    const auto cx = w.archetypeComponents(x);
    const auto cy = w.archetypeComponents(y);
    return std::lexicographical_compare(cx.begin(), cx.end(), cy.begin(), cy.end());
  });
  return order;
}

}  // namespace laige::test
