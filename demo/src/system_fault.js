// system_fault.js - a deliberate one-bit divergence inside one system of a
// TypeScript scenario (scenarios.js), for the netplay view's desync report
// (docs/desync.md#worked-example-the-demo). A scenario makes one per
// faultable system and calls `apply(ctx)` at the end of that system's run;
// it does nothing until armed. Armed (on one peer's world only), it flips one
// bit of one integer field of one entity when the system runs the armed
// tick - on every run of that tick: the first, every re-simulation after a
// rollback and the desync exchange's re-run of it. So it behaves like a
// system that is not deterministic across machines, the peer's checksums
// differ from the tick on, and the per-system checkpoints of that tick name
// that system (docs/desync.md#checkpoints).

/** Bits and signedness of the integer field kinds (fx is Q16.16 in an int32). */
const WIDTH = { i8: [8, true], u8: [8, false], i16: [16, true], u16: [16, false], i32: [32, true], u32: [32, false], fx: [32, true] };

export class SystemFault {
  /** The fault of system `system`: field `field` (an integer kind) of `component`, which the system writes. */
  constructor(system, component, field) {
    const f = component.fields.find((x) => x.name === field);
    if (f === undefined || f.count !== 1 || WIDTH[f.kind] === undefined) {
      throw new Error(`SystemFault: ${component.name}.${field} is not a scalar integer field`);
    }
    this.system = system;
    this.component = component;
    this.field = field;
    [this.width, this.signed] = WIDTH[f.kind];
    /** { tick, slot, bit, entity } while armed (entity: the one flipped, once flipped), else null. */
    this.armed = null;
  }

  /**
   * Arms it: at tick `tick` the entity in slot `slot` (or, when that slot
   * has no entity with the component then, the next slot that has one,
   * wrapping around) gets bit `bit` (0 = the lowest) of the field flipped.
   */
  arm({ tick, slot, bit }) {
    const ok = (v, hi) => Number.isInteger(v) && v >= 0 && v <= hi;
    if (!ok(tick, Number.MAX_SAFE_INTEGER) || tick === 0 || !ok(slot, 0xffff) || !ok(bit, this.width - 1)) {
      throw new Error(`SystemFault.arm: tick >= 1, slot 0..65535, bit 0..${this.width - 1}, got ${JSON.stringify({ tick, slot, bit })}`);
    }
    this.armed = { tick, slot, bit, entity: null };
    return this.armed;
  }

  /** The field's value with bit `bit` flipped, in the field's own range. */
  flipped(value, bit) {
    const x = value ^ (1 << bit);
    const s = 32 - this.width;
    if (this.signed) return (x << s) >> s;
    return this.width === 32 ? x >>> 0 : x & ((1 << this.width) - 1);
  }

  /** Called by the system at the end of its run: flips the bit at the armed tick (nothing otherwise). */
  apply(ctx) {
    const a = this.armed;
    if (a === null || Number(ctx.tick) !== a.tick) return;
    let target = null;
    let best = Infinity;
    ctx.each([this.component], ['read'], (e) => {
      const d = ((e >>> 16) - a.slot + 0x10000) % 0x10000;
      if (d < best) { best = d; target = e; }
    });
    if (target === null) return;
    const h = this.component.field[this.field];
    h.set(target, this.flipped(h.get(target), a.bit));
    a.entity = target;
  }
}
