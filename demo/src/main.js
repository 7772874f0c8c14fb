// main.js - the @laige/sim browser demo: every C++ scenario of the core
// (cpp/scenarios: swarm, stress, float, input, ...) live in wasm through
// sim.openScenario (its C++ systems read each tick's input payload, e.g.
// swarm's pointer attractor), and the TypeScript-systems scenario
// (ts-orbits); both driven by sim.createGameLoop(...).frame(now) inside
// requestAnimationFrame at a fixed 60 Hz tick with render interpolation. The
// loop's `input` callback supplies (and records) each tick's payload, its
// `onTick` callback checks every tick's wasm stateHash against the golden
// stream (tests/golden, written by native laige-detcheck of the same commit)
// and sends its input payload to the live native peer (peer.js: laige-peer
// behind demo/serve.mjs), which answers the native hash of the same tick.
//
// URL parameters: ?scenario=<name> picks the first scenario; ?fast=1 steps
// the loop as fast as the page can (GameLoop.step, no real-time wait) - what
// the e2e test and `scripts/run.sh --check` use; ?view=netplay opens the
// netplay view; ?view=match&match=<id>&role=create|player|spectator plays
// through the match server (match_view.js); ?counterBase=N starts its network tick and packet counters
// at N (what hours of netplay would show: the e2e layout check). window.__demo
// is the test hook (select, status, perturb, runTicks).
import { loadLaige, formatEntity } from '@laige/sim/scenarios';
import { attractorPayload, liveScenarios } from './scenarios.js';
import { nativeBuild } from './native.js';
import { drawFrameGraph, drawWorld } from './canvas.js';
import { SpriteTable } from './sprites.js';
import { openSessionPeer, sendTickToPeer, sessionPeerDiff } from './session_peer.js';
import { loadGolden } from './golden.js';
import { diffTable, esc } from './diff_view.js';
import { peerStatus, updatePeerPanel, updateSystems } from './panel.js';
import { downloadBundle, sessionReplay } from './replay.js';
import { Netplay } from './netplay.js';
import { networkSettings, setNetworkSliders, showNetplay, updateNetplayPanel, wireNetplay } from './netplay_view.js';
import { attachInspector, detachInspector, recordInspectorTick, refreshInspector } from './inspector_panel.js';
import { createMatchUrl, openMatchView } from './match_view.js';

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const TICK_HZ = 60;
/** Ticks one frame may catch up (more are dropped: the view slows down, the stream does not change). */
const MAX_CATCH_UP = 5;
const GOLDEN_TICKS = 600;
/** Ticks fast mode may run ahead of the native peer's answers. */
const PEER_WINDOW = 120;
/** Where the netplay view's network counters start (?counterBase=N; 0 by default). */
const COUNTER_BASE = Math.max(0, Math.floor(Number(params.get('counterBase') ?? 0)) || 0);

let sim = null;
let session = null;
let fast = params.get('fast') === '1';
let paused = false;
let speed = 1;
const events = [];
const frameTimes = [];
/** Per frame (aligned with frameTimes): the rollback re-simulation ms of the netplay view's peers. */
const resimTimes = [];
/** The netplay view's Netplay while it is shown, else null; its tick accumulator (ms). */
let netplay = null;
let netplayAcc = 0;
/** This page's member of a match on the match server (?view=match), else null. */
let online = null;
let lastFrameAt = 0;
let lastPanelAt = 0;

function fatal(message) {
  const f = $('fatal');
  f.hidden = false;
  f.textContent = message;
  setVerdict('error', 'ERROR');
  window.__demoError = message;
}

function setVerdict(kind, text) {
  const v = $('verdict');
  v.className = `verdict ${kind}`;
  v.textContent = text;
}

const hex = (h) => h.toString(16).padStart(16, '0');

// ------------------------------------------------------------------ sessions

/**
 * The GameLoop of a built scenario: over its ScenarioRun (C++ scenarios) or
 * its World (TypeScript ones). `input(tick)` is the tick's payload
 * (undefined: the scenario's own generated input), `onTick(tick)` runs after
 * every tick.
 */
