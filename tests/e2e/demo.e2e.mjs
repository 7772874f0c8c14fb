// demo.e2e.mjs - the browser demo in real headless chromium and firefox-esr
// (Debian's /usr/bin/chromium and /usr/bin/firefox-esr, the same test for
// both through puppeteer-core over WebDriver BiDi; LAIGE_E2E_BROWSERS picks
// a subset, e.g. `chromium`): every scenario runs >= 600 ticks with every
// tick's wasm stateHash equal to the native golden (MATCH); then swarm is
// perturbed and must show DIVERGED at the tick after the perturbation with
// at least one stateDiff item on the page. A swarm session steered by the
// pointer (recorded as each tick's input payload) is downloaded as a replay
// and native laige-replay must reproduce every tick's hash. The live native
// peer (laige-peer behind the server's /peer WebSocket) checks the same
// ticks as they run: peer_checks.mjs; the netplay view (two peers under
// rollback sessions): netplay_checks.mjs, and its desync report (peer 1
// flips one bit inside a system; both peers' reports name it):
// desync_checks.mjs; two pages playing through the match
// server (laige-peer --serve at /match) and a late spectator from the "join
// late" button: match_checks.mjs; the layout at 1160x760 with large
// counters and the dark scrollbars: layout_checks.mjs.
// Screenshots: test-results/demo.png (chromium, copied to docs/demo.png),
// test-results/demo-netplay.jpg (chromium, copied to docs/demo-netplay.jpg: the README's image, shipped in the package),
// test-results/demo-desync.jpg (chromium, the netplay view's desync report, copied to docs/demo-desync.jpg)
// and test-results/demo-firefox.png; the event log's scrollbar:
// test-results/events-scrollbar-<browser>.png.
// Usage: node tests/e2e/demo.e2e.mjs <built demo dir>
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchBrowser, openDemo, runScenario, serveStatic, verdictLine } from './harness.mjs';
import { peerAbsentOnStaticHosting, peerDivergesAfterPerturb, peerKilledMidRun, peerMatchesPointerSession } from './peer_checks.mjs';
import { netplayAgrees, netplayDetectsPerturb, netplayEveryScenario } from './netplay_checks.mjs';
import { desyncReportBetweenTicks, desyncReportNamesTheFlip } from './desync_checks.mjs';
import { darkScrollbars, layoutHoldsWithLargeCounters } from './layout_checks.mjs';
import { inspectorScrubsToNative } from './inspector_checks.mjs';
import { matchThroughServer } from './match_checks.mjs';

