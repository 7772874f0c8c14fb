// match_checks.mjs - the e2e check of the netplay view through the match
// server (demo/src/match_online.js, match_view.js; demo/match_relay.mjs and
// `laige-peer --serve` behind the page server's /match): two pages of the
// same browser play one match of the `input` scenario, each under its own
// rollback session, reporting every confirmed hash; the server answers `ok`
// for each (no desync) and both pages' confirmed hashes are equal. Then the
// "join late" button of the first page opens a third page, a spectator: it
// restores the server's kept snapshot, runs the confirmed tail, and its
// hashes equal the server's lines, the server's verdicts and the players'.
// The pages are stepped through the test hook (no real-time wait).

const TICKS = 300;
const MORE = 120;

const st = (page) => page.evaluate(() => window.__demo.match()?.status() ?? null);

async function openMatchPage(page, url, log) {
  page.on('pageerror', (e) => log(`pageerror: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') log(`console: ${m.text()}`); });
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForFunction(() => (window.__demo && window.__demo.match() !== null) || window.__demoError, { timeout: 60_000, polling: 50 });
  await page.evaluate(() => window.__demo.setPaused(true));
  return page;
}

/** Steps both players `n` ticks at a time until both confirmed `target` (each waits at its prediction limit for the other). */
async function play(pages, target) {
  for (let k = 0; k < 400; k++) {
    const s = await Promise.all(pages.map((p) => p.evaluate(() => window.__demo.match().tick(8))));
    if (s.every((x) => x.confirmed >= target)) return s;
    if (s.some((x) => x.state === 'error')) return s;
  }
  return Promise.all(pages.map(st));
}

/** Pages `a` and `b` agree on every confirmed tick both still keep. */
function sameHashes(a, b) {
  let common = 0;
  for (const [t, h] of Object.entries(a.hashes)) {
    if (b.hashes[t] === undefined) continue;
    if (b.hashes[t] !== h) return { common, differAt: Number(t) };
    common++;
  }
  return { common, differAt: null };
}

export async function matchThroughServer(browser, url, expect, name, log = console.error) {
  const id = `e2e-${name}-${process.pid}`;
  const base = `${url}?fast=1&view=match&scenario=input&match=${id}`;
  const pages = [];
  try {
    pages.push(await openMatchPage(await browser.newPage(), `${base}&role=create`, log));
    await pages[0].waitForFunction(() => window.__demo.match().status().player === 0, { timeout: 30_000, polling: 50 });
    const second = await pages[0].evaluate(() => window.__demo.match().secondPlayerUrl());
    pages.push(await openMatchPage(await browser.newPage(), second, log));
    await pages[1].waitForFunction(() => window.__demo.match().status().started, { timeout: 30_000, polling: 50 });
    const played = await play(pages, TICKS);
    // The server's verdicts arrive over the sockets after the last report.
    for (const p of pages) {
      await p.waitForFunction((t) => { const s = window.__demo.match().status(); return s.okThrough >= t || s.desyncs > 0; },
        { timeout: 30_000, polling: 50 }, TICKS).catch(() => {});
    }
    const [a, b] = await Promise.all(pages.map(st));
    expect(a.player === 0 && b.player === 1 && played.every((s) => s.confirmed >= TICKS),
      `match server: two pages play match ${id} (players ${a.player} and ${b.player}, confirmed ${a.confirmed} / ${b.confirmed}, rollbacks ${a.rollbacks} / ${b.rollbacks})`);
    expect(a.desyncs === 0 && b.desyncs === 0 && a.okThrough >= TICKS && b.okThrough >= TICKS && a.verdicts >= TICKS && b.verdicts >= TICKS,
      `match server: every confirmed hash gets the server's ok (through tick ${a.okThrough} / ${b.okThrough}, ${a.verdicts} / ${b.verdicts} verdicts, ${a.desyncs + b.desyncs} desyncs)`);
    const ab = sameHashes(a, b);
    expect(ab.differAt === null && ab.common >= 100, `match server: both pages' confirmed hashes are equal (${ab.common} ticks compared)`);
    const shown = await pages[0].$eval('#verdict', (e) => e.textContent);
    expect(/^match server: confirmed hashes agree through tick \d+/.test(shown), `the page shows "${shown}"`);

    // "join late": the button opens a spectator of the same match in a new tab.
    const lateUrl = await pages[0].evaluate(() => window.__demo.match().lateJoinUrl());
    const popup = browser.waitForTarget((t) => t.url() === lateUrl, { timeout: 15_000 }).catch(() => null);
    await pages[0].bringToFront();
    await pages[0].click('#np-join-late');
    const target = await popup;
    let late = target === null ? null : await target.page();
    expect(late !== null, `the "join late" button opens ${lateUrl.replace(url, '')} in a new tab`);
    if (late === null) pages.push(late = await openMatchPage(await browser.newPage(), lateUrl, log));
    else {
      pages.push(late);
      late.on('pageerror', (e) => log(`pageerror: ${e.message}`));
      await late.waitForFunction(() => (window.__demo && window.__demo.match() !== null) || window.__demoError, { timeout: 60_000, polling: 50 });
    }
    await late.waitForFunction(() => { const s = window.__demo.match().status(); return s.snapshotTick !== null || s.state === 'error'; }, { timeout: 30_000, polling: 50 });
    const at = await st(pages[0]);
    await play(pages.slice(0, 2), at.confirmed + MORE);
    const end = Math.min(...(await Promise.all(pages.slice(0, 2).map(st))).map((s) => s.confirmed));
    await late.waitForFunction((t) => { const s = window.__demo.match().status(); return (s.okThrough >= t && s.confirmed >= t) || s.desyncs > 0 || s.lineMismatchAt !== null; },
      { timeout: 30_000, polling: 50 }, end).catch(() => {});
    const [a2, , c] = await Promise.all(pages.map(st));
    expect(c.role === 'spectator' && c.snapshotTick > 0 && c.snapshotTick <= at.confirmed && c.tailTicks >= 1,
      `late spectator: joined from the server's snapshot of tick ${c.snapshotTick} (${c.snapshotBytes} B) + ${c.tailTicks} confirmed ticks (in sync after ${c.syncedMs?.toFixed(0)} ms)`);
    expect(c.lineMismatchAt === null && c.desyncs === 0 && c.okThrough >= end && c.verdicts >= end - c.snapshotTick,
      `late spectator: every tick's hash equals the server's line and verdict, through tick ${c.okThrough} (${c.verdicts} ok, ${c.desyncs} desyncs)`);
    const ac = sameHashes(a2, c);
    expect(ac.differAt === null && ac.common >= MORE, `late spectator: its hashes equal player 0's (${ac.common} ticks compared)`);
  } catch (e) {
    expect(false, `match server e2e: ${e.stack ?? e.message}`);
  } finally {
    for (const p of pages) await p.close().catch(() => {});
  }
}
