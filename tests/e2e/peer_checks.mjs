// peer_checks.mjs - the e2e checks of the live native peer (demo/src/peer.js,
// demo/peer_server.mjs, laige-peer): MATCH for 600 ticks of swarm steered by
// scripted pointer input (past what any golden covers), DIVERGED at the tick
// after a perturbation with the peer's stateDiff on the page, the
// disconnected state when the peer process is killed mid-run, and the
// static-hosting state when there is no /peer endpoint.

const status = (page) => page.evaluate(() => window.__demo.status());

async function waitPeer(page, predicate, arg, timeout = 60_000) {
  await page.waitForFunction(predicate, { timeout, polling: 50 }, arg);
  return status(page);
}

/** 600 ticks of swarm with a scripted pointer; the native peer must answer MATCH through tick 600. */
export async function peerMatchesPointerSession(page, expect) {
  await page.evaluate(async () => {
    const d = window.__demo;
    await d.select('swarm', { paused: true });
    // A pointer path: pressed for 40 ticks, released for 10, a new spot each time.
    for (let k = 0; k < 12; k++) {
      d.setPointer([((k * 37) % 120) - 60, ((k * 53) % 110) - 55]);
      d.runTicks(40);
      d.setPointer(null);
      d.runTicks(10);
    }
  });
  const s = await waitPeer(page, () => { const p = window.__demo.status().peer; return p.matchedThrough >= 600 || p.divergedAt !== null || p.state === 'disconnected' || p.state === 'static'; });
  expect(s.inputSince === 1 && s.tick === 600 && s.peer.state === 'open' && s.peer.matchedThrough === 600 && s.peer.divergedAt === null,
    `${s.peer.text} (600 ticks of swarm, pointer input from tick ${s.inputSince}, state ${s.peer.state})`);
  // The panel refreshes at most every 100 ms.
  await page.waitForFunction(() => document.getElementById('peer-verdict').textContent === 'native peer: MATCH through tick 600', { timeout: 5000, polling: 50 }).catch(() => {});
  const shown = await page.$eval('#peer-verdict', (e) => e.textContent);
  expect(shown === 'native peer: MATCH through tick 600', `the page shows "${shown}"`);
}

/** After perturb (the caller perturbed after tick `perturbTick` and ran on): the peer check diverges at the next tick too. */
export async function peerDivergesAfterPerturb(page, expect, perturbTick) {
  const s = await waitPeer(page, () => { const p = window.__demo.status().peer; return (p.divergedAt !== null && p.diffItems > 0) || p.state === 'disconnected'; });
  expect(s.peer.divergedAt === perturbTick + 1, `${s.peer.text} (perturbed after tick ${perturbTick})`);
  const shown = (await page.$$('#peer-diff .diff-item')).length;
  expect(shown >= 1 && s.peer.diffItems >= 1, `the native peer's stateDiff at tick ${s.peer.diffTick}: ${shown} item(s) shown (total ${s.peer.diffTotal})`);
  expect(s.peer.diffTick === s.peer.divergedAt && s.peer.diffPageTick === s.peer.divergedAt,
    `the stateDiff compares both sides at the diverged tick (page ${s.peer.diffPageTick}, native peer ${s.peer.diffTick}, diverged ${s.peer.divergedAt})`);
  expect(/^native peer: DIVERGED at tick \d+$/.test(await page.$eval('#peer-verdict', (e) => e.textContent)), 'the page shows "native peer: DIVERGED at tick N"');
}

/** Kills the session's laige-peer process mid-run: the page shows "disconnected at tick N". */
export async function peerKilledMidRun(page, expect, server) {
  await page.evaluate(async () => {
    const d = window.__demo;
    await d.select('swarm', { paused: true });
    d.runTicks(50);
  });
  await waitPeer(page, () => window.__demo.status().peer.matchedThrough >= 50);
  const live = server.peer.peers().filter((p) => p.scenario === 'swarm');
  expect(live.length >= 1, `the server runs a laige-peer per page session (pids ${live.map((p) => p.pid).join(', ')})`);
  const pid = live.at(-1)?.pid;
  if (pid !== undefined) process.kill(pid, 'SIGKILL');
  const s = await waitPeer(page, () => window.__demo.status().peer.state === 'disconnected');
  const shown = await page.$eval('#peer-verdict', (e) => e.textContent);
  expect(s.peer.state === 'disconnected' && /^native peer: disconnected at tick 50 /.test(shown), `after kill -9 ${pid}: "${shown}"`);
  // The page keeps running and checking against the goldens.
  await page.evaluate(() => window.__demo.runTicks(10));
  const after = await status(page);
  expect(after.tick === 60 && after.verdict === 'MATCH', `the golden check goes on without the peer (tick ${after.tick}, ${after.verdict})`);
}

/** The page served without a /peer endpoint (static hosting) says so and checks against the goldens. */
export async function peerAbsentOnStaticHosting(page, expect, staticUrl) {
  await page.goto(`${staticUrl}?fast=1`, { waitUntil: 'load' });
  await page.waitForFunction(() => window.__demo && window.__demo.status().ready && window.__demo.status().peer.state === 'static', { timeout: 60_000, polling: 50 });
  await page.waitForFunction(() => window.__demo.status().tick >= 600, { timeout: 60_000, polling: 100 });
  const s = await status(page);
  const shown = await page.$eval('#peer-verdict', (e) => e.textContent);
  expect(shown === 'native peer: not running (static hosting) — checking against goldens' && s.verdict === 'MATCH' && s.checked >= 601,
    `static hosting: "${shown}", golden ${s.verdict} (${s.checked} hashes checked)`);
}
