// The demo's render sync (demo/src/sprites.js, docs/changes.md#render-sync):
// the ts-orbits scenario's last system fills a RenderFeed from a `changed`
// query and `ctx.removed`, and the sprite table follows it. These tests hold
// the followed table against a table rebuilt from every position (the
// reference), over uneven frames, destroys and a restore, and check that the
// feed leaves the hash stream the Node golden is computed from unchanged.
import { describe, expect, it } from 'vitest';
import { sim } from './support/sim.js';

interface Sprite { x: number; y: number; k: number }
interface Table { sprites: Map<number, Sprite>; updated: number; follow(built: unknown, tick: number): number; sync(built: unknown, tick: number): number }
interface Built { world: { stateHash(tick: number): bigint; snapshot(): Uint8Array; restore(b: Uint8Array): void; dispose(): void; count(): number }; feed: { on: boolean; ops: number[] } }

// Plain JS modules of the demo (no types): imported by path.
const scenariosPath = '../../demo/src/scenarios.js';
const spritesPath = '../../demo/src/sprites.js';
const { liveScenarios } = (await import(scenariosPath)) as { liveScenarios: Record<string, { seed: bigint; build(s: unknown, seed: bigint): Built }> };
const { SpriteTable } = (await import(spritesPath)) as { SpriteTable: new () => Table };
const orbits = liveScenarios['ts-orbits']!;

/** Every sprite of a table as [entity, x, y, kind], in entity order. */
const rows = (t: Table): number[][] => [...t.sprites].map(([e, s]) => [e, s.x, s.y, s.k]).sort((a, b) => a[0]! - b[0]!);

/** A table rebuilt from every position at this tick: the reference. */
function reference(built: Built, tick: number): number[][] {
  const t = new SpriteTable();
  t.sync(built, tick);
  return rows(t);
}

describe('render feed (demo ts-orbits)', () => {
  it('the followed table equals a full rebuild after every frame, over uneven frames and respawns', () => {
    const built = orbits.build(sim, orbits.seed);
    const loop = sim.createGameLoop(built.world as never, { tickRateHz: 60 });
    const table = new SpriteTable();
    try {
      let tick = 0;
      table.follow(built, tick); // the first call syncs fully and turns the feed on
      expect(built.feed.on).toBe(true);
      let fedTotal = 0;
      for (let frame = 0; frame < 60; frame++) {
        const n = 1 + ((frame * 7) % 4); // 1..4 ticks per frame: a destroy every 8 ticks falls inside frames
        loop.step(n);
        tick += n;
        fedTotal += table.follow(built, tick);
        expect(rows(table)).toEqual(reference(built, tick));
        expect(built.feed.ops.length).toBe(0);
      }
      expect(table.sprites.size).toBe(512);
      expect(fedTotal).toBeGreaterThan(0);
    } finally {
      loop.dispose();
      built.world.dispose();
    }
  });

  it('a world that goes back (restore) is synced fully once, then followed again', () => {
    const built = orbits.build(sim, orbits.seed);
    const loop = sim.createGameLoop(built.world as never, { tickRateHz: 60 });
    const table = new SpriteTable();
    try {
      loop.step(20);
      table.follow(built, 20);
      const at20 = built.world.snapshot();
      loop.step(30);
      table.follow(built, 50);
      built.world.restore(at20);
      table.follow(built, 20);
      expect(rows(table)).toEqual(reference(built, 20));
      loop.step(9); // over a respawn (tick 24)
      table.follow(built, 29);
      expect(rows(table)).toEqual(reference(built, 29));
    } finally {
      loop.dispose();
      built.world.dispose();
    }
  });

  it('following the feed does not change the hash stream (the golden is computed with the feed off)', () => {
    const followed = orbits.build(sim, orbits.seed);
    const plain = orbits.build(sim, orbits.seed);
    const la = sim.createGameLoop(followed.world as never, { tickRateHz: 60 });
    const lb = sim.createGameLoop(plain.world as never, { tickRateHz: 60 });
    const table = new SpriteTable();
    try {
      table.follow(followed, 0);
      for (let t = 1; t <= 40; t++) {
        la.step(1);
        lb.step(1);
        table.follow(followed, t);
        expect(followed.world.stateHash(t)).toBe(plain.world.stateHash(t));
      }
      expect(plain.feed.on).toBe(false);
      expect(plain.feed.ops.length).toBe(0);
    } finally {
      la.dispose();
      lb.dispose();
      followed.world.dispose();
      plain.world.dispose();
    }
  });
});
