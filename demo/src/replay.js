// replay.js - a demo session as an LGRP replay bundle: the log, its
// laige-replay config and the page's hash stream (the "download replay"
// button; native laige-replay reproduces every tick).

/**
 * The session `s` as an LGRP v1 replay: a fresh world of the scenario (the
 * same identity) and one frame per completed tick with the payload the
 * systems read (`payloadOf(t)`); plus the laige-replay config and the
 * page's hash stream.
 */
export function sessionReplay(sim, s, spec, payloadOf, tickRateHz) {
  const info = sim.scenarios().find((x) => x.name === s.name)
    ?? { tickRateHz, capacity: s.built.world.capacity, churnPerFrameBudget: 256, math: 'fixed_point_16_16' };
  const built = spec.build(sim, spec.seed);
  try {
    const rec = sim.recordReplay(built.world, { tickRateHz: info.tickRateHz, math: info.math });
    const n = s.loop.currentTick;
    for (let t = 1; t <= n; t++) rec.writeFrame(t, payloadOf(t));
    const bytes = rec.finish();
    const config = {
      tickRateHz: info.tickRateHz, entityCapacity: info.capacity, churnPerFrameBudget: info.churnPerFrameBudget,
      seed: `0x${spec.seed.toString(16)}`, determinism: { enabled: true, math: info.math }, scenario: s.name,
    };
    const hashes = s.hashes.slice(0, n + 1).map((h, t) => `${t} ${h}\n`).join('');
    return { name: s.name, ticks: n, bytes, config, hashes, perturbed: s.perturb !== null };
  } finally {
    built.world.dispose();
  }
}

function download(name, data, type) {
  const url = URL.createObjectURL(new Blob([data], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 5000);
}

/** Saves the bundle's three files. */
export function downloadBundle(b) {
  download(`${b.name}-session.lgrp`, b.bytes, 'application/octet-stream');
  download(`${b.name}-session.json`, JSON.stringify(b.config, null, 2) + '\n', 'application/json');
  download(`${b.name}-session.hashes.txt`, b.hashes, 'text/plain');
}
