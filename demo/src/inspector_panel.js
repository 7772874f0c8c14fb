// inspector_panel.js - the demo's live inspector ('@laige/sim/inspector',
// docs/inspector.md): mounted under the view for every live session, over
// the page's own world (worldSource: the core's inspector in wasm) or over
// the session's native peer (remoteSource on the same WebSocket: laige-peer
// answers with the same core code natively). Its tick slider scrubs a
// KeyframeHistory the page keeps while it runs: a snapshot every 60 ticks,
// each tick's hash, and a scratch run of the same scenario that re-runs the
// recorded payloads from a keyframe (C++ scenarios; the TypeScript ones get
// the inspector without a history).
import { KeyframeHistory, mountInspector, remoteSource, worldSource } from '@laige/sim/inspector';

const $ = (id) => document.getElementById(id);
/** Keyframes every EVERY ticks, KEEP of them: the slider reaches 3,840 ticks back. */
const EVERY = 60;
const KEEP = 64;
let view = null;
let session = null;
let lastRefreshAt = 0;

/** The inspector's source for session `s`: 'page' (this world) or 'native' (its laige-peer). */
function sourceOf(s, kind) {
  if (kind === 'native' && s.peer) return remoteSource(s.peer.channel());
  return worldSource(s.built.world, s.history);
}

/** Mounts the inspector for session `s` (a live one), with a history for C++ scenarios. `payloadOf(s, t)`: tick t's payload. */
export function attachInspector(sim, s, payloadOf) {
  detachInspector();
  session = s;
  s.history = null;
  if (s.native) {
    const scratch = sim.openScenario(s.name, { seed: s.seed });
    s.inspectorScratch = scratch;
    s.history = new KeyframeHistory({
      live: s.built.world, scratch: scratch.world, every: EVERY, keep: KEEP, tick: 0,
      step: (t) => scratch.step(payloadOf(s, t)),
    });
  }
  view = mountInspector($('inspector'), sourceOf(s, $('inspector-source').value));
  return view;
}

/** Switches the source ('page' or 'native') of the current session's inspector. */
export function switchInspectorSource(kind) {
  if (session === null) return null;
  const selected = view?.selected ?? null;
  view?.dispose();
  view = mountInspector($('inspector'), sourceOf(session, kind));
  if (selected !== null) view.select(selected);
  return view;
}

/** After tick `tick` of session `s`: the history records it (with the hash the page computed). */
export function recordInspectorTick(s, tick) {
  s.history?.record(tick, s.hashes?.[tick]);
}

/** Re-reads the inspector at most 4 times a second (forced: now). */
export function refreshInspector(force = false) {
  const now = performance.now();
  if (view === null || (!force && now - lastRefreshAt < 250)) return;
  lastRefreshAt = now;
  view.refresh();
}

/** Unmounts the inspector and frees the session's scratch run. */
export function detachInspector() {
  view?.dispose();
  view = null;
  try { session?.inspectorScratch?.dispose(); } catch { /* already gone */ }
  session = null;
}

/** The native peer's step lines of the session's ticks 1..n (what it ran: the e2e test replays them natively). */
export function inspectorStepLines(n) {
  const hex = (b) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return Array.from({ length: n }, (_, i) => {
    const p = session === null ? undefined : session.payloads[i + 1];
    return `step ${i + 1} ${p === undefined ? '-' : p.length === 0 ? '.' : hex(p)}`;
  });
}

// The source picker, and the e2e test's hooks (beside main.js's window.__demo).
$('inspector-source')?.addEventListener('change', (ev) => switchInspectorSource(ev.target.value));
window.__demoInspector = {
  /** The mounted view, or null. */
  view: () => view,
  stepLines: inspectorStepLines,
  /** Switches the source ('page' or 'native') as the picker does; returns the new view. */
  source: (kind) => { $('inspector-source').value = kind; return switchInspectorSource(kind); },
};
