// snapshot_ring.js - the page's own snapshots of its latest ticks. The
// native peer answers a tick's hash a few ticks after the page ran it; when
// that answer differs, the page's state of exactly that tick is still here,
// so the stateDiff compares the two sides at the tick they diverged
// (docs/demo.md#native-peer). The buffers are reused (grown on demand).

export class SnapshotRing {
  /** `depth`: how many ticks back a state is kept (the page runs at most 120 ticks ahead of the peer's answers). */
  constructor(depth = 128) {
    this.depth = depth;
    this.slots = Array.from({ length: depth }, () => ({ tick: -1, buf: new Uint8Array(0), size: 0 }));
  }

  /** Keeps `world`'s state as the state of tick `tick`. */
  put(tick, world) {
    const slot = this.slots[tick % this.depth];
    slot.tick = -1;
    for (;;) {
      try {
        slot.size = world.snapshotInto(slot.buf);
        slot.tick = tick;
        return;
      } catch (e) {
        if (e?.reason !== 'snapshot_buffer_too_small') throw e;
        slot.buf = new Uint8Array(Math.ceil(Number(e.fields.needed) * 1.25));
      }
    }
  }

  /** The state kept for tick `tick`, or null when it is no longer kept. */
  get(tick) {
    const slot = this.slots[tick % this.depth];
    return slot.tick === tick ? slot.buf.subarray(0, slot.size) : null;
  }
}