const dir = process.argv[2] ?? 'demo/dist';
const browsers = (process.env.LAIGE_E2E_BROWSERS ?? 'chromium,firefox').split(',');
const failures = [];
let current = '';
const expect = (ok, what) => {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${current.padEnd(8)} ${what}`);
  if (!ok) failures.push(`${current}: ${what}`);
};

const server = await serveStatic(dir);
const staticOnly = await serveStatic(dir, { peer: false });
expect(server.peer.bin !== null, `the native peer is built (${server.peer.bin})`);
try {
  for (const name of browsers) {
    current = name;
    await e2e(name);
  }
} finally {
  await server.close();
  await staticOnly.close();
}
console.log(failures.length === 0 ? `e2e: PASS (${browsers.join(', ')})` : `e2e: ${failures.length} failure(s)`);
process.exit(failures.length === 0 ? 0 : 1);

async function e2e(browserName) {
  const pageErrors = [];
  let run = null;
  try {
    run = await launchBrowser(browserName);
    console.log(`     ${browserName.padEnd(8)} ${run.version}`);
    const page = await openDemo(run.page, server.url, (m) => { pageErrors.push(m); console.error(m); });
    // LAIGE_E2E_ONLY=inspector: the inspector's checks alone (docs/inspector.md).
    if (process.env.LAIGE_E2E_ONLY === 'inspector') {
      mkdirSync('test-results', { recursive: true });
      await inspectorScrubsToNative(page, expect, { screenshots: browserName === 'chromium' });
      copyInspectorShots(browserName);
      expect(pageErrors.length === 0, `no page errors (${pageErrors.length})`);
      return;
    }
    // LAIGE_E2E_ONLY=match: the match server's checks alone (docs/netplay-protocol.md).
    if (process.env.LAIGE_E2E_ONLY === 'match') {
      await matchThroughServer(run.browser, server.url, expect, browserName, (m) => { pageErrors.push(m); console.error(m); });
      expect(pageErrors.length === 0, `no page errors (${pageErrors.length})`);
      return;
    }
    const names = await page.evaluate(() => window.__demo.scenarios());
    // Real time: GameLoop.frame(now) in requestAnimationFrame at 60 Hz.
    const rt = await page.evaluate(async () => {
      const d = window.__demo;
      await d.select('swarm');
      d.setFast(false);
      const t0 = d.status().tick;
      const ms0 = performance.now();
      await new Promise((r) => setTimeout(r, 1500));
      const s = d.status();
      const ms = performance.now() - ms0;
      d.setFast(true);
      return { ticks: s.tick - t0, ms, verdict: s.verdict, spritesUpdated: s.spritesUpdated, spritesUpdatedTotal: s.spritesUpdatedTotal,
        spritesCell: document.getElementById('s-sprites')?.textContent ?? null };
    });
    // The canvas is drawn from a sprite table that follows added, removed and changed entities (demo/src/sprites.js).
    expect(typeof rt.spritesUpdated === 'number' && rt.spritesUpdated > 0 && rt.spritesUpdatedTotal >= rt.spritesUpdated && rt.spritesCell !== null && rt.spritesCell !== '-',
      `sprites updated per frame: ${rt.spritesUpdated} (${rt.spritesUpdatedTotal} in all; the page shows '${rt.spritesCell}')`);
    // Bounds that hold on any machine speed: it advanced, and a fixed 60 Hz
    // loop never runs ahead of the clock.
    expect(rt.ticks >= 1 && rt.ticks <= Math.ceil((rt.ms / 1000) * 60) + 1 && rt.verdict === 'MATCH',
      `real time: ${rt.ticks} ticks in ${rt.ms.toFixed(0)} ms at a fixed 60 Hz tick in rAF (C++ swarm via openScenario), ${rt.verdict}`);
    expect(await page.evaluate(() => globalThis.crossOriginIsolated === true), 'the page is cross-origin isolated (the finer performance.now() the frame graph needs)');
    expect(names.length >= 7 && names.includes('swarm'), `the picker lists every scenario (${names.join(', ')})`);
    const tsOnly = new Set(['ts-orbits', 'ts-hierarchy']);
    for (const name of names) {
      const s = await runScenario(page, name, 600);
      expect(s.verdict === 'MATCH' && s.tick >= 600 && s.checked >= 601, `${verdictLine(name, s)} (${s.checked} hashes checked, ${s.kind})`);
      // Every scenario is live; the core's are the C++ scenario itself (sim.openScenario), not a port.
      expect(s.kind === 'live' && s.native === !tsOnly.has(name), `${name} is live (${s.native ? 'C++ scenario via openScenario' : 'TypeScript systems'})`);
    }
    for (const n of ['swarm', 'stress', 'float', 'input', 'hierarchy']) expect(names.includes(n), `the picker lists ${n}`);
    // The live swarm is the C++ scenario: without pointer input its tick-600
    // hash is line 600 of the native golden (stepped exactly 600 ticks).
    const swarmGolden = readFileSync('tests/golden/swarm.txt', 'utf8').trim().split('\n');
    const at600 = await page.evaluate(async () => {
      const d = window.__demo;
      await d.select('swarm', { paused: true });
      d.runTicks(600);
      const s = d.status();
      return { tick: s.tick, hash: d.hashAt(600), native: s.native, verdict: s.verdict, inputSince: s.inputSince };
    });
    expect(at600.native && at600.tick === 600 && at600.inputSince === null && `600 ${at600.hash}` === swarmGolden[600] && at600.verdict === 'MATCH',
      `live swarm is the C++ scenario: tick 600 ${at600.hash} = golden ${swarmGolden[600]?.split(' ')[1]}`);
    // The verdict text the user sees.
    expect(/^MATCH/.test(await page.$eval('#verdict', (e) => e.textContent)), 'the verdict box shows MATCH');

    // Pointer input recorded into the replay; native laige-replay reproduces it.
    await page.evaluate(async () => {
      const d = window.__demo;
      await d.select('swarm', { paused: true });
      d.runTicks(40);
      d.setPointer([20, -10]);
      d.runTicks(60);
      d.setPointer([-30, 25]);
      d.runTicks(30);
      d.setPointer(null);
      d.runTicks(20);
    });
    const ps = await page.evaluate(() => window.__demo.status());
    const golden = readFileSync('tests/golden/swarm.txt', 'utf8').trim().split('\n');
    expect(ps.inputSince === 41 && ps.tick === 150 && ps.verdict === 'MATCH' && `${ps.tick} ${ps.lastHash}` !== golden[ps.tick],
      `pointer input from tick ${ps.inputSince} changed the stream (tick ${ps.tick}: ${ps.lastHash}, golden ${golden[ps.tick]?.split(' ')[1]})`);
    const bundle = await page.evaluate(() => window.__demo.replayBundle());
    const replayTool = ['build/native-release/laige-replay', 'build/native-debug/laige-replay'].find((f) => existsSync(f));
    expect(replayTool !== undefined, `a native laige-replay is built (${replayTool})`);
    if (replayTool !== undefined) {
      const tmp = mkdtempSync(join(tmpdir(), 'laige-e2e-'));
      try {
        writeFileSync(join(tmp, 's.lgrp'), Buffer.from(bundle.bytes, 'base64'));
        writeFileSync(join(tmp, 's.json'), JSON.stringify(bundle.config));
        writeFileSync(join(tmp, 's.hashes.txt'), bundle.hashes);
        let ok = true;
        let out = '';
        try {
          out = execFileSync(replayTool, ['--log', join(tmp, 's.lgrp'), '--config', join(tmp, 's.json'), '--expect', join(tmp, 's.hashes.txt')],
            { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
        } catch (e) {
          ok = false;
          console.error(e.stderr);
        }
        const lines = out.trim().split('\n');
        expect(ok && lines.length === 151 && out === bundle.hashes,
          `native ${replayTool} reproduces the downloaded session's ${lines.length - 1} ticks (pointer input included)`);
      } finally {
        rmSync(tmp, { recursive: true, force: true });
      }
    }

    // Perturb swarm: DIVERGED at the tick after the perturbation, diff items shown.
    await runScenario(page, 'swarm', 120);
    await page.evaluate(() => window.__demo.setPaused(true));
    await page.click('#perturb');
    const p = await page.evaluate(() => window.__demo.status());
    expect(p.perturbTick !== null, `perturb applied after tick ${p.perturbTick}`);
    await page.evaluate(() => window.__demo.runTicks(5));
    const d = await page.evaluate(() => window.__demo.status());
    expect(d.verdict === 'DIVERGED' && d.divergedAt === p.perturbTick + 1, `DIVERGED at tick ${d.divergedAt} (perturbed after tick ${p.perturbTick})`);
    const shown = (await page.$$('#diff .diff-item')).length;
    expect(shown >= 1 && d.diffItems >= 1, `${shown} stateDiff item(s) shown (total ${d.diffTotal})`);
    expect(/DIVERGED at tick \d+/.test(await page.$eval('#verdict', (e) => e.textContent)), 'the verdict box shows DIVERGED at tick N');
    await peerDivergesAfterPerturb(page, expect, p.perturbTick);
    // A few real-time frames for the screenshot (GameLoop.frame in rAF).
    await page.evaluate(() => { window.__demo.setFast(false); window.__demo.setPaused(false); });
    await page.evaluate(() => new Promise((r) => setTimeout(r, 1000)));
    mkdirSync('test-results', { recursive: true });
    const shot = browserName === 'chromium' ? 'test-results/demo.png' : `test-results/demo-${browserName}.png`;
    await page.screenshot({ path: shot });
    if (browserName === 'chromium') {
      try { copyFileSync(shot, 'docs/demo.png'); } catch { /* docs/ read-only: the artifact stays */ }
    }
    console.log(`screenshot: ${shot}${browserName === 'chromium' ? ' (copied to docs/demo.png)' : ''}`);
    await peerMatchesPointerSession(page, expect);
    await inspectorScrubsToNative(page, expect, { screenshots: browserName === 'chromium' });
    copyInspectorShots(browserName);
    await netplayAgrees(page, expect);
    await netplayDetectsPerturb(page, expect);
    await netplayEveryScenario(page, expect, names);
    await desyncReportNamesTheFlip(page, expect);
    if (browserName === 'chromium') await desyncScreenshot(page);
    await desyncReportBetweenTicks(page, expect);
    if (browserName === 'chromium') await netplayScreenshot(page);
    await darkScrollbars(page, expect, browserName);
    await page.evaluate(() => window.__demo.netplay.close());
    await matchThroughServer(run.browser, server.url, expect, browserName, (m) => { pageErrors.push(m); console.error(m); });
    await page.bringToFront();
    await peerKilledMidRun(page, expect, server);
    await peerAbsentOnStaticHosting(page, expect, staticOnly.url);
    await layoutHoldsWithLargeCounters(page, expect, server.url);
    expect(pageErrors.length === 0, `no page errors (${pageErrors.length})`);
  } catch (e) {
    expect(false, `e2e run: ${e.stack ?? e.message}`);
  } finally {
    await run?.close();
  }
}

