// The catalogue of log texts (cpp/src/logging/log_texts.def) is left out of
// the wasm module; a record crosses with its id and the TypeScript layer
// fills the message (docs/logging.md#message-texts). These tests read the
// catalogue themselves, so a wrong id, a stale table or a module that links
// the texts after all each fail here.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { LogRecord } from '../../dist/index.js';
import { sim } from './support/sim.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The catalogue's texts by id, parsed here independently of scripts/gen-log-texts.mjs. */
function catalogue(): Map<string, string> {
  const def = readFileSync(`${root}cpp/src/logging/log_texts.def`, 'utf8');
  const out = new Map<string, string>();
  for (const m of def.matchAll(/^LAIGE_LOG_TEXT\((\w+),((?:\s*"[^"]*")+)\)/gm)) {
    out.set(m[1]!, [...m[2]!.matchAll(/"([^"]*)"/g)].map((p) => p[1]).join(''));
  }
  return out;
}

/** The records the core logs while fn runs. */
function recorded(fn: () => void): LogRecord[] {
  const records: LogRecord[] = [];
  sim.onLog((r) => records.push(r));
  try {
    fn();
  } finally {
    sim.onLog(null);
  }
  return records;
}

describe('log texts', () => {
  const texts = catalogue();

  it('the catalogue has every text once, each "event | what | why | fix | docs anchor" or a short info line', () => {
    expect(texts.size).toBeGreaterThan(70);
    for (const [id, text] of texts) {
      expect(text.length, id).toBeGreaterThan(10);
      if (text.includes(' | ')) expect(text.split(' | ').at(-1), id).toMatch(/^docs\/[a-z_/-]+\.md#[a-z0-9-]+$/);
    }
  });

  it('the wasm module carries none of the texts', () => {
    const wasm = readFileSync(`${root}wasm/laige_wasm.wasm`).toString('latin1');
    const carried = [...texts].filter(([, text]) => wasm.includes(text.slice(0, 48))).map(([id]) => id);
    expect(carried).toEqual([]);
  });

  it('each record has the text of its own id, and no id field', () => {
    const w = sim.createWorld({ capacity: 8 });
    try {
      const e = w.create();
      w.destroy(e);
      // Each event once: warnings are rate-limited per event.
      const records = recorded(() => {
        expect(() => w.destroy(e)).toThrow();
        expect(() => w.check(e)).toThrow();
      });
      expect(records.map((r) => [r.event, r.message])).toEqual([
        ['stale_entity_destroy', texts.get('StaleEntityDestroy')],
        ['stale_entity_access', texts.get('StaleEntityAccess')],
      ]);
      expect(Object.keys(records[1] ?? {}).sort()).toEqual(['event', 'fields', 'message', 'severity', 'subsystem', 'timestampUs']);
    } finally {
      w.dispose();
    }
  });
});
