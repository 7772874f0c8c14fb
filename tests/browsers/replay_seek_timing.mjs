// replay_seek_timing.mjs - time travel over a long replay of the `stress`
// scenario (10,000 entities) through the TypeScript ReplayPlayer, timed
// where it runs: in the browser suite's page (bench/js/replay_seek_browser.mjs
// drives chromium) and under Node (bench/js/replay_seek_bench.mjs).
// docs/replay.md#time-travel has the numbers.
//
// Records `ticks` ticks of sim.openScenario('stress') with a keyframe every
// `keyframeEvery` ticks (the live stateHash of every tick kept), opens the
// log with sim.openReplay(bytes, { scenario: 'stress' }), then times
// `jumps` seeks to random ticks in random order and `stepBacks` single steps
// back (in runs of 20 from random ticks). Every timed call's stateHash is
// compared with the live one: a wrong state fails the figure (`exact`).

/** A small deterministic PRNG (xorshift32): the same jumps everywhere. */
function rng(seed) {
  let s = seed >>> 0 || 1;
  return (n) => {
    s ^= s << 13; s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5; s >>>= 0;
    return s % n;
  };
}

function summary(ms) {
  const s = [...ms].sort((a, b) => a - b);
  const at = (q) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
  return { n: s.length, p50: at(0.5), p99: at(0.99), max: s[s.length - 1] };
}

/**
 * Records the stress replay. Returns { bytes, hashes (live, per tick),
 * plainBytes (the size of the same recording without keyframes), recordMs }.
 */
export function recordStress(sim, { ticks = 10000, keyframeEvery = 100 } = {}) {
  const run = sim.openScenario('stress');
  const t0 = performance.now();
  try {
    const info = run.info;
    const rec = sim.recordReplay(run.world, { tickRateHz: info.tickRateHz, math: info.math, keyframeEvery });
    const hashes = [run.stateHash()];
    for (let t = 1; t <= ticks; t++) {
      run.step();
      rec.writeFrame(t);
      hashes.push(run.stateHash());
    }
    const bytes = rec.finish();
    // Without keyframes the log is 40 + 12 per (empty) frame + 16 bytes.
    const plainBytes = 40 + 12 * ticks + 16;
    return { bytes, hashes, plainBytes, recordMs: performance.now() - t0, entities: run.world.entityCount };
  } finally {
    run.dispose();
  }
}

/**
 * Times jumps and steps back over a recording from recordStress. Returns
 * { jump, stepBack } summaries in ms (n, p50, p99, max), `exact` (every
 * timed state hash equals the live run's), `openMs` and the player's stats.
 */
export function timeSeeks(sim, recording, { jumps = 200, stepBacks = 200, seed = 0x5eed } = {}) {
  const { bytes, hashes } = recording;
  const last = hashes.length - 1;
  const next = rng(seed);
  const t0 = performance.now();
  const player = sim.openReplay(bytes, { scenario: 'stress' });
  const openMs = performance.now() - t0;
  try {
    let exact = true;
    const jump = [];
    for (let i = 0; i < jumps; i++) {
      const t = next(last + 1);
      const a = performance.now();
      player.seek(t);
      jump.push(performance.now() - a);
      if (player.stateHash() !== hashes[t]) exact = false;
    }
    const back = [];
    while (back.length < stepBacks) {
      player.seek(20 + next(last - 19));
      for (let i = 0; i < 20 && back.length < stepBacks; i++) {
        const a = performance.now();
        player.stepBack();
        back.push(performance.now() - a);
        if (player.stateHash() !== hashes[player.tick]) exact = false;
      }
    }
    return { jump: summary(jump), stepBack: summary(back), exact, openMs, stats: player.stats(), keyframes: player.keyframeTicks.length };
  } finally {
    player.dispose();
  }
}

/** Records and times one K: what the page and the Node bench call. */
export function replaySeekTiming(sim, { ticks = 10000, keyframeEvery = 100, jumps = 200, stepBacks = 200 } = {}) {
  const recording = recordStress(sim, { ticks, keyframeEvery });
  const t = timeSeeks(sim, recording, { jumps, stepBacks });
  return { ticks, keyframeEvery, bytes: recording.bytes.length, plainBytes: recording.plainBytes, entities: recording.entities, recordMs: recording.recordMs, ...t };
}

/** One line of the figures. */
export function formatReplaySeekTiming(r) {
  const f = (x) => x.toFixed(1);
  return `K ${String(r.keyframeEvery).padStart(5)}: jump p50 ${f(r.jump.p50)} / p99 ${f(r.jump.p99)} / max ${f(r.jump.max)} ms; `
    + `stepBack p50 ${f(r.stepBack.p50)} / p99 ${f(r.stepBack.p99)} / max ${f(r.stepBack.max)} ms; `
    + `${r.keyframes} keyframes, ${(r.bytes / 1048576).toFixed(2)} MiB (${r.plainBytes} B without); open ${f(r.openMs)} ms; exact ${r.exact}`;
}
