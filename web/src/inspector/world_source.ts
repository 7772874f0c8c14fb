// world_source.ts - an inspector source over the page's own world
// (docs/inspector.md#in-your-app): every request is answered by the core's
// inspector (laige/inspect.h) through the one wasm export `worldInspect`,
// the same code laige-peer answers with natively. A seek the core accepts
// (the tick inside the history's range) is carried out by the history.
import { requireDevtools } from '../core/devtools.js';
import type { World } from '../world.js';
import { coreOf } from '../core/world_core.js';
import { invalid, typeName } from '../base/errors.js';
import { describe } from '../base/describe.js';
import { logHandlers, refuseInsideLog } from '../base/reentrancy.js';
import type { InspectorHistory } from './history.js';
import { type InspectAnswer, inspectRequest, parseAnswer } from './protocol.js';

/** Where an inspector's data comes from: worldSource (this page) or remoteSource (a native process). */
export interface InspectorSource {
  /** Answers one protocol request (docs/inspector.md#protocol); rejects with a LaigeError for an error answer. */
  ask(request: string): Promise<InspectAnswer>;
  /** The state hash of `tick` when known without a seek (16 hex digits), else null. */
  hashAt(tick: number): string | null;
  /** Ends the source (a remote one closes its connection). */
  close(): void;
}

/** The world's answer to `request` (no seek carried out). */
function answerOf(world: World, where: string, request: string, history: InspectorHistory | null) {
  if (logHandlers.depth !== 0) refuseInsideLog(where);
  const core = coreOf(world);
  if (core === undefined) throw invalid(`${where}: the world is not a World of this module, got ${describe(world)}`, 'wrong_type', { where, field: 'world', got: typeName(world) });
  const w = core.live(where);
  requireDevtools(core.raw, where, 'the inspector');
  const text = core.raw.worldInspect(w, request, history !== null, history?.firstTick ?? 0, history?.lastTick ?? 0);
  core.mem.sync();
  return parseAnswer(text, where);
}

/**
 * An inspector source over `world` (and the ticks `history` keeps, for the
 * slider): read-only, it never changes the world. A request that is not a
 * string is a wrong_type LaigeError; every other refusal is the core's
 * error answer as a LaigeError (inspect_* reasons, docs/errors.md).
 */
export function worldSource(world: World, history: InspectorHistory | null = null): InspectorSource {
  const where = 'worldSource';
  if (coreOf(world) === undefined) throw invalid(`${where}: world must be a World, got ${describe(world)}`, 'wrong_type', { where, field: 'world', got: typeName(world) });
  return {
    async ask(request: string): Promise<InspectAnswer> {
      const at = 'InspectorSource.ask';
      if (typeof request !== 'string') throw invalid(`${at}: request must be a string, got ${describe(request)}`, 'wrong_type', { where: at, field: 'request', got: typeName(request) });
      const shown = (): World => history?.world ?? world;
      const a = answerOf(shown(), at, request, history);
      if (a.kind !== 'seek') return a;
      await history!.seek(a.tick);
      return answerOf(shown(), at, inspectRequest.summary(), history) as InspectAnswer;
    },
    hashAt(tick: number): string | null {
      const h = history?.hashAt(tick) ?? null;
      return typeof h === 'bigint' ? h.toString(16).padStart(16, '0') : h;
    },
    close(): void {},
  };
}
