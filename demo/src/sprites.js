// sprites.js - the demo's sprite table: one sprite per drawn entity, kept
// in step with the world tick by tick. A new entity adds a sprite, a gone
// one drops it, and only the sprites whose position or colour changed are
// written; the rest keep what they had. Drawing interpolates a sprite that
// changed at the last tick from where it was to where it is by the game
// loop's alpha (the fraction of a tick elapsed).
//
// Two ways to learn what changed (docs/changes.md#render-sync):
// - follow(): from a RenderFeed, which a scenario's last system fills from a
//   `changed` query and `ctx.removed` (ts-orbits): the table touches only
//   what the ticks changed, and reads nothing else.
// - sync(): by comparing values with the table, for the core's C++
//   scenarios: their hash streams are checked against native goldens
//   computed without change tracking, and tracking would fold its state
//   into those hashes.

/**
 * What the ticks since the renderer last looked changed, in order: a flat
 * list of ops, [0, e, x, y, kind] for an entity added or moved and [1, e]
 * for one whose Pos went away. Recording starts when a table follows it
 * (Node's golden run never does).
 */
export class RenderFeed {
  constructor() {
    this.ops = [];
    this.on = false;
  }

  moved(e, x, y, k) {
    if (this.on) this.ops.push(0, e, x, y, k);
  }

  removed(e) {
    if (this.on) this.ops.push(1, e);
  }

  /** Starts recording afresh (what was recorded so far is in the table already or stale). */
  restart() {
    this.ops.length = 0;
    this.on = true;
  }
}

/** A sprite moved (or recoloured) at `tick`: it is drawn from where it was to (x, y) by the loop's alpha. */
function moveSprite(s, x, y, k, tick) {
  s.px = s.x;
  s.py = s.y;
  s.x = x;
  s.y = y;
  s.k = k;
  s.at = tick;
}

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

  /**
   * Brings the table to world tick `tick` from the scenario's RenderFeed:
   * applies only the feed's ops. A first call, or a world that went back (a
   * reset, a restore: the feed's "since" went back with it), syncs fully
   * once and starts the feed afresh. Returns the sprites it updated.
   */
  follow(built, tick) {
    if (tick === this.tick) return 0;
    const feed = built.feed;
    if (this.tick < 0 || tick < this.tick || !feed.on) {
      if (tick < this.tick) this.reset();
      const updated = this.sync(built, tick);
      feed.restart();
      return updated;
    }
    const sprites = this.sprites;
    const ops = feed.ops;
    let updated = 0;
    for (let i = 0; i < ops.length;) {
      if (ops[i] === 1) {
        if (sprites.delete(ops[i + 1])) updated++;
        i += 2;
        continue;
      }
      const e = ops[i + 1];
      const x = ops[i + 2];
      const y = ops[i + 3];
      const k = ops[i + 4];
      i += 5;
      const s = sprites.get(e);
      if (s === undefined) sprites.set(e, { x, y, k, px: x, py: y, at: tick, seen: this.pass });
      else moveSprite(s, x, y, k, tick);
      updated++;
    }
    ops.length = 0;
    this.tick = tick;
    this.updated = updated;
    this.updatedTotal += updated;
    return updated;
  }

  /** Brings the table to world tick `tick` by comparing values; returns the sprites it updated (0 when the tick is the one it has). */
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
        moveSprite(s, x, y, k, tick);
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
