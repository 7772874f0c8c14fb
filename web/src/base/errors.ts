// errors.ts - LaigeError and the error-code registry (mirrors cpp/src/errors.cpp;
// docs/errors.md). Every failing Status of the core becomes a LaigeError with
// the core's reason and fields; so does every argument the TypeScript layer
// rejects before it reaches wasm, with a reason of its own.
import { messageFor } from './error_messages.js';

/** The snake_case id of an error code (field 1 of the 5-field line). */
export type LaigeErrorCode =
  | 'unknown'
  | 'invalid_argument'
  | 'malformed_input'
  | 'budget_exhausted'
  | 'io_error';

interface ErrorEntry {
  readonly code: LaigeErrorCode;
  readonly what: string;
  readonly why: string;
  readonly fix: string;
  readonly anchor: string;
}

function entry(code: LaigeErrorCode, what: string, why: string, fix: string, anchor: string): ErrorEntry {
  return { code, what, why, fix, anchor };
}

// Index = numeric code; index 0 is the `unknown` entry returned for 0 and every
// unregistered value (as errorInfo() in C++). Frozen: additive only.
const REGISTRY: readonly ErrorEntry[] = [
  entry('unknown', 'an operation failed', 'the failure is not mapped to a more specific code',
    'report the operation and its input; map the failure to a specific code', 'docs/errors.md#unknown'),
  entry('unknown', 'an operation failed', 'the failure is not mapped to a more specific code',
    'report the operation and its input; map the failure to a specific code', 'docs/errors.md#unknown'),
  entry('invalid_argument', 'an argument was rejected at the API boundary',
    'the input is outside the documented domain of the call',
    'check the argument against the API contract before calling', 'docs/errors.md#invalid-argument'),
  entry('malformed_input', 'a parser rejected its input',
    'the input is structurally invalid or over a size or depth limit',
    'regenerate the input with a conforming writer, or stay within the limits', 'docs/errors.md#malformed-input'),
  entry('budget_exhausted', 'a declared budget or capacity ran out',
    'the operation needs more than the configured budget allows',
    'free capacity first, or raise the budget through typed configuration', 'docs/errors.md#budget-exhausted'),
  entry('io_error', 'a file or OS operation failed',
    'an open, read, write, flush or OS call reported an error',
    'check the path, its permissions and the free space, then retry', 'docs/errors.md#io-error'),
];

/** The numeric code values (frozen; they cross the wasm boundary). */
export const ErrorCodes = Object.freeze({
  unknown: 1,
  invalid_argument: 2,
  malformed_input: 3,
  budget_exhausted: 4,
  io_error: 5,
} as const satisfies Record<LaigeErrorCode, number>);

/** The highest registered code value. */
export const MAX_ERROR_CODE = 5;

function lookup(codeId: number): ErrorEntry {
  return Number.isInteger(codeId) && codeId >= 0 && codeId <= MAX_ERROR_CODE ? REGISTRY[codeId]! : REGISTRY[0]!;
}

/** The 5-field line `{code} | {what} | {why} | {fix} | {doc_anchor}` of a numeric code. */
export function errorText(codeId: number): string {
  const e = lookup(codeId);
  return `${e.code} | ${e.what} | ${e.why} | ${e.fix} | ${e.anchor}`;
}

/** The snake_case id of a numeric code ('unknown' for unregistered values). */
export function errorName(codeId: number): LaigeErrorCode {
  return lookup(codeId).code;
}

/** The detail fields of a LaigeError: names to values (which system, which component, ...). */
export type LaigeErrorFields = Readonly<Record<string, string | number>>;

/**
 * The error every failing call of @laige/sim throws.
 *
 * - `reason`: the specific cause as a stable snake_case name: the C++
 *   core's own (the event name its log uses, e.g. `double_writer`,
 *   `stale_entity_access`) or, for arguments rejected before wasm, the
 *   TypeScript layer's (`wrong_type`, `out_of_range`, `disposed`, ...).
 *   Every one is listed in docs/errors.md#core-reasons and
 *   docs/errors.md#typescript-reasons. `code` is the coarse registry code.
 * - `fields`: what exactly was involved (`{ first_writer: 'A',
 *   second_writer: 'B', component: 'Position', component_id: 1 }`; for a
 *   rejected argument `{ where, field, got }`).
 * - `message`: the cause in plain words (`detail`), which names the call,
 *   what was wrong and what to do. The code's generic 5-field line (`line`)
 *   follows it only when the error has no specific reason (then that line
 *   is all there is to say), or is the whole message when there is no
 *   detail either (docs/errors.md#in-typescript).
 */
