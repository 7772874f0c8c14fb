// harness.mjs - shared by the e2e test (tests/e2e/demo.e2e.mjs) and
// `scripts/run.sh --check`: a tiny static server for the built demo on
// 127.0.0.1 (a free port) and Debian's chromium or firefox-esr, headless,
// driven by puppeteer-core over WebDriver BiDi (the same calls for both).
import puppeteer from 'puppeteer-core';
import { createServer } from 'node:http';
import { staticHandler } from '../../demo/serve.mjs';
import { attachNativePeer } from '../../demo/peer_server.mjs';
import { attachMatchServer } from '../../demo/match_relay.mjs';

/**
 * Serves `dir` on 127.0.0.1 at a free port, with the live native peer at
 * /peer and the match server at /match (as demo/serve.mjs) unless `peer` is
 * false (static hosting); resolves to { url, peer, matches, close() } (peer:
 * attachNativePeer's handle, matches: attachMatchServer's, or null).
 */
/** The match server's flags in the harness: a snapshot every 64 ticks, a reconnect window of 120 confirmed ticks (match_checks.mjs waits it out). */
export const MATCH_SERVER_OPTIONS = { snapshotEvery: 64, reconnectTicks: 120 };

export function serveStatic(dir, { peer = true } = {}) {
  const server = createServer(staticHandler(dir));
  const endpoint = peer ? attachNativePeer(server, { log: (m) => console.error(m) }) : null;
  const matches = endpoint?.bin ? attachMatchServer(server, { bin: endpoint.bin, ...MATCH_SERVER_OPTIONS, log: (m) => console.error(m) }) : null;
  return new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      ok({
        url: `http://127.0.0.1:${port}/`, peer: endpoint, matches,
        close: async () => { await matches?.close(); await endpoint?.close(); await new Promise((r) => server.close(r)); },
      });
    });
  });
}

/** The browsers the harness drives: Debian's packages (override the paths with the env vars). */
export const BROWSERS = {
  chromium: {
    browser: 'chrome', executablePath: () => process.env.LAIGE_CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  },
  firefox: { browser: 'firefox', executablePath: () => process.env.LAIGE_FIREFOX ?? '/usr/bin/firefox-esr', args: [] },
};

/**
 * Launches `name` ('chromium' or 'firefox') headless with a fresh profile
 * (puppeteer-core creates and removes it; it never downloads a browser);
 * resolves to { name, browser, page, version, close() }.
 */
export async function launchBrowser(name) {
  const spec = BROWSERS[name];
  if (spec === undefined) throw new Error(`unknown browser '${name}' (one of ${Object.keys(BROWSERS).join(', ')})`);
  const browser = await puppeteer.launch({
    browser: spec.browser, protocol: 'webDriverBiDi', executablePath: spec.executablePath(), headless: true,
    args: spec.args, defaultViewport: { width: 1160, height: 760 },
  });
  try {
    const page = (await browser.pages())[0] ?? await browser.newPage();
    // defaultViewport does not reach the page a browser starts with over BiDi.
    await page.setViewport({ width: 1160, height: 760 });
    return { name, browser, page, version: await browser.version(), close: () => browser.close().catch(() => {}) };
  } catch (e) {
    await browser.close().catch(() => {});
    throw e;
  }
}

/** Opens the demo in fast mode in `page` and waits for the test hook. */
export async function openDemo(page, url, log = () => {}) {
  page.on('pageerror', (e) => log(`pageerror: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') log(`console: ${m.text()}`); });
  await page.goto(`${url}?fast=1`, { waitUntil: 'load' });
  await page.waitForFunction(() => (window.__demo && window.__demo.status().ready) || window.__demoError, { timeout: 60_000 });
  const err = await page.evaluate(() => window.__demoError ?? null);
  if (err) throw new Error(`the demo reports: ${err}`);
  return page;
}

/** Runs `name` in the page until `ticks` ticks were checked (or it diverged); returns the status. */
export async function runScenario(page, name, ticks = 600, timeoutMs = 180_000) {
  await page.evaluate((n) => window.__demo.select(n), name);
  await page.waitForFunction(
    (n, t) => {
      const s = window.__demo.status();
      return (s.ready && s.scenario === n && (s.tick >= t || s.divergedAt !== null)) || window.__demoError;
    },
    { timeout: timeoutMs, polling: 100 }, name, ticks);
  return page.evaluate(() => ({ ...window.__demo.status(), error: window.__demoError ?? null }));
}

/** The one-line verdict of a status, e.g. `swarm: MATCH 600 ticks`. */
export function verdictLine(name, s) {
  if (s.error) return `${name}: ERROR ${s.error}`;
  if (s.verdict === 'DIVERGED') return `${name}: DIVERGED at tick ${s.divergedAt}`;
  if (s.verdict !== 'MATCH') return `${name}: ${s.verdict}${s.goldenError ? ` (${s.goldenError})` : ''}`;
  return `${name}: MATCH ${Math.min(s.tick, s.goldenTicks)} ticks`;
}
