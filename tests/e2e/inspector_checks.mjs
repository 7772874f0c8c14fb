// inspector_checks.mjs - the e2e check of the live inspector in the demo
// (demo/src/inspector_panel.js, '@laige/sim/inspector', docs/inspector.md):
// after 260 ticks of swarm with a scripted pointer, an entity is picked in
// the inspector's list and the slider is stepped back 100 ticks (its −100
// button); the values the page then shows must be the values a fresh native
// laige-peer run of the same input shows at that tick (its own inspector,
// after the same step lines). Then the inspector is switched to the
// session's native peer (the same WebSocket the page checks its hashes
// with) and must show the same values at that tick. Saves the screenshots
// of docs/inspector.md (chromium): docs/inspector-page.jpg and
// docs/inspector-native.jpg.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { findPeerBinary } from '../../demo/peer_server.mjs';

const TICKS = 260;
const BACK = 100;

/** The answers of a fresh laige-peer to `lines` (only the `inspect` ones), in order. */
function nativeAnswers(lines) {
  const bin = findPeerBinary();
  if (bin === null) return Promise.reject(new Error('laige-peer is not built'));
  return new Promise((resolve, reject) => {
    const child = spawn(bin, [], { stdio: ['pipe', 'pipe', 'ignore'] });
    const answers = [];
    const want = lines.filter((l) => l.startsWith('inspect ')).length;
    createInterface({ input: child.stdout }).on('line', (l) => {
      if (l.startsWith('inspect ')) answers.push(JSON.parse(l.slice(8)));
      if (l.startsWith('error ')) reject(new Error(`laige-peer refused a line: ${l}`));
      if (answers.length === want) { child.stdin.end(); resolve(answers); }
    });
    child.on('error', reject);
    child.stdin.write(`${lines.join('\n')}\n`);
  });
}

/** The value rows the inspector shows: [component.field, values text]. */
const shownRows = (page) => page.$$eval('#inspector [data-li=entity] tr[data-field]', (rows) => rows.map((r) => [r.dataset.field, r.cells[2].textContent]));

/** The same rows from an `entity` answer. */
function answerRows(a) {
  const rows = [];
  for (const c of a.components) {
    if (c.fields.length === 0) rows.push([c.name, '']);
    for (const f of c.fields) rows.push([`${c.name}.${f.name}`, f.values.join(', ')]);
  }
  return rows;
}

const waitView = (page, tick, handle) => page.waitForFunction((t, h) => {
  const v = window.__demoInspector.view();
  const head = document.querySelector('#inspector .li-entity-head')?.textContent ?? '';
  return v !== null && v.tick === t && v.selected === h && head.endsWith(`at tick ${t}`) && v.error === null;
}, { timeout: 30_000, polling: 50 }, tick, handle);

export async function inspectorScrubsToNative(page, expect, { screenshots = false } = {}) {
  const t0 = Date.now();
  // A session's peer closed while it is still connecting is a page error in Firefox: let it connect first.
  await page.waitForFunction(() => window.__demo.status().peer?.state !== 'connecting', { timeout: 30_000, polling: 50 });
  const lines = await page.evaluate(async (ticks) => {
    const d = window.__demo;
    await d.select('swarm', { paused: true });
    d.runTicks(90);
    d.setPointer([18, -24]);
    d.runTicks(70);
    d.setPointer(null);
    d.runTicks(ticks - 160);
    await window.__demoInspector.view().refresh();
    return window.__demoInspector.stepLines(ticks);
  }, TICKS);
  // Pick the 8th entity of the list, as a user would.
  await page.click('#inspector [data-li=entities] li:nth-child(8) button');
  const handle = await page.evaluate(() => window.__demoInspector.view().selected);
  await waitView(page, TICKS, handle);
  // Scrub back 100 ticks.
  await page.click('#inspector .li-bar button');
  await waitView(page, TICKS - BACK, handle);
  const shown = await shownRows(page);
  const [native] = await nativeAnswers(['open swarm', ...lines.slice(0, TICKS - BACK), `inspect 1 entity ${handle}`]);
  const want = answerRows(native);
  const same = JSON.stringify(shown) === JSON.stringify(want);
  expect(same && shown.length >= 8, `inspector: Entity ${handle} scrubbed back to tick ${TICKS - BACK} shows the native run's values (${shown.length} fields, e.g. ${shown[0]?.join(' = ')})${same ? '' : `: page ${JSON.stringify(shown)} vs native ${JSON.stringify(want)}`}`);
  const hash = await page.$eval('#inspector [data-li=hash]', (e) => e.textContent);
  const pageHash = await page.evaluate((t) => window.__demo.hashAt(t), TICKS - BACK);
  expect(hash === `hash ${pageHash}`, `inspector: the slider shows tick ${TICKS - BACK}'s state hash (${hash})`);
  if (screenshots) await (await page.$('#inspector-panel')).screenshot({ path: 'test-results/inspector-page.jpg', type: 'jpeg', quality: 80 });
  // The same tick through the session's native peer (it answered every tick first).
  await page.waitForFunction((t) => (window.__demo.status().peer?.lastAnswered ?? -1) >= t, { timeout: 30_000, polling: 50 }, TICKS);
  await page.evaluate(async (h, t) => {
    const v = window.__demoInspector.source('native');
    await v.select(h);
    await v.seek(t);
  }, handle, TICKS - BACK);
  await waitView(page, TICKS - BACK, handle);
  const viaPeer = await shownRows(page);
  expect(JSON.stringify(viaPeer) === JSON.stringify(want), `inspector: the native-peer source shows the same values at tick ${TICKS - BACK}`);
  if (screenshots) await (await page.$('#inspector-panel')).screenshot({ path: 'test-results/inspector-native.jpg', type: 'jpeg', quality: 80 });
  await page.evaluate(() => window.__demoInspector.source('page'));
  console.log(`     inspector checks: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}
