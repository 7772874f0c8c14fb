// loadLaige: every way a load can fail is a LaigeError that names the URL,
// path or problem and the option that fixes it (never the wasm runtime's
// abort text); the embedded entry loads the same core.
import { createServer, type Server } from 'node:http';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LaigeError, loadLaige } from '../../dist/index.js';
import * as embedded from '../../dist/embedded.js';
import * as withScenarios from '../../dist/scenarios.js';

const wasmPath = new URL('../../wasm/laige_wasm.wasm', import.meta.url);
const golden = readFileSync(new URL('../golden/hello.txt', import.meta.url), 'utf8').trim().split('\n');

async function loadError(options: Parameters<typeof loadLaige>[0]): Promise<LaigeError> {
  try {
    await loadLaige(options);
  } catch (e) {
    expect(e).toBeInstanceOf(LaigeError);
    const err = e as LaigeError;
    expect(err.message).not.toMatch(/Aborted|ASSERTIONS/);
    // A load failure's message is its own sentence: no generic 5-field line of the code after it.
    expect(err.message).toBe(err.detail);
    expect(err.message).not.toContain(' | ');
    return err;
  }
  throw new Error('loadLaige did not fail');
}

// A module importing a function this build does not provide (LinkError).
const foreignImport = new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 1, 4, 1, 0x60, 0, 0, 2, 8, 1, 1, 0x61, 2, 0x7a, 0x7a, 0, 0]);
// A valid module with no exports at all.
const emptyModule = new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]);

let server: Server;
let base = '';
beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/laige_wasm.wasm') {
      res.writeHead(200, { 'content-type': 'application/wasm' });
      res.end(readFileSync(wasmPath));
    } else if (req.url === '/spa/laige_wasm.wasm') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!DOCTYPE html><html><body>app</body></html>');
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
    }
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const address = server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
});
afterAll(() => new Promise<void>((ok) => server.close(() => ok())));

