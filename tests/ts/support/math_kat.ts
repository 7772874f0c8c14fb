// The math known-answer checker, shared with the browser suite: one
// implementation in tests/browsers/math_kat.mjs (plain JS, served to the page).
export { checkMathKat, type MathFns, type MathKatMismatch } from '../../browsers/math_kat.mjs';
