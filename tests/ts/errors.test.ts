// LaigeError and the error registry: the TS registry mirrors cpp/src/errors.cpp.
import { describe, expect, it } from 'vitest';
import { ErrorCodes, LaigeError, MAX_ERROR_CODE, errorName, errorText } from '../../dist/index.js';
import { sim } from './support/sim.js';

describe('LaigeError', () => {
  it('mirrors the C++ registry line for line (codes 0..6)', () => {
    for (let c = 0; c <= MAX_ERROR_CODE + 1; c++) expect(errorText(c)).toBe(sim.errorLine(c));
  });
  it('has code, codeId, the 5-field line and the detail', () => {
    const e = new LaigeError(ErrorCodes.invalid_argument, 'World.add: field x');
    expect(e).toBeInstanceOf(Error);
    expect(e.name).toBe('LaigeError');
    expect(e.code).toBe('invalid_argument');
    expect(e.codeId).toBe(2);
    expect(e.line.split(' | ')).toHaveLength(5);
    expect(e.line).toBe('invalid_argument | an argument was rejected at the API boundary | the input is outside the documented domain of the call | check the argument against the API contract before calling | docs/errors.md#invalid-argument');
    expect(e.message).toBe(`World.add: field x\n${e.line}`);
    expect(e.detail).toBe('World.add: field x');
  });
  it("the message is the reason's own sentence; the generic 5-field line only where nothing more specific exists", () => {
    const specific = new LaigeError(ErrorCodes.malformed_input, "loadLaige: wasmBinary is empty", 'wasm_invalid', { source: 'wasmBinary' });
    expect(specific.message).toBe('loadLaige: wasmBinary is empty');
    expect(specific.line).toBe(errorText(ErrorCodes.malformed_input)); // still there, as a property
    // A failure that names no reason (or only its code's id): the code's line is the only explanation, so it stays.
    expect(new LaigeError(ErrorCodes.io_error, 'x: failed', 'io_error').message).toBe(`x: failed\n${errorText(ErrorCodes.io_error)}`);
    expect(new LaigeError(ErrorCodes.io_error).message).toBe(errorText(ErrorCodes.io_error));
    // Real failures, from the TypeScript layer and from the core.
    const w = sim.createWorld({ capacity: 4 });
    const P = w.registerComponent('P', { x: 'f32' });
    for (const fn of [() => w.add(w.create(), P, { x: 'a' as never }), () => sim.parseReplay(new Uint8Array(3)), () => w.destroy(99)]) {
      let e: unknown;
      try { fn(); } catch (err) { e = err; }
      expect(e).toBeInstanceOf(LaigeError);
      expect((e as LaigeError).message).toBe((e as LaigeError).detail);
      expect((e as LaigeError).message).not.toContain(' | ');
    }
    w.dispose();
  });
  it('maps every code and unknown values', () => {
    expect(['unknown', 'invalid_argument', 'malformed_input', 'budget_exhausted', 'io_error'].map((_, i) => errorName(i + 1)))
      .toEqual(['unknown', 'invalid_argument', 'malformed_input', 'budget_exhausted', 'io_error']);
    expect(errorName(99)).toBe('unknown');
    const e = new LaigeError(99);
    expect(e.code).toBe('unknown');
    expect(e.codeId).toBe(1);
    expect(e.message).toBe(e.line);
  });
});
