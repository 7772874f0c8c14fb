// netplay_checks.mjs - the e2e checks of the demo's netplay view
// (demo/src/netplay.js): two in-page peers under rollback sessions over the
// simulated network. With latency 6 ticks and jitter, both peers' confirmed
// hashes agree for 600 confirmed ticks of swarm steered by scripted
// pointers on both canvases, at least one rollback happened, and the native
// peer fed the confirmed payloads answers the same hashes; every other
// scenario (the C++ ones and ts-orbits) agrees too, with packet loss.

const netStatus = (page) => page.evaluate(() => window.__demo.netplay.status());

/** Runs network ticks until both peers confirmed `ticks`; scripted pointers on both canvases. */
async function runNetplay(page, name, net, ticks) {
  await page.evaluate((n, settings, target) => {
    const np = window.__demo.netplay;
    np.open(n, settings);
    for (let k = 0; np.status().peers.some((p) => p.confirmed < target) && k < 400; k++) {
      const peer = k % 2;
      np.setPointer(peer, k % 3 === 2 ? null : [((k * 37) % 120) - 60, ((k * 53) % 110) - 55]);
      np.tick(10);
    }
    np.setPointer(0, null);
    np.setPointer(1, null);
  }, name, net, ticks);
  // The native peer answers asynchronously (over the WebSocket).
  await page.waitForFunction((target) => {
    const s = window.__demo.netplay.status();
    const waiting = s.native.state === 'connecting' || s.native.state === 'open';
    return !waiting || s.native.divergedAt !== null || s.native.matchedThrough >= target;
  }, { timeout: 60_000, polling: 50 }, ticks).catch(() => {});
  return netStatus(page);
}

export async function netplayAgrees(page, expect) {
  const s = await runNetplay(page, 'swarm', { latency: 6, jitter: 3, loss: 0 }, 600);
  const [a, b] = s.peers;
  expect(s.net.latency === 6 && s.net.jitter === 3, `netplay: latency ${s.net.latency} ticks, jitter 0..${s.net.jitter} ticks (${s.net.sent} packets)`);
  expect(a.confirmed >= 600 && b.confirmed >= 600 && s.agreedThrough >= 600 && s.disagreeAt === null,
    `netplay swarm: both peers' confirmed hashes agree through tick ${s.agreedThrough} (confirmed ${a.confirmed} / ${b.confirmed}, current ${a.current} / ${b.current})`);
  expect(a.rollbacks + b.rollbacks >= 1 && Math.max(a.deepestRollback, b.deepestRollback) >= 1,
    `netplay swarm: rollbacks ${a.rollbacks} / ${b.rollbacks}, deepest ${a.deepestRollback} / ${b.deepestRollback} ticks, ${a.resimulatedTicks + b.resimulatedTicks} ticks re-simulated`);
  expect(s.native.state === 'open' && s.native.matchedThrough >= 600 && s.native.divergedAt === null,
    `netplay swarm: ${s.native.text} (the confirmed payloads, natively)`);
  await page.waitForFunction(() => /^netplay: confirmed hashes agree through tick \d+$/.test(document.getElementById('verdict').textContent), { timeout: 5000, polling: 50 }).catch(() => {});
  const shown = await page.$eval('#verdict', (e) => e.textContent);
  expect(/^netplay: confirmed hashes agree through tick \d+$/.test(shown), `the page shows "${shown}"`);
}

/**
 * Perturbing peer 1's world (swarm: a change between two ticks, made once
 * peer 1's current tick is confirmed): the agreement check and the native
 * peer check both report the next tick.
 */
export async function netplayDetectsPerturb(page, expect) {
  await page.evaluate(() => {
    const np = window.__demo.netplay;
    np.open('swarm', { latency: 6, jitter: 3, loss: 0 });
    np.tick(100);
    np.perturb(1);
    np.tick(60);
  });
  await page.waitForFunction(() => window.__demo.netplay.status().native.divergedAt !== null, { timeout: 30_000, polling: 50 }).catch(() => {});
  const s = await netStatus(page);
  const p = s.perturbed;
  expect(p !== null && p.tick !== null && s.disagreeAt === p.tick + 1,
    `netplay: perturbing peer 1 after its tick ${p?.tick} gives DISAGREE at tick ${s.disagreeAt}`);
  const [n0, n1] = s.native.perPeer ?? [{}, {}];
  expect(n0.divergedAt === null && n1.divergedAt === s.disagreeAt, `netplay: ${s.native.text} (the native peer agrees with the unperturbed peer 0)`);
}

export async function netplayEveryScenario(page, expect, names) {
  for (const name of names) {
    const s = await runNetplay(page, name, { latency: 4, jitter: 4, loss: 0.15 }, 150);
    const nativeOk = s.native.state === 'none' ? name.startsWith('ts-') : s.native.matchedThrough >= 150 && s.native.divergedAt === null;
    expect(s.agreedThrough >= 150 && s.disagreeAt === null && nativeOk,
      `netplay ${name} (15% loss): agree through tick ${s.agreedThrough}, rollbacks ${s.peers[0].rollbacks} / ${s.peers[1].rollbacks}, ${s.native.text}`);
  }
}
