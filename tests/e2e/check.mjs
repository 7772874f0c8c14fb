// check.mjs - `scripts/run.sh --check`: the demo's live comparison, headless
// in chromium (or the browser named by $LAIGE_CHECK_BROWSER: chromium,
// firefox), one verdict line per scenario; exit 1 on any divergence.
// Usage: node tests/e2e/check.mjs <built demo dir>
import { launchBrowser, openDemo, runScenario, serveStatic, verdictLine } from './harness.mjs';

const dir = process.argv[2] ?? 'demo/dist';
const server = await serveStatic(dir);
let run = null;
let bad = 0;
try {
  run = await launchBrowser(process.env.LAIGE_CHECK_BROWSER ?? 'chromium');
  const page = await openDemo(run.page, server.url, (m) => console.error(m));
  const names = await page.evaluate(() => window.__demo.scenarios());
  for (const name of names) {
    const s = await runScenario(page, name, 600);
    const line = verdictLine(name, s);
    console.log(line);
    if (!/: MATCH (\d+) ticks$/.test(line) || Number(/(\d+) ticks$/.exec(line)[1]) < 600) bad++;
  }
} catch (e) {
  console.error(`check: ${e.message}`);
  bad++;
} finally {
  await run?.close();
  await server.close();
}
process.exit(bad === 0 ? 0 : 1);
