// protocol.ts - the live inspector's protocol as TypeScript sees it
// (docs/inspector.md#protocol). The grammar, the answers' layout and the
// value texts are the core's (laige/inspect.h answers every request, for
// the page's own world through the wasm export and for a native process
// through laige-peer): this file only builds request lines and turns an
// answer's text into an object, or its error answer into a LaigeError. The
// key lists below are the layout TypeScript relies on; tests/ts/inspector.test.ts
// checks the core's answers (wasm and native) carry exactly these keys.
import { LaigeError } from '../base/errors.js';
import { messageFor } from '../base/error_messages.js';

/** The protocol version every request names first. */
export const INSPECT_PROTOCOL_VERSION = 1;
/** The longest request line the core accepts (bytes). */
export const MAX_INSPECT_REQUEST_BYTES = 256;
/** The most entities one `entities` answer lists. */
export const MAX_INSPECT_PAGE = 200;

/** The keys of each answer kind, in the order the core writes them. */
export const ANSWER_KEYS = {
  summary: ['v', 'kind', 'tick', 'hash', 'entities', 'capacity', 'peak', 'created', 'destroyed', 'components', 'archetypes', 'systems', 'changes', 'guardrails'],
  entities: ['v', 'kind', 'tick', 'offset', 'items', 'total'],
  entity: ['v', 'kind', 'tick', 'handle', 'id', 'gen', 'archetype', 'components'],
  history: ['v', 'kind', 'tick', 'kept', 'first', 'last'],
  seek: ['v', 'kind', 'tick'],
  error: ['v', 'error', 'code', 'fields'],
} as const;

/** A registered component as a summary lists it. */
export interface InspectComponent { id: number; name: string; size: number; tracked: boolean }
/** An archetype: its id, live rows and component ids. */
export interface InspectArchetype { id: number; rows: number; components: number[] }
/**
 * A system: its declared access (component ids), its budget and timing in
 * ms (texts: the shortest decimal that reads back) and its budget warnings.
 */
export interface InspectSystem {
  id: number; name: string; budgetMs: string; reads: number[]; writes: number[];
  runs: number; lastMs: string; p50Ms: string; p99Ms: string; warns: number; errors: number;
}
/** A tracked component's entities added / changed in the last tick. */
export interface InspectChanges { component: number; added: number; changed: number }
/** The entity budget and churn guardrails (World.guardrailStats). */
export interface InspectGuardrails {
  capacity: number; entityCount: number; entityBudgetLevel: number; entityBudgetWarns: number[];
  frameChurn: number; churnPerFrameBudget: number; churnWarns: number;
}
/** `1 summary` (and a seek: the summary of the tick sought). */
export interface InspectSummary {
  v: 1; kind: 'summary'; tick: number; hash: string; entities: number; capacity: number;
  peak: number; created: number; destroyed: number;
  components: InspectComponent[]; archetypes: InspectArchetype[]; systems: InspectSystem[];
  changes: InspectChanges[]; guardrails: InspectGuardrails;
}
/** One listed entity: handle bits, slot id, generation, archetype (0: no components). */
export interface InspectEntityRow { handle: number; id: number; gen: number; archetype: number }
/** `1 entities <offset> <limit> ...`: a page, and how many entities matched in all. */
export interface InspectEntitiesPage { v: 1; kind: 'entities'; tick: number; offset: number; items: InspectEntityRow[]; total: number }
/** A field's values as text: Q16.16 as exact decimals, f32 / f64 as the shortest text that reads back, integers in decimal. */
export interface InspectField { name: string; kind: string; values: string[] }
/** `1 entity <handle>`. */
export interface InspectEntity {
  v: 1; kind: 'entity'; tick: number; handle: number; id: number; gen: number; archetype: number;
  components: { id: number; name: string; fields: InspectField[] }[];
}
/** `1 history`: the ticks the source can show. */
export interface InspectHistoryInfo { v: 1; kind: 'history'; tick: number; kept: boolean; first: number; last: number }
/** What a source's ask() resolves with. */
export type InspectAnswer = InspectSummary | InspectEntitiesPage | InspectEntity | InspectHistoryInfo;

/** The request lines (docs/inspector.md#protocol). */
export const inspectRequest = {
  summary: (): string => '1 summary',
  history: (): string => '1 history',
  entity: (handle: number): string => `1 entity ${handle >>> 0}`,
  seek: (tick: number): string => `1 seek ${tick}`,
  entities: (offset: number, limit: number, filter: { archetype?: number; find?: number } = {}): string =>
    `1 entities ${offset} ${limit}${filter.archetype !== undefined ? ` archetype=${filter.archetype}` : ''}${filter.find !== undefined ? ` find=${filter.find}` : ''}`,
};

/** The code ids of docs/errors.md by number (an error answer's `code`). */
function codeOf(n: unknown): number {
  return typeof n === 'number' && n >= 1 && n <= 5 ? n : 1;
}

/**
 * @internal Parses an answer's text: the answer object, or throws the
 * LaigeError of an error answer (its reason and fields, the message of
 * docs/errors.md). Text that is no answer at all throws `inspect_malformed`
 * with part `answer`.
 */
export function parseAnswer(text: string, where: string): InspectAnswer | { v: 1; kind: 'seek'; tick: number } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = null;
  }
  if (typeof value !== 'object' || value === null || (value as { v?: unknown }).v !== INSPECT_PROTOCOL_VERSION) {
    const fields = { part: 'answer' };
    throw new LaigeError(3, `${where}: ${messageFor('inspect_malformed', fields)}`, 'inspect_malformed', fields);
  }
  const a = value as Record<string, unknown>;
  if (typeof a.error === 'string') {
    const fields = (typeof a.fields === 'object' && a.fields !== null ? a.fields : {}) as Record<string, string | number>;
    throw new LaigeError(codeOf(a.code), `${where}: ${messageFor(a.error, fields)}`, a.error, fields);
  }
  return a as unknown as InspectAnswer;
}
