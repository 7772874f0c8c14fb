// Wrong types and nonsense values at the entry points: every one is a
// LaigeError invalid_argument naming the field and the value's type (never a
// raw TypeError), with its reason, and the world is unchanged.
import { describe, expect, it } from 'vitest';
import {
  LaigeError, entityGeneration, entityId, formatEntity, fx, makeEntity, type World,
} from '../../dist/index.js';
import { sim } from './support/sim.js';

function rejected(fn: () => unknown, label: string): LaigeError {
  try {
    fn();
  } catch (e) {
    expect(e, `${label}: ${String(e)}`).toBeInstanceOf(LaigeError);
    expect((e as LaigeError).code, label).toBe('invalid_argument');
    return e as LaigeError;
  }
  throw new Error(`${label}: expected a throw`);
}

const KINDS = ['i8', 'u8', 'i16', 'u16', 'i32', 'u32', 'f32', 'f64', 'fx'] as const;
const WRONG: Array<[unknown, string]> = [
  [5n, 'bigint'], [Symbol('s'), 'symbol'], [{}, 'object'], ['1', 'string'], [[1], 'array'], [true, 'true'], [null, 'null'], [undefined, 'undefined'],
];

function unchanged(w: World, fn: () => void): void {
  const h = w.stateHash(0);
  fn();
  expect(w.stateHash(0), 'state hash unchanged').toBe(h);
}

describe('field values of the wrong type', () => {
  for (const kind of KINDS) {
    it(`${kind}: add() and a write ref reject every non-number by name and type`, () => {
      const w = sim.createWorld({ capacity: 4 });
      const C = w.registerComponent('C', { v: kind, a: [kind, 2] } as const);
      const e = w.create();
      w.add(e, C, { v: 1, a: [1, 2] } as never);
      unchanged(w, () => {
        for (const [bad, type] of WRONG) {
          const label = `${kind} ${type}`;
          const m1 = rejected(() => w.add(e, C, { v: bad, a: [1, 2] } as never), `add ${label}`).message;
          expect(m1, label).toContain("'v'");
          expect(m1, label).toContain(type === 'array' ? 'array' : type);
          const m2 = rejected(() => w.add(e, C, { v: 1, a: [1, bad] } as never), `add array ${label}`).message;
          expect(m2, label).toContain("'a[1]'");
          const m3 = rejected(() => w.each([C], ['write'], (_x, c) => { (c as { v: unknown }).v = bad; }), `each ${label}`).message;
          expect(m3, label).toContain('v');
        }
      });
      w.dispose();
    });
  }
});

describe('names', () => {
  const system = (w: World, name: unknown, dependsOn?: unknown[]) =>
    w.registerSystem({ name: name as string, budgetMs: 1, dependsOn: dependsOn as string[], run() {} });

  it('system names: NUL, control characters, commas, spaces, lengths', () => {
    const w = sim.createWorld({ capacity: 4 });
    for (const bad of ['S\0x', 'S\n', 'S\t', 'S\x7f', 'A,B', ' S', 'S ', '', ' ', 'S'.repeat(64), 'é'.repeat(32), 5, Symbol('s')]) {
      const e = rejected(() => system(w, bad), `system ${JSON.stringify(String(bad))}`);
      expect(e.reason).toBe('name_invalid');
    }
    expect(w.systems()).toHaveLength(0);
    system(w, 'S'); // 'S\0x' did not register as 'S'
    system(w, 'M'.repeat(63)); // max length ok
    system(w, 'é'.repeat(31)); // 62 UTF-8 bytes
    system(w, 'Move Units'); // inner spaces are fine
    expect(w.systems().map((s) => s.name)).toEqual(['S', 'M'.repeat(63), 'é'.repeat(31), 'Move Units']);
    w.dispose();
  });

  it('dependsOn entries follow the same rules and leave scheduling intact', () => {
    const w = sim.createWorld({ capacity: 4 });
    system(w, 'A');
    for (const bad of ['A\0', 'A\0B', 'A,B', '', ' A', 'X'.repeat(64), 7]) {
      expect(rejected(() => system(w, 'B', [bad]), `dep ${JSON.stringify(String(bad))}`).reason).toBe('dep_spec_invalid');
    }
    system(w, 'B', ['A']);
    expect(w.scheduleSystems()).toHaveLength(2);
    w.dispose();
  });

  it('component names: NUL, newline, control characters, empty, only spaces, lengths', () => {
    const w = sim.createWorld({ capacity: 4 });
    for (const bad of ['P\0', 'P\0x', 'P\n', 'P\r', '\t', '', '   ', ' P', 'P ', 'C'.repeat(64), 'é'.repeat(32), 1, null]) {
      const e = rejected(() => w.registerComponent(bad as string, { v: 'i32' }), `component ${JSON.stringify(String(bad))}`);
      expect(e.reason).toBe('component_name_invalid');
    }
    expect(w.componentCount).toBe(0);
    w.registerComponent('C'.repeat(63), { v: 'i32' });
    w.registerComponent('My Component', { v: 'i32' });
    w.registerComponent('P', { v: 'i32' }); // 'P\0' did not register as 'P'
    expect(w.componentCount).toBe(3);
    w.dispose();
  });
});

