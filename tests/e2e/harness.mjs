// harness.mjs - shared by the e2e test (tests/e2e/demo.e2e.mjs) and
// `scripts/run.sh --check`: a tiny static server for the built demo on
// 127.0.0.1 (a free port) and Debian's chromium driven by playwright-core.
import { createServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { staticHandler } from '../../demo/serve.mjs';

/** Serves `dir` on 127.0.0.1 at a free port; resolves to { url, close() }. */
export function serveStatic(dir) {
  const server = createServer(staticHandler(dir));
  return new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      ok({ url: `http://127.0.0.1:${port}/`, close: () => new Promise((r) => server.close(r)) });
    });
  });
}

/** Launches headless Debian chromium with a fresh profile; resolves to { browser, close() }. */
export async function launchChromium() {
  const profile = mkdtempSync(join(tmpdir(), 'laige-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.LAIGE_CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    viewport: { width: 1160, height: 760 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  return {
    context,
    async close() {
      await context.close().catch(() => {});
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Opens the demo in fast mode and waits for the test hook. */
export async function openDemo(context, url, log = () => {}) {
  const page = context.pages()[0] ?? await context.newPage();
  page.on('pageerror', (e) => log(`pageerror: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') log(`console: ${m.text()}`); });
  await page.goto(`${url}?fast=1`, { waitUntil: 'load' });
  await page.waitForFunction(() => (window.__demo && window.__demo.status().ready) || window.__demoError, null, { timeout: 60_000 });
  const err = await page.evaluate(() => window.__demoError ?? null);
  if (err) throw new Error(`the demo reports: ${err}`);
  return page;
}

/** Runs `name` in the page until `ticks` ticks were checked (or it diverged); returns the status. */
export async function runScenario(page, name, ticks = 600, timeoutMs = 180_000) {
  await page.evaluate((n) => window.__demo.select(n), name);
  await page.waitForFunction(
    ([n, t]) => {
      const s = window.__demo.status();
      return (s.ready && s.scenario === n && (s.tick >= t || s.divergedAt !== null)) || window.__demoError;
    },
    [name, ticks], { timeout: timeoutMs, polling: 100 });
  return page.evaluate(() => ({ ...window.__demo.status(), error: window.__demoError ?? null }));
}

/** The one-line verdict of a status, e.g. `swarm: MATCH 600 ticks`. */
export function verdictLine(name, s) {
  if (s.error) return `${name}: ERROR ${s.error}`;
  if (s.verdict === 'DIVERGED') return `${name}: DIVERGED at tick ${s.divergedAt}`;
  if (s.verdict !== 'MATCH') return `${name}: ${s.verdict}${s.goldenError ? ` (${s.goldenError})` : ''}`;
  return `${name}: MATCH ${Math.min(s.tick, s.goldenTicks)} ticks`;
}
