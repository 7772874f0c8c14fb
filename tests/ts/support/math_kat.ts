// The math known-answer table (tests/kat/math_kat.txt, printed by the
// native laige-math-kat from laige/sim_math_fn.h) checked against the
// TypeScript twins. Reusable by any runner (Vitest under node, the browser
// e2e): pass the table text and the two function sets, get the mismatches.

/** One-argument and two-argument functions by name. */
export type MathFns = Readonly<Record<string, (a: number, b: number) => number>>;

/** A row whose result differs: the row text and the bits computed. */
export interface MathKatMismatch {
  row: string;
  got: string;
}

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
function floatOfBits(bits: number): number {
  u32[0] = bits >>> 0;
  return f32[0]!;
}
function bitsOfFloat(v: number): number {
  f32[0] = v;
  return u32[0]!;
}
function isNaNBits(b: number): boolean {
  return (b & 0x7f800000) === 0x7f800000 && (b & 0x7fffff) !== 0;
}

/**
 * Every row of `table` evaluated with `fx` (Q16.16: raw int32 in and out) or
 * `f32` (binary32 bits in and out); returns the rows whose result bits
 * differ (a NaN matches any NaN: payloads are not part of the contract) and
 * the number of rows checked.
 */
export function checkMathKat(table: string, fx: MathFns, f32fns: MathFns): { rows: number; mismatches: MathKatMismatch[] } {
  const mismatches: MathKatMismatch[] = [];
  let rows = 0;
  for (const line of table.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const [lhs, rhs] = line.split(' = ');
    const parts = lhs!.split(' ');
    const backend = parts[0]!;
    const fn = (backend === 'fx' ? fx : f32fns)[parts[1]!];
    if (fn === undefined) {
      mismatches.push({ row: line, got: 'missing function' });
      continue;
    }
    const args = parts.slice(2).map((h) => parseInt(h, 16));
    const want = parseInt(rhs!, 16) >>> 0;
    let got: number;
    if (backend === 'fx') {
      got = fn(args[0]! | 0, (args[1] ?? 0) | 0) >>> 0;
    } else {
      got = bitsOfFloat(fn(floatOfBits(args[0]!), floatOfBits(args[1] ?? 0)));
    }
    const same = got === want || (backend === 'f32' && isNaNBits(got) && isNaNBits(want));
    if (!same) mismatches.push({ row: line, got: got.toString(16).padStart(8, '0') });
    rows += 1;
  }
  return { rows, mismatches };
}