function createLoop(built, input, onTick) {
  return sim.createGameLoop(built.run ?? built.world, {
    tickRateHz: TICK_HZ, maxCatchUpTicks: MAX_CATCH_UP, input: built.run ? input : undefined, onTick,
  });
}

/** How a scenario is built: a C++ scenario of the core (openScenario) or a TypeScript one (scenarios.js). */
function specOf(name) {
  const info = sim.scenarios().find((s) => s.name === name);
  if (info !== undefined) {
    return { seed: info.defaultSeed, native: true, build: (m, seed) => nativeBuild(m, name, seed) };
  }
  return liveScenarios[name];
}

function disposeSession() {
  if (session === null) return;
  detachInspector();
  session.peer?.close();
  for (const w of [session.built?.world, session.shadow?.built.world]) {
    try { w?.dispose(); } catch { /* already gone */ }
  }
  session = null;
}

async function select(name) {
  disposeSession();
  const my = { name, loading: true };
  session = my;
  $('diff').hidden = true;
  $('replay-help').hidden = true;
  $('events').textContent = '';
  events.length = 0;
  setVerdict('pending', `loading ${name}…`);
  // A TypeScript port of a core scenario is checked against that scenario's native golden.
  const golden = await loadGolden(liveScenarios[name]?.golden ?? name);
  if (session !== my) return;
  my.golden = golden.hashes ?? null;
  my.goldenError = golden.error ?? null;
  my.checked = 0;
  my.divergedAt = null;
  my.mismatch = null;
  my.perturb = null;
  my.diff = null;
  my.lastHash = null;
  const spec = specOf(name);
  if (spec !== undefined) {
    my.kind = 'live';
    my.native = !!spec.native;
    my.seed = spec.seed;
    my.built = spec.build(sim, spec.seed);
    my.loop = createLoop(my.built, (tick) => tickInput(my, tick), (tick) => afterTick(my, tick));
    my.simNow = 0;
    my.lastTickAt = 0;
    my.sprites = new SpriteTable(); // filled by render()
    // Every tick's explicit input payload (the pointer; undefined = the
    // scenario's own generator, the golden's input) for the replay.
    my.payloads = [undefined];
    my.hashes = [];
    my.pointer = null;
    my.inputSince = null;
    if (my.built.textOnly) {
      $('canvas').style.visibility = 'hidden';
      $('noview').hidden = false;
      $('noview').textContent = `${name}: C++ systems (cpp/scenarios) live in wasm (sim.openScenario + createGameLoop); no position-like component to draw. Components:\n${my.built.summary()}`;
    } else {
      $('noview').hidden = true;
      $('canvas').style.visibility = 'visible';
    }
    $('perturb').disabled = false;
    $('replay').disabled = !!spec.tsOnly; // laige-replay knows the core's scenarios only
    checkTick(my, 0);
    my.peer = my.native ? openSessionPeer(my, () => { if (session === my) updatePanel(true); }) : null;
    my.peerDiff = null;
    attachInspector(sim, my, payloadOf);
  } else {
    // Fallback for a name neither the core nor scenarios.js builds live:
    // its stream from sim.runScenario, checked tick by tick, no view.
    my.kind = 'stream';
    $('canvas').style.visibility = 'hidden';
    $('noview').hidden = false;
    $('noview').textContent = `${name}: no live view; its stream (sim.runScenario) is checked tick by tick against the native golden.`;
    $('perturb').disabled = true;
    $('replay').disabled = true;
    my.streamTick = 0;
    my.stream = sim.runScenario(name, { ticks: GOLDEN_TICKS }).hashes.map(hex);
    my.info = sim.scenarios().find((s) => s.name === name);
    checkStreamTick(my);
  }
  my.loading = false;
  updatePanel(true);
}

