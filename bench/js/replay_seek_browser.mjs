// replay_seek_browser.mjs - bench/js/replay_seek_bench.mjs's measurement in
// headless chromium (and firefox with --browsers): the browser suite's page
// (tests/browsers/page.html, the built package from 127.0.0.1) runs
// tests/browsers/replay_seek_timing.mjs per K and this prints the figures.
//   node bench/js/replay_seek_browser.mjs [--browsers chromium] [--ticks 10000] [--k 100,200]
import { createServer } from 'node:http';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import puppeteer from 'puppeteer-core';
import { staticHandler } from '../../demo/serve.mjs';
import { formatReplaySeekTiming } from '../../tests/browsers/replay_seek_timing.mjs';

const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const { values } = parseArgs({
  options: {
    browsers: { type: 'string', default: 'chromium' }, ticks: { type: 'string', default: '10000' },
    k: { type: 'string', default: '100,200' }, jumps: { type: 'string', default: '200' }, 'step-backs': { type: 'string', default: '200' },
  },
});
const BROWSERS = {
  firefox: { browser: 'firefox', executablePath: process.env.LAIGE_FIREFOX ?? '/usr/bin/firefox-esr', args: [] },
  chromium: {
    browser: 'chrome', executablePath: process.env.LAIGE_CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  },
};
const served = ['/dist/', '/wasm/', '/demo/src/', '/tests/browsers/'];
const files = staticHandler(root);
const server = createServer((req, res) => {
  const path = new URL(req.url, 'http://x').pathname;
  if (!served.some((d) => path.startsWith(d)) || path.includes('..')) { res.writeHead(404).end(); return; }
  files(req, res);
});
await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
const pageUrl = `http://127.0.0.1:${server.address().port}/tests/browsers/page.html`;
let exact = true;
try {
  for (const name of values.browsers.split(',')) {
    const spec = BROWSERS[name];
    const browser = await puppeteer.launch({ browser: spec.browser, protocol: 'webDriverBiDi', executablePath: spec.executablePath, headless: true, args: spec.args });
    try {
      const page = await browser.newPage();
      await page.goto(pageUrl, { waitUntil: 'load' });
      await page.waitForFunction(() => window.__laigeCheck !== undefined || window.__laigeCheckError !== undefined, { timeout: 120_000 });
      const err = await page.evaluate(() => window.__laigeCheckError ?? null);
      if (err !== null) throw new Error(`the page failed to load: ${err}`);
      console.log(`${name} ${await browser.version()}; load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
      for (const k of values.k.split(',').map(Number)) {
        const o = { ticks: Number(values.ticks), keyframeEvery: k, jumps: k === 0 ? 20 : Number(values.jumps), stepBacks: k === 0 ? 20 : Number(values['step-backs']) };
        const r = await page.evaluate((opts) => window.__laigeCheck.replaySeekTiming(opts), o);
        console.log(`${name}: ${formatReplaySeekTiming(r)}`);
        console.log(JSON.stringify(r));
        exact &&= r.exact;
      }
    } finally {
      await browser.close();
    }
  }
} finally {
  server.close();
}
console.log(`load average after: ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
if (!exact) process.exit(1);
