// errors.ts - LaigeError and the error-code registry (mirrors cpp/src/errors.cpp,
// docs/errors.md). Every failing Status of the core becomes a LaigeError;
// so does every argument the TypeScript layer rejects before it reaches wasm.

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
 * - `reason`: the specific cause as a stable snake_case name, the same the
 *   C++ core uses for it (e.g. `double_writer`, `stale_entity`,
 *   `system_io_violation`); `code` is the coarse registry code.
 * - `fields`: what exactly was involved (`{ first: 'A', second: 'B',
 *   component: 'Position' }`).
 * - `message`: the cause in plain words (`detail`), then the build-stable
 *   5-field line of the code (`line`).
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
  /** The 5-field line exactly as the C++ registry renders it. */
  readonly line: string;
  /** The cause in plain words (the first line of `message`), or ''. */
  readonly detail: string;

  constructor(codeId: number, detail = '', reason?: string, fields: LaigeErrorFields = {}) {
    const line = errorText(codeId);
    super(detail ? `${detail}\n${line}` : line);
    this.name = 'LaigeError';
    this.codeId = lookup(codeId) === REGISTRY[0] ? 1 : codeId;
    this.code = errorName(codeId);
    this.reason = reason !== undefined && reason !== '' ? reason : this.code;
    this.fields = Object.freeze({ ...fields });
    this.line = line;
    this.detail = detail;
  }
}

/** @internal Throws LaigeError(code) unless code is 0 (the ok Status). */
export function check(code: number, detail: string, reason?: string, fields?: LaigeErrorFields): void {
  if (code !== 0) throw new LaigeError(code, detail, reason, fields);
}

/** @internal An InvalidArgument LaigeError with its specific reason and fields. */
export function invalid(detail: string, reason?: string, fields?: LaigeErrorFields): LaigeError {
  return new LaigeError(ErrorCodes.invalid_argument, detail, reason, fields);
}
