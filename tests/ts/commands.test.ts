// Deferred commands from TypeScript (docs/commands.md): ctx.commands in
// systems, world.commands inside each, world.defer(fn). The apply points,
// recording order, dead targets as counted skips, create-then-add, churn,
// the misuse and bad-input matrix (each throws and leaves the state hash
// unchanged), the io enforcement, and the state-hash stream the C++ test
// (tests/cpp/commands_test.cpp, StateHashStreamMatchesTheSharedGolden)
// produces for the same commands.
import { describe, expect, it } from 'vitest';
import { type Commands, type Entity, LaigeError } from '../../dist/index.js';
import { sim, thrown } from './support/sim.js';

function rig(capacity = 64) {
  const w = sim.createWorld({ capacity, seed: 7n, churnPerFrameBudget: 0 });
  const Pos = w.registerComponent('CmdPos', { x: 'i32', y: 'i32' });
  const Hp = w.registerComponent('CmdHp', { v: 'i32' });
  const spawn = (x: number): Entity => {
    const e = w.create();
    w.add(e, Pos, { x, y: 0 });
    return e;
  };
  return { w, Pos, Hp, spawn };
}

function reasonOf(fn: () => unknown): string {
  const e = thrown(fn);
  expect(e).toBeInstanceOf(LaigeError);
  return (e as LaigeError).reason;
}

