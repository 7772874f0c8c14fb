// rollback_timing.mjs - an 8-tick rollback of the swarm scenario (2,400
// agents) through the TypeScript RollbackSession, timed where it runs: in
// the browser suite's page (determinism.mjs prints the figure per browser,
// asserting no time) and under Node (bench/js/rollback_bench.mjs).
// docs/rollback.md#costs has the numbers.
//
// A two-player session over sim.openScenario('swarm'); player 0 (local)
// sends nothing, player 1's 8-byte attractor is the tick's payload
// ('concatenate'). Each timed round gives player 1's input for tick
// currentTick - 7, different from the prediction, so advance() restores the
// snapshot before that tick and re-runs 8 ticks, then runs the new one.

/** The attractor payload (Q16.16 x, y little-endian) for round k. */
function attractor(k) {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setInt32(0, (k % 5) * 0x40000 - 0x80000, true);
  return b;
}

function summary(ms) {
  const s = [...ms].sort((a, b) => a - b);
  const at = (q) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
  return { best: s[0], median: at(0.5), p90: at(0.9), worst: s[s.length - 1] };
}

/**
 * Times `rounds` plain advances and `rounds` advances that roll back 8
 * ticks. Returns { plain, rollback8 } summaries in ms (best, median, p90,
 * worst), and `rolledBack`: true when every timed rollback re-ran exactly 8
 * ticks.
 */
export function rollbackTiming(sim, { rounds = 40, warmup = 30 } = {}) {
  const run = sim.openScenario('swarm');
  try {
    const s = sim.createRollbackSession(run, { players: 2, localPlayer: 0, depth: 12, maxInputBytes: 8, combine: 'concatenate' });
    const none = new Uint8Array(0);
    const local = () => s.setLocalInput(s.currentTick + 1, none);
    for (let i = 0; i < warmup; i++) {
      local();
      s.advance();
    }
    const plain = [];
    for (let r = 0; r < rounds; r++) {
      local();
      const t0 = performance.now();
      s.advance();
      plain.push(performance.now() - t0);
    }
    const rolled = [];
    let rolledBack = true;
    for (let r = 0; r < rounds; r++) {
      local();
      s.addRemoteInput(1, s.currentTick - 7, attractor(r));
      const t0 = performance.now();
      const a = s.advance();
      rolled.push(performance.now() - t0);
      if (a.rolledBackTicks !== 8) rolledBack = false;
    }
    return { plain: summary(plain), rollback8: summary(rolled), rolledBack, agents: run.world.entityCount };
  } finally {
    run.dispose();
  }
}

/** One line of the figures, e.g. for a log. */
export function formatRollbackTiming(t) {
  const f = (x) => x.toFixed(2);
  return `8-tick rollback of swarm (${t.agents} entities): best ${f(t.rollback8.best)} ms, median ${f(t.rollback8.median)} ms, p90 ${f(t.rollback8.p90)} ms, worst ${f(t.rollback8.worst)} ms `
    + `(one 60 Hz frame: 16.67 ms); a plain advance: median ${f(t.plain.median)} ms`;
}
