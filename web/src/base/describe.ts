// describe.ts - the short description of any value that error messages
// quote ("got 'abc'", "got an object"): one formatter for every module.

/** @internal A short description of a value for error messages. */
export function describe(v: unknown): string {
  // Never throws (a Symbol in a template literal would): every message
  // that names a user value goes through here.
  if (typeof v === 'string') return `'${JSON.stringify(v.length > 40 ? v.slice(0, 40) + '...' : v).slice(1, -1)}'`;
  if (typeof v === 'bigint') return `${v}n (a bigint)`;
  if (typeof v === 'symbol') return 'a symbol';
  if (typeof v === 'number' || typeof v === 'boolean' || v === undefined || v === null) return String(v);
  if (typeof v === 'function') return 'a function';
  if (Array.isArray(v)) return 'an array';
  return 'an object';
}
