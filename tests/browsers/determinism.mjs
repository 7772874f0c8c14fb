// determinism.mjs - the browser determinism suite (tests/browsers/run.sh):
// Debian's firefox-esr and chromium, both driven by puppeteer-core over
// WebDriver BiDi (the same code for both), open page.html from a static
// server on 127.0.0.1 and, in the page:
//   1. run every C++ scenario (sim.runScenario) and compare each tick's hash
//      with its golden stream (tests/golden/<name>.txt, native laige-detcheck);
//   2. run the TypeScript-systems scenarios (demo/src/scenarios.js) and
//      compare with the stream Node computes from the same code;
//   3. record replays of C++ scenario sessions stepped from TypeScript (one
//      with swarm pointer input) and check that native laige-replay
//      reproduces every tick's hash, and that the log's bytes equal the same
//      session recorded in Node.
// And it times an 8-tick rollback of swarm through the TypeScript
// RollbackSession (rollback_timing.mjs): an INFO line with the figure,
// never asserted. One `PASS|FAIL <browser> <check>: ...` line per check;
// exit 1 on any FAIL.
// Usage: node tests/browsers/determinism.mjs [--browsers firefox,chromium]
//   [--golden-dir DIR] [--scenarios a,b] [--replays a,b] [--ticks N]
//   [--corrupt-reference-tick N]   (self-check: the Node TS stream and the
//   expected replay hashes get a wrong hash at tick N, so those checks must FAIL)
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import puppeteer from 'puppeteer-core';
import { loadLaige } from '@laige/sim/scenarios';
import { liveScenarios } from '../../demo/src/scenarios.js';
import { staticHandler } from '../../demo/serve.mjs';
import { recordScenarioSession, replayPlans, tsScenarioStream } from './streams.mjs';
import { formatFxTiming } from './fx_timing.mjs';
import { formatRollbackTiming } from './rollback_timing.mjs';

const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const { values: opt } = parseArgs({
  options: {
    browsers: { type: 'string', default: process.env.LAIGE_BROWSERS ?? 'firefox,chromium' },
    'golden-dir': { type: 'string', default: join(root, 'tests/golden') },
    scenarios: { type: 'string' },
    replays: { type: 'string' },
    ticks: { type: 'string', default: '600' },
    'corrupt-reference-tick': { type: 'string' },
    'math-kat': { type: 'string', default: join(root, 'tests/kat/math_kat.txt') },
  },
});
const TICKS = Number(opt.ticks);
const corruptAt = opt['corrupt-reference-tick'] === undefined ? null : Number(opt['corrupt-reference-tick']);
const BROWSERS = {
  firefox: { browser: 'firefox', executablePath: process.env.LAIGE_FIREFOX ?? '/usr/bin/firefox-esr', args: [] },
  chromium: {
    browser: 'chrome', executablePath: process.env.LAIGE_CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  },
};
const replayTool = [process.env.LAIGE_REPLAY, 'build/native-release/laige-replay', 'build/native-debug/laige-replay']
  .filter((f) => f !== undefined).map((f) => resolve(root, f)).find((f) => existsSync(f));

let failed = 0;
let checks = 0;
const verdict = (ok, browser, what) => {
  checks++;
  if (!ok) failed++;
  console.log(`${ok ? 'PASS' : 'FAIL'} ${browser.padEnd(8)} ${what}`);
};
const lines = (text) => text.split('\n').filter((l) => l.length > 0);
/** `MATCH` or where `got` first differs from `want` over ticks 0..n. */
function compare(got, want, n) {
  const g = lines(got);
  const w = lines(want);
  for (let t = 0; t <= n; t++) {
    if (g[t] === undefined) return `the page's stream ends after ${g.length} lines`;
    if (w[t] === undefined) return `the reference ends after ${w.length} lines (tick ${t} has none)`;
    if (g[t] !== w[t]) return `DIVERGED at tick ${t} (page ${g[t].split(' ')[1]}, reference ${w[t].split(' ')[1]})`;
  }
  return 'MATCH';
}
/** `text` with tick `tick`'s hash changed in its first digit (the self-check). */
function corrupt(text, tick) {
  return text.split('\n').map((l) => {
    if (!l.startsWith(`${tick} `)) return l;
    const h = l.slice(l.indexOf(' ') + 1);
    return `${tick} ${h[0] === '0' ? 'f' : '0'}${h.slice(1)}`;
  }).join('\n');
}

// Node's references: the TS streams and the replay sessions, computed once.
const nodeSim = await loadLaige();
const tsNames = Object.keys(liveScenarios).filter((n) => liveScenarios[n].tsOnly);
const nodeTs = new Map(tsNames.map((n) => [n, tsScenarioStream(nodeSim, liveScenarios[n], TICKS)]));
const plans = replayPlans.map((p, i) => ({ ...p, index: i })).filter((p) => opt.replays === undefined || opt.replays.split(',').includes(p.scenario));
const nodeSessions = new Map(plans.map((p) => [p.index, recordScenarioSession(nodeSim, p)]));
if (corruptAt !== null) {
  for (const [n, s] of nodeTs) nodeTs.set(n, corrupt(s, corruptAt));
}

