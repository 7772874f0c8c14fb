// Enforced system access: inside a running TypeScript system every way of
// reading or writing a component is held to the system's io (derived from
// its queries plus its declared pairs). Each path both ways: the legal call
// works; the illegal one throws system_io_violation and changes nothing.
import { describe, expect, it } from 'vitest';
import { type Component, type Entity, LaigeError, type World } from '../../dist/index.js';
import { sim } from './support/sim.js';

function rig() {
  const w = sim.createWorld({ capacity: 64, seed: 1n });
  const P = w.registerComponent('P', { x: 'f32', y: 'f32' });
  const V = w.registerComponent('V', { x: 'f32', y: 'f32' });
  const Q = w.registerComponent('Q', { n: 'i32' });
  const e = w.create();
  w.add(e, P, { x: 1, y: 2 });
  w.add(e, V, { x: 3, y: 4 });
  const bare = w.create();
  w.add(bare, V, { x: 0, y: 0 });
  return { w, P, V, Q, e, bare };
}

type Rig = ReturnType<typeof rig>;
type Io = ReadonlyArray<readonly [Component, 'read' | 'write']>;

/** Runs `body` as the only system (io as given); returns the error runSystems threw, or null. */
function inSystem(r: Rig, io: (r: Rig) => Io, body: (r: Rig, w: World) => void): LaigeError | null {
  r.w.registerSystem({ name: 'S', budgetMs: 5, io: io(r), run: () => body(r, r.w) });
  try {
    r.w.runSystems();
    return null;
  } catch (err) {
    expect(err).toBeInstanceOf(LaigeError);
    return err as LaigeError;
  }
}

interface Case {
  name: string;
  legal: (r: Rig) => Io;
  illegal: (r: Rig) => Io;
  body: (r: Rig, w: World) => void;
  component: string;
  access: string;
}

const cases: Case[] = [
  { name: 'a query term outside the io', legal: ({ P }) => [[P, 'read']], illegal: ({ V }) => [[V, 'read']],
    body: ({ P }, w) => { w.query({ p: P.read }).each(() => {}); }, component: 'P', access: 'read' },
  { name: 'a write ref of a component declared read', legal: ({ P }) => [[P, 'write']], illegal: ({ P }) => [[P, 'read']],
    body: ({ P }, w) => { w.query({ p: P.write }).each((_e, { p }) => { p.x += 1; }); }, component: 'P', access: 'write' },
  { name: 'World.each with a write', legal: ({ P }) => [[P, 'write']], illegal: ({ P }) => [[P, 'read']],
    body: ({ P }, w) => { w.each([P], ['write'], (_e, p) => { p.x += 1; }); }, component: 'P', access: 'write' },
  { name: 'World.add overwriting in place', legal: ({ P }) => [[P, 'write']], illegal: ({ P }) => [[P, 'read']],
    body: ({ P, e }, w) => { w.add(e, P, { x: 9, y: 9 }); }, component: 'P', access: 'write' },
  { name: 'World.add of a component the entity lacks', legal: ({ P }) => [[P, 'read']], illegal: () => [],
    body: ({ P, bare }, w) => { w.add(bare, P, { x: 9, y: 9 }); }, component: 'P', access: 'add' },
  { name: 'World.remove', legal: ({ V }) => [[V, 'read']], illegal: ({ P }) => [[P, 'write']],
    body: ({ V, e }, w) => { w.remove(e, V); }, component: 'V', access: 'remove' },
  { name: 'World.destroy of an entity with undeclared components', legal: ({ P, V }) => [[P, 'read'], [V, 'read']], illegal: ({ P }) => [[P, 'write']],
    body: ({ e }, w) => { w.destroy(e); }, component: 'V', access: 'destroy' },
  { name: 'World.get', legal: ({ V }) => [[V, 'read']], illegal: ({ P }) => [[P, 'read']],
    body: ({ V, e }, w) => { w.get(e, V); }, component: 'V', access: 'read' },
  { name: 'a field handle set', legal: ({ P }) => [[P, 'write']], illegal: ({ P }) => [[P, 'read']],
    body: ({ P, e }) => { P.field.x.set(e, 5); }, component: 'P', access: 'write' },
  { name: 'a field handle get', legal: ({ P }) => [[P, 'read']], illegal: ({ V }) => [[V, 'read']],
    body: ({ P, e }) => { P.field.x.get(e); }, component: 'P', access: 'read' },
  { name: 'an eachChunk write to a read column', legal: ({ P, V }) => [[P, 'write'], [V, 'read']], illegal: ({ P, V }) => [[P, 'read'], [V, 'read']],
    body: ({ P, V }, w) => {
      // The query reads P (a read column, checked when the chunk call returns) unless P is declared write.
      const pWrite = w.systems()[0]!.io.some((i) => i.component === 'P' && i.access === 'write');
      w.query({ p: pWrite ? P.write : P.read, v: V.read }).eachChunk((c) => {
        const px = c.field(P, 'x');
        c.field(V, 'x');
        px.array[px.index] = px.array[px.index]! + 1;
      });
    }, component: 'P', access: 'write' },
  { name: 'World.clear', legal: ({ P, V }) => [[P, 'read'], [V, 'read']], illegal: ({ V }) => [[V, 'write']],
    body: (_r, w) => { w.clear(); }, component: 'P', access: 'destroy' },
];

