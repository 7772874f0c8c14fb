// A user of @laige/sim, installed from the npm pack tarball: the README
// surface, type-checked strictly and run under node.
import { loadLaige, LaigeError, fx, formatEntity, type Entity } from '@laige/sim';
import { loadLaige as loadEmbedded } from '@laige/sim/embedded';
import { loadLaige as loadWithScenarios } from '@laige/sim/scenarios';

const sim = await loadLaige();
const world = sim.createWorld({ capacity: 10_000, seed: 0x1f055eedn });
const Position = world.registerComponent('Position', { x: 'f32', y: 'f32' });
const Velocity = world.registerComponent('Velocity', { x: 'f32', y: 'f32' });
const e: Entity = world.create();
world.add(e, Position, { x: 0, y: 0 });
world.add(e, Velocity, { x: 1, y: 0.5 });
const p: { x: number; y: number } | undefined = world.get(e, Position);
if (p === undefined || !world.has(e, Velocity)) throw new Error('add/get/has');
world.each([Position, Velocity], ['write', 'read'], (_e, pos, vel) => {
  pos.x += vel.x;
});
world.registerSystem({
  name: 'Move', budgetMs: 1, io: [[Position, 'write'], [Velocity, 'read']],
  run(ctx) {
    ctx.each([Position, Velocity], ['write', 'read'], (_e, pos, vel) => {
      pos.y += vel.y;
    });
    ctx.rng?.nextU32();
  },
});
const loop = sim.createGameLoop(world, { tickRateHz: 60 });
loop.frame(0);
loop.frame(50);
const ticks = loop.currentTick;
const hash: bigint = world.stateHash(ticks);
// The built-in scenarios are in the module of '@laige/sim/scenarios' only.
let noScenarios = false;
try {
  sim.runScenario('hello', { ticks: 3 });
} catch (err) {
  noScenarios = err instanceof LaigeError && err.reason === 'scenario_unknown' && err.fields.scenarios === 0;
}
if (!noScenarios || sim.scenarios().length !== 0) throw new Error("'@laige/sim' should hold no scenario");
const withScenarios = await loadWithScenarios();
const stream = withScenarios.runScenario('hello', { ticks: 3 });
let rejected = false;
try {
  world.destroy(0xdead0001);
} catch (err) {
  rejected = err instanceof LaigeError && err.code === 'invalid_argument';
}
world.dispose();
if (!rejected || ticks !== 3 || stream.hashes.length !== 4) throw new Error('unexpected state');
console.log(`consumer ok: ${formatEntity(e)} hash ${hash.toString(16).padStart(16, '0')} fx ${fx.mul(fx.one(), fx.fromFloat(1.5))}`);
console.log(stream.text.trimEnd());

// The entry with the .wasm inlined: the same API and types.
const embedded = await loadEmbedded();
if (embedded.createWorld({ capacity: 16, seed: 0x1f055eedn }).stateHash(0) !== sim.createWorld({ capacity: 16, seed: 0x1f055eedn }).stateHash(0)) throw new Error('embedded entry');
