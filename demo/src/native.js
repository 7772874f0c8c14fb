// native.js - the C++ scenarios (cpp/scenarios) live in the page:
// sim.openScenario opens the same ScenarioRun laige-detcheck steps, inside a
// World the page reads (components come from the C++ registry). main.js
// drives it with sim.createGameLoop(run, { input, onTick }).frame(now): each
// tick's input payload is the scenario's own generator (the default) or
// swarm's pointer attractor, read by the scenario's C++ systems, so a session
// is recorded exactly as its systems saw it.
//
// nativeBuild(sim, name, seed) -> the same shape as a TypeScript scenario of
// scenarios.js ({ world, extent, positions(out), perturbTarget }) plus `run`
// (the ScenarioRun), generatedInput(tick) and attractorOf(payload).

/** Per scenario: the components drawn as dots (a layer each), a fixed extent if any. */
const VIEWS = {
  swarm: { layers: ['SwarmPos'], extent: { x0: -64, y0: -64, size: 128 }, pointer: true, perturb: 'SwarmVel' },
  hello: { layers: ['PlayerPos'] },
  synthetic: { layers: ['SynthBody'] },
  'synthetic-perturbed': { layers: ['SynthBody'] },
  stress: { layers: ['Position2D'] },
  float: { layers: ['FPos'] },
  input: { layers: ['PawnPos', 'Projectile'] },
};

/** [xField, xElement, yField, yElement] of a position-like component, or null. */
function xyOf(c) {
  const f = new Map(c.fields.map((x) => [x.name, x]));
  if (f.has('x') && f.has('y') && f.get('x').count === 1) return ['x', 0, 'y', 0];
  if (f.has('p') && f.get('p').count >= 2) return ['p', 0, 'p', 1];
  return null;
}

function scaleOf(c, field) {
  return c.fields.find((x) => x.name === field).kind === 'fx' ? 1 / 65536 : 1;
}

/** The components to draw: the scenario's listed ones, else any with x/y fields. */
function layersOf(world, name) {
  const names = VIEWS[name]?.layers;
  const comps = names !== undefined
    ? names.map((n) => world.component(n)).filter((c) => c !== undefined)
    : world.components().filter((c) => xyOf(c) !== null).slice(0, 3);
  return comps.filter((c) => xyOf(c) !== null).map((c) => ({ c, xy: xyOf(c), sx: scaleOf(c, xyOf(c)[0]), sy: scaleOf(c, xyOf(c)[2]) }));
}

export function nativeBuild(sim, name, seed) {
  const run = sim.openScenario(name, { seed });
  const world = run.world;
  const view = VIEWS[name] ?? {};
  const layers = layersOf(world, name);
  /** The scenario generator's payload for `tick`, or undefined when it writes none. */
  const generated = (tick) => {
    const g = run.generatedInput(tick);
    return g.length > 0 ? g : undefined;
  };

  // swarm: an archetype's kind from whether its first row also has SwarmLife / SwarmSteer.
  const life = world.component('SwarmLife');
  const steer = world.component('SwarmSteer');
  function kindsOf(c) {
    if (name !== 'swarm' || life === undefined || steer === undefined) return null;
    const withLife = new Set();
    const withSteer = new Set();
    world.eachChunk([c, life], ['read', 'read'], (ch) => { if (ch.rows > 0) withLife.add(ch.entity(0)); });
    world.eachChunk([c, steer], ['read', 'read'], (ch) => { if (ch.rows > 0) withSteer.add(ch.entity(0)); });
    return (first) => (!withLife.has(first) ? 2 : !withSteer.has(first) ? 1 : 0);
  }

  // The extent: fixed (swarm: the wrapped world, where the pointer maps), else
  // a square fitted around everything drawn so far (it only grows).
  const extent = view.extent ? { ...view.extent } : null;
  let box = null;
  const built = {
    run, world, native: true, acceptsPointer: !!view.pointer, textOnly: layers.length === 0,
    generatedInput: generated,
    /** The attractor (x, y) an 8-byte swarm payload names, or null. */
    attractorOf(payload) {
      if (!view.pointer || payload === undefined || payload.length !== 8) return null;
      const v = new DataView(payload.buffer, payload.byteOffset, 8);
      return [v.getInt32(0, true) / 65536, v.getInt32(4, true) / 65536];
    },
    get extent() {
      if (extent !== null) return extent;
      if (box === null) return { x0: 0, y0: 0, size: 16 };
      const size = Math.max(16, (box[2] - box[0]) * 1.1, (box[3] - box[1]) * 1.1);
      return { x0: (box[0] + box[2]) / 2 - size / 2, y0: (box[1] + box[3]) / 2 - size / 2, size };
    },
    /** Calls out(entity, x, y, kind) for every drawn entity. */
    positions(out) {
      layers.forEach(({ c, xy, sx, sy }, layer) => {
        const kind = kindsOf(c);
        world.eachChunk([c], ['read'], (ch) => {
          const fx = ch.field(c, xy[0]);
          const fy = ch.field(c, xy[2]);
          const k = kind === null ? layer : kind(ch.rows > 0 ? ch.entity(0) : -1);
          for (let r = 0; r < ch.rows; r++) {
            const x = fx.array[fx.index + r * fx.stride + xy[1]] * sx;
            const y = fy.array[fy.index + r * fy.stride + xy[3]] * sy;
            if (extent === null) {
              if (box === null) box = [x, y, x, y];
              else { box[0] = Math.min(box[0], x); box[1] = Math.min(box[1], y); box[2] = Math.max(box[2], x); box[3] = Math.max(box[3], y); }
            }
            out(ch.entity(r), x, y, k);
          }
        });
      });
    },
    /** A text summary for scenarios without a position-like component. */
    summary() {
      return world.components().map((c) => `${c.name} (${c.fields.map((f) => `${f.name}: ${f.kind}${f.count > 1 ? `[${f.count}]` : ''}`).join(', ')})`).join('\n');
    },
  };
  // Perturb: one field of one component of one entity (+1 unit: 1.0 in Q16.16, or 1).
  const target = world.component(view.perturb ?? '') ?? layers[0]?.c ?? world.components()[0];
  if (target !== undefined) {
    const f = target.fields[0];
    const unit = f.kind === 'fx' ? 65536 : 1;
    built.perturbTarget = {
      component: target,
      change: (v) => {
        const cur = v[f.name];
        return { ...v, [f.name]: Array.isArray(cur) ? [cur[0] + unit, ...cur.slice(1)] : cur + unit };
      },
    };
  }
  return built;
}
