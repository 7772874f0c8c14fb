// laige/sim_math_fn.h - deterministic sin, cos, tan, atan2, asin, acos,
// exp, log, pow, hypot, floor, ceil and round for both SimMath backends,
// bit-identical natively, in wasm and in the TypeScript twins
// (web/src/math/fx_math.ts: fx.sin ...; f32_math.ts: f32.sin ...). Built from + - * / sqrt and
// integer operations only; no libm. Call them as SimMath<Fpx16_16>::sin(x)
// or SimMath<Fp32Pinned>::sin(x) (sim_math.h mixes them in). Accuracy,
// method, cost and special cases: `docs/sim_math.md#functions`.
#pragma once

#include "laige/detail/sim_math_fn_f32.h"
#include "laige/detail/sim_math_fn_fixed.h"
