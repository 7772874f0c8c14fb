// The reasons, their docs and their sentences agree: every reason the C++
// core or the bindings give a failure is documented in docs/errors.md and
// has a plain-words sentence in web/src/base/error_messages.ts, and no message
// or doc a user reads points to the log for the cause.
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { messageFor } from '../../dist/base/error_messages.js';
import { CPP_ONLY_REASONS, DOCUMENTED_REASONS } from './support/reasons.js';

const root = new URL('../../', import.meta.url);

function sources(dir: string, ext: RegExp): string[] {
  return readdirSync(new URL(dir, root), { recursive: true, withFileTypes: false })
    .map(String)
    .filter((f) => ext.test(f))
    .map((f) => readFileSync(new URL(`${dir}/${f}`, root), 'utf8'));
}

/** Every reason literal a failing Status is built with. */
function coreReasons(): Set<string> {
  const out = new Set<string>();
  const patterns = [
    /Status::failure\(\s*[\w:.()]+\s*,\s*"([a-z0-9_]+)"/g, // Status::failure(code, "reason")
    /identityMismatch\(\s*"([a-z0-9_]+)"/g,
    /textRejected\(\s*"([a-z0-9_]+)"/g,
    /warnStale\(\s*"([a-z0-9_]+)"/g,
    /\bfail\(\s*ErrorCode::\w+\s*,\s*"([a-z0-9_]+)"\)/g, // the bindings' own failures
  ];
  const files = [...sources('cpp', /\.(cpp|h)$/), ...sources('web/bindings', /\.(cpp|h)$/)];
  for (const text of files) {
    const bindings = text.includes('laige_wasm');
    patterns.forEach((p, i) => {
      if (i === patterns.length - 1 && !bindings) return; // the encoder's fail(code, why): a field value
      for (const m of text.matchAll(p)) out.add(m[1]!);
    });
  }
  return out;
}

const messages = readFileSync(new URL('web/src/base/error_messages.ts', root), 'utf8');
const sentences = new Set([...messages.matchAll(/^ {2}([a-z0-9_]+): \(/gm)].map((m) => m[1]!));

describe('reasons, docs and sentences agree', () => {
  const core = coreReasons();

  it('finds the core reasons (the scan works)', () => {
    for (const r of ['double_writer', 'dep_missing', 'dependency_cycle', 'stale_entity_access', 'parse_rejected', 'scenario_unknown']) {
      expect(core.has(r), r).toBe(true);
    }
  });

  it('every core reason is documented and has a sentence', () => {
    for (const r of core) {
      expect(DOCUMENTED_REASONS.has(r), `${r}: add a row to docs/errors.md`).toBe(true);
      // Reasons marked (C++ only) in docs/errors.md never reach JS.
      if (!CPP_ONLY_REASONS.has(r)) expect(sentences.has(r), `${r}: add a sentence to web/src/base/error_messages.ts`).toBe(true);
    }
  });

  it('the sentences read the fields each reason carries (no undefined, no raw reason)', () => {
    const cases: [string, Record<string, string | number>, string][] = [
      ['name_invalid', { reason: 'too_long', length: 64, max_length: 63 }, 'the system name is 64 bytes, over the 63 a name may have'],
      ['name_invalid', { reason: 'null' }, 'the system name is missing'],
      ['component_name_invalid', { name: 'P\nQ', reason: 'control_char' }, 'holds a control character'],
      ['component_name_invalid', { name: '', length: 0, max_length: 63, reason: 'empty' }, "the component name '' is empty"],
      ['tick_inside_callback', { callback: 'loop_hook' }, "a tick cannot start inside a game loop's input or onTick callback"],
      ['tick_inside_callback', { callback: 'each' }, 'a tick cannot start inside an each callback'],
      ['schedule_inside_tick', {}, 'cannot be scheduled while a tick'],
      ['recorder_finished', {}, 'the recording is finished'],
      ['frame_too_large', { length: 2000000 }, 'a frame of 2000000 bytes is over the 1 MiB'],
      ['replay_size_cap', { bytes: 56, max_bytes: 72 }, 'the recording holds 56 bytes and the next frame would pass its size cap of 72 bytes'],
    ];
    for (const [reason, fields, want] of cases) {
      const m = messageFor(reason, fields);
      expect(m, reason).toContain(want);
      expect(m, reason).not.toMatch(/undefined/);
    }
  });

  it('no core failure is a bare code (every one is built with its reason)', () => {
    const files = (readdirSync(new URL('cpp/src', root), { recursive: true }) as string[]).filter((f) => f.endsWith('.cpp') && f !== 'errors.cpp')
      .map((f) => `cpp/src/${f}`)
      .concat(readdirSync(new URL('cpp/scenarios', root)).map((f) => `cpp/scenarios/${f}`), (readdirSync(new URL('web/bindings', root), { recursive: true }) as string[]).filter((f) => /\.(cpp|h|inc)$/.test(f)).map((f) => `web/bindings/${f}`));
    for (const f of files) {
      const text = readFileSync(new URL(f, root), 'utf8');
      expect(text, f).not.toMatch(/return ErrorCode::\w+;|Status\{ErrorCode::|Status\(ErrorCode::|\.error\(\);\s*$/m);
    }
  });

  it('no message or doc points to the log for the cause', () => {
    const texts = [...sources('cpp', /\.(cpp|h)$/), ...sources('web', /\.(ts|cpp|h)$/), ...sources('docs', /\.md$/),
      readFileSync(new URL('README.md', root), 'utf8')];
    for (const t of texts) expect(t).not.toMatch(/see the log/i);
  });
});