// Only the package's files (package.json "files": dist/, wasm/), the demo's
// scenario sources and this folder.
const pkgFiles = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).files ?? ['dist', 'wasm'];
// An entry is a folder ('dist/'), a file ('wasm/laige_wasm.wasm') or a glob
// ('docs/*.md', served as its folder).
const servedEntry = (f) => {
  const clean = f.replace(/^\.?\/+/, '');
  if (clean.includes('*')) return { dir: `/${clean.slice(0, clean.lastIndexOf('/') + 1)}` };
  return clean.endsWith('/') || !clean.includes('.') ? { dir: `/${clean.replace(/\/*$/, '/')}` } : { file: `/${clean}` };
};
const served = [...pkgFiles.map(servedEntry), { dir: '/demo/src/' }, { dir: '/tests/browsers/' }];
const isServed = (path) => served.some((e) => (e.file !== undefined ? path === e.file : path.startsWith(e.dir)));
const files = staticHandler(root);
const server = createServer((req, res) => {
  const path = new URL(req.url, 'http://x').pathname;
  if (!isServed(path) || path.includes('..')) { res.writeHead(404).end(); return; }
  files(req, res);
});
await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
const pageUrl = `http://127.0.0.1:${server.address().port}/tests/browsers/page.html`;

async function checkBrowser(name) {
  const spec = BROWSERS[name];
  if (spec === undefined) { verdict(false, name, `unknown browser (one of ${Object.keys(BROWSERS).join(', ')})`); return; }
  const browser = await puppeteer.launch({
    browser: spec.browser, protocol: 'webDriverBiDi', executablePath: spec.executablePath, headless: true, args: spec.args,
  });
  const pageErrors = [];
  try {
    const page = await browser.newPage();
    page.on('pageerror', (e) => pageErrors.push(`pageerror: ${e.message}`));
    page.on('console', (m) => { if (m.type() === 'error') pageErrors.push(`console: ${m.text()}`); });
    await page.goto(pageUrl, { waitUntil: 'load' });
    await page.waitForFunction(() => window.__laigeCheck !== undefined || window.__laigeCheckError !== undefined, { timeout: 60_000 });
    const loadError = await page.evaluate(() => window.__laigeCheckError ?? null);
    if (loadError !== null) { verdict(false, name, `the page failed to load @laige/sim: ${loadError}`); return; }
    const info = await page.evaluate(() => window.__laigeCheck.info());
    console.log(`     ${name.padEnd(8)} ${await browser.version()} | ${info.userAgent} | @laige/sim ${info.version}`);

    // 1. C++ scenarios against their goldens.
    const goldenDir = resolve(opt['golden-dir']);
    const wanted = opt.scenarios === undefined ? info.scenarios : opt.scenarios.split(',');
    if (opt.scenarios === undefined) {
      const missing = info.scenarios.filter((n) => !existsSync(join(goldenDir, `${n}.txt`)));
      verdict(missing.length === 0 && info.scenarios.length > 0, name, `every scenario has a golden (${info.scenarios.join(', ')})${missing.length ? `; missing: ${missing.join(', ')}` : ''}`);
    }
    for (const s of wanted) {
      const file = join(goldenDir, `${s}.txt`);
      if (!existsSync(file)) { verdict(false, name, `scenario ${s}: no golden ${file}`); continue; }
      const text = await page.evaluate((n, t) => window.__laigeCheck.scenarioStream(n, t), s, TICKS);
      const r = compare(text, readFileSync(file, 'utf8'), TICKS);
      verdict(r === 'MATCH', name, `scenario ${s}: ${r === 'MATCH' ? `ticks 0..${TICKS} equal the golden` : r}`);
    }

    // 1b. The deterministic math functions (fx.*, f32.*) against the native known-answer table.
    const katFile = resolve(opt['math-kat']);
    const kat = await page.evaluate((t) => window.__laigeCheck.mathKat(t), readFileSync(katFile, 'utf8'));
    verdict(kat.rows > 0 && kat.mismatches === 0, name, `math known answers: ${kat.mismatches === 0 ? `${kat.rows} rows of fx.* and f32.* equal the native table` : `${kat.mismatches} of ${kat.rows} rows differ, e.g. ${kat.first.map((m) => `${m.row} (got ${m.got})`).join('; ')}`}`);

    // 1c. The rollback figure: printed, never asserted (timing depends on the machine).
    const rt = await page.evaluate(() => window.__laigeCheck.rollbackTiming(40));
    verdict(rt.rolledBack, name, `rollback session: every timed advance rolled back 8 ticks of swarm`);
    console.log(`INFO ${name.padEnd(8)} ${formatRollbackTiming(rt)}`);
    // 1d. fx.* next to f32.* in this engine: printed, never asserted.
    const ft = await page.evaluate(() => window.__laigeCheck.fxTiming(8));
    console.log(`INFO ${name.padEnd(8)} ${formatFxTiming(ft)}`);

    // 2. TypeScript-systems scenarios against Node.
    const pageTs = await page.evaluate(() => window.__laigeCheck.tsScenarios());
    verdict(pageTs.length > 0 && pageTs.join() === tsNames.join(), name, `TypeScript-systems scenarios: ${pageTs.join(', ')}`);
    for (const s of tsNames) {
      const text = await page.evaluate((n, t) => window.__laigeCheck.tsStream(n, t), s, TICKS);
      const r = compare(text, nodeTs.get(s), TICKS);
      verdict(r === 'MATCH', name, `ts ${s}: ${r === 'MATCH' ? `ticks 0..${TICKS} equal Node ${process.versions.node}'s stream` : r}`);
    }

    // 3. Replays recorded in the page, verified natively.
    verdict(replayTool !== undefined, name, `a native laige-replay is built (${replayTool ?? 'build/native-release/laige-replay missing'})`);
    for (const p of plans) {
      const rec = await page.evaluate((i) => window.__laigeCheck.recordSession(i), p.index);
      const what = `replay ${p.scenario} (${p.ticks} ticks${p.pointer.length ? ', pointer input' : ''}, ${rec.config.determinism.math})`;
      const node = nodeSessions.get(p.index);
      verdict(rec.log === node.log && rec.hashes === node.hashes, name,
        `${what}: log bytes and hashes equal the same session recorded in Node (${Buffer.from(rec.log, 'base64').length} bytes)`);
      // The stepped session is the golden stream until its first pointer tick, and not after it.
      const goldenFile = join(goldenDir, `${p.scenario}.txt`);
      if (existsSync(goldenFile)) {
        const golden = lines(readFileSync(goldenFile, 'utf8'));
        const got = lines(rec.hashes);
        const first = p.pointer.length ? Math.min(...p.pointer.map((x) => x[0])) : p.ticks + 1;
        const same = got.slice(0, first).every((l, t) => l === golden[t]);
        const moved = first > p.ticks || got.slice(first).some((l, i) => l !== golden[first + i]);
        verdict(same && moved, name, `${what}: ${first > p.ticks ? `ticks 0..${p.ticks} stepped from TypeScript equal the golden`
          : `equal to the golden through tick ${first - 1}, changed by the pointer input from tick ${first}`}${same && moved ? '' : ' - NOT SO'}`);
      }
      if (replayTool === undefined) continue;
      const tmp = mkdtempSync(join(tmpdir(), 'laige-browsers-'));
      try {
        writeFileSync(join(tmp, 's.lgrp'), Buffer.from(rec.log, 'base64'));
        writeFileSync(join(tmp, 's.json'), JSON.stringify(rec.config));
        writeFileSync(join(tmp, 's.hashes.txt'), corruptAt === null ? rec.hashes : corrupt(rec.hashes, corruptAt));
        let out = '';
        let detail = '';
        try {
          out = execFileSync(replayTool, ['--log', join(tmp, 's.lgrp'), '--config', join(tmp, 's.json'), '--expect', join(tmp, 's.hashes.txt')],
            { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
        } catch (e) {
          // Its report, without the log records (timestamped lines) the replayed ticks emit.
          const report = `${e.stderr}`.trim().split('\n').filter((l) => !/^\d{4}-\d\d-\d\dT/.test(l));
          detail = `laige-replay exit ${e.status}: ${report.slice(0, 2).join(' | ')}`;
        }
        const ok = detail === '' && out === rec.hashes;
        verdict(ok, name, `${what}: ${ok ? `native laige-replay --expect reproduces the page's ${lines(out).length} hashes` : detail || compare(out, rec.hashes, p.ticks)}`);
      } finally {
        rmSync(tmp, { recursive: true, force: true });
      }
    }
    verdict(pageErrors.length === 0, name, `no page errors${pageErrors.length ? `: ${pageErrors.join(' | ')}` : ''}`);
  } finally {
    await browser.close();
  }
}

const start = Date.now();
try {
  for (const b of opt.browsers.split(',')) {
    const t0 = Date.now();
    try {
      await checkBrowser(b);
    } catch (e) {
      verdict(false, b, `run: ${e.stack ?? e.message}`);
    }
    console.log(`     ${b.padEnd(8)} ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  }
} finally {
  server.close();
}
console.log(`browsers: ${checks} checks, ${failed} failed (${((Date.now() - start) / 1000).toFixed(1)} s)`);
process.exit(failed === 0 && checks > 0 ? 0 : 1);
