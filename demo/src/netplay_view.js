// netplay_view.js - the netplay view's page side: its canvases' pointers,
// the network sliders, the per-peer stats table and the two verdict lines
// (the peers' confirmed-hash agreement; the native peer's check of the
// confirmed ticks), and the desync report (desync_view.js). main.js
// switches between the single view and this one.
import { esc } from './diff_view.js';
import { updateDesyncPanel, wireDesync } from './desync_view.js';

const $ = (id) => document.getElementById(id);

/** Wires the netplay controls once; `current()` is the live Netplay or null. */
export function wireNetplay(current) {
  [0, 1].forEach((i) => {
    const c = $(`np-canvas-${i}`);
    const move = (ev) => { const np = current(); if (np) np.setPointer(i, np.pointerOf(i, ev, c)); };
    c.addEventListener('pointerdown', (ev) => { c.setPointerCapture(ev.pointerId); move(ev); });
    c.addEventListener('pointermove', move);
    c.addEventListener('pointerup', () => current()?.setPointer(i, null));
    c.addEventListener('pointercancel', () => current()?.setPointer(i, null));
  });
  for (const k of ['latency', 'jitter', 'loss']) {
    const el = $(`np-${k}`);
    el.addEventListener('input', () => current()?.setNetwork(networkSettings()));
  }
  wireDesync(current);
}

/** The sliders' settings (latency and jitter in ticks, loss as a probability). */
export function networkSettings() {
  const v = (k) => Number($(`np-${k}`).value);
  $('np-latency-v').textContent = v('latency');
  $('np-jitter-v').textContent = v('jitter');
  $('np-loss-v').textContent = v('loss');
  return { latency: v('latency'), jitter: v('jitter'), loss: v('loss') / 100 };
}

/** Moves the sliders (the test hook) and applies them. */
export function setNetworkSliders(np, settings) {
  for (const [k, x] of Object.entries(settings)) {
    const el = $(`np-${k}`);
    if (el) el.value = String(k === 'loss' ? Math.round(x * 100) : x);
  }
  np?.setNetwork(networkSettings());
}

/** Shows or hides the netplay view (the single view's own parts go the other way). */
export function showNetplay(on) {
  document.body.classList.toggle('netplay-mode', on);
  $('netplay').hidden = !on;
  $('mode').textContent = on ? 'single view' : 'netplay view';
}

function setBox(el, kind, text) {
  el.className = `verdict ${el.id === 'peer-verdict' ? 'peer ' : ''}${kind}`;
  el.textContent = text;
}

/** The verdict lines and the per-peer table of `st` (Netplay.status()). */
export function updateNetplayPanel(st) {
  if (st.disagreeAt !== null) setBox($('verdict'), 'diverged', `netplay: DISAGREE at tick ${st.disagreeAt}`);
  else setBox($('verdict'), 'match', `netplay: confirmed hashes agree through tick ${st.agreedThrough}`);
  setBox($('peer-verdict'), st.native.kind, st.native.text);
  const row = (label, f) => `<tr><th>${label}</th>${st.peers.map((p) => `<td>${esc(f(p))}</td>`).join('')}</tr>`;
  $('np-stats').innerHTML = '<tr><th></th><th>peer 0</th><th>peer 1</th></tr>'
    + row('current tick', (p) => p.current)
    + row('confirmed tick', (p) => p.confirmed)
    + row('rollbacks / s', (p) => p.rollbacksPerSec.toFixed(1))
    + row('rollbacks', (p) => p.rollbacks)
    + row('deepest rollback', (p) => `${p.deepestRollback} ticks`)
    + row('re-simulated ticks', (p) => p.resimulatedTicks)
    + row('waits (prediction limit)', (p) => p.stalls);
  // Grid cells in fixed columns: a counter wraps inside its own cell, never
  // widens the view (the spaces between cells only keep textContent readable).
  const cell = (label, v) => `<span>${label} <b>${esc(v)}</b></span>`;
  $('np-net').innerHTML = [
    cell('network tick', st.now), cell('packets sent', st.net.sent), cell('lost', st.net.lost),
    `<span class="np-note">inputs: ${esc(st.inputs)}</span>`,
  ].join(' ');
  updateDesyncPanel(st);
}
