// A replay's setup is identified by component names and field kinds too
// (docs/replay.md#identity): a recording is refused under another layout.
import { describe, expect, it } from 'vitest';
import { LaigeError, type Schema, type World } from '../../dist/index.js';
import { sim } from './support/sim.js';

function setupWith(name: string, schema: Schema): (w: World) => void {
  return (w) => {
    const C = w.registerComponent(name, schema);
    w.registerSystem({ name: 'S', budgetMs: 100, io: [[C, 'write']], run() {} });
    w.add(w.create(), C, { [Object.keys(schema)[0]!]: 1 } as never);
  };
}

describe('replay identity includes the field layout', () => {
  const record = (): Uint8Array => {
    const w = sim.createWorld({ capacity: 4 });
    setupWith('P', { v: 'i32' })(w);
    const r = sim.recordReplay(w);
    r.step();
    r.step();
    const bytes = r.finish();
    w.dispose();
    return bytes;
  };

  it('replays under the same setup', () => {
    expect(sim.runReplay(record(), { world: { capacity: 4 }, setup: setupWith('P', { v: 'i32' }) })).toHaveLength(3);
  });

  for (const [name, schema] of [['Q', { v: 'u32' }], ['P', { v: 'u32' }], ['Q', { v: 'i32' }], ['P', { w: 'i32' }], ['P', { v: 'f32' }]] as const) {
    it(`is refused under ${name}: ${JSON.stringify(schema)}`, () => {
      const bytes = record();
      let err: unknown;
      try {
        sim.runReplay(bytes, { world: { capacity: 4 }, setup: setupWith(name, schema as Schema) });
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(LaigeError);
      expect((err as LaigeError).code).toBe('invalid_argument');
      expect(sim.worldCount).toBe(0);
    });
  }

  it('writes format version 2', () => {
    const bytes = record();
    expect(bytes[4]! | (bytes[5]! << 8)).toBe(2);
  });
});
