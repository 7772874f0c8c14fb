// match_desync_checks.mjs - the e2e check of the server-led desync report in
// match mode (demo/src/match_online.js, match_view.js, desync_view.js;
// docs/netplay-protocol.md#desync-reports): "perturb this player" on player
// 1's page (the tab that took over the dropped slot, whose rollback session
// started mid-match: its session ticks are match ticks minus its base) changes
// one component of one entity between two ticks (the match runs the core's
// `input` scenario: C++ systems, no bit flip at a chosen tick). The server's
// verdict of the next tick is DESYNC, it opens its investigation, the page's
// session walks the server's pinned state, and the report names that tick,
// the schedule's first system, the changed entity and field; its checksums
// are the page's own confirmed hash of that tick and player 0's (an
// independent copy of the authoritative state). Player 0 plays on with the
// server's ok. The pages are stepped through the test hook (no waits on time).

const MORE = 60;

/** Runs player 1's perturbation to its report; `play(pages, target)` and `st(page)` are match_checks.mjs's. */
export async function serverLedReport(pages, expect, { play, st }) {
  const [a, b] = pages;
  const before = await st(b);
  const armed = await b.evaluate(() => window.__demo.match().perturb());
  expect(armed?.how === 'between ticks' && armed.peer === 1 && before.base > 0,
    `perturb this player: player 1 (its session started at match tick ${before.base}) arms a change of ${armed?.component} between two ticks`);
  // Step until the page's report arrives (or the investigation was refused or closed).
  let s1 = before;
  for (let k = 0; k < 100 && s1.desync.report === null && s1.desync.errors.length === 0 && s1.desync.closed === null; k++) {
    await play(pages, s1.confirmed + 4);
    s1 = await b.waitForFunction(() => { const s = window.__demo.match().status(); return s.desync.report !== null || s.desync.verdictTick === null || s.desync.closed !== null ? s : null; },
      { timeout: 10_000, polling: 20 }).then((h) => h.jsonValue()).catch(() => st(b));
  }
  const p = s1.perturbed;
  const r = s1.desync.report;
  expect(p.tick !== null && s1.desync.verdictTick === p.tick + 1 && s1.desync.opened && s1.desync.errors.length === 0,
    `player 1 changed ${p.component} of ${p.entity} after match tick ${p.tick}; the server's verdict: DESYNC at tick ${s1.desync.verdictTick}, `
    + `investigation ${s1.desync.opened ? 'opened' : `not opened (${s1.desync.closed})`}${s1.desync.errors.length ? `; refused: ${JSON.stringify(s1.desync.errors)}` : ''}`);
  if (r === null) {
    expect(false, `player 1's report arrived (status: ${JSON.stringify(s1.desync)})`);
    return;
  }
  const field = await b.evaluate((c) => window.__demo.match().online.built.world.component(c).fields[0].name, p.component);
  const it = r.items.find((x) => x.component === p.component && x.entityText === p.entity);
  expect(r.tick === p.tick + 1 && r.sessionTick === r.tick - before.base && r.firstSystemPosition === 0 && r.firstSystem !== null,
    `player 1's report: first differing tick ${r.tick} (its session tick ${r.sessionTick}), first system ${r.firstSystem} (position ${r.firstSystemPosition}), ${r.differences} difference(s)`);
  expect(it !== undefined && it.field === field && it.valueA !== it.valueB,
    `player 1's report: ${it ? `${it.entityText} ${it.component}.${it.field}: ${it.valueA} here, ${it.valueB} on the server` : `no item of ${p.entity} ${p.component}`} (the changed field: ${field})`);
  // The two checksums: the page's own confirmed hash of the tick, and the honest player 0's.
  const s0 = await st(a);
  const mine = s1.hashes[r.tick];
  const honest = s0.hashes[r.tick];
  expect(r.checksumA === mine && r.checksumB === honest && mine !== honest,
    `the report's checksums: ${r.checksumA} here (the page's confirmed hash ${mine}), ${r.checksumB} on the server (player 0's ${honest})`);
  expect(r.exchange.messagesSent >= 5 && r.exchange.messagesReceived === r.exchange.messagesSent && r.exchange.bytesReceived > 0,
    `the exchange: ${r.exchange.messagesSent} requests (${r.exchange.bytesSent} B) sent, ${r.exchange.messagesReceived} answers (${r.exchange.bytesReceived} B); `
    + `report ${r.verdictMs.toFixed(1)} ms after the verdict, ${r.ms.toFixed(1)} ms after the pin`);
  // What the page shows.
  const wantText = [`first differing tick ${r.tick}`, `first differing system ${r.firstSystem}`, p.entity, `${p.component}.${field}`, String(it?.valueA), String(it?.valueB), 'the match server'];
  await b.waitForFunction((parts) => { const t = document.getElementById('np-desync').textContent; return parts.every((x) => t.includes(x)); },
    { timeout: 5000, polling: 50 }, wantText).catch(() => {});
  const shown = await b.evaluate(() => ({ text: document.getElementById('np-desync').textContent, hidden: document.getElementById('np-desync').hidden,
    button: document.getElementById('np-perturb').textContent, visible: document.getElementById('np-perturb').offsetParent !== null }));
  const missing = wantText.filter((x) => !shown.text.includes(x));
  expect(!shown.hidden && missing.length === 0 && shown.button === 'perturb this player' && shown.visible,
    `the match view shows the report and the "${shown.button}" button${missing.length ? `; missing: ${missing.join(', ')}` : ''}`);
  // The honest player plays on: every confirmed hash still gets the server's ok.
  const from = s0.confirmed;
  const played = await play(pages, from + MORE);
  const end = Math.min(...played.map((x) => x.confirmed));
  await a.waitForFunction((t) => { const s = window.__demo.match().status(); return s.okThrough >= t || s.desyncs > 0; }, { timeout: 30_000, polling: 50 }, end).catch(() => {});
  const a2 = await st(a);
  expect(end >= from + MORE && a2.desyncs === 0 && a2.okThrough >= end,
    `after the report: player 0 confirms ${from} -> ${end} with the server's ok (through ${a2.okThrough}, ${a2.desyncs} desyncs)`);
  return r;
}
