// match_peer.ts - a test's MatchClient over a real WebSocket (the relay of
// demo/match_relay.mjs), whose parsed messages a test waits on in order.
import { WebSocket } from 'ws';
import { MatchClient, type MatchMessage } from '../../../dist/index.js';

/** A MatchClient over a WebSocket, with a queue of parsed messages to wait on. */
export class Peer {
  readonly ws: WebSocket;
  readonly client: MatchClient;
  readonly #queue: MatchMessage[] = [];
  #wake: (() => void) | null = null;
  constructor(url: string) {
    this.ws = new WebSocket(url);
    this.client = new MatchClient((line) => this.ws.send(line));
    this.client.onMessage((m) => { this.#queue.push(m); this.#wake?.(); });
    this.ws.on('message', (m) => { this.client.receive(String(m)); });
  }
  open(): Promise<void> { return new Promise((ok, fail) => { this.ws.once('open', () => ok()); this.ws.once('error', fail); }); }
  /** The first queued (or coming) message that `pick` accepts; the others before it are dropped. */
  async next<T extends MatchMessage['type']>(type: T, pick: (m: Extract<MatchMessage, { type: T }>) => boolean = () => true): Promise<Extract<MatchMessage, { type: T }>> {
    for (;;) {
      const i = this.#queue.findIndex((m) => m.type === type && pick(m as Extract<MatchMessage, { type: T }>));
      if (i >= 0) return this.#queue.splice(0, i + 1).at(-1) as Extract<MatchMessage, { type: T }>;
      await new Promise<void>((ok) => { this.#wake = ok; });
      this.#wake = null;
    }
  }
}

/**
 * Two peers on `url`: the first creates a 2-player `match` of `scenario`,
 * the second joins it as a player; resolves once the match started, with
 * the `created` message (its seed).
 */
export async function startedPair(url: string, match: string, scenario: string): Promise<{ peers: [Peer, Peer]; created: Extract<MatchMessage, { type: 'created' }> }> {
  const peers: [Peer, Peer] = [new Peer(url), new Peer(url)];
  await Promise.all(peers.map((p) => p.open()));
  peers[0].client.create(match, scenario, 2);
  const created = await peers[0].next('created');
  peers[1].client.join(match, 'player');
  await peers[1].next('joined');
  await peers[0].next('start');
  return { peers, created };
}