/**
 * The netplay view in real time (latency 6, jitter 3, 5% loss) for the
 * README: a real mouse drag on peer 0's canvas (the page's pointer events),
 * then peer 1's pointer held.
 */
async function netplayScreenshot(page) {
  await page.evaluate(() => {
    const d = window.__demo;
    d.netplay.open('swarm', { latency: 6, jitter: 3, loss: 0.05 });
    d.netplay.tick(240);
    d.setFast(false);
    d.setPaused(false);
  });
  const box = await (await page.$('#np-canvas-0')).boundingBox();
  await page.mouse.move(box.x + box.width * 0.7, box.y + box.height * 0.3);
  await page.mouse.down();
  for (let i = 0; i < 10; i++) {
    await page.mouse.move(box.x + box.width * (0.7 - i * 0.02), box.y + box.height * (0.3 + i * 0.01));
    await page.evaluate(() => new Promise((r) => setTimeout(r, 50)));
  }
  await page.mouse.up();
  await page.evaluate(async () => {
    const d = window.__demo;
    d.netplay.setPointer(1, [-35, -25]);
    await new Promise((r) => setTimeout(r, 800));
    d.setPaused(true);
    d.setFast(true);
  });
  const shot = 'test-results/demo-netplay.jpg';
  await page.screenshot({ path: shot, type: 'jpeg', quality: 80 });
  try { copyFileSync(shot, 'docs/demo-netplay.jpg'); } catch { /* docs/ read-only: the artifact stays */ }
  console.log(`screenshot: ${shot} (copied to docs/demo-netplay.jpg)`);
}