function compare(s, t, h) {
  s.lastHash = h;
  if (s.hashes) s.hashes[t] = h;
  // After pointer input the golden (the generator's input) no longer applies:
  // the session is checked natively by replaying its recorded input.
  if (s.inputSince != null && t >= s.inputSince) return false;
  if (s.golden !== null && t < s.golden.length) {
    s.checked++;
    if (h !== s.golden[t] && s.divergedAt === null) {
      s.divergedAt = t;
      s.mismatch = { tick: t, wasm: h, golden: s.golden[t] };
      return true;
    }
  }
  return false;
}

function checkStreamTick(s) {
  compare(s, s.streamTick, s.stream[s.streamTick]);
}

function checkTick(s, t) {
  const h = hex(s.built.world.stateHash(t));
  let diverged = compare(s, t, h);
  if (s.shadow) {
    const sh = s.shadow;
    while (sh.loop.currentTick < t) sh.loop.step(1);
    const ref = hex(sh.built.world.stateHash(t));
    if (s.golden === null || t >= s.golden.length) {
      // Beyond the golden stream: the unperturbed shadow world is the reference.
      if (h !== ref && s.divergedAt === null) {
        s.divergedAt = t;
        s.mismatch = { tick: t, wasm: h, golden: ref, vs: 'shadow' };
        diverged = true;
      }
    }
    if (diverged) {
      s.diff = s.built.world.stateDiff(sh.built.world, 24);
      s.diffTick = t;
    }
  }
}

/** The loop's `input`: while the pointer is down its position (an attractor) is the tick's payload, else the generator's. */
function tickInput(s, tick) {
  if (s.pointer === null) {
    s.payloads[tick] = undefined;
    return undefined;
  }
  if (s.inputSince === null) s.inputSince = tick;
  const p = attractorPayload(s.pointer[0], s.pointer[1]);
  s.payloads[tick] = p;
  return p;
}

/** The loop's `onTick`: every tick's hash against the golden (and the shadow); its payload to the native peer. */
function afterTick(s, tick) {
  s.lastTickAt = s.simNow;
  checkTick(s, tick);
  recordInspectorTick(s, tick);
  if (s.peer) sendTickToPeer(s, tick);
}

const peerDiffOf = (s) => sessionPeerDiff(s, sim);

/** The payload tick t ran with (the recorded pointer, else the generator's), or undefined. */
function payloadOf(s, t) {
  return t < 1 ? undefined : s.payloads[t] ?? s.built.generatedInput?.(t);
}

/** Runs n ticks now (test hook and the step button). */
function runTicks(n) {
  const s = session;
  if (s === null || s.loading) return 0;
  if (s.kind === 'stream') {
    let k = 0;
    while (k < n && s.streamTick < s.stream.length - 1) { s.streamTick++; checkStreamTick(s); k++; }
    updatePanel(true);
    return k;
  }
  s.loop.step(n);
  updatePanel(true);
  return n;
}

// ----------------------------------------------------------------- perturb

function perturb() {
  const s = session;
  if (s === null || s.kind !== 'live' || s.perturb !== null) return null;
  const t = s.loop.currentTick;
  // The shadow: the same scenario, unperturbed, brought to the same tick.
  const spec = specOf(s.name);
  const built = spec.build(sim, spec.seed);
  const loop = createLoop(built, (tick) => s.payloads[tick], undefined);
  loop.step(t);
  s.shadow = { built, loop };
  // One component of one entity: the first entity that has it.
  const { component, change } = s.built.perturbTarget;
  let target = null;
  s.built.world.each([component], ['read'], (e) => { if (target === null) target = e; });
  const before = s.built.world.get(target, component);
  const after = change(before);
  s.built.world.add(target, component, after);
  s.perturb = { tick: t, entity: target, component: component.name, before, after, expectTick: t + 1 };
  s.diff = null;
  updatePanel(true);
  return { ...s.perturb, entity: formatEntity(target) };
}

// ------------------------------------------------------------------ replay

function replayBundle() {
  const s = session;
  if (s === null || s.kind !== 'live') return null;
  return sessionReplay(sim, s, specOf(s.name), (t) => payloadOf(s, t), TICK_HZ);
}

