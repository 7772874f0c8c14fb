// sim.scenarioPlayerInput (docs/rollback.md#player-inputs): the scenarios'
// per-player input generator is the C++ one, called through the wasm
// module. Its bytes for a sweep of players and ticks (up to 2^64 - 1) are
// exactly tests/golden/rollback/input_player_inputs.txt, which the native
// and wasm gtest (tests/cpp/player_input_test.cpp) write and check from
// the C++ generator itself; the failures are LaigeErrors with their
// documented reasons and change nothing.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LaigeError } from '../../dist/index.js';
import { DOCUMENTED_REASONS } from './support/reasons.js';
import { sim, thrown } from './support/sim.js';

const golden = readFileSync(new URL('../golden/rollback/input_player_inputs.txt', import.meta.url), 'utf8')
  .trim().split('\n').map((line) => {
    const [player, tick, hex] = line.split(' ') as [string, string, string];
    return { player: Number(player), tick: BigInt(tick), hex };
  });
const toHex = (b: Uint8Array) => (b.length === 0 ? '.' : Buffer.from(b).toString('hex'));

function failure(fn: () => unknown): LaigeError {
  const e = thrown(fn);
  expect(e).toBeInstanceOf(LaigeError);
  const err = e as LaigeError;
  expect(DOCUMENTED_REASONS.has(err.reason), `${err.reason} is documented in docs/errors.md`).toBe(true);
  expect(err.code).toBe('invalid_argument');
  return err;
}

describe('sim.scenarioPlayerInput', () => {
  it('the golden sweep covers players 0..2^32-1 and ticks past 2^53', () => {
    expect(golden.length).toBe(8 * (48 + 6));
    expect(new Set(golden.map((g) => g.player))).toEqual(new Set([0, 1, 2, 3, 7, 31, 255, 4294967295]));
    expect(golden.some((g) => g.tick === 18446744073709551615n)).toBe(true);
    expect(golden.some((g) => g.hex !== '.')).toBe(true);
    expect(golden.some((g) => g.hex === '.')).toBe(true);
  });

  it('returns exactly the C++ generator\'s bytes (the golden sweep), for a tick as a number and as a bigint', () => {
    for (const { player, tick, hex } of golden) {
      expect(toHex(sim.scenarioPlayerInput('input', player, tick)), `${player} ${tick}`).toBe(hex);
      if (tick <= BigInt(Number.MAX_SAFE_INTEGER)) {
        expect(toHex(sim.scenarioPlayerInput('input', player, Number(tick))), `${player} ${tick} (number)`).toBe(hex);
      }
    }
  });

  it('hands out a fresh Uint8Array of 0..12 bytes in six-byte commands for the player\'s own pawns', () => {
    const a = sim.scenarioPlayerInput('input', 0, 8);
    expect(a).toBeInstanceOf(Uint8Array);
    expect(a.length).toBeGreaterThan(0);
    a.fill(0);
    expect(toHex(sim.scenarioPlayerInput('input', 0, 8))).not.toBe(toHex(a));
    for (let t = 0; t < 200; t++) {
      for (let p = 0; p < 4; p++) {
        const b = sim.scenarioPlayerInput('input', p, t);
        expect(b.length % 6).toBe(0);
        expect(b.length).toBeLessThanOrEqual(12);
        for (let k = 0; k < b.length; k += 6) {
          expect([1, 2]).toContain(b[k]);
          expect(b[k + 1]! >> 3).toBe(p); // pawns 8p..8p+7
        }
        // Held for 4 ticks.
        expect(toHex(b)).toBe(toHex(sim.scenarioPlayerInput('input', p, t - (t % 4))));
      }
    }
  });

  it('is a plain wasm export, callable from inside a running system', () => {
    const raw = (sim as unknown as { raw: Record<string, unknown> }).raw;
    expect(Function.prototype.toString.call(raw['scenarioPlayerInput'])).toMatch(/\[native code\]/);
    const w = sim.createWorld({ capacity: 4 });
    let inside = '';
    w.registerSystem({ name: 'S', budgetMs: 1, run() { inside = toHex(sim.scenarioPlayerInput('input', 0, 8)); } });
    w.runSystems();
    expect(inside).toBe(golden.find((g) => g.player === 0 && g.tick === 8n)!.hex);
    w.dispose();
  });

  it('an unknown scenario is scenario_unknown; one without a generator is scenario_no_player_input; nothing changes', () => {
    const run = sim.openScenario('input');
    run.step();
    const before = run.stateHash();
    const unknown = failure(() => sim.scenarioPlayerInput('nope', 0, 1));
    expect(unknown.reason).toBe('scenario_unknown');
    expect(unknown.fields.scenario).toBe('nope');
    expect(unknown.message).toMatch(/^scenarioPlayerInput\('nope'\): no scenario is named 'nope'/);
    expect(failure(() => sim.scenarioPlayerInput('', 0, 1)).reason).toBe('scenario_unknown');
    expect(failure(() => sim.scenarioPlayerInput('inputs', 0, 1)).reason).toBe('scenario_unknown');
    expect(failure(() => sim.scenarioPlayerInput('x'.repeat(70000), 0, 1)).reason).toBe('scenario_unknown');
    for (const name of ['swarm', 'hello', 'stress', 'float']) {
      const e = failure(() => sim.scenarioPlayerInput(name, 0, 1));
      expect(e.reason).toBe('scenario_no_player_input');
      expect(e.fields).toEqual({ scenario: name });
      expect(e.message).toContain(`the scenario '${name}' has no per-player input generator`);
    }
    expect(run.stateHash()).toBe(before);
    expect(run.tick).toBe(1);
    // The last failure does not leak into the next good call.
    expect(toHex(sim.scenarioPlayerInput('input', 0, 4))).toBe(golden.find((g) => g.player === 0 && g.tick === 4n)!.hex);
    run.dispose();
  });

  it('bad arguments are wrong_type / out_of_range with the field they came in', () => {
    const cases: Array<[unknown, unknown, unknown, string, string]> = [
      [5, 0, 1, 'wrong_type', 'name'],
      [null, 0, 1, 'wrong_type', 'name'],
      ['input', -1, 1, 'out_of_range', 'player'],
      ['input', 1.5, 1, 'out_of_range', 'player'],
      ['input', 2 ** 32, 1, 'out_of_range', 'player'],
      ['input', NaN, 1, 'out_of_range', 'player'],
      ['input', '1', 1, 'wrong_type', 'player'],
      ['input', 1n, 1, 'wrong_type', 'player'],
      ['input', 0, -1, 'out_of_range', 'tick'],
      ['input', 0, 1.5, 'out_of_range', 'tick'],
      ['input', 0, 2 ** 53, 'out_of_range', 'tick'],
      ['input', 0, Infinity, 'out_of_range', 'tick'],
      ['input', 0, -1n, 'out_of_range', 'tick'],
      ['input', 0, 2n ** 64n, 'out_of_range', 'tick'],
      ['input', 0, '3', 'wrong_type', 'tick'],
      ['input', 0, undefined, 'wrong_type', 'tick'],
    ];
    for (const [name, player, tick, reason, field] of cases) {
      const e = failure(() => (sim.scenarioPlayerInput as (...a: unknown[]) => unknown)(name, player, tick));
      expect(e.reason, `${String(name)} ${String(player)} ${String(tick)}`).toBe(reason);
      expect(e.fields.where).toBe('scenarioPlayerInput');
      expect(e.fields.field).toBe(field);
    }
  });
});
