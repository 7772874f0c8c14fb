// The TypeScript Q16.16 helpers: docs/sim_math.md known answers, and a
// bit-for-bit comparison with the C++ core over a table of ~30k random and
// edge operations printed by the native laige-fx-table.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fx } from '../../dist/index.js';

const S = (v: number) => fx.fromFloat(v);
const MIN = -2147483648;
const MAX = 2147483647;

describe('fx known answers (docs/sim_math.md)', () => {
  it('div', () => {
    expect(fx.div(S(3), S(5))).toBe(39322);
    expect(fx.div(1, 3)).toBe(21845);
    expect(fx.div(1, 6)).toBe(10923);
    expect(fx.div(1, 131072)).toBe(0);
    expect(fx.div(1, 0)).toBe(MAX);
    expect(fx.div(-1, 0)).toBe(MIN);
    expect(fx.div(0, 0)).toBe(0);
  });
  it('div rounds with the true sign (docs/determinism.md#the-rules)', () => {
    // -0.75 raw units rounds to -1, not +1.
    expect(fx.div(-3, 4 * 65536)).toBe(-1);
    expect(fx.div(3, -4 * 65536)).toBe(-1);
    expect(fx.div(3, 4 * 65536)).toBe(1);
  });
  it('mul', () => {
    expect(fx.mul(1, 0x8000)).toBe(0);
    expect(fx.mul(1, 0x18000)).toBe(2);
    expect(fx.mul(-1, 0x18000)).toBe(-2);
    expect(fx.mul(3, 0x4000)).toBe(1);
    expect(fx.mul(-3, 0x4000)).toBe(-1);
    expect(fx.mul(MIN, 1)).toBe(-32768);
    expect(fx.mul(MIN, MIN)).toBe(MAX);
    expect(fx.mul(S(181), S(181))).toBe(S(32761));
  });
  it('add, negate', () => {
    expect(fx.add(MAX, MIN)).toBe(-1);
    expect(fx.negate(MAX)).toBe(-2147483647);
    expect(fx.negate(MIN)).toBe(MAX);
  });
  it('toInt', () => {
    expect(fx.toInt(0x8000)).toBe(0);
    expect(fx.toInt(0x18000)).toBe(2);
    expect(fx.toInt(-0x8000)).toBe(0);
    expect(fx.toInt(-0x18000)).toBe(-2);
  });
  it('sqrt', () => {
    expect(fx.sqrt(S(2))).toBe(92682);
    expect(fx.sqrt(S(25))).toBe(S(5));
    expect(fx.sqrt(S(0.25))).toBe(S(0.5));
    expect(fx.sqrt(-5)).toBe(0);
  });
  it('conversions and normalize', () => {
    expect(fx.toFloat(MAX)).toBe(32768);
    expect(S(0.1)).toBe(6554);
    expect(S(0.6)).toBe(39322);
    expect(S(0.8)).toBe(52429);
    expect(fx.normalize(S(3), S(4))).toEqual([39322, 52429]);
    expect(fx.length(S(181), 0)).toBe(S(181));
    expect(fx.length(S(182), 0)).toBe(fx.sqrt(MAX));
    expect(fx.fromFloat(NaN)).toBe(0);
    expect(fx.fromFloat(Infinity)).toBe(MAX);
    expect(fx.fromFloat(-32768)).toBe(MIN);
    expect(fx.fromInt(32768)).toBe(MAX);
    expect(fx.fromInt(-32768)).toBe(MIN);
    expect(fx.one()).toBe(65536);
    expect(fx.min()).toBe(MIN);
    expect(fx.max()).toBe(MAX);
    expect(fx.lerp(0, S(10), S(0.5))).toBe(S(5));
  });
});

const table = new URL('../../build/native-release/laige-fx-table', import.meta.url);

function f32(bits: number): number {
  return new Float32Array(new Uint32Array([bits]).buffer)[0]!;
}
function f64(hex: string): number {
  const b = new BigUint64Array([BigInt(`0x${hex}`)]);
  return new Float64Array(b.buffer)[0]!;
}
function bitsOfF32(v: number): string {
  return new Uint32Array(new Float32Array([v]).buffer)[0]!.toString(16).padStart(8, '0');
}

describe('fx is bit-identical to the C++ core', () => {
  it('every line of laige-fx-table', () => {
    expect(existsSync(table), 'build the native-release preset first (laige-fx-table)').toBe(true);
    const text = execFileSync(table.pathname, ['5000'], { maxBuffer: 256 << 20 }).toString();
    const lines = text.split('\n').filter((l) => l.length > 0);
    expect(lines.length).toBeGreaterThan(50000);
    const mismatches: string[] = [];
    const ops = new Map<string, number>();
    for (const line of lines) {
      const [lhs, rhs] = line.split(' = ') as [string, string];
      const [op, ...args] = lhs.split(' ');
      const want = rhs.split(' ');
      const n = args.map(Number);
      let got: string[];
      switch (op) {
        case 'add': got = [String(fx.add(n[0]!, n[1]!))]; break;
        case 'sub': got = [String(fx.sub(n[0]!, n[1]!))]; break;
        case 'mul': got = [String(fx.mul(n[0]!, n[1]!))]; break;
        case 'div': got = [String(fx.div(n[0]!, n[1]!))]; break;
        case 'length': got = [String(fx.length(n[0]!, n[1]!))]; break;
        case 'normalize': got = fx.normalize(n[0]!, n[1]!).map(String); break;
        case 'length3': got = [String(fx.length3(n[0]!, n[1]!, n[2]!))]; break;
        case 'normalize3': got = fx.normalize3(n[0]!, n[1]!, n[2]!).map(String); break;
        case 'lerp': got = [String(fx.lerp(n[0]!, n[1]!, n[2]!))]; break;
        case 'clamp': got = [String(fx.clamp(n[0]!, n[1]!, n[2]!))]; break;
        case 'sqrt': got = [String(fx.sqrt(n[0]!))]; break;
        case 'negate': got = [String(fx.negate(n[0]!))]; break;
        case 'toInt': got = [String(fx.toInt(n[0]!))]; break;
        case 'fromInt': got = [String(fx.fromInt(n[0]!))]; break;
        case 'toFloat': got = [bitsOfF32(fx.toFloat(n[0]!))]; break;
        case 'fromFloat': got = [String(fx.fromFloat(f32(parseInt(args[0]!, 16))))]; break;
        case 'fromDouble': got = [String(fx.fromDouble(f64(args[0]!)))]; break;
        default: throw new Error(`unknown op ${op}`);
      }
      ops.set(op!, (ops.get(op!) ?? 0) + 1);
      if (got.join(' ') !== want.join(' ')) mismatches.push(`${line} (ts: ${got.join(' ')})`);
    }
    expect(mismatches.slice(0, 20)).toEqual([]);
    expect(ops.size).toBe(17);
  });
});