describe('deferred commands', () => {
  it('a defer applies in recording order when fn returns', () => {
    const { w, Pos, Hp, spawn } = rig();
    const a = spawn(1);
    const b = spawn(2);
    w.defer((c) => {
      c.add(a, Hp, { v: 1 });
      c.add(a, Hp, { v: 2 });
      c.add(b, Hp, { v: 5 });
      c.remove(b, Hp);
      c.remove(a, Pos);
      c.add(a, Pos, { x: 9, y: 9 });
      expect(c.pending).toBe(6);
      expect(w.has(a, Hp)).toBe(false);
    });
    expect(w.get(a, Hp)).toEqual({ v: 2 });
    expect(w.has(b, Hp)).toBe(false);
    expect(w.get(a, Pos)).toEqual({ x: 9, y: 9 });
    expect(w.commandStats()).toMatchObject({ recorded: 6, applied: 6, pending: 0, skippedDead: 0, skippedFailed: 0 });
  });

  it('world.commands inside a top-level each applies when the each returns', () => {
    const { w, Pos, spawn } = rig();
    for (let i = 0; i < 5; i++) spawn(i);
    let visited = 0;
    w.each([Pos], ['read'], (e, p) => {
      visited++;
      if (p.x % 2 === 0) w.commands.destroy(e);
      expect(w.isValid(e)).toBe(true);
    });
    expect(visited).toBe(5);
    expect(w.entityCount).toBe(2);
  });

  it('Query.each and eachChunk apply what world.commands recorded when they return', () => {
    const { w, Pos, Hp, spawn } = rig();
    for (let i = 0; i < 4; i++) spawn(i);
    const bare = w.query({ pos: Pos.read }, { without: [Hp] });
    bare.each((e, { pos }) => {
      w.commands.add(e, Hp, { v: pos.x });
      expect(w.has(e, Hp)).toBe(false);
    });
    expect(bare.count()).toBe(0);
    let rows = 0;
    w.eachChunk([Hp], ['read'], (chunk) => {
      rows += chunk.rows;
      for (let i = 0; i < chunk.rows; i++) w.commands.destroy(chunk.entity(i));
    });
    expect(rows).toBe(4);
    expect(w.entityCount).toBe(0);
    expect(w.commandStats()).toMatchObject({ applied: 8, pending: 0 });
  });

  it('a created entity is usable at once, and not visited by the each', () => {
    const { w, Pos, Hp, spawn } = rig();
    spawn(1);
    spawn(2);
    const made: Entity[] = [];
    w.each([Pos], ['read'], (_e, p) => {
      const e = w.commands.create();
      expect(w.isValid(e)).toBe(true);
      w.commands.add(e, Pos, { x: p.x * 10, y: 1 });
      w.commands.add(e, Hp, { v: p.x });
      made.push(e);
    });
    expect(made.length).toBe(2);
    expect(w.get(made[1]!, Pos)).toEqual({ x: 20, y: 1 });
    expect(w.get(made[0]!, Hp)).toEqual({ v: 1 });
  });

  it('a command on an entity destroyed by an earlier command is a counted skip; churn counts applied commands', () => {
    const { w, Hp, spawn } = rig();
    const a = spawn(1);
    const b = spawn(2);
    w.beginFrame();
    w.defer((c) => {
      c.add(b, Hp, { v: 1 });
      c.destroy(a);
      c.add(a, Hp, { v: 3 });
      c.remove(a, Hp);
      c.remove(b, Hp);
    });
    expect(w.isValid(a)).toBe(false);
    expect(w.commandStats()).toMatchObject({ applied: 3, skippedDead: 2, skippedFailed: 0 });
    expect(w.guardrailStats().frameChurn).toBe(2); // the add and the remove of b
  });

  it('ctx.commands apply right after the recording system, before the next one', () => {
    const { w, Pos, spawn } = rig();
    const t = spawn(1);
    const seen: boolean[] = [];
    let kept: Commands | null = null;
    w.registerSystem({ name: 'Rec', budgetMs: 100, io: [[Pos, 'write']], run(ctx) {
      ctx.commands.destroy(t);
      seen.push(w.isValid(t));
      kept = ctx.commands;
    } });
    w.registerSystem({ name: 'Obs', budgetMs: 100, io: [[Pos, 'read']], dependsOn: ['Rec'], run() { seen.push(w.isValid(t)); } });
    w.runSystems();
    expect(seen).toEqual([true, false]);
    // A kept ctx.commands after its run.
    const other = spawn(2);
    const before = w.stateHash(1);
    const e = thrown(() => kept!.destroy(other)) as LaigeError;
    expect(e.reason).toBe('used_after_call');
    expect(e.message).toMatch(/^Commands\.destroy: the run of system 'Rec'/);
    expect(w.stateHash(1)).toBe(before);
  });

  it('a system that throws still has what it recorded before the throw applied; runSystems rethrows', () => {
    const { w, Pos, spawn } = rig();
    const t = spawn(1);
    w.registerSystem({ name: 'Thrower', budgetMs: 100, io: [[Pos, 'write']], run(ctx) {
      ctx.commands.destroy(t);
      throw new Error('boom');
    } });
    expect(() => w.runSystems()).toThrow('boom');
    expect(w.isValid(t)).toBe(false);
    expect(w.commandStats()).toMatchObject({ applied: 1, pending: 0 });
  });

  it("a system's command outside its io throws system_io_violation and records nothing", () => {
    for (const [label, body, access] of [
      ['add undeclared', (c: Commands, r: ReturnType<typeof rig>, e: Entity) => c.add(e, r.Hp, { v: 1 }), 'add'],
      ['remove undeclared', (c: Commands, r: ReturnType<typeof rig>, e: Entity) => c.remove(e, r.Hp), 'remove'],
      ['overwrite of a read', (c: Commands, r: ReturnType<typeof rig>, e: Entity) => c.add(e, r.Pos, { x: 1, y: 1 }), 'write'],
      ['destroy with an undeclared component', (c: Commands, _r: ReturnType<typeof rig>, e: Entity) => c.destroy(e), 'destroy'],
    ] as const) {
      const r = rig();
      const e = r.spawn(1);
      if (access === 'destroy') r.w.add(e, r.Hp, { v: 1 });
      r.w.registerSystem({ name: 'Reader', budgetMs: 100, io: [[r.Pos, 'read']], run(ctx) { body(ctx.commands, r, e); } });
      r.w.scheduleSystems();
      const before = r.w.stateHash(0);
      const err = thrown(() => r.w.runSystems()) as LaigeError;
      expect(err.reason, label).toBe('system_io_violation');
      expect(err.fields.access, label).toBe(access);
      expect(err.fields.system, label).toBe('Reader');
      expect(r.w.commandStats().recorded, label).toBe(0);
      expect(r.w.stateHash(0), label).toBe(before);
      expect(r.w.isValid(e), label).toBe(true);
    }
  });

  it('misuse and bad input throw, record nothing and leave the state hash unchanged', () => {
    const { w, Pos, Hp, spawn } = rig();
    const live = spawn(1);
    const dead = spawn(2);
    w.destroy(dead);
    const other = rig().w.registerComponent('Foreign', { v: 'i32' });
    const before = w.stateHash(3);
    expect(reasonOf(() => w.commands)).toBe('command_outside_phase');
    let kept: Commands | null = null;
    w.defer((c) => {
      kept = c;
      expect(reasonOf(() => c.destroy(dead))).toBe('stale_entity_access');
      expect(reasonOf(() => c.add(dead, Hp, { v: 1 }))).toBe('stale_entity_access');
      expect(reasonOf(() => c.remove(dead, Hp))).toBe('stale_entity_access');
      expect(reasonOf(() => c.destroy(-1 as Entity))).toBe('out_of_range');
      expect(reasonOf(() => c.destroy('x' as unknown as Entity))).toBe('wrong_type');
      expect(reasonOf(() => c.add(live, other, { v: 1 }))).toBe('foreign_component');
      expect(reasonOf(() => c.add(live, {} as typeof Hp, { v: 1 }))).toBe('wrong_type');
      expect(() => c.add(live, Hp, { v: 'no' as unknown as number })).toThrow(LaigeError);
      expect(() => c.add(live, Pos, { x: Number.NaN, y: 0 })).toThrow(LaigeError);
      expect(() => c.add(live, Hp, {} as { v: number })).toThrow(LaigeError);
      expect(c.pending).toBe(0);
      expect(reasonOf(() => w.runSystems())).toBe('tick_inside_callback');
      expect(reasonOf(() => w.dispose())).toBe('dispose_inside_call');
    });
    expect(reasonOf(() => kept!.add(live, Hp, { v: 1 }))).toBe('used_after_call');
    expect(reasonOf(() => w.defer(42 as unknown as () => void))).toBe('wrong_type');
    expect(w.stateHash(3)).toBe(before);
    expect(w.commandStats().recorded).toBe(0);
    expect(w.has(live, Hp)).toBe(false);
  });

  it('a snapshot is refused while commands are pending', () => {
    const { w, Hp, spawn } = rig();
    const a = spawn(1);
    w.defer((c) => {
      c.add(a, Hp, { v: 1 });
      const e = thrown(() => w.snapshot()) as LaigeError;
      expect(e.reason).toBe('snapshot_commands_pending');
      expect(e.fields.pending).toBe(1);
      expect(e.message).toMatch(/^World\.snapshot.*1 deferred command/);
    });
    expect(w.snapshot().length).toBeGreaterThan(0);
  });

  it('the state-hash stream equals the C++ one for the same commands', () => {
    const { w, Pos, Hp, spawn } = rig(64);
    for (let i = 0; i < 8; i++) {
      const e = spawn(i);
      if (i % 2 === 0) w.add(e, Hp, { v: 10 + i });
    }
    const out: bigint[] = [];
    w.each([Hp], ['read'], (e, h) => {
      if (h.v === 12) w.commands.destroy(e);
    });
    out.push(w.stateHash(0));
    w.defer((c) => {
      const e = c.create();
      c.add(e, Pos, { x: 100, y: 5 });
      c.add(e, Hp, { v: 7 });
    });
    out.push(w.stateHash(0));
    w.registerSystem({
      name: 'Stream', budgetMs: 1000, io: [[Pos, 'write'], [Hp, 'write']],
      run(ctx) {
        ctx.each([Pos], ['write'], (e, p) => {
          p.x = p.x + 1;
          if (p.x % 3 === 0) {
            ctx.commands.destroy(e);
            ctx.commands.add(e, Hp, { v: 99 });
          } else if (w.has(e, Hp)) {
            ctx.commands.remove(e, Hp);
          } else {
            ctx.commands.add(e, Hp, { v: p.x });
          }
        });
        const made = ctx.commands.create();
        ctx.commands.add(made, Pos, { x: ctx.tick * 10, y: ctx.tick });
      },
    });
    for (let t = 1; t <= 6; t++) {
      w.runSystems();
      out.push(w.stateHash(t));
    }
    const s = w.commandStats();
    out.push(BigInt(s.applied), BigInt(s.skippedDead));
    // Also in tests/cpp/commands_test.cpp: change both together.
    expect(out).toEqual([
      0x769ef1bcbb4ccc64n, 0x789a3c7f45092e7an, 0xbcde2bf53ee82764n, 0x27bca9c2563e5089n,
      0xef894b7bba852ad5n, 0x635a08d49ef179abn, 0xf674f4460c5950b9n, 0xce70c6155f915bf4n,
      36n, 13n,
    ]);
  });
});
