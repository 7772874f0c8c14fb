// match_view.js - the page side of the netplay view through the match server
// (match_online.js; docs/demo.md#through-the-match-server): ?view=match
// &match=<id>&role=create|player|spectator[&scenario=<name>]. This page is one
// member of the match: its world on the left canvas, the server's verdict
// per tick in the verdict box, the link for the second player and the "join
// late" button (a spectator in a new tab, in sync from the server's snapshot).
// "perturb this player" makes this page's world diverge; the server's verdict
// then says DESYNC and its investigation's report (which system, entity and
// field, this page's value and the server's) shows in the desync box
// (desync_view.js).
import { OnlineMatch } from './match_online.js';
import { updateMatchDesyncPanel } from './desync_view.js';
import { drawWorld } from './canvas.js';
import { SpriteTable } from './sprites.js';
import { esc } from './diff_view.js';

const $ = (id) => document.getElementById(id);
const TICK_HZ = 60;
const MAX_CATCH_UP = 5;

/** A fresh match id (letters and digits, the protocol's alphabet). */
export function newMatchId() {
  return `m${Math.floor(Math.random() * 36 ** 6).toString(36)}`;
}

/** The URL that creates a match over `scenario` (the netplay view's "through the match server" button). */
export function createMatchUrl(scenario, loc = location) {
  const u = new URL(loc.href);
  for (const k of [...u.searchParams.keys()]) if (k !== 'fast') u.searchParams.delete(k);
  u.searchParams.set('view', 'match');
  u.searchParams.set('role', 'create');
  u.searchParams.set('match', newMatchId());
  u.searchParams.set('scenario', scenario);
  return u.href;
}

function setBox(el, kind, text) {
  el.className = `verdict ${el.id === 'peer-verdict' ? 'peer ' : ''}${kind}`;
  el.textContent = text;
}

/** The server's verdict line of a member's status. */
export function matchVerdict(st) {
  if (st.state === 'error') return { kind: 'diverged', text: `match server: ${st.error}` };
  if (st.state === 'connecting' || st.state === 'joining') return { kind: 'pending', text: `match server: ${st.state} to match ${st.match}…` };
  if (st.desyncAt !== null || st.lineMismatchAt !== null) return { kind: 'diverged', text: `match server: DESYNC at tick ${st.desyncAt ?? st.lineMismatchAt}` };
  if (st.role === 'player' && !st.started) return { kind: 'pending', text: 'match server: waiting for the second player' };
  if (st.state === 'closed') return { kind: 'pending', text: `match server: disconnected at tick ${st.confirmed}` };
  return { kind: 'match', text: `match server: confirmed hashes agree through tick ${st.okThrough} (${st.verdicts} verdicts ok)` };
}

/**
 * Opens this page's member of the match named by `params` (URLSearchParams);
 * `build(name, seed)` builds a scenario's world. Returns the controller
 * main.js drives: frame(dt, now, { fast, paused, speed }), tick(n), status(), dispose().
 */
export function openMatchView(sim, params, build) {
  const role = params.get('role') ?? 'player';
  const match = params.get('match') ?? newMatchId();
  const online = new OnlineMatch(sim, { match, role, scenario: params.get('scenario') ?? 'input', build });
  document.body.classList.add('netplay-mode', 'match-mode');
  $('netplay').hidden = false;
  $('np-match').hidden = false;
  $('mode').textContent = 'single view';
  const sprites = new SpriteTable();
  let acc = 0;
  let renderFrame = 0;
  let lastPanelAt = 0;
  $('np-join-late').onclick = () => window.open(online.lateJoinUrl(), '_blank');
  // The netplay view's perturb button, for this page's player (its own listener does nothing here: no Netplay).
  const perturbButton = $('np-perturb');
  perturbButton.textContent = 'perturb this player';
  perturbButton.title = 'this page\'s world only: one of the scenario\'s systems flips one bit at a tick ahead (the core\'s scenarios: one entity changed between two ticks); the match server then reports where this page differs from its state';
  perturbButton.addEventListener('click', () => { online.perturb(); panel(); });

  const panel = () => {
    const st = online.status();
    const v = matchVerdict(st);
    setBox($('verdict'), v.kind, v.text);
    const who = st.role === 'spectator' ? 'spectator' : st.player === null ? 'player' : `player ${st.player}`;
    const caught = st.snapshotTick === null ? '' : `, joined from the snapshot of tick ${st.snapshotTick} (${st.snapshotBytes} B) + ${st.tailTicks} confirmed ticks`;
    setBox($('peer-verdict'), st.state === 'error' ? 'diverged' : 'pending', `this page: ${who} of match ${st.match} (${st.scenario})${caught}`);
    $('np-caption-0').textContent = `this page: ${who}`;
    $('np-match-text').textContent = `match ${st.match}:`;
    $('np-match-link').href = online.secondPlayerUrl();
    const row = (label, value) => `<tr><th>${label}</th><td>${esc(value)}</td></tr>`;
    $('np-stats').innerHTML = row('state', st.state) + row('current tick', st.current) + row('confirmed tick', st.confirmed)
      + row('server: ok through tick', st.okThrough) + row('verdicts ok / desyncs', `${st.verdicts} / ${st.desyncs}`)
      + row('rollbacks (deepest)', `${st.rollbacks} (${st.deepestRollback} ticks)`) + row('waits (prediction limit)', st.stalls)
      + row('bytes received', st.bytesReceived) + row('in sync after', st.syncedMs === null ? '-' : `${st.syncedMs.toFixed(0)} ms`);
    $('np-net').innerHTML = st.events.map((e) => `<span class="np-note">${esc(e)}</span>`).join(' ');
    updateMatchDesyncPanel(st);
  };

  return {
    online,
    frame(dt, now, { fast, paused, speed }) {
      if (!paused) {
        if (fast) {
          const until = performance.now() + 12;
          while (performance.now() < until) {
            const before = online.session?.currentTick;
            online.tick();
            if (online.session === null || online.session.currentTick === before) break; // waiting on the other player
          }
        } else {
          acc += Math.min(dt, 250) * speed;
          let n = 0;
          for (; acc >= 1000 / TICK_HZ && n < MAX_CATCH_UP; n++) { online.tick(); acc -= 1000 / TICK_HZ; }
          if (n === MAX_CATCH_UP) acc = 0;
        }
      }
      if (online.built !== null) {
        sprites.sync(online.built, ++renderFrame);
        drawWorld($('np-canvas-0'), { extent: online.built.extent, sprites, alpha: 1, perturbed: null, attractor: null });
      }
      if (now - lastPanelAt >= 100) { lastPanelAt = now; panel(); }
    },
    tick(n) { for (let i = 0; i < n; i++) online.tick(); panel(); return online.status(); },
    /** "perturb this player" (the test hook; `at`: OnlineMatch.perturb's). */
    perturb(at) { const p = online.perturb(at); panel(); return p === null ? null : JSON.parse(JSON.stringify(p)); },
    status: () => online.status(),
    lateJoinUrl: () => online.lateJoinUrl(),
    secondPlayerUrl: () => online.secondPlayerUrl(),
    dispose: () => online.dispose(),
  };
}