/**
 * The netplay view's desync report (the ts-orbits view desyncReportNamesTheFlip
 * left, with its report shown): from the network line down, for
 * docs/desync.md.
 */
async function desyncScreenshot(page) {
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const top = await (await page.$('#np-net')).boundingBox();
  const box = await (await page.$('#np-desync')).boundingBox();
  const x = Math.max(0, top.x - 4);
  const clip = { x, y: Math.max(0, top.y - 4), width: Math.min(684, box.x + box.width + 4 - x), height: box.y + box.height + 4 - Math.max(0, top.y - 4) };
  const shot = 'test-results/demo-desync.jpg';
  await page.screenshot({ path: shot, type: 'jpeg', quality: 75, clip, captureBeyondViewport: true });
  try { copyFileSync(shot, 'docs/demo-desync.jpg'); } catch { /* docs/ read-only: the artifact stays */ }
  console.log(`screenshot: ${shot} (copied to docs/demo-desync.jpg)`);
}

/** The inspector's screenshots (chromium) into docs/, which ships them (docs/inspector.md). */
function copyInspectorShots(browserName) {
  if (browserName !== 'chromium') return;
  for (const n of ['inspector-page', 'inspector-native']) {
    try { copyFileSync(`test-results/${n}.jpg`, `docs/${n}.jpg`); } catch { /* docs/ read-only: the artifact stays */ }
  }
}
