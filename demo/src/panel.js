// panel.js - parts of the demo's side panel: the native peer's verdict line
// and stateDiff (peer.js), and the per-system timing bars.
import { peerVerdict } from './peer.js';
import { diffTable, esc } from './diff_view.js';

const $ = (id) => document.getElementById(id);

/** The native peer part of the page's status() (test hook). */
export function peerStatus(s, peerDiffOf) {
  const p = s.peer ?? null;
  const v = peerVerdict(p);
  if (p === null) return { state: 'none', text: v.text };
  const d = p.divergedAt !== null ? peerDiffOf(s) : null;
  return {
    state: p.state, text: v.text, matchedThrough: p.matchedThrough, lastAnswered: p.lastAnswered, divergedAt: p.divergedAt,
    mismatch: p.mismatch, diffTick: d?.tick ?? null, diffPageTick: d?.pageTick ?? null, diffItems: d ? d.items.length : 0, diffTotal: d ? d.total : 0,
  };
}

/** The native peer's verdict line and, after a divergence, its stateDiff. */
export function updatePeerPanel(s, ps, peerDiffOf) {
  const v = $('peer-verdict');
  const kind = ps.state === 'none' ? 'pending' : peerVerdict(s.peer).kind;
  v.className = `verdict peer ${kind}`;
  v.textContent = ps.text;
  const d = $('peer-diff');
  if (s.peer?.mismatch) {
    const m = s.peer.mismatch;
    let html = `<div>tick ${m.tick}: wasm ${m.wasm ?? '(none)'} ≠ native peer ${m.native}</div>`;
    const diff = peerDiffOf(s);
    if (diff) {
      const at = diff.pageTick === diff.tick ? `tick ${diff.tick}` : `tick ${diff.pageTick} (this page) and ${diff.tick} (native peer)`;
      html += `<div>stateDiff at ${at} (this page = A, native peer = B): ${diff.total} item(s)</div>`;
      html += diffTable(diff);
    } else {
      html += '<div>fetching the native peer\'s state…</div>';
    }
    d.hidden = false;
    d.innerHTML = html;
  } else {
    d.hidden = true;
  }
}

/** Per system: last / p50 / p99 ms of its timing window as bars against its budget. */
export function updateSystems(s) {
  const el = $('systems');
  if (s.kind !== 'live') { el.textContent = '(C++ scenario: timings are inside sim.runScenario)'; return; }
  const w = s.built.world;
  let html = '';
  for (const info of w.systems()) {
    const st = w.systemTimingStats(info.id);
    const win = w.systemTimingWindow(info.id);
    const b = info.budgetMs || 1;
    const pct = (v) => `${Math.min(100, (v / b) * 100).toFixed(1)}%`;
    html += `<div class="row"><span>${esc(info.name)}</span><div class="bar">`
      + `<span class="p99" style="width:${pct(win.p99)}"></span><span class="p50" style="width:${pct(win.p50)}"></span>`
      + `<span class="last" style="width:${pct(st.lastMs)}"></span></div>`
      + `<span class="mono">${st.lastMs.toFixed(3)} / ${win.p50.toFixed(3)} / ${win.p99.toFixed(3)} of ${b}</span></div>`;
  }
  el.innerHTML = html;
}

