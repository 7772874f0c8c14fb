// bench_components.h - the Position / Velocity pair every pos += vel
// benchmark uses (bench/ecs_bench.cpp, bench/pass_timing.cpp), so the
// native and wasm figures time the same layout.
#pragma once

#include "laige/component.h"

namespace bench {

struct Position {
  float x, y;
};
LAIGE_COMPONENT(Position, x, y);
struct Velocity {
  float x, y;
};
LAIGE_COMPONENT(Velocity, x, y);

}  // namespace bench
