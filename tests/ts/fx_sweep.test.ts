// The Q16.16 math functions of the TypeScript package (fx.sin ... fx.round)
// against the C++ functions (SimMath<Fpx16_16>) over millions of inputs:
// the native laige-fx-sweep prints a digest of its results per input
// segment (every raw in a range, a strided sweep of the whole int32 range,
// random pairs at several scales; tests/ts/native/fx_sweep.cpp defines them
// and the line format) and this test computes the same digests in
// TypeScript. On a difference it asks the tool for that segment's values
// and names the first input that differs.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fx } from '../../dist/math/fx.js';
import { atanExact, expLogExact, mr30, mrs, ratioQ30, trigExact } from '../../dist/math/fx_q30.js';

const tool = new URL('../../build/native-release/laige-fx-sweep', import.meta.url);
type Fn = (...args: number[]) => number;
const FNS = fx as unknown as Record<string, Fn>;

function fromSpec(spec: string, r: number, first = 0): number {
  const n = Number(spec.slice(1));
  if (spec[0] === 's') return (r | 0) >> n;
  if (spec[0] === 'u') return (r >>> n) | 0;
  if (spec[0] === 'd') return (first + ((r | 0) >> n)) | 0;
  return Math.imul((r | 0) >> n, 65536);
}

/** The count and digest of one segment line of the tool, computed with `fns`. */
function digestOf(line: string, fns: Record<string, Fn>): { count: number; digest: string } {
  const [lhs] = line.split(' = ') as [string];
  const p = lhs.split(' ');
  const f = fns[p[1]!]!;
  let h = 2166136261;
  let count = 0;
  if (p[2] === 'range') {
    const lo = Number(p[3]);
    const hi = Number(p[4]);
    const step = Number(p[5]);
    for (let x = lo; x <= hi; x += step) {
      h = Math.imul(h ^ f(x), 16777619);
      count += 1;
    }
  } else {
    let s = Number(p[3]);
    const n = Number(p[4]);
    for (let k = 0; k < n; k++) {
      s ^= s << 13;
      s ^= s >>> 17;
      s ^= s << 5;
      const a = fromSpec(p[5]!, s >>> 0);
      s ^= s << 13;
      s ^= s >>> 17;
      s ^= s << 5;
      const b = fromSpec(p[6]!, s >>> 0, a);
      h = Math.imul(h ^ f(a, b), 16777619);
      count += 1;
    }
  }
  return { count, digest: (h >>> 0).toString(16).padStart(8, '0') };
}

/** The first input of segment `index` where `fns` differs from the tool's values. */
function firstDifference(index: number, fns: Record<string, Fn>, name: string): string {
  const out = execFileSync(tool.pathname, [String(index)], { maxBuffer: 1 << 30 }).toString();
  for (const row of out.split('\n')) {
    if (row === '') continue;
    const [args, want] = row.split(' = ') as [string, string];
    const got = fns[name]!(...args.split(' ').map(Number));
    if (got !== Number(want)) return `fx.${name}(${args.split(' ').join(', ')}) = ${got}, C++ ${want}`;
  }
  return 'none';
}

// The exact integer kernels of fx_q30.ts on their own, as fx.* would call them.
const EXACT: Record<string, Fn> = {
  sin: (x) => trigExact(x, 0),
  cos: (x) => trigExact(x, 1),
  tan: (x) => trigExact(x, 2),
  atan2: (y, x) => atanExact(y, x, 0),
  asin: (x) => atanExact(x, 0, 1),
  acos: (x) => atanExact(x, 0, 2),
  log: (x) => (x <= 0 ? -2147483648 : expLogExact(x, 0, 1)),
};

let cached: string[] | undefined;
function lines(): string[] {
  cached ??= execFileSync(tool.pathname, { maxBuffer: 1 << 20 }).toString().split('\n').filter((l) => l !== '');
  return cached;
}

