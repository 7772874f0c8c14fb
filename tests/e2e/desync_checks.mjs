// desync_checks.mjs - the e2e checks of the netplay view's desync report
// (demo/src/desync_view.js, docs/desync.md#worked-example-the-demo): the two
// peers send each other their confirmed checksums and desync messages over
// the simulated network's reliable channel; peer 1's OrbGravity system of
// ts-orbits flips one bit of OrbVel.x of one entity at one tick; both peers'
// reports must name that tick, that system, that entity and that field,
// with the two values one bit apart, and equal the report Node computes on
// its own: two ts-orbits worlds run to that tick under @laige/sim in this
// process, one of them with the same flip (World.desyncReport). The core's
// scenarios (swarm: a change between two ticks) report too.
import { formatEntity, loadLaige } from '@laige/sim/scenarios';
import { liveScenarios } from '../../demo/src/scenarios.js';

/** The divergence the check injects: peer 1, ts-orbits, OrbGravity, OrbVel.x of the entity in slot 300, bit 4 at tick 151. */
export const DEMO_FAULT = { scenario: 'ts-orbits', tick: 151, slot: 300, bit: 4, system: 'OrbGravity', component: 'OrbVel', field: 'x' };

const hex = (h) => h.toString(16).padStart(16, '0');
let nodeSim = null;

/**
 * The expected report, from Node: two worlds of the scenario run `tick`
 * ticks with per-system checkpoints on, the second with the flip armed;
 * their World.desyncReport, side A the unperturbed world.
 */
export async function expectedReport(f = DEMO_FAULT) {
  nodeSim ??= await loadLaige();
  const spec = liveScenarios[f.scenario];
  const [a, b] = [spec.build(nodeSim, spec.seed), spec.build(nodeSim, spec.seed)];
  b.fault.arm({ tick: f.tick, slot: f.slot, bit: f.bit });
  try {
    for (const w of [a.world, b.world]) {
      w.systemCheckpoints = true;
      nodeSim.createGameLoop(w, { tickRateHz: 60 }).step(f.tick);
    }
    const r = a.world.desyncReport(b.world, 64);
    // The flipped entity: the one in the slot (every slot of ts-orbits is live at every tick).
    let entity = null;
    a.world.each([a.world.component(f.component)], ['read'], (e) => { if (e >>> 16 === f.slot) entity = e; });
    return {
      tick: Number(r.tick), firstSystem: r.firstSystem, firstSystemPosition: r.firstSystemPosition, differences: r.differences,
      checksumA: hex(a.world.stateHash(f.tick)), checksumB: hex(b.world.stateHash(f.tick)), entity: entity === null ? null : formatEntity(entity),
      items: r.items.map((it) => ({ entity: formatEntity(it.entityA ?? it.entityB), component: it.component, field: it.field, valueA: it.valueA, valueB: it.valueB })),
    };
  } finally {
    a.world.dispose();
    b.world.dispose();
  }
}

const key = (it) => `${it.entity} ${it.component}.${it.field}`;
const itemText = (it) => `${key(it)} ${JSON.stringify(it.valueA)} vs ${JSON.stringify(it.valueB)}`;
/** A page report's items in the form of expectedReport's, sorted; `swap`: peer 1's (its A side is the perturbed one). */
const itemsOf = (r, swap) => r.items.map((it) => ({ entity: it.entityText, component: it.component, field: it.field, valueA: swap ? it.valueB : it.valueA, valueB: swap ? it.valueA : it.valueB }))
  .sort((x, y) => key(x).localeCompare(key(y)));

/** Opens the netplay view of `f.scenario`, perturbs peer 1 with `f`, runs until both peers reported (or `limit` network ticks). */
async function runToReports(page, f, net, limit) {
  return page.evaluate((f, net, limit) => {
    const np = window.__demo.netplay;
    np.open(f.scenario, net);
    np.tick(100);
    const armed = np.perturb(1, f.tick === undefined ? {} : { tick: f.tick, slot: f.slot, bit: f.bit });
    let s = np.status();
    for (let n = 0; n < limit && s.desync.reports.some((r) => r === null) && s.desync.errors.length === 0; n += 10) s = np.tick(10);
    return { armed: JSON.parse(JSON.stringify(armed)), s };
  }, f, net, limit);
}

/**
 * ts-orbits with the flip at a known tick, slot and bit on peer 1: both
 * reports and the view name what Node computes; the agreement check says
 * DISAGREE at that tick.
 */
