// desync_view.js - the netplay view's desync report (docs/demo.md#netplay-view,
// docs/desync.md#worked-example-the-demo): the "perturb peer 1" button, what
// it armed, and, once a peer's session hands its report to onDesync
// (netplay.js), the first differing tick and system, every differing item
// (entity, component.field, the value here and there) and what the
// exchange cost. netplay_view.js calls updateDesyncPanel with the status;
// match mode (match_view.js) calls updateMatchDesyncPanel: the same report,
// of this page's player against the match server's state.
import { esc } from './diff_view.js';

const $ = (id) => document.getElementById(id);
/** The report box's last HTML (rewritten only when it changes: a selection in it survives the redraws). */
let shown = '';

/** Wires the perturb button once; `current()` is the live Netplay or null. */
export function wireDesync(current) {
  $('np-perturb').addEventListener('click', () => {
    const np = current();
    if (np === null) return;
    np.perturb(1);
    updateDesyncPanel(np.status());
  });
}

/** One line on what `p` (status().perturbed) changed, or ''. */
export function perturbNote(p) {
  if (p === null) return '';
  const who = p.who ?? `peer ${p.peer}`;
  if (p.how === 'system') {
    return `${who}: ${p.system} flips bit ${p.bit} of ${p.component}.${p.field} of ${p.entity ?? `the entity in slot ${p.slot}`} at tick ${p.tick}`
      + (p.entity === null ? ' (armed)' : '');
  }
  return p.tick === null
    ? `${who}: ${p.component} of one entity changes between two ticks, once ${who} confirmed its current tick`
    : `${who}'s world perturbed after its tick ${p.tick}: ${p.component} of ${p.entity} (between two ticks)`;
}

const num = (n) => n.toLocaleString('en-US');

/** The differing bits of two integer values as hex, or '' (other values). */
function xorOf(a, b) {
  return Number.isInteger(a) && Number.isInteger(b) ? `0x${((a ^ b) >>> 0).toString(16)}` : '';
}

/** Who side A (here) and side B (there) of report `r` are: the two peers, or a player and the match server (r.there). */
const sides = (r) => ({ here: r.here ?? `peer ${r.peer}`, there: r.there ?? `peer ${1 - r.peer}` });

function itemRows(r) {
  const { here, there } = sides(r);
  let html = `<table class="np-desync-items"><tr><th>entity</th><th>component.field</th><th>here (${esc(here)})</th><th>there (${esc(there)})</th><th>xor</th></tr>`;
  for (const it of r.items) {
    const where = it.field === null ? it.component : `${it.component}.${it.field}`;
    const a = it.presentInA ? it.valueA ?? '-' : '(absent)';
    const b = it.presentInB ? it.valueB ?? '-' : '(absent)';
    html += `<tr class="np-desync-item"><td>${esc(it.entityText)}</td><td>${esc(where)}</td>`
      + `<td class="a">${esc(a)}</td><td class="b">${esc(b)}</td><td>${esc(xorOf(it.valueA, it.valueB))}</td></tr>`;
  }
  if (r.differences > r.items.length) html += `<tr><td colspan="5">… ${r.differences - r.items.length} more</td></tr>`;
  return `${html}</table>`;
}

const systemText = (r) => (r.firstSystem === null ? 'none (the checkpoints agree)' : `<b>${esc(r.firstSystem)}</b> (position ${r.firstSystemPosition})`);
const timeText = (r) => (r.verdictMs === undefined
  ? `${r.netTicks} network ticks (${r.ms.toFixed(1)} ms) after the detection`
  : `${r.verdictMs.toFixed(1)} ms after the server's verdict (${r.ms.toFixed(1)} ms after the session pinned the tick)`);

/** One peer's report in full. */
function reportHtml(r) {
  const x = r.exchange;
  const { here, there } = sides(r);
  return `<div class="np-desync-head">desync report of ${esc(here)} (here) against ${esc(there)} (there)</div>`
    + `<div>first differing tick <b>${r.tick}</b> · first differing system ${systemText(r)} · ${r.differences} difference(s)</div>`
    + itemRows(r)
    + `<div>exchange: sent ${x.messagesSent} messages (${num(x.bytesSent)} bytes), received ${x.messagesReceived} (${num(x.bytesReceived)} bytes:`
    + ` ${x.hashesReceived} hashes, ${num(x.leafBytesReceived)} leaf bytes) · ${timeText(r)}</div>`;
}

/** The report box of `st` (Netplay.status()): nothing until a peer detects a difference. */
export function updateDesyncPanel(st) {
  const d = st.desync;
  $('np-perturb').disabled = st.perturbed !== null;
  $('np-perturbed').textContent = perturbNote(st.perturbed);
  const box = $('np-desync');
  const found = d.detected.some((x) => x !== null) || d.errors.length > 0;
  box.hidden = !found;
  if (!found) {
    shown = '';
    return;
  }
  const [first, second] = d.reports[0] !== null ? [d.reports[0], d.reports[1]] : [d.reports[1], d.reports[0]];
  let html = '';
  if (first === null) {
    const [p, at] = d.detected[0] !== null ? [0, d.detected[0]] : [1, d.detected[1]];
    if (at !== null) html += `<div>peer ${p} found the first differing checksum at tick <b>${at.tick}</b> (network tick ${at.at}): asking peer ${1 - p}…</div>`;
  } else {
    html += reportHtml(first);
    if (second !== null) {
      html += `<div class="np-desync-other">peer ${second.peer}'s own report: tick ${second.tick}, ${systemText(second)}, `
        + `${second.differences} difference(s), ${timeText(second)}</div>`;
    }
  }
  for (const e of d.errors) html += `<div class="np-desync-error">peer ${e.peer}: the exchange refused: ${esc(e.reason)} (${esc(e.message)})</div>`;
  if (html !== shown) {
    box.innerHTML = html;
    shown = html;
  }
}

/**
 * Match mode's report box (match_view.js): `st` is OnlineMatch.status() -
 * its `desync` (the server's verdict, the investigation's state, this
 * player's report against the server's state, refusals) and `perturbed`.
 */
export function updateMatchDesyncPanel(st) {
  const d = st.desync;
  $('np-perturb').disabled = st.perturbed !== null || st.role !== 'player' || st.current === 0;
  $('np-perturbed').textContent = perturbNote(st.perturbed);
  const box = $('np-desync');
  const found = d.verdictTick !== null || d.errors.length > 0;
  box.hidden = !found;
  if (!found) {
    shown = '';
    return;
  }
  let html = '';
  if (d.report !== null) html += reportHtml(d.report);
  else if (d.verdictTick !== null) {
    html += `<div>the server's verdict: DESYNC at tick <b>${d.verdictTick}</b>; `
      + (d.opened ? 'the server pinned that tick of its own run: walking its state…' : d.closed === null ? 'waiting for the server…' : `no investigation (${esc(d.closed)})`)
      + '</div>';
  }
  for (const e of d.errors) html += `<div class="np-desync-error">the exchange refused: ${esc(e.reason)} (${esc(e.message)})</div>`;
  if (html !== shown) {
    box.innerHTML = html;
    shown = html;
  }
}
