// match_checks.mjs - the e2e check of the netplay view through the match
// server (demo/src/match_online.js, match_view.js; demo/match_relay.mjs and
// `laige-peer --serve` behind the page server's /match): two pages of the
// same browser play one match of the `input` scenario, each under its own
// rollback session, reporting every confirmed hash; the server answers `ok`
// for each (no desync) and both pages' confirmed hashes are equal. Then the
// "join late" button of the first page opens a third page, a spectator: it
// restores the server's kept snapshot, runs the confirmed tail, and its
// hashes equal the server's lines, the server's verdicts and the players'.
// A player's page taking over a dropped slot then plays on, and its
// "perturb this player" gets the server-led desync report
// (match_desync_checks.mjs). The pages are stepped through the test hook
// (no real-time wait).

import { MATCH_SERVER_OPTIONS } from './harness.mjs';
import { serverLedReport } from './match_desync_checks.mjs';

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

/**
 * Player 1's tab closes: its slot is away, the match goes on with its empty
 * input (broadcast by the server), and past the reconnect window (the
 * harness's `--reconnect-ticks`, MATCH_SERVER_OPTIONS) it is
 * dropped (docs/netplay-protocol.md#the-reconnect-rule). A new tab opened
 * with the second player's link then joins as player 1 from the server's
 * snapshot and plays on: every confirmed hash of both players gets the
 * server's ok and both pages agree.
 */
async function dropAndTakeOver(browser, pages, log, expect) {
  const secondUrl = await pages[0].evaluate(() => window.__demo.match().secondPlayerUrl());
  await pages[1].close();
  const alone = [pages[0]];
  let s0 = await st(pages[0]);
  const droppedBy = s0.confirmed + MATCH_SERVER_OPTIONS.reconnectTicks + 40;
  for (let k = 0; k < 200 && !s0.events.some((e) => /^player 1 dropped/.test(e)); k++) {
    s0 = (await play(alone, Math.min(droppedBy, s0.confirmed + 16)))[0];
  }
  const droppedAt = s0.events.find((e) => /^player 1 dropped/.test(e));
  expect(droppedAt !== undefined && s0.desyncs === 0,
    `drop: player 1's tab closed, player 0 alone confirms tick ${s0.confirmed} with the server's empty input for slot 1 ("${droppedAt ?? s0.events.join(' | ')}", ${s0.desyncs} desyncs)`);
  const taker = await openMatchPage(await browser.newPage(), secondUrl, log);
  pages[1] = taker;
  await taker.waitForFunction(() => { const s = window.__demo.match().status(); return s.player !== null || s.state === 'error'; }, { timeout: 30_000, polling: 50 });
  const t0 = await st(taker);
  expect(t0.role === 'player' && t0.player === 1 && t0.snapshotTick !== null && t0.snapshotTick > 0,
    `take over: a new tab joins as player ${t0.player} of the running match from the snapshot of tick ${t0.snapshotTick} (${t0.snapshotBytes} B), state ${t0.state}${t0.error ? ` (${t0.error})` : ''}`);
  const from = (await st(pages[0])).confirmed;
  const played = await play(pages.slice(0, 2), from + MORE);
  const end = Math.min(...played.map((x) => x.confirmed));
  for (const p of pages.slice(0, 2)) {
    await p.waitForFunction((t) => { const s = window.__demo.match().status(); return s.okThrough >= t || s.desyncs > 0; },
      { timeout: 30_000, polling: 50 }, end).catch(() => {});
  }
  const [a, b] = await Promise.all(pages.slice(0, 2).map(st));
  expect(end >= from + MORE && a.desyncs === 0 && b.desyncs === 0 && a.okThrough >= end && b.okThrough >= end,
    `take over: both players confirm ${from} -> ${end} with the server's ok (through ${a.okThrough} / ${b.okThrough}, ${a.desyncs + b.desyncs} desyncs)`);
  const ab = sameHashes(a, b);
  expect(ab.differAt === null && ab.common >= 50, `take over: the new player 1's confirmed hashes equal player 0's (${ab.common} ticks compared)`);
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
    // The server confirms a tick before a player learns it did: its snapshot may be past `at`, never past `end`.
    expect(c.role === 'spectator' && c.snapshotTick > 0 && c.snapshotTick % 64 === 0 && c.snapshotTick <= end && c.tailTicks >= 1,
      `late spectator: joined from the server's snapshot of tick ${c.snapshotTick} (${c.snapshotBytes} B) + ${c.tailTicks} confirmed ticks (in sync after ${c.syncedMs?.toFixed(0)} ms)`);
    expect(c.lineMismatchAt === null && c.desyncs === 0 && c.okThrough >= end && c.verdicts >= end - c.snapshotTick,
      `late spectator: every tick's hash equals the server's line and verdict, through tick ${c.okThrough} (${c.verdicts} ok, ${c.desyncs} desyncs)`);
    const ac = sameHashes(a2, c);
    expect(ac.differAt === null && ac.common >= 50, `late spectator: its hashes equal player 0's (${ac.common} ticks compared)`);
    await dropAndTakeOver(browser, pages, log, expect);
    // "perturb this player" on the new player 1 (a session started mid-match): the server-led report.
    await serverLedReport(pages.slice(0, 2), expect, { play, st });
  } catch (e) {
    expect(false, `match server e2e: ${e.stack ?? e.message}`);
  } finally {
    for (const p of pages) await p.close().catch(() => {});
  }
}