describe('loadLaige', () => {
  it('loads the package .wasm by default, from a URL and from bytes: the same core', async () => {
    const sims = [await loadLaige(), await loadLaige({ wasmUrl: `${base}/laige_wasm.wasm` }),
      await loadLaige({ wasmBinary: readFileSync(wasmPath) }), await loadLaige({ wasmUrl: wasmPath })];
    const reference = sampleHash(await withScenarios.loadLaige());
    for (const sim of sims) {
      expect(sampleHash(sim)).toBe(reference);
      expect(sim.scenarios()).toEqual([]);
    }
  });

  it('a 404 is wasm_not_found naming the URL, the status and wasmUrl', async () => {
    const e = await loadError({ wasmUrl: `${base}/missing/laige_wasm.wasm` });
    expect(e.reason).toBe('wasm_not_found');
    expect(e.code).toBe('io_error');
    expect(e.fields).toEqual({ url: `${base}/missing/laige_wasm.wasm`, status: '404' });
    expect(e.detail).toMatch(/answered HTTP 404/);
    expect(e.detail).toMatch(/wasmUrl.*wasmBinary.*@laige\/sim\/embedded/);
  });

  it('an unreachable server is wasm_not_found naming the URL', async () => {
    const e = await loadError({ wasmUrl: 'http://127.0.0.1:9/laige_wasm.wasm' });
    expect(e.reason).toBe('wasm_not_found');
    expect(e.detail).toContain('cannot fetch the wasm module at http://127.0.0.1:9/laige_wasm.wasm');
  });

  it('a missing file is wasm_not_found naming the path', async () => {
    const e = await loadError({ wasmUrl: '/nonexistent/laige_wasm.wasm' });
    expect(e.reason).toBe('wasm_not_found');
    expect(e.fields).toEqual({ url: '/nonexistent/laige_wasm.wasm' });
    expect(e.detail).toContain('/nonexistent/laige_wasm.wasm (ENOENT)');
  });

  it('an HTML page where the .wasm should be is wasm_invalid and says so', async () => {
    const e = await loadError({ wasmUrl: `${base}/spa/laige_wasm.wasm` });
    expect(e.reason).toBe('wasm_invalid');
    expect(e.code).toBe('malformed_input');
    expect(e.detail).toContain(`the file at ${base}/spa/laige_wasm.wasm is not a wasm binary`);
    expect(e.detail).toContain('an HTML page');
  });

  it('a bad wasmBinary is wasm_invalid: wrong type, empty, truncated', async () => {
    const wrongType = await loadError({ wasmBinary: 'laige_wasm.wasm' as unknown as Uint8Array });
    expect([wrongType.reason, wrongType.code]).toEqual(['wasm_invalid', 'invalid_argument']);
    expect(wrongType.detail).toContain("got 'laige_wasm.wasm'");
    const empty = await loadError({ wasmBinary: new Uint8Array(0) });
    expect([empty.reason, empty.code]).toEqual(['wasm_invalid', 'malformed_input']);
    expect(empty.detail).toContain('wasmBinary is empty');
    const truncated = await loadError({ wasmBinary: readFileSync(wasmPath).subarray(0, 1000) });
    expect(truncated.reason).toBe('wasm_invalid');
    expect(truncated.detail).toMatch(/^loadLaige: wasmBinary is not a valid wasm binary \(/);
  });

  it('a .wasm of another build is wasm_incompatible', async () => {
    for (const wasmBinary of [foreignImport, emptyModule]) {
      const e = await loadError({ wasmBinary });
      expect(e.reason).toBe('wasm_incompatible');
      expect(e.detail).toContain('does not fit this version of @laige/sim');
    }
  });

  it('bad options are rejected before anything loads', async () => {
    expect((await loadError(null as unknown as object)).reason).toBe('wrong_type');
    expect((await loadError({ wasmUrl: 42 as unknown as string })).reason).toBe('wasm_url_invalid');
  });
});

describe('initialMemoryBytes: the heap sized at load', () => {
  it('the default is 16 MiB; a reserved heap takes what grows a default one without growing, and still grows past it', async () => {
    const fill = (sim: Awaited<ReturnType<typeof loadLaige>>) => {
      const w = sim.createWorld({ capacity: 65536 });
      const P = w.registerComponent('P', { x: 'f32', y: 'f32' });
      for (let i = 0; i < 65000; i++) w.add(w.create(), P, { x: i, y: -i });
      return { w, P };
    };
    const small = await loadLaige();
    expect(small.memoryBytes).toBe(16 << 20);
    let worlds = 0;
    while (small.memoryBytes === 16 << 20 && worlds < 64) { fill(small); worlds++; }
    expect(small.memoryBytes).toBeGreaterThan(16 << 20); // grown after `worlds` worlds
    const sim = await loadLaige({ initialMemoryBytes: 96 << 20 });
    expect(sim.memoryBytes).toBe(96 << 20);
    const first = fill(sim);
    for (let k = 1; k < worlds; k++) fill(sim);
    expect(sim.memoryBytes).toBe(96 << 20); // the same worlds, no growth
    expect(first.w.stateHash(0)).toBe(fill(small).w.stateHash(0));
    // Growth past a reserved heap works as for the default one, and keeps the values.
    while (sim.memoryBytes === 96 << 20) fill(sim);
    let n = 0;
    first.w.each([first.P], ['read'], (_e, p) => { if (p.x === -p.y) n++; });
    expect(n).toBe(65000);
  });

  it('a size that is no whole number of 64 KiB pages from 16 MiB to 2 GiB is refused before anything loads', async () => {
    for (const [v, reason] of [['16', 'wrong_type'], [null, 'wrong_type'], [1.5, 'out_of_range'], [(16 << 20) + 1, 'out_of_range'],
      [8 << 20, 'out_of_range'], [4 * 2 ** 30, 'out_of_range'], [NaN, 'out_of_range'], [-(16 << 20), 'out_of_range']] as const) {
      const err = await loadError({ initialMemoryBytes: v as unknown as number, wasmUrl: 'http://127.0.0.1:1/never-fetched.wasm' });
      expect(err.reason).toBe(reason);
      expect(err.fields).toMatchObject({ where: 'loadLaige', field: 'initialMemoryBytes' });
    }
  });
});

describe('@laige/sim/embedded', () => {
  it('loads the inlined .wasm: the same core, the same API', async () => {
    const sim = await embedded.loadLaige();
    expect(sampleHash(sim)).toBe(sampleHash(await loadLaige()));
    expect(embedded.LaigeError).toBe(LaigeError);
  });
});

describe('@laige/sim/scenarios', () => {
  it('loads the module with the built-in scenarios: their golden streams, the same API', async () => {
    const sim = await withScenarios.loadLaige();
    expect(sim.scenarios().map((s) => s.name)).toContain('hello');
    expect(sim.runScenario('hello', { ticks: 10 }).text.trim().split('\n')).toEqual(golden.slice(0, 11));
    expect(withScenarios.LaigeError).toBe(LaigeError);
  });

  it("the module of '@laige/sim' refuses to run or open a scenario with scenario_unknown and the entry to load", async () => {
    const sim = await loadLaige();
    // A player's input is a pure function of (player, tick) that needs no scenario world: both modules answer it alike.
    expect(sim.scenarioPlayerInput('input', 1, 5)).toEqual((await withScenarios.loadLaige()).scenarioPlayerInput('input', 1, 5));
    for (const call of [() => sim.runScenario('hello'), () => sim.openScenario('swarm')]) {
      let err: unknown;
      try {
        call();
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(LaigeError);
      expect((err as LaigeError).reason).toBe('scenario_unknown');
    }
    let err: unknown;
    try {
      sim.openScenario('swarm');
    } catch (e) {
      err = e;
    }
    expect((err as LaigeError).fields).toMatchObject({ where: 'openScenario', scenario: 'swarm', scenarios: 0 });
    expect((err as LaigeError).message).toContain("'@laige/sim/scenarios'");
  });

  it("the dev tools (the replay player, the inspector's answers) are in the module of '@laige/sim/scenarios' only", async () => {
    const lean = await loadLaige();
    const full = await withScenarios.loadLaige();
    const linked = (sim: unknown): number => (sim as { raw: { devtoolsLinked(): number } }).raw.devtoolsLinked();
    expect(linked(lean)).toBe(0);
    expect(linked(full)).toBe(1);
    // A keyframed recording is made by either module (a shipping game records with the lean one) ...
    const record = (sim: typeof lean): Uint8Array => {
      const w = sim.createWorld({ capacity: 8, seed: 3n });
      const rec = sim.recordReplay(w, { keyframeEvery: 2 });
      for (let t = 0; t < 4; t++) rec.step();
      const log = rec.finish();
      w.dispose();
      return log;
    };
    const log = record(lean);
    expect(log).toEqual(record(full));
    // ... and played by the module with the dev tools; the lean one refuses, its exports unreached.
    using player = full.openReplay(log, { world: { capacity: 8, seed: 3n }, setup: () => {} });
    player.seek(3);
    expect(player.tick).toBe(3);
    const w = lean.createWorld({ capacity: 8 });
    const before = w.stateHash(0);
    const { inspectRequest, worldSource } = await import('../../dist/inspector.js');
    for (const [call, where, tool] of [
      [() => lean.openReplay(log, { world: { capacity: 8, seed: 3n }, setup: () => {} }), 'openReplay', 'the replay player'],
      [() => worldSource(w).ask(inspectRequest.summary()), 'InspectorSource.ask', 'the inspector'],
    ] as const) {
      let err: unknown;
      try {
        await call();
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(LaigeError);
      expect((err as LaigeError).reason).toBe('devtools_not_linked');
      expect((err as LaigeError).fields).toMatchObject({ where, tool });
      expect((err as LaigeError).message).toContain("'@laige/sim/scenarios'");
    }
    expect(w.stateHash(0)).toBe(before);
    w.dispose();
  });
});

/** The state hash of a small TS world: equal in every load of either module. */
function sampleHash(sim: Awaited<ReturnType<typeof loadLaige>>): bigint {
  const w = sim.createWorld({ capacity: 64, seed: 0x5eedn });
  const P = w.registerComponent('P', { x: 'f32', y: 'i32' });
  for (let i = 0; i < 10; i++) w.add(w.create(), P, { x: i * 0.5, y: -i });
  const h = w.stateHash(3);
  w.dispose();
  return h;
}