function downloadReplay() {
  const b = replayBundle();
  if (b === null) return;
  downloadBundle(b);
  $('replay-help').hidden = false;
  $('replay-help').textContent = `${b.ticks} ticks recorded${b.perturbed ? ' (the perturbation is not input: the replay is the unperturbed run)' : ''}. Reproduce natively:\n`
    + `build/native-release/laige-replay --log ${b.name}-session.lgrp --config ${b.name}-session.json --expect ${b.name}-session.hashes.txt`;
}

function setPointer(p) {
  const s = session;
  if (s === null || s.kind !== 'live' || !s.built.acceptsPointer) return;
  s.pointer = p === null ? null : [Math.round(p[0] * 65536), Math.round(p[1] * 65536)];
}

function canvasPointer(ev) {
  const s = session;
  if (s === null || s.kind !== 'live' || !s.built.acceptsPointer) return;
  if ((ev.buttons & 1) === 0) { setPointer(null); return; }
  const c = $('canvas');
  const r = c.getBoundingClientRect();
  const { x0, y0, size } = s.built.extent;
  const x = x0 + ((ev.clientX - r.left) / r.width) * size;
  const y = y0 + (1 - (ev.clientY - r.top) / r.height) * size;
  setPointer([x, y]);
}

// ------------------------------------------------------------------ render

function render(s, nowMs) {
  if (s === null || s.kind !== 'live' || s.built.textOnly) {
    drawWorld($('canvas'), null);
    return;
  }
  const t = s.loop.currentTick;
  // The sprite table follows the world: only what was added, removed or changed since its last tick is written.
  if (s.built.feed !== undefined) s.sprites.follow(s.built, t); // the scenario's change feed
  else s.sprites.sync(s.built, t); // value compare (C++ scenarios: docs/changes.md#render-sync)
  // The loop's alpha: the fraction of a tick its clock was past the last tick at this frame.
  const alpha = fast || paused ? 1 : s.loop.alpha;
  drawWorld($('canvas'), {
    extent: s.built.extent, sprites: s.sprites, alpha,
    attractor: s.built.attractorOf?.(payloadOf(s, t)) ?? null,
    perturbed: s.perturb ? s.perturb.entity : null,
  });
}

// ------------------------------------------------------------------- panel

function currentTick(s) {
  return s.kind === 'live' ? s.loop.currentTick : s.streamTick;
}

function status() {
  const s = session;
  if (s === null || s.loading) return { ready: false, error: window.__demoError ?? null };
  const tick = currentTick(s);
  let verdict;
  if (s.divergedAt !== null) verdict = 'DIVERGED';
  else if (s.golden === null) verdict = 'NO GOLDEN';
  else verdict = 'MATCH';
  return {
    ready: true, scenario: s.name, kind: s.kind, native: !!s.native, tick, checked: s.checked, verdict, divergedAt: s.divergedAt,
    entities: s.kind === 'live' ? s.built.world.entityCount : null,
    spritesUpdated: s.kind === 'live' ? s.sprites.updated : null, spritesUpdatedTotal: s.kind === 'live' ? s.sprites.updatedTotal : null,
    goldenTicks: s.golden ? s.golden.length - 1 : 0, goldenError: s.goldenError,
    perturbTick: s.perturb?.tick ?? null, expectTick: s.perturb?.expectTick ?? null,
    diffItems: s.diff ? s.diff.items.length : 0, diffTotal: s.diff ? s.diff.total : 0,
    inputSince: s.inputSince ?? null, lastHash: s.lastHash,
    peer: peerStatus(s, peerDiffOf),
    error: window.__demoError ?? null,
  };
}

