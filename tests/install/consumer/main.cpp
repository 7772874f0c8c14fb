// The installed-package consumer: creates a World, draws from a Prng and
// multiplies two fpx16_16 values, through <laige/sim.h> only.
#include <laige/sim.h>

#include <cstdio>

int main() {
  auto created = laige::World::create(laige::World::Options{16});
  if (created.isError()) return 1;
  laige::World world = std::move(created).takeValue();
  const auto e = world.create();
  if (e.isError() || !world.isValid(e.value())) return 2;

  laige::Prng rng(0x1234567890ABCDEFull);
  if (rng.next_u64() != 0x6C6322B836E9CA2Aull) return 3;  // docs/prng.md KAT

  using M = laige::SimMathFpx16;
  const auto product = M::mul(laige::fpx16_16::fromRaw(3 << 16), laige::fpx16_16::fromRaw(5 << 15));
  if (product.raw != (15 << 15)) return 4;  // 3 x 2.5 = 7.5

  std::printf("consumer OK: %s, mul(3, 2.5) = %d/65536\n",
              laige::toString(e.value()).c_str(), product.raw);
  return 0;
}
