// desync_peers.ts - two rollback peers of one simulation for the desync
// exchange tests (docs/desync.md#across-peers): movers with Position (f32),
// Velocity (fx) and Health (i32), three systems (Move, Steer, Damage), and a
// fault that flips one bit of one field of one entity inside one system at
// one tick, on every run of that tick (re-simulations included).
import type { PeerDesyncReport, RollbackSession, World } from '../../../dist/index.js';
import { sim } from './sim.js';

export interface Fault {
  tick: number;
  system: 'Move' | 'Steer' | 'Damage';
  /** Index into the entities created. */
  entity: number;
  /** 0 = the component's first field, 1 = its second (Health has one). */
  field: number;
  bit: number;
}

/** The component each system writes (and the fault flips). */
export const FAULT_COMPONENT = { Move: 'Position', Steer: 'Velocity', Damage: 'Health' } as const;
const FIELDS = { Position: ['x', 'y'], Velocity: ['x', 'y'], Health: ['hp'] } as const;

export function fieldOf(fault: Fault): string {
  const names = FIELDS[FAULT_COMPONENT[fault.system]];
  return names[fault.field % names.length]!;
}

export function buildWorld(entities: number, fault: Fault | null): { world: World; ids: number[] } {
  const world = sim.createWorld({ capacity: entities + 64, seed: 0x5eedn });
  const Position = world.registerComponent('Position', { x: 'f32', y: 'f32' });
  const Velocity = world.registerComponent('Velocity', { x: 'fx', y: 'fx' });
  const Health = world.registerComponent('Health', { hp: 'i32' });
  const ids: number[] = [];
  for (let i = 0; i < entities; i++) {
    const e = world.create();
    world.add(e, Position, { x: i % 100, y: -(i % 37) });
    world.add(e, Velocity, { x: ((i % 7) - 3) * 16384, y: 65536 });
    world.add(e, Health, { hp: 100 + (i % 13) });
    ids.push(e);
  }
  const comps = { Position, Velocity, Health };
  // Flips the bit as raw bits: an f32's bit pattern, an fx's or an i32's integer.
  const flip = (name: 'Move' | 'Steer' | 'Damage', tick: number): void => {
    if (fault === null || fault.system !== name || fault.tick !== tick) return;
    const c = comps[FAULT_COMPONENT[name]];
    const e = ids[fault.entity]!;
    const f = (c.field as Record<string, { get(e: number): number | undefined; set(e: number, v: number): void }>)[fieldOf(fault)]!;
    const v = f.get(e)!;
    if (c === Position) {
      const bits = new DataView(new ArrayBuffer(4));
      bits.setFloat32(0, v, true);
      bits.setUint32(0, bits.getUint32(0, true) ^ (1 << fault.bit) >>> 0, true);
      f.set(e, bits.getFloat32(0, true));
    } else {
      f.set(e, v ^ (1 << fault.bit));
    }
  };
  const movers = world.query({ pos: Position.write, vel: Velocity.read });
  const steer = world.query({ vel: Velocity.write, pos: Position.read });
  const hurt = world.query({ hp: Health.write });
  world.registerSystem({ name: 'Move', budgetMs: 50, io: [[Position, 'write'], [Velocity, 'read']], run(ctx) {
    movers.each((_e, { pos, vel }) => { pos.x += vel.x / 65536; pos.y += vel.y / 65536; });
    flip('Move', Number(ctx.tick));
  } });
  world.registerSystem({ name: 'Steer', budgetMs: 50, io: [[Velocity, 'write'], [Position, 'read']], dependsOn: ['Move'], run(ctx) {
    const push = ctx.input[2] ?? 0;  // player 0's second byte (length-prefixed payload)
    steer.each((e, { vel, pos }) => { if (pos.y > 200) vel.y = -65536; if ((e & 7) === (Number(ctx.tick) & 7)) vel.x += push; });
    flip('Steer', Number(ctx.tick));
  } });
  world.registerSystem({ name: 'Damage', budgetMs: 50, io: [[Health, 'write']], dependsOn: ['Steer'], run(ctx) {
    const t = Number(ctx.tick);
    hurt.each((e, { hp }) => { if ((e + t) % 11 === 0) hp.hp -= 1; });
    flip('Damage', t);
  } });
  world.scheduleSystems();
  return { world, ids };
}

/** One peer: its world, its session, the messages and checksums waiting to go to the other. */
export interface Peer {
  world: World;
  ids: number[];
  session: RollbackSession;
  outbox: Uint8Array[];
  hashes: [number, bigint][];
  reports: PeerDesyncReport[];
}

export function makePeer(entities: number, fault: Fault | null, player: number): Peer {
  const { world, ids } = buildWorld(entities, fault);
  const peer = { world, ids, outbox: [], hashes: [], reports: [] } as unknown as Peer;
  peer.session = sim.createRollbackSession(world, {
    players: 2, localPlayer: player, depth: 10, maxInputBytes: 2,
    onConfirmed: (tick, hash) => { peer.hashes.push([tick, hash]); },
    sendDesync: (bytes) => { peer.outbox.push(bytes); },
    onDesync: (report) => { peer.reports.push(report); },
    desyncMaxItems: 64,
  });
  return peer;
}

export const inputOf = (player: number, tick: number): Uint8Array => Uint8Array.of(player, (tick * (3 + player)) % 5);

/** Delivers the queued desync messages both ways until none is left. */
export function pump(a: Peer, b: Peer): void {
  while (a.outbox.length > 0 || b.outbox.length > 0) {
    for (const m of a.outbox.splice(0)) b.session.receiveDesync(m);
    for (const m of b.outbox.splice(0)) a.session.receiveDesync(m);
  }
}

/**
 * Runs both peers, inputs delivered `lag` ticks late, each one's confirmed
 * checksums handed to the other the tick after, from the next tick on;
 * stops once a report arrived (or after tick maxTicks).
 */
export function runPeers(a: Peer, b: Peer, maxTicks: number, lag = 2): void {
  const peers = [a, b];
  for (let t = a.session.currentTick + 1; t <= maxTicks && a.reports.length + b.reports.length === 0; t++) {
    for (let i = 0; i < 2; i++) {
      const p = peers[i]!;
      p.session.setLocalInput(t, inputOf(i, t));
      if (t > lag) p.session.addRemoteInput(1 - i, t - lag, inputOf(1 - i, t - lag));
    }
    for (let i = 0; i < 2; i++) {
      const p = peers[i]!;
      const other = peers[1 - i]!;
      for (const [tick, hash] of p.hashes.splice(0)) other.session.addRemoteHash(tick, hash);
    }
    a.session.advance();
    b.session.advance();
    pump(a, b);
  }
}
