// console.log / util.inspect / String() of every public object: one short
// line that says what it is (a component's name, id and schema; a world's
// capacity and counts; a query's terms; ...), never the internals (a World
// holds the wasm module: console.log(world) printed ~800 lines of it).
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { Entities, type SystemContext } from '../../dist/index.js';
import { sim } from './support/sim.js';

/** inspect(x) is one line of at most 120 characters, equal to String(x), containing every part of `want`. */
function short(label: string, x: unknown, want: Array<string | RegExp>): string {
  const text = inspect(x);
  expect(text, label).not.toContain('\n');
  expect(text.length, `${label}: ${text}`).toBeLessThanOrEqual(120);
  expect(String(x), label).toBe(text);
  for (const w of want) {
    if (typeof w === 'string') expect(text, label).toContain(w);
    else expect(text, label).toMatch(w);
  }
  // Also inside other values, at any depth, and with showHidden (what a debugger prints).
  expect(inspect({ deep: { deeper: [x] } }, { depth: 10, showHidden: true }).length, label).toBeLessThan(text.length + 80);
  return text;
}

describe('every public object prints as one short line', () => {
  it('World, Component, Query, field handles, Entities', () => {
    const w = sim.createWorld({ capacity: 64 });
    const P = w.registerComponent('Position', { x: 'f32', y: 'f32', hist: ['i16', 4] });
    const F = w.registerComponent('Frozen', {});
    const H = w.registerComponent('Health', { hp: 'u16', pad: 'u16' });
    for (let i = 0; i < 3; i++) w.add(w.create(), P, { x: i, y: 0, hist: [0, 0, 0, 0] });
    w.registerSystem({ name: 'Move', budgetMs: 1, run() {} });
    expect(short('world', w, ['World(', 'capacity 64', '3 entities', '3 components', '1 archetype', '1 system'])).toBe(
      'World(capacity 64, 3 entities, 3 components, 1 archetype, 1 system)');
    expect(short('component', P, [])).toBe('Component(Position#1 { x: f32, y: f32, hist: i16[4] })');
    short('tag', F, ['Component(Frozen#2 {})']);
    expect(short('query', w.query({ pos: P.write }, { without: [F], optional: { hp: H.read } }), [])).toBe(
      'Query(pos: Position write; optional hp: Health read; without Frozen)');
    short('tags', w.query({ pos: P.read }, { tags: [F] }), ['tags Frozen']);
    short('field', P.field.x, ['FieldHandle(Position.field.x: f32)']);
    short('array field', P.field.hist, ['hist: i16[4]']);
    short('entities', new Entities(8), ['Entities(0 alive of 8)']);
    w.dispose();
    short('disposed world', w, ['World(disposed)']);
  });

  it('inside a system: SystemContext, SystemRng, Commands, Chunk', () => {
    const w = sim.createWorld({ capacity: 8, seed: 1n });
    const P = w.registerComponent('P', { x: 'f32' });
    w.add(w.create(), P, { x: 1 });
    const seen: Record<string, unknown> = {};
    w.registerSystem({
      name: 'Look', budgetMs: 10, queries: { q: { p: P.write } },
      run(ctx) {
        seen.ctx = short('ctx', ctx, ["SystemContext(system 'Look' #1, tick 1)"]);
        seen.rng = short('rng', ctx.rng, ["SystemRng(system 'Look')"]);
        seen.commands = short('commands', ctx.commands, ["Commands(run of system 'Look', 0 pending)"]);
        ctx.queries.q.eachChunk((c) => { seen.chunk = short('chunk', c, ['Chunk(archetype 1, 1 row)']); });
        seen.kept = ctx;
      },
    });
    w.runSystems();
    expect(Object.keys(seen)).toEqual(['ctx', 'rng', 'commands', 'chunk', 'kept']);
    short('a ctx kept after its run', seen.kept as SystemContext, ['SystemContext(']);
    w.dispose();
  });

  it('GameLoop, ReplayRecorder, RollbackSession, ScenarioRun, Laige', () => {
    const w = sim.createWorld({ capacity: 8 });
    const L = sim.createGameLoop(w, { tickRateHz: 30 });
    L.step(2);
    short('loop', L, ['GameLoop(30 Hz, tick 2)']);
    const R = sim.recordReplay(w);
    R.step();
    short('recorder', R, ['ReplayRecorder(1 frame)']);
    R.finish();
    short('finished recorder', R, [/^ReplayRecorder\(finished, \d+ bytes\)$/]);
    const S = sim.createRollbackSession(sim.createWorld({ capacity: 8 }), { players: 2, localPlayer: 1 });
    short('session', S, ['RollbackSession(2 players, local 1, tick 0, confirmed 0)']);
    const run = sim.openScenario('hello');
    run.step();
    short('run', run, ['ScenarioRun(hello, tick 1)']);
    short('sim', sim, [/^Laige\(\d+\.\d+\.\d+, \d+ worlds?, \d+ MiB of wasm memory\)$/]);
    for (const d of [L, S, run]) d.dispose();
    short('disposed loop', L, ['GameLoop(disposed)']);
    short('disposed session', S, ['RollbackSession(disposed)']);
    short('disposed run', run, ['ScenarioRun(hello, disposed)']);
    S.world.dispose();
    w.dispose();
  });
});
