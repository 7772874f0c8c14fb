// sprites.js - the demo's sprite table: one sprite per drawn entity, kept
// in step with the world tick by tick. A new entity adds a sprite, a gone
// one drops it, and only the sprites whose position or colour changed are
// written; the rest keep what they had. Drawing interpolates a sprite that
// changed at the last tick from where it was to where it is by the game
// loop's alpha (the fraction of a tick elapsed).
//
// Why not observers here: the demo checks every tick's state hash against
// the native goldens, and a world that tracks changes or has observers
// hashes its change state too (docs/changes.md#snapshots), so the table
// compares values on the renderer's side instead (a game's renderer uses
// world.observe(Sprite, 'onAdd' / 'onRemove') and changeTicks:
// docs/changes.md#render-sync).

/** A sprite table over `built.positions(fn(e, x, y, colour))`. */
export class SpriteTable {
  constructor() {
    /** entity -> { x, y, k, px, py, at (the tick it last changed), seen } */
    this.sprites = new Map();
    /** The world tick the table is at (-1: never synced). */
    this.tick = -1;
    /** Sprites added, changed or dropped by the last sync that had a new tick, and in total. */
    this.updated = 0;
    this.updatedTotal = 0;
    this.pass = 0;
  }

  /** Forgets every sprite (a new scenario, a restore). */
  reset() {
    this.sprites.clear();
    this.tick = -1;
  }

  /** Brings the table to world tick `tick`; returns the sprites it updated (0 when the tick is the one it has). */
  sync(built, tick) {
    if (tick === this.tick) return 0;
    if (tick < this.tick) this.reset(); // the world went back (a reset, a restore)
    const pass = ++this.pass;
    const sprites = this.sprites;
    let updated = 0;
    built.positions((e, x, y, k) => {
      const s = sprites.get(e);
      if (s === undefined) {
        sprites.set(e, { x, y, k, px: x, py: y, at: tick, seen: pass }); // added
        updated++;
        return;
      }
      s.seen = pass;
      if (s.x !== x || s.y !== y || s.k !== k) { // changed
        s.px = s.x;
        s.py = s.y;
        s.x = x;
        s.y = y;
        s.k = k;
        s.at = tick;
        updated++;
      }
    });
    for (const [e, s] of sprites) {
      if (s.seen !== pass) { // removed
        sprites.delete(e);
        updated++;
      }
    }
    this.tick = tick;
    this.updated = updated;
    this.updatedTotal += updated;
    return updated;
  }
}