export class LaigeError extends Error {
  /** The snake_case code id, e.g. 'invalid_argument'. */
  readonly code: LaigeErrorCode;
  /** The numeric code (1..5), as the C++ ErrorCode. */
  readonly codeId: number;
  /** The specific cause, a stable snake_case name (e.g. 'double_writer'). */
  readonly reason: string;
  /** What was involved, by name (frozen). */
  readonly fields: LaigeErrorFields;
  /** The code's 5-field line exactly as the C++ registry renders it (in `message` only when the error has no specific reason). */
  readonly line: string;
  /** The cause in plain words (the first line of `message`), or ''. */
  readonly detail: string;

  constructor(codeId: number, detail = '', reason?: string, fields: LaigeErrorFields = {}) {
    const line = errorText(codeId);
    const specific = reason !== undefined && reason !== '' && reason !== errorName(codeId);
    // The reason's own sentence says more than the code's generic line:
    // the line is kept only where it is the most specific text there is.
    super(detail === '' ? line : specific ? detail : `${detail}\n${line}`);
    this.name = 'LaigeError';
    this.codeId = lookup(codeId) === REGISTRY[0] ? 1 : codeId;
    this.code = errorName(codeId);
    // No reason given (a core failure that named none): the code's id.
    this.reason = reason !== undefined && reason !== '' ? reason : this.code;
    this.fields = Object.freeze({ ...fields });
    this.line = line;
    this.detail = detail;
  }
}

/** What the core said about its last failure: code, reason and fields. */
export interface CoreFailure {
  readonly code: number;
  readonly reason: string;
  readonly fields: LaigeErrorFields;
}

// One reader per loaded module: each returns the failure its module noted
// since the last read (and forgets it), or null. A failing binding call is
// read right after it returns, so at most one module holds a failure.
const failureSources = new Set<() => CoreFailure | null>();

/** @internal Registers a module's reader of its last noted failure (sim.ts, at load). */
export function addFailureSource(read: () => CoreFailure | null): void {
  failureSources.add(read);
}

/** @internal The core's own account of the failure behind `code`, or null when it gave none. Clears every source. */
export function takeCoreFailure(code: number): CoreFailure | null {
  let found: CoreFailure | null = null;
  for (const read of failureSources) {
    const f = read();
    if (f !== null && found === null) found = f;
  }
  return found !== null && found.code === code ? found : null;
}

/**
 * @internal The LaigeError of a core call `where` that returned `code`: the
 * core's reason and fields, the message built from them (error_messages.ts).
 * A core failure without a reason (none is known to exist) keeps the code's
 * id as its reason and says so.
 */
export function coreError(code: number, where: string): LaigeError {
  const f = takeCoreFailure(code);
  if (f !== null && f.reason !== '') {
    return new LaigeError(code, `${where}: ${messageFor(f.reason, f.fields)}`, f.reason, f.fields);
  }
  return new LaigeError(code, `${where}: the core rejected the call without naming a specific reason`);
}

/** @internal Throws coreError(code, where) unless code is 0 (the ok Status). */
export function check(code: number, where: string): void {
  if (code !== 0) throw coreError(code, where);
}

/**
 * @internal An InvalidArgument LaigeError for an argument the TypeScript
 * layer rejects itself: its stable reason (docs/errors.md#typescript-reasons)
 * and fields (at least `where`).
 */
export function invalid(detail: string, reason: string, fields: LaigeErrorFields): LaigeError {
  return new LaigeError(ErrorCodes.invalid_argument, detail, reason, fields);
}

/** @internal The JS type of `v` for a `got` field: 'bigint', 'symbol', 'null', 'array', 'string', ... */
export function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

/** @internal Splits a validator's `where` ("createWorld: capacity") into the call and the field. */
export function whereField(where: string): { where: string; field: string } {
  const i = where.lastIndexOf(': ');
  return i < 0 ? { where, field: '' } : { where: where.slice(0, i), field: where.slice(i + 2) };
}