function updatePanel(force) {
  const s = session;
  if (s === null || s.loading) return;
  const now = performance.now();
  if (!force && now - lastPanelAt < 100) return;
  lastPanelAt = now;
  const st = status();
  $('s-tick').textContent = st.tick;
  $('s-entities').textContent = st.entities ?? (s.info ? `capacity ${s.info.capacity}` : '-');
  $('s-sprites').textContent = st.spritesUpdated === null ? '-' : `${st.spritesUpdated} (of ${s.sprites.sprites.size} sprites)`;
  $('s-checked').textContent = s.golden ? `${s.checked} of ${s.golden.length} (ticks 0..${s.golden.length - 1})` : '0 (no golden)';
  $('s-hash').textContent = s.lastHash ?? '-';
  $('s-golden').textContent = s.golden && st.tick < s.golden.length ? s.golden[st.tick] : (s.golden ? '(past the golden stream)' : '-');
  $('s-mode').textContent = s.kind === 'live'
    ? (s.native
      ? `C++ scenario live in wasm (sim.openScenario; golden: native laige-detcheck), ${fast ? 'fast (GameLoop.step)' : `GameLoop.frame in rAF, ${TICK_HZ} Hz × ${speed}`}${paused ? ', paused' : ''}`
      : `TypeScript systems on the wasm core${liveScenarios[s.name]?.golden ? ` (a port of the core's ${liveScenarios[s.name].golden}: golden from native laige-detcheck)` : liveScenarios[s.name]?.tsOnly ? ' (TypeScript-only scenario: golden computed under Node at build time)' : ''}, ${fast ? 'fast (GameLoop.step)' : `GameLoop.frame in rAF, ${TICK_HZ} Hz × ${speed}`}${paused ? ', paused' : ''}`)
    : 'C++ scenario in wasm (sim.runScenario)';
  if (s.divergedAt !== null) {
    setVerdict('diverged', `DIVERGED at tick ${s.divergedAt}`);
  } else if (s.inputSince != null) {
    setVerdict('match', `MATCH ${Math.min(s.inputSince - 1, st.goldenTicks)} ticks, then pointer input from tick ${s.inputSince} (golden no longer applies: ${s.peer?.live ? 'the native peer checks it live' : 'check it natively: download replay'})`);
  } else if (s.goldenError) {
    setVerdict('error', s.goldenError);
  } else {
    const past = st.tick > st.goldenTicks ? ` (golden ends at ${st.goldenTicks}; later ticks unchecked)` : '';
    setVerdict('match', `MATCH ${Math.min(st.tick, st.goldenTicks)} ticks${past}`);
  }
  const d = $('diff');
  if (s.perturb) {
    d.hidden = false;
    const p = s.perturb;
    let html = `<div>perturbed ${esc(formatEntity(p.entity))} ${esc(p.component)} after tick ${p.tick}: `
      + `${esc(JSON.stringify(p.before))} → ${esc(JSON.stringify(p.after))}; expected divergence at tick ${p.expectTick}</div>`;
    if (s.mismatch) {
      html += `<div>tick ${s.mismatch.tick}: wasm ${s.mismatch.wasm} ≠ ${s.mismatch.vs === 'shadow' ? 'unperturbed shadow' : 'native golden'} ${s.mismatch.golden}</div>`;
    }
    if (s.diff) {
      html += `<div>stateDiff at tick ${s.diffTick} (this world = A, unperturbed shadow = B): ${s.diff.total} item(s)</div>`;
      html += diffTable(s.diff);
    }
    d.innerHTML = html;
  } else if (s.mismatch) {
    d.hidden = false;
    d.textContent = `tick ${s.mismatch.tick}: wasm ${s.mismatch.wasm} ≠ native golden ${s.mismatch.golden}`;
  } else {
    d.hidden = true;
  }
  updatePeerPanel(s, st.peer, peerDiffOf);
  updateSystems(s);
  drawFrameGraph($('frames'), frameTimes, resimTimes);
  $('events').textContent = events.slice(-12).join('\n');
  refreshInspector(force);
}

// -------------------------------------------------------------------- loop

function frame(now) {
  requestAnimationFrame(frame);
  if (lastFrameAt !== 0) {
    frameTimes.push(now - lastFrameAt);
    resimTimes.push(netplay?.takeResimMs() ?? 0);
    if (frameTimes.length > 300) { frameTimes.shift(); resimTimes.shift(); }
  }
  const dt = lastFrameAt === 0 ? 0 : now - lastFrameAt;
  lastFrameAt = now;
  if (netplay !== null) { netplayFrame(dt, now); return; }
  if (online !== null) { online.frame(dt, now, { fast, paused, speed }); return; }
  const s = session;
  if (s === null || s.loading) return;
  try {
    if (s.kind === 'live') {
      if (!paused) {
        if (fast) {
          // As fast as the page can, but at most PEER_WINDOW ticks ahead of
          // the native peer's answers (it checks every tick, not a sample).
          const until = performance.now() + 12;
          while (performance.now() < until && (s.peer === null || s.peer.backlog() < PEER_WINDOW)) s.loop.step(1);
        } else {
          // Speed scales the time handed to the loop; a long stall counts as
          // 250 ms. The ticks' hashes are checked in onTick (afterTick).
          s.simNow += Math.min(dt, 250) * speed;
          s.loop.frame(s.simNow);
        }
      }
      render(s, s.simNow);
    } else if (!paused) {
      const n = fast ? 600 : Math.max(1, Math.round(speed));
      for (let i = 0; i < n && s.streamTick < s.stream.length - 1; i++) { s.streamTick++; checkStreamTick(s); }
    }
    updatePanel(false);
  } catch (e) {
    paused = true;
    fatal(`The simulation stopped with an error: ${e.message}`);
  }
}

// ----------------------------------------------------------------- netplay

/** The netplay view's frame: network ticks at 60 Hz x speed (fast: as many as fit, native peer permitting). */
function netplayFrame(dt, now) {
  const np = netplay;
  try {
    if (!paused) {
      if (fast) {
        const until = performance.now() + 12;
        while (performance.now() < until && np.backlog() < PEER_WINDOW) np.tick();
      } else {
        netplayAcc += Math.min(dt, 250) * speed;
        let n = 0;
        for (; netplayAcc >= 1000 / TICK_HZ && n < MAX_CATCH_UP; n++) { np.tick(); netplayAcc -= 1000 / TICK_HZ; }
        if (n === MAX_CATCH_UP) netplayAcc = 0;
      }
    }
    np.render([$('np-canvas-0'), $('np-canvas-1')]);
    if (now - lastPanelAt >= 100) {
      lastPanelAt = now;
      updateNetplayPanel(np.status());
      updateSystems({ kind: 'live', built: np.peers[0].built });
      drawFrameGraph($('frames'), frameTimes, resimTimes);
    }
  } catch (e) {
    paused = true;
    fatal(`The netplay view stopped with an error: ${e.message}`);
  }
}

/** Shows the netplay view of scenario `name` (the single view's session ends). */
function openNetplay(name) {
  disposeSession();
  netplay?.dispose();
  netplay = null;
  netplay = new Netplay(sim, name, specOf(name), { counterBase: COUNTER_BASE });
  netplay.setNetwork(networkSettings());
  netplayAcc = 0;
  showNetplay(true);
  updateNetplayPanel(netplay.status());
  return netplay;
}

function closeNetplay() {
  netplay?.dispose();
  netplay = null;
  showNetplay(false);
  return select($('scenario').value);
}

// ------------------------------------------------------------------- start

async function start() {
  if (window.__laigeUnsupported) return;
  try {
    // A heap sized for every scenario and the netplay view at once, so that it
    // never grows while the page runs (docs/typescript.md#loading).
    sim = await loadLaige({ initialMemoryBytes: 96 * 1024 * 1024 });
  } catch (e) {
    fatal(`Could not load the WebAssembly module (@laige/sim): ${e && e.message ? e.message : e}`);
    return;
  }
  sim.onLog((r) => {
    if (r.severity === 'warn' || r.severity === 'error' || /budget/.test(r.event)) {
      if (/read_before_write/.test(r.event)) return;
      events.push(`[${session?.loop?.currentTick ?? '-'}] ${r.severity} ${r.subsystem}/${r.event} ${Object.entries(r.fields).map(([k, v]) => `${k}=${v}`).join(' ')}`);
      if (events.length > 200) events.shift();
    }
  });
  // The core's scenarios, then those that exist only in TypeScript (their
  // golden is the stream Node computed during the build).
  const names = sim.scenarios().map((s) => s.name);
  for (const [n, spec] of Object.entries(liveScenarios)) if (spec.tsOnly && !names.includes(n)) names.push(n);
  const sel = $('scenario');
  for (const n of names) {
    const o = document.createElement('option');
    o.value = n;
    const ts = liveScenarios[n];
    o.textContent = ts?.golden ? `${n} (TypeScript, native golden)` : ts?.tsOnly ? `${n} (TypeScript systems, golden from Node)` : `${n} (C++ in wasm)`;
    sel.append(o);
  }
  const first = names.includes(params.get('scenario')) ? params.get('scenario') : 'swarm';
  sel.value = first;
  sel.addEventListener('change', () => { paused = false; if (netplay !== null) openNetplay(sel.value); else select(sel.value); });
  $('mode').addEventListener('click', () => (netplay !== null ? closeNetplay() : openNetplay(sel.value)));
  wireNetplay(() => netplay);
  $('pause').addEventListener('click', () => { paused = !paused; $('pause').textContent = paused ? 'resume' : 'pause'; });
  $('step').addEventListener('click', () => { paused = true; $('pause').textContent = 'resume'; if (netplay !== null) netplay.tick(); else if (online !== null) online.tick(1); else runTicks(1); });
  $('np-online').addEventListener('click', () => { location.href = createMatchUrl(sim.scenarios().some((x) => x.name === sel.value) ? sel.value : 'input'); });
  $('speed').addEventListener('change', () => { speed = Number($('speed').value); });
  $('perturb').addEventListener('click', () => (netplay !== null ? netplay.perturb(1) : perturb()));
  $('reset').addEventListener('click', () => select(sel.value));
  $('replay').addEventListener('click', () => downloadReplay());
  const c = $('canvas');
  c.addEventListener('pointerdown', (ev) => { c.setPointerCapture(ev.pointerId); canvasPointer(ev); });
  c.addEventListener('pointermove', canvasPointer);
  c.addEventListener('pointerup', () => setPointer(null));
  c.addEventListener('pointercancel', () => setPointer(null));
  window.__demo = {
    scenarios: () => names,
    select: (n, opts = {}) => { sel.value = n; paused = !!opts.paused; $('pause').textContent = paused ? 'resume' : 'pause'; return select(n); },
    status, perturb, runTicks, setPointer,
    /** The page's stateHash of tick t of the current session (hex), or null. */
    hashAt: (t) => session?.hashes?.[t] ?? null,
    replayBundle: () => {
      const b = replayBundle();
      if (b === null) return null;
      let bin = '';
      for (const x of b.bytes) bin += String.fromCharCode(x);
      return { ...b, bytes: btoa(bin) };
    },
    /** The netplay view: open(name, {latency, jitter, loss}), tick(n), setPointer(peer, [x, y] | null), perturb(peer, {tick, slot, bit}), status(), close(). */
    netplay: {
      open: (n, net = {}) => { sel.value = n; const np = openNetplay(n); setNetworkSliders(np, net); paused = true; $('pause').textContent = 'resume'; return np.status(); },
      tick: (n) => { for (let i = 0; i < n; i++) netplay.tick(); return netplay.status(); },
      setPointer: (i, p) => netplay.setPointer(i, p),
      perturb: (i, at) => netplay.perturb(i, at),
      setNetwork: (net) => setNetworkSliders(netplay, net),
      status: () => (netplay === null ? null : netplay.status()),
      close: () => closeNetplay(),
    },
    /** This page's member of a match (?view=match): status(), tick(n), lateJoinUrl(), secondPlayerUrl(). */
    match: () => online,
    setFast: (on) => { fast = !!on; },
    setPaused: (on) => { paused = !!on; },
  };
  if (params.get('view') === 'match') online = openMatchView(sim, params, (n, seed) => specOf(n).build(sim, seed));
  else if (params.get('view') === 'netplay') openNetplay(first);
  else await select(first);
  requestAnimationFrame(frame);
}

start().catch((e) => fatal(`The demo failed to start: ${e && e.message ? e.message : e}`));
