// The fix an error message suggests is the one that works: every message
// below names the exact declaration or call to use, and the test then does
// what it says and sees the refused call succeed (or, where a weaker
// declaration would not do, sees that one still refused).
import { describe, expect, it } from 'vitest';
import { LaigeError, type Component, type SystemContext, type World } from '../../dist/index.js';
import { sim, thrown } from './support/sim.js';

type Io = Array<[Component, 'read' | 'write']>;

/** A world with P on two entities, V on the second; `body` runs once as a system declaring `io(P, V)`. */
function inSystem(io: (P: Component, V: Component) => Io, body: (w: World, P: Component, V: Component, es: number[], ctx: SystemContext) => void): unknown {
  const w = sim.createWorld({ capacity: 8 });
  const P = w.registerComponent('P', { x: 'i32' });
  const V = w.registerComponent('V', { x: 'i32' });
  const es = [w.create(), w.create()];
  for (const e of es) w.add(e, P, { x: 1 });
  w.add(es[1]!, V, { x: 1 });
  let outcome: unknown = 'ok';
  w.registerSystem({
    name: 'S', budgetMs: 100, io: io(P as Component, V as Component),
    run(ctx) {
      try {
        body(w, P as Component, V as Component, es, ctx as unknown as SystemContext);
      } catch (e) {
        outcome = e;
      }
    },
  });
  w.runSystems();
  w.dispose();
  return outcome;
}

function violation(got: unknown): LaigeError {
  expect(got).toBeInstanceOf(LaigeError);
  expect((got as LaigeError).reason).toBe('system_io_violation');
  return got as LaigeError;
}

const v1 = { x: 2 };

describe('system_io_violation names the declaration that makes the call legal', () => {
  it('an add of a component the entity lacks: [V, \'read\'] is enough, and it works', () => {
    const e = violation(inSystem((P) => [[P, 'read']], (w, _P, V, es) => w.add(es[0]!, V as never, v1 as never)));
    expect(e.message).toContain("[V, 'read'] in the system's io is enough to add it to an entity that lacks it");
    expect(inSystem((P, V) => [[P, 'read'], [V, 'read']], (w, _P, V, es) => w.add(es[0]!, V as never, v1 as never))).toBe('ok');
  });

  it("an add over a value the entity has: [V, 'write'] (with 'read' it is still refused)", () => {
    const none = violation(inSystem((P) => [[P, 'read']], (w, _P, V, es) => w.add(es[1]!, V as never, v1 as never)));
    expect(none.message).toContain("[V, 'write'] in the system's io");
    expect(none.message).not.toContain("[V, 'read']");
    const read = violation(inSystem((P, V) => [[P, 'read'], [V, 'read']], (w, _P, V, es) => w.add(es[1]!, V as never, v1 as never)));
    expect(read.message).toContain("[V, 'write'] in the system's io");
    expect(inSystem((P, V) => [[P, 'read'], [V, 'write']], (w, _P, V, es) => w.add(es[1]!, V as never, v1 as never))).toBe('ok');
  });

  it("a remove, a destroy, a read: [V, 'read']; a field write: [V, 'write']", () => {
    const cases: Array<[string, (w: World, P: Component, V: Component, es: number[]) => unknown, 'read' | 'write']> = [
      ['remove', (w, _P, V, es) => w.remove(es[1]!, V), 'read'],
      ['destroy', (w, _P, _V, es) => w.destroy(es[1]!), 'read'],
      ['get', (w, _P, V, es) => w.get(es[1]!, V), 'read'],
      ['each', (w, _P, V) => w.each([V], ['read'], () => {}), 'read'],
      ['field set', (_w, _P, V, es) => (V.field as unknown as { x: { set(e: number, v: number): void } }).x.set(es[1]!, 3), 'write'],
    ];
    for (const [label, call, need] of cases) {
      const e = violation(inSystem((P) => [[P, 'read']], call));
      expect(e.message, label).toContain(`[V, '${need}'] in the system's io`);
      expect(inSystem((P, V) => [[P, 'read'], [V, need]], call), label).toBe('ok');
    }
  });

  it('the core says the same for a recorded command', () => {
    const e = violation(inSystem((P) => [[P, 'read']], (_w, _P, V, es, ctx) => ctx.commands.add(es[0]!, V as never, v1 as never)));
    expect(e.message).toContain("[V, 'read'] in the system's io is enough to add it to an entity that lacks it, [V, 'write'] to overwrite one it has");
    expect(inSystem((P, V) => [[P, 'read'], [V, 'read']], (_w, _P, V, es, ctx) => ctx.commands.add(es[0]!, V as never, v1 as never))).toBe('ok');
  });
});

describe('a structural change inside an each names the deferred call to use', () => {
  it('destroy and remove: world.commands.destroy(e) / remove(e, P), and following it works', () => {
    const w = sim.createWorld({ capacity: 8 });
    const P = w.registerComponent('P', { x: 'i32' });
    const es = [w.create(), w.create()];
    for (const e of es) w.add(e, P, { x: 1 });
    const destroy = thrown(() => w.each([P], ['read'], (e) => w.destroy(e))) as LaigeError;
    expect(destroy.reason).toBe('iteration_mutation');
    expect(destroy.message).toContain('world.commands.destroy(e) (ctx.commands.destroy(e) inside a system)');
    const remove = thrown(() => w.each([P], ['read'], (e) => w.remove(e, P))) as LaigeError;
    expect(remove.message).toContain('world.commands.remove(e, P)');
    w.each([P], ['read'], (e) => { if (e === es[0]) w.commands.destroy(e); });
    expect([w.isValid(es[0]!), w.isValid(es[1]!)]).toEqual([false, true]);
    w.dispose();
  });

  it('inside a system: ctx.commands.destroy(e), and following it works', () => {
    const w = sim.createWorld({ capacity: 8 });
    const P = w.registerComponent('P', { x: 'i32' });
    const e0 = w.create();
    w.add(e0, P, { x: 1 });
    let got: unknown = null;
    let follow = false;
    w.registerSystem({
      name: 'Kill', budgetMs: 100, io: [[P, 'read']],
      run(ctx) {
        try {
          ctx.each([P], ['read'], (e) => { if (follow) ctx.commands.destroy(e); else w.destroy(e); });
        } catch (e) {
          got = e;
        }
      },
    });
    w.runSystems();
    expect((got as LaigeError).message).toContain('ctx.commands.destroy(e)');
    follow = true;
    w.runSystems();
    expect(w.isValid(e0)).toBe(false);
    w.dispose();
  });

  it("a write of a read term names the term to use; clear and a nested each say what to do", () => {
    const w = sim.createWorld({ capacity: 8 });
    const P = w.registerComponent('P', { x: 'i32' });
    const e0 = w.create();
    w.add(e0, P, { x: 1 });
    const write = thrown(() => w.each([P], ['read'], (e) => w.add(e, P, { x: 2 }))) as LaigeError;
    expect(write.message).toContain("P.write in the query, 'write' in World.each's access list");
    w.each([P], ['write'], (e) => w.add(e, P, { x: 2 })); // as it says
    expect(w.get(e0, P)).toEqual({ x: 2 });
    expect((thrown(() => w.each([P], ['read'], () => w.clear())) as LaigeError).message).toContain('call clear() after the each returns');
    expect((thrown(() => w.each([P], ['read'], () => w.each([P], ['read'], () => {}))) as LaigeError).message).toContain('walk after it returns');
    w.dispose();
  });
});
