// session_peer.js - the live native peer of one C++ scenario session of the
// page (peer.js speaks the protocol): it steps the same scenario with the
// payloads the page's ticks ran with and answers each tick's hash. Every
// tick is sent with the page's own hash, and the page keeps its recent
// states (snapshot_ring.js), so that on the first differing hash both
// sides' states of exactly that tick are diffed (docs/demo.md#native-peer).
import { NativePeer } from './peer.js';
import { SnapshotRing } from './snapshot_ring.js';

/** Opens the peer of session `s` (scenario, seed, hashes, loop, built); `onChange` redraws the panel. */
export function openSessionPeer(s, onChange) {
  const p = new NativePeer({ scenario: s.name, seed: s.seed, pageHash: (t) => s.hashes[t], onChange });
  s.peerRing = new SnapshotRing();
  p.onDivergence = (tick) => {
    const kept = s.peerRing.get(tick);
    if (kept !== null) p.requestSnapshot(tick, kept.slice());
    else p.requestSnapshot(s.loop.currentTick, s.built.world.snapshot());
  };
  return p;
}

/** After tick `tick` of session `s`: keeps the page's state of it and sends the tick to the peer. */
export function sendTickToPeer(s, tick) {
  const p = s.peer;
  if (p.divergedAt === null && p.checking) s.peerRing.put(tick, s.built.world);
  p.step(tick, s.payloads[tick], s.hashes?.[tick]);
}

/** The stateDiff of the page's and the native peer's state of the diverged tick once both arrived (cached on `s`). */
export function sessionPeerDiff(s, sim) {
  if (s.peerDiff === null && s.peer?.peerSnapshot) {
    s.peerDiff = s.peer.diffOf(() => sim.openScenario(s.name, { seed: s.seed }));
  }
  return s.peerDiff;
}