describe('helpers', () => {
  it('entity helpers reject what is not a 32-bit handle', () => {
    for (const bad of [-1, 2 ** 32, 1.5, NaN, 5n, '1', Symbol('e'), null]) {
      for (const [name, fn] of [['entityId', entityId], ['entityGeneration', entityGeneration], ['formatEntity', formatEntity]] as const) {
        expect(rejected(() => fn(bad as number), `${name}(${String(bad)})`).reason).toBe('entity_handle_invalid');
      }
    }
    expect(entityId(0xffffffff)).toBe(0xffff);
    expect(formatEntity(makeEntity(2, 3))).toBe('Entity(2, 3)');
    expect(rejected(() => makeEntity(5n as never), 'makeEntity').reason).toBe('entity_handle_invalid');
  });

  it('fx.fromRaw is checked: an int32, nothing else', () => {
    expect(fx.fromRaw(fx.MAX)).toBe(fx.MAX);
    expect(fx.fromRaw(fx.MIN)).toBe(fx.MIN);
    expect(fx.fromRaw(-0)).toBe(0);
    for (const bad of [1.5, 2 ** 32 + 5, NaN, fx.MAX + 1, fx.MIN - 1, Infinity]) {
      expect(rejected(() => fx.fromRaw(bad), `fromRaw(${bad})`).reason).toBe('out_of_range');
    }
    for (const bad of [5n, '5', Symbol('r'), {}]) {
      const e = rejected(() => fx.fromRaw(bad as number), 'fromRaw');
      expect(e.reason).toBe('wrong_type');
      expect(e.fields.type).toBe(typeof bad);
    }
  });

  it('fx.clamp requires lo <= hi', () => {
    expect(fx.clamp(5, 1, 1)).toBe(1);
    expect(fx.clamp(-5, -3, 3)).toBe(-3);
    expect(rejected(() => fx.clamp(0, 5, 1), 'clamp').reason).toBe('clamp_bounds_invalid');
  });

  it('fx operations name the argument and the type of a non-number', () => {
    const ops: Array<[string, () => unknown]> = [
      ['add', () => fx.add(1n as never, 2)], ['sub', () => fx.sub(1, Symbol('x') as never)], ['mul', () => fx.mul('2' as never, 1)],
      ['div', () => fx.div(1, {} as never)], ['sqrt', () => fx.sqrt(2n as never)], ['lerp', () => fx.lerp(0, 1, 1n as never)],
      ['clamp', () => fx.clamp(1n as never, 0, 1)], ['toInt', () => fx.toInt(1n as never)], ['fromFloat', () => fx.fromFloat(1n as never)],
      ['fromDouble', () => fx.fromDouble(Symbol('d') as never)], ['fromInt', () => fx.fromInt('3' as never)], ['length', () => fx.length(1, 1n as never)],
      ['negate', () => fx.negate(1n as never)], ['toDouble', () => fx.toDouble(null as never)],
    ];
    for (const [name, fn] of ops) {
      const e = rejected(fn, name);
      expect(e.reason, name).toBe('wrong_type');
      expect(e.message, name).toContain(`fx.${name}`);
    }
  });

  it('archetypeComponents and handleAt reject ids that do not exist', () => {
    const w = sim.createWorld({ capacity: 4 });
    const P = w.registerComponent('P', { v: 'i32' });
    w.add(w.create(), P, { v: 1 });
    const n = w.archetypeCount;
    expect(w.archetypeComponents(n)).toEqual([P.id]);
    expect(w.archetypeComponents(0)).toEqual([]);
    unchanged(w, () => {
      for (const bad of [n + 1, 999, 65535]) {
        const e = rejected(() => w.archetypeComponents(bad), `archetypeComponents(${bad})`);
        expect(e.reason).toBe('archetype_unknown');
      }
      rejected(() => w.handleAt(4), 'handleAt(capacity)');
      rejected(() => w.archetypeComponents(5n as never), 'archetypeComponents(5n)');
    });
    expect(w.handleAt(3)).toBeUndefined();
    w.dispose();
  });
});
