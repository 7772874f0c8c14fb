// Types of math_kat.mjs (the known-answer checker shared by Vitest and the browser page).
/** One-argument and two-argument functions by name. */
export type MathFns = Readonly<Record<string, (a: number, b: number) => number>>;
/** A row whose result differs: the row text and the bits computed. */
export interface MathKatMismatch {
  row: string;
  got: string;
}
/**
 * Every row of `table` evaluated with `fx` (Q16.16: raw int32 in and out) or
 * `f32` (binary32 bits in and out); the rows whose result bits differ (a NaN
 * matches any NaN) and the number of rows checked.
 */
export function checkMathKat(table: string, fx: MathFns, f32fns: MathFns): { rows: number; mismatches: MathKatMismatch[] };
