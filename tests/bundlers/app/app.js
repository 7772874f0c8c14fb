// The tiny app every bundler builds: it imports @laige/sim as a user would
// (no bundler configuration), runs a small world of its own and, when the
// module holds the built-in scenarios ('@laige/sim/scenarios'), the reference
// scenario `hello` for 60 ticks, and publishes the hashes for the test.
export async function runApp(loadLaige, options = {}) {
  const sim = await loadLaige(options);
  const scenarios = sim.scenarios().length;
  const hello60 = scenarios === 0 ? null : sim.runScenario('hello', { ticks: 60 }).hashes[60].toString(16).padStart(16, '0');
  const world = sim.createWorld({ capacity: 64, seed: 0x1f055eedn });
  const Position = world.registerComponent('Position', { x: 'f32', y: 'f32' });
  for (let i = 0; i < 8; i++) world.add(world.create(), Position, { x: i, y: -i });
  world.each([Position], ['write'], (e, p) => { p.x += 0.5; });
  return { version: sim.version, scenarios, hello60, world: world.stateHash(0).toString(16) };
}

/** Runs the app in a page: window.__result, or window.__error with the LaigeError's reason and message. */
export function publish(promise) {
  promise.then((r) => { window.__result = r; },
    (e) => { window.__error = { name: e?.name, reason: e?.reason, message: String(e?.message ?? e) }; });
}
