// Every reason docs/errors.md documents can actually be produced from
// TypeScript, with its documented fields, or is marked (C++ only) there:
// a table of cases (reason -> how to provoke it -> the fields it must
// carry; support/reason_cases_core.ts, support/reason_cases_ts.ts). Each
// provoked LaigeError must have the documented reason and code, carry the
// case's fields, and carry no field its row does not name (nor a value
// outside a list the row gives); its message reads without `undefined`.
import { describe, expect, it } from 'vitest';
import { LaigeError } from '../../dist/index.js';
import { CORE_CASES, type ReasonCase } from './support/reason_cases_core.js';
import { TS_CASES } from './support/reason_cases_ts.js';
import { CPP_ONLY_REASONS, REASON_ROWS, documentedField } from './support/reasons.js';

const CASES: ReasonCase[] = [...CORE_CASES, ...TS_CASES];

/**
 * Reasons TypeScript can meet but no test can provoke on demand: the
 * allocator or the runtime failing. Each is thrown by a path the cases
 * above share (a core failure read through coreError, a load failure).
 */
const NOT_PROVOKED: Readonly<Record<string, string>> = {
  archetype_alloc_failed: 'the allocator fails while an archetype grows (out of memory)',
  snapshot_alloc_failed: 'the allocator fails while a restore re-creates an archetype (out of memory)',
  command_buffer_alloc_failed: 'the allocator fails while a command buffer grows (out of memory)',
  change_tracking_alloc_failed: 'the allocator fails while the change ticks of a component are allocated (out of memory)',
  wasm_aborted: 'the wasm runtime aborts while starting (a broken environment; no input makes it)',
};

async function caught(fn: () => unknown): Promise<unknown> {
  try {
    await fn();
  } catch (e) {
    return e;
  }
  return 'nothing thrown';
}

describe('every documented reason is produced from TypeScript, with its fields', () => {
  for (const c of CASES) {
    it(`${c.reason}: ${c.what}`, async () => {
      const e = await caught(c.provoke);
      expect(e, String(e)).toBeInstanceOf(LaigeError);
      const err = e as LaigeError;
      expect(err.reason, err.message).toBe(c.reason);
      const row = REASON_ROWS.get(c.reason)!;
      if (row.code !== "the tick's") expect(row.code.split(' / '), `${c.reason}: code`).toContain(err.code);
      expect(err.fields, err.message).toMatchObject(c.fields);
      for (const [k, v] of Object.entries(err.fields)) {
        expect(documentedField(c.reason, k), `${c.reason}: field '${k}' is not in its row (${row.fieldsCell})`).toBe(true);
        const listed = row.fieldValues.get(k);
        if (listed !== undefined && typeof v === 'string') expect([...listed], `${c.reason}: ${k} = '${v}'`).toContain(v);
      }
      expect(err.detail.length).toBeGreaterThan(0);
      expect(err.detail, err.detail).not.toMatch(/undefined|\[object Object\]/);
      // The message is the reason's own sentence; the code's generic line
      // follows it only when the reason is the code's own name (no specific one).
      expect(err.message).toBe(err.reason === err.code ? `${err.detail}\n${err.line}` : err.detail);
      expect(err.line.length).toBeGreaterThan(0);
    });
  }

  it('the table covers every reason not marked (C++ only) in docs/errors.md', () => {
    const provoked = new Set(CASES.map((c) => c.reason));
    const missing = [...REASON_ROWS.keys()].filter((r) => !CPP_ONLY_REASONS.has(r) && !provoked.has(r) && !(r in NOT_PROVOKED));
    expect(missing, 'provoke these from TypeScript, or mark them (C++ only)').toEqual([]);
  });

  it('no case provokes a reason marked (C++ only); the unprovokable ones are documented and not C++ only', () => {
    expect(CASES.map((c) => c.reason).filter((r) => CPP_ONLY_REASONS.has(r))).toEqual([]);
    for (const r of Object.keys(NOT_PROVOKED)) {
      expect(REASON_ROWS.has(r), r).toBe(true);
      expect(CPP_ONLY_REASONS.has(r), r).toBe(false);
      expect(CASES.some((c) => c.reason === r), r).toBe(false);
    }
  });

  it('the C++ only rows are the native tools\', the C++ API\'s and the wasm layer\'s internal ones', () => {
    // Every peer reason is C++ only (laige-peer is a native tool).
    for (const row of REASON_ROWS.values()) {
      if (row.section.includes('peer')) expect(row.cppOnly, row.reason).toBe(true);
    }
    expect(CPP_ONLY_REASONS.size).toBeGreaterThan(20);
  });
});
