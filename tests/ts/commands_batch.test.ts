// Deferred commands against the direct calls they stand for (systems/
// commands.ts, docs/commands.md): a random stream of add / remove / destroy
// recorded in a phase (world.defer, world.commands inside Query.each,
// World.each and eachChunk, ctx.commands) gives the state hash the same calls
// made directly in the same order give (a command whose entity died earlier
// in the batch is a counted skip, as the direct side skips it); refusals
// throw LaigeError with reason and fields and record nothing; world.commands
// answers by the phase (open inside a walk, a system's run and a defer only).
import { describe, expect, it } from 'vitest';
import { type Entity, LaigeError } from '../../dist/index.js';
import { sim, thrown } from './support/sim.js';

function twin() {
  const w = sim.createWorld({ capacity: 256, seed: 5n, churnPerFrameBudget: 0 });
  const P = w.registerComponent('BP', { x: 'i32', y: 'i32' });
  const H = w.registerComponent('BH', { v: 'u8' });
  const T = w.registerComponent('BT', {});
  const F = w.registerComponent('BF', { f: 'f32' });
  return { w, P, H, T, F, all: [P, H, T, F] as const };
}
type Twin = ReturnType<typeof twin>;
type Op = { kind: 'add'; e: Entity; c: number; value: Record<string, number> } | { kind: 'remove'; e: Entity; c: number } | { kind: 'destroy'; e: Entity };

function valueOf(c: number, r: () => number): Record<string, number> {
  return [{ x: r() - 500, y: r() }, { v: r() & 255 }, {}, { f: r() / 8 }][c]!;
}

