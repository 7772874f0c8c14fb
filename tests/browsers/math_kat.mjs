// math_kat.mjs - the math known-answer table (tests/kat/math_kat.txt,
// printed by the native laige-math-kat from laige/sim_math_fn.h) checked
// against the TypeScript twins (fx.sin, f32.sin, ...). One implementation for
// every runner: Vitest under node (tests/ts/support/math_kat.ts re-exports
// it with types) and the browser suite's page (page.mjs). Pass the table
// text and the two function sets, get the mismatches.

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
function floatOfBits(bits) {
  u32[0] = bits >>> 0;
  return f32[0];
}
function bitsOfFloat(v) {
  f32[0] = v;
  return u32[0];
}
function isNaNBits(b) {
  return (b & 0x7f800000) === 0x7f800000 && (b & 0x7fffff) !== 0;
}

/**
 * Every row of `table` evaluated with `fx` (Q16.16: raw int32 in and out) or
 * `f32` (binary32 bits in and out); returns the rows whose result bits
 * differ (a NaN matches any NaN: payloads are not part of the contract) and
 * the number of rows checked.
 */
export function checkMathKat(table, fx, f32fns) {
  const mismatches = [];
  let rows = 0;
  for (const line of table.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const [lhs, rhs] = line.split(' = ');
    const parts = lhs.split(' ');
    const backend = parts[0];
    const fn = (backend === 'fx' ? fx : f32fns)[parts[1]];
    if (fn === undefined) {
      mismatches.push({ row: line, got: 'missing function' });
      continue;
    }
    const args = parts.slice(2).map((h) => parseInt(h, 16));
    const want = parseInt(rhs, 16) >>> 0;
    let got;
    if (backend === 'fx') {
      got = fn(args[0] | 0, (args[1] ?? 0) | 0) >>> 0;
    } else {
      got = bitsOfFloat(fn(floatOfBits(args[0]), floatOfBits(args[1] ?? 0)));
    }
    const same = got === want || (backend === 'f32' && isNaNBits(got) && isNaNBits(want));
    if (!same) mismatches.push({ row: line, got: got.toString(16).padStart(8, '0') });
    rows += 1;
  }
  return { rows, mismatches };
}
