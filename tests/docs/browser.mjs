// browser.mjs - `node browser.mjs DIST EXPECTED OUT`: serves a built Vite app
// (DIST) on 127.0.0.1, opens it in headless chromium and writes what the page
// printed with console.log to OUT, one message a line. It stops when every
// line of EXPECTED has appeared, on a page error, or after 60 s.
import { readFileSync, writeFileSync } from 'node:fs';
import { launchBrowser, serveStatic } from '../e2e/harness.mjs';

const [dist, expectedFile, outFile] = process.argv.slice(2);
const expected = readFileSync(expectedFile, 'utf8').split('\n').map((l) => l.trimEnd()).filter((l) => l !== '');
const printed = [];
let failure = null;
const server = await serveStatic(dist);
const chromium = await launchBrowser('chromium');
try {
  const { page } = chromium;
  page.on('console', (m) => printed.push(`${m.type() === 'log' ? '' : `console.${m.type()}: `}${m.text()}`));
  page.on('pageerror', (e) => { failure = `page error: ${e.message}`; });
  await page.goto(server.url, { waitUntil: 'load' });
  const deadline = Date.now() + 60_000;
  while (failure === null && !expected.every((l) => printed.includes(l)) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));  // poll the console lines
  }
} finally {
  await chromium.close();
  await server.close();
}
writeFileSync(outFile, printed.join('\n') + '\n');
if (failure) { console.error(failure); process.exit(1); }