describe('deferred commands against direct calls', () => {
  it('a random op stream recorded through every phase kind gives the direct calls\' state hash, batch by batch', () => {
    const A = twin(), B = twin();
    let seed = 12345;
    const rnd = () => { seed = (seed * 1664525 + 1013904223) >>> 0; return seed >>> 8; };
    const live = (t: Twin) => { const out: Entity[] = []; t.w.each([], [], (e) => { out.push(e); }); return out; };
    let skips = 0;
    const modes = ['defer', 'query.each', 'world.each', 'eachChunk', 'system'] as const;
    const ran = new Set<string>();
    let pendingSystem: ((c: import('../../dist/index.js').Commands) => void) | null = null;
    // The same system in both (the state hash covers the schedule); only B's records.
    for (const t of [A, B]) {
      t.w.registerSystem({ name: 'Rec', budgetMs: 100, io: t.all.map((c) => [c, 'write'] as [typeof c, 'write']), run(ctx) { if (t === B) pendingSystem?.(ctx.commands); } });
    }
    for (let batch = 0; batch < 40; batch++) {
      // Creates outside the phase, the same in both worlds (same handles).
      for (let i = 0, n = rnd() % 6; i < n; i++) {
        const ea = A.w.create(), eb = B.w.create();
        expect(eb).toBe(ea);
        A.w.add(ea, A.P, { x: i, y: batch });
        B.w.add(eb, B.P, { x: i, y: batch });
      }
      const pool = live(A);
      expect(live(B)).toEqual(pool);
      if (pool.length === 0) continue;
      const ops: Op[] = [];
      for (let i = 0, n = 1 + (rnd() % 20); i < n; i++) {
        const e = pool[rnd() % pool.length]!;
        const k = rnd() % 10;
        const c = rnd() % 4;
        if (k < 5) ops.push({ kind: 'add', e, c, value: valueOf(c, rnd) });
        else if (k < 8) ops.push({ kind: 'remove', e, c });
        else ops.push({ kind: 'destroy', e });
      }
      // Direct: in order; an entity an earlier op destroyed is skipped (the deferred side counts it).
      for (const op of ops) {
        if (!A.w.isValid(op.e)) { skips++; continue; }
        if (op.kind === 'add') A.w.add(op.e, A.all[op.c]!, op.value as never);
        else if (op.kind === 'remove') A.w.remove(op.e, A.all[op.c]!);
        else A.w.destroy(op.e);
      }
      // Deferred: every op recorded (all targets are live now), applied at the phase's end.
      const record = (c: import('../../dist/index.js').Commands) => {
        for (const op of ops) {
          if (op.kind === 'add') c.add(op.e, B.all[op.c]!, op.value as never);
          else if (op.kind === 'remove') c.remove(op.e, B.all[op.c]!);
          else c.destroy(op.e);
        }
      };
      const mode = modes[batch % modes.length]!;
      ran.add(mode);
      let once = false;
      const inWalk = () => { if (!once) { once = true; record(B.w.commands); } };
      if (mode === 'defer') B.w.defer(record);
      else if (mode === 'query.each') B.w.query({ p: B.P.read }).each(inWalk);
      else if (mode === 'world.each') B.w.each([], [], inWalk);
      else if (mode === 'eachChunk') B.w.query({ p: B.P.read }).eachChunk(inWalk);
      else {
        pendingSystem = record;
        B.w.runSystems();
        pendingSystem = null;
        A.w.runSystems(); // the same tick on the direct side (its system records nothing)
      }
      if ((mode === 'query.each' || mode === 'eachChunk') && !once) B.w.defer(record); // nothing matched: record elsewhere
      expect(B.w.commandStats().pending).toBe(0);
      expect(live(B)).toEqual(live(A));
      expect([mode, batch, B.w.stateHash(batch)]).toEqual([mode, batch, A.w.stateHash(batch)]);
    }
    expect(ran.size).toBe(modes.length);
    expect(skips).toBeGreaterThan(0);
    expect(B.w.commandStats().skippedDead).toBe(skips);
    A.w.dispose();
    B.w.dispose();
  });

  it('refusals inside a walk throw LaigeError with reason and fields, record nothing, and leave the state hash unchanged', () => {
    const { w, P, H, F } = twin();
    const a = w.create();
    w.add(a, P, { x: 1, y: 2 });
    const dead = w.create();
    w.destroy(dead);
    const foreign = twin().H;
    const before = w.stateHash(0);
    const err = (fn: () => unknown) => { const e = thrown(fn); expect(e).toBeInstanceOf(LaigeError); return e as LaigeError; };
    let checked = 0;
    w.query({ p: P.read }).each(() => {
      const c = w.commands;
      const stale = err(() => c.add(dead, H, { v: 1 }));
      expect(stale.reason).toBe('stale_entity_access');
      expect(stale.fields).toMatchObject({ op: 'add', entity_id: dead >>> 16 });
      expect(err(() => c.destroy(dead)).fields).toMatchObject({ op: 'destroy' });
      expect(err(() => c.remove(dead, H)).reason).toBe('stale_entity_access');
      const range = err(() => c.add(a, H, { v: 300 }));
      expect(range.fields).toMatchObject({ where: 'Commands.add' });
      expect(err(() => c.add(a, F, { f: Number.NaN })).fields).toMatchObject({ where: 'Commands.add' });
      const type = err(() => c.remove(1.5 as Entity, H));
      expect(type.reason).toBe('out_of_range');
      expect(type.fields).toMatchObject({ where: 'Commands.remove', field: 'entity' });
      expect(err(() => c.destroy(null as unknown as Entity)).fields).toMatchObject({ where: 'Commands.destroy', field: 'entity', got: 'null' });
      expect(err(() => c.add(a, foreign, { v: 1 })).reason).toBe('foreign_component');
      expect(err(() => c.remove(a, 'BH' as unknown as typeof H)).reason).toBe('wrong_type');
      expect(c.pending).toBe(0);
      checked++;
    });
    expect(checked).toBe(1);
    expect(w.stateHash(0)).toBe(before);
    w.dispose();
  });

  it('world.commands answers by the phase: open in walks, systems and defers, refused after them', () => {
    const { w, P, H } = twin();
    const e = w.create();
    w.add(e, P, { x: 0, y: 0 });
    const outside = thrown(() => w.commands) as LaigeError;
    expect(outside.reason).toBe('command_outside_phase');
    const q = w.query({ p: P.read });
    q.each(() => { w.commands.add(e, H, { v: 1 }); });
    expect(w.get(e, H)).toEqual({ v: 1 });
    expect((thrown(() => w.commands) as LaigeError).reason).toBe('command_outside_phase');
    q.eachChunk(() => { w.commands.add(e, H, { v: 2 }); });
    expect(w.get(e, H)).toEqual({ v: 2 });
    // A walk that threw closed its phase too.
    expect(thrown(() => q.each(() => { w.commands.add(e, H, { v: 3 }); throw new Error('x'); }))).toBeInstanceOf(Error);
    expect(w.get(e, H)).toEqual({ v: 3 });
    expect((thrown(() => w.commands) as LaigeError).reason).toBe('command_outside_phase');
    w.defer(() => { w.commands.remove(e, H); });
    expect(w.has(e, H)).toBe(false);
    w.registerSystem({ name: 'S', budgetMs: 50, io: [[H, 'write']], run() { w.commands.add(e, H, { v: 4 }); } });
    w.runSystems();
    expect(w.get(e, H)).toEqual({ v: 4 });
    // A Commands kept from a walk records nothing once the walk returned.
    let kept: import('../../dist/index.js').Commands | null = null;
    q.each(() => { kept = w.commands; });
    expect((thrown(() => kept!.add(e, H, { v: 5 })) as LaigeError).reason).toBe('command_outside_phase');
    expect(w.get(e, H)).toEqual({ v: 4 });
    w.dispose();
  });
});