describe('TypeScript systems: enforced access', () => {
  for (const c of cases) {
    it(`${c.name}: legal passes, illegal is rejected and changes nothing`, () => {
      const ok = rig();
      expect(inSystem(ok, c.legal, c.body)).toBeNull();
      ok.w.dispose();
      const bad = rig();
      const h = bad.w.componentStateHash(0);
      const err = inSystem(bad, c.illegal, c.body);
      expect(err).not.toBeNull();
      expect(err!.code).toBe('invalid_argument');
      expect(err!.reason).toBe('system_io_violation');
      expect(err!.fields).toMatchObject({ system: 'S', component: c.component, access: c.access });
      expect(bad.w.componentStateHash(0)).toBe(h);
      bad.w.dispose();
    });
  }

  it('outside systems nothing is checked', () => {
    const r = rig();
    r.w.add(r.e, r.P, { x: 5, y: 5 });
    r.P.field.x.set(r.e, 6);
    r.w.query({ p: r.P.write }).each((_e, { p }) => { p.y = 7; });
    expect(r.w.get(r.e, r.P)).toEqual({ x: 6, y: 7 });
    r.w.dispose();
  });

  it('a system owns its queries: io derived from them, ctx.queries typed, nowhere else to run them', () => {
    const r = rig();
    const { w, P, V, Q } = r;
    const Frozen = w.registerComponent('Frozen', {});
    const f = w.create();
    w.add(f, P, { x: 0, y: 0 });
    w.add(f, V, { x: 1, y: 1 });
    w.add(f, Frozen, {});
    const moved: Entity[] = [];
    const h = w.registerSystem({
      name: 'Move', budgetMs: 5, io: [[Q, 'read']],
      queries: { movers: { pos: P.write, vel: V.read, without: [Frozen] } },
      run(ctx) {
        ctx.queries.movers.each((e, { pos, vel }) => { pos.x += vel.x; moved.push(e); });
      },
    });
    w.runSystems();
    expect(moved).toEqual([r.e]);
    expect(w.get(r.e, P)!.x).toBe(4);
    const info = w.systems().find((s) => s.id === h.id)!;
    expect(info.io.map((i) => `${i.component}:${i.access}`).sort()).toEqual(['Frozen:read', 'P:write', 'Q:read', 'V:read']);
    w.dispose();
  });

  it('the scheduler sees the derived io: two systems whose queries write one component are rejected', () => {
    const { w, P } = rig();
    w.registerSystem({ name: 'A', budgetMs: 5, queries: { q: { p: P.write } }, run() {} });
    w.registerSystem({ name: 'B', budgetMs: 5, queries: { q: { p: P.write } }, run() {} });
    expect(() => w.scheduleSystems()).toThrow(LaigeError);
    w.dispose();
  });
});