export async function desyncReportNamesTheFlip(page, expect, log = () => {}) {
  const f = DEMO_FAULT;
  const want = await expectedReport(f);
  const mask = 1 << f.bit;
  const vel = want.items.find((it) => it.component === f.component && it.field === f.field);
  expect(want.tick === f.tick && want.firstSystem === f.system && vel !== undefined && vel.entity === want.entity && (vel.valueA ^ vel.valueB) === mask,
    `Node's own report of the flip: tick ${want.tick}, system ${want.firstSystem} (position ${want.firstSystemPosition}), ${want.items.map(itemText).join('; ')}`);
  const { armed, s } = await runToReports(page, f, { latency: 6, jitter: 3, loss: 0.1 }, 600);
  expect(armed?.how === 'system' && armed.tick === f.tick && armed.system === f.system && armed.bit === f.bit,
    `perturb peer 1 armed: ${armed?.system} flips bit ${armed?.bit} of ${armed?.component}.${armed?.field}, slot ${armed?.slot}, at tick ${armed?.tick}`);
  expect(s.desync.errors.length === 0, `no refusal from the exchange (${JSON.stringify(s.desync.errors)})`);
  expect(s.disagreeAt === f.tick && s.perturbed.entity === want.entity,
    `the agreement check: DISAGREE at tick ${s.disagreeAt}; peer 1 flipped ${s.perturbed.entity}`);
  const wantItems = [...want.items].sort((x, y) => key(x).localeCompare(key(y)));
  for (const r of s.desync.reports) {
    if (r === null) {
      expect(false, `a peer's report arrived (reports: ${JSON.stringify(s.desync.reports.map((x) => x !== null))}, detected ${JSON.stringify(s.desync.detected)})`);
      continue;
    }
    const got = itemsOf(r, r.peer === 1);
    const gotVel = got.find((it) => it.component === f.component && it.field === f.field);
    const [mine, theirs] = r.peer === 0 ? [want.checksumA, want.checksumB] : [want.checksumB, want.checksumA];
    expect(r.tick === f.tick && r.firstSystem === f.system && r.firstSystemPosition === want.firstSystemPosition,
      `peer ${r.peer}'s report: first differing tick ${r.tick}, first differing system ${r.firstSystem} (position ${r.firstSystemPosition})`);
    expect(gotVel !== undefined && gotVel.entity === want.entity && gotVel.valueA === vel.valueA && gotVel.valueB === vel.valueB && (gotVel.valueA ^ gotVel.valueB) === mask,
      `peer ${r.peer}'s report: ${gotVel ? itemText(gotVel) : 'no OrbVel.x item'} (unperturbed vs perturbed; xor ${mask})`);
    expect(JSON.stringify(got) === JSON.stringify(wantItems) && r.differences === want.differences && r.checksumA === mine && r.checksumB === theirs,
      `peer ${r.peer}'s report equals Node's: ${r.differences} difference(s), checksums ${r.checksumA} here / ${r.checksumB} there`);
    expect(r.exchange.messagesSent > 0 && r.exchange.bytesReceived > 0 && r.netTicks > 0,
      `peer ${r.peer}: ${r.exchange.messagesSent} messages (${r.exchange.bytesSent} bytes) sent, ${r.exchange.messagesReceived} (${r.exchange.bytesReceived} bytes) received; `
      + `report ${r.netTicks} network ticks, ${r.ms.toFixed(1)} ms after the detection`);
    log(`desync report peer ${r.peer}: ${r.netTicks} network ticks, ${r.ms.toFixed(1)} ms`);
  }
  // What the page shows (the panel is redrawn within a frame).
  const vals = [String(vel.valueA), String(vel.valueB)];
  const wantText = [`first differing tick ${f.tick}`, `first differing system ${f.system} (position ${want.firstSystemPosition})`, want.entity, `${f.component}.${f.field}`, ...vals];
  await page.waitForFunction((parts) => { const t = document.getElementById('np-desync').textContent; return parts.every((p) => t.includes(p)); },
    { timeout: 5000, polling: 50 }, wantText).catch(() => {});
  const shown = await page.evaluate(() => ({ text: document.getElementById('np-desync').textContent, hidden: document.getElementById('np-desync').hidden,
    rows: document.querySelectorAll('#np-desync .np-desync-item').length }));
  const missing = wantText.filter((p) => !shown.text.includes(p));
  expect(!shown.hidden && missing.length === 0 && shown.rows === Math.min(want.items.length, 16),
    `the view shows the report (${shown.rows} item rows)${missing.length ? `; missing: ${missing.join(', ')}` : ''}`);
}

/**
 * The core's swarm (C++ systems): perturb peer 1 changes SwarmVel between
 * two ticks once peer 1's current tick is confirmed; both peers report the
 * next tick, the first system of the schedule and the changed entity's SwarmVel.
 */
export async function desyncReportBetweenTicks(page, expect) {
  const { armed, s } = await runToReports(page, { scenario: 'swarm' }, { latency: 6, jitter: 3, loss: 0 }, 400);
  const p = s.perturbed;
  expect(armed?.how === 'between ticks' && p.tick !== null && s.disagreeAt === p.tick + 1 && s.desync.errors.length === 0,
    `swarm: peer 1 changed ${p.component} of ${p.entity} after its tick ${p.tick}; DISAGREE at tick ${s.disagreeAt}${s.desync.errors.length ? `; refused: ${JSON.stringify(s.desync.errors)}` : ''}`);
  for (const r of s.desync.reports) {
    const it = r?.items.find((x) => x.component === p.component);
    expect(r !== null && r.tick === p.tick + 1 && r.firstSystemPosition === 0 && it !== undefined && it.entityText === p.entity,
      `swarm: peer ${r?.peer}'s report: tick ${r?.tick}, first system ${r?.firstSystem} (position ${r?.firstSystemPosition}), ${r?.differences} difference(s), `
      + `${it ? `${it.entityText} ${it.component}.${it.field} ${it.valueA} vs ${it.valueB}` : 'no item of the changed component'}`);
  }
}