describe('fx math functions equal the C++ ones over millions of inputs', () => {
  it('every segment of laige-fx-sweep, bit for bit', { timeout: 300_000 }, () => {
    expect(existsSync(tool), 'build the native-release preset first (laige-fx-sweep)').toBe(true);
    const segs = lines();
    const bad: string[] = [];
    let total = 0;
    const seen = new Set<string>();
    segs.forEach((line, index) => {
      const name = line.split(' ')[1]!;
      seen.add(name);
      const want = line.split(' = ')[1]!.split(' ');
      const got = digestOf(line, FNS);
      total += got.count;
      if (String(got.count) !== want[0] || got.digest !== want[1]) {
        bad.push(`${line}: TypeScript ${got.count} ${got.digest}; first difference ${firstDifference(index, FNS, name)}`);
      }
    });
    expect(bad).toEqual([]);
    expect([...seen].sort()).toEqual(['acos', 'asin', 'atan2', 'ceil', 'cos', 'exp', 'floor', 'hypot', 'log', 'pow',
      'round', 'sin', 'tan']);
    expect(total).toBeGreaterThan(40_000_000);
  });

  it('the exact integer kernels alone (the fallbacks of the real first passes), bit for bit', { timeout: 300_000 }, () => {
    expect(existsSync(tool), 'build the native-release preset first (laige-fx-sweep)').toBe(true);
    const bad: string[] = [];
    let total = 0;
    lines().forEach((line, index) => {
      const name = line.split(' ')[1]!;
      if (!(name in EXACT)) return;
      const want = line.split(' = ')[1]!.split(' ');
      const got = digestOf(line, EXACT);
      total += got.count;
      if (String(got.count) !== want[0] || got.digest !== want[1]) {
        bad.push(`${line}: exact kernel ${got.count} ${got.digest}; first difference ${firstDifference(index, EXACT, name)}`);
      }
    });
    expect(bad).toEqual([]);
    expect(total).toBeGreaterThan(20_000_000);
  });

  it('a function wrong at one input in a million gives another digest (the check can fail)', () => {
    expect(existsSync(tool), 'build the native-release preset first (laige-fx-sweep)').toBe(true);
    const line = lines().find((l) => l.startsWith('fx sin range -1048576 '))!;
    const wrong = { ...FNS, sin: (x: number) => (x === 123457 ? fx.sin(x) + 1 : fx.sin(x)) };
    expect(digestOf(line, wrong).digest).not.toBe(line.split(' = ')[1]!.split(' ')[1]);
    expect(digestOf(line, FNS).digest).toBe(line.split(' = ')[1]!.split(' ')[1]);
  });
});

describe('the exact integer steps on doubles (web/src/math/fx_q30.ts)', () => {
  // BigInt references: floor((a b + 2^29) / 2^30) and floor(a 2^30 / b).
  const floorDiv = (n: bigint, d: bigint) => (n >= 0n ? n / d : -((-n + d - 1n) / d));
  let s = 12345;
  const next = () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return s | 0;
  };

  it('mr30 (products below 2^53) and mrs (any int32 factors) equal the integer mulRound', () => {
    const bad: string[] = [];
    for (let i = 0; i < 200_000; i++) {
      const a = next();
      const b = next();
      const want = Number(floorDiv(BigInt(a) * BigInt(b) + 536870912n, 1073741824n));
      if (mrs(a, b) !== want) bad.push(`mrs(${a}, ${b}) = ${mrs(a, b)}, want ${want}`);
      const a21 = a >> 10; // |a21 b| < 2^52
      const want21 = Number(floorDiv(BigInt(a21) * BigInt(b) + 536870912n, 1073741824n));
      if (mr30(a21, b) !== want21) bad.push(`mr30(${a21}, ${b}) = ${mr30(a21, b)}, want ${want21}`);
    }
    expect(bad.slice(0, 5)).toEqual([]);
  });

  it('ratioQ30 equals floor(a 2^30 / b), also where the rounded quotient is an integer', () => {
    const bad: string[] = [];
    const check = (a: number, b: number) => {
      const want = Number((BigInt(a) << 30n) / BigInt(b));
      if (ratioQ30(a, b) !== want) bad.push(`ratioQ30(${a}, ${b}) = ${ratioQ30(a, b)}, want ${want}`);
    };
    for (let i = 0; i < 200_000; i++) {
      const b = (next() >>> 0) || 1; // b < 2^32
      const a = (next() >>> 0) % (b + 1);
      check(a, b);
      // quotients at or next to an integer: a = q b / 2^30 rounded, b a multiple of powers of two or not
      const q = (next() >>> 2) % 1073741824;
      const bb = (next() >>> 1) | 1;
      const aa = Math.floor((q * bb) / 1073741824);
      if (aa <= bb) check(aa, bb);
      if (aa + 1 <= bb) check(aa + 1, bb);
    }
    for (const b of [1, 2, 3, 1073741824, 2147483647, 2147483648, 4294967295]) {
      for (const a of [0, 1, b - 1, b]) if (a >= 0 && a <= b) check(a, b);
    }
    expect(bad.slice(0, 5)).toEqual([]);
  });
});
