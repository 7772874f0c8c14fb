// inspect.ts - what `console.log(x)`, `util.inspect(x)` and `String(x)`
// show of the public objects: one short line (what it is and the few
// numbers that say its state), never the internals: a World, a Component,
// a loop or a session holds the wasm module, and Node printed hundreds of
// lines of it. Every public class has `toString()` and the inspect hook
// below; both return the same line.

/**
 * @internal Node's `util.inspect` hook, by its registered name (no import of
 * node:util: the symbol is harmless in browsers, where devtools show the
 * object as it is).
 */
export const INSPECT: unique symbol = Symbol.for('nodejs.util.inspect.custom') as never;

/** @internal A schema as `{ x: f32, hist: i16[4] }`. */
export function schemaText(fields: ReadonlyArray<{ readonly name: string; readonly kind: string; readonly count: number; readonly isArray?: boolean }>): string {
  if (fields.length === 0) return '{}';
  return `{ ${fields.map((f) => `${f.name}: ${f.kind}${f.isArray === true || f.count > 1 ? `[${f.count}]` : ''}`).join(', ')} }`;
}

/** @internal `1 thing` / `n things` (`plural` when it is not thing + 's'). */
export function count(n: number, thing: string, plural = `${thing}s`): string {
  return `${n} ${n === 1 ? thing : plural}`;
}
