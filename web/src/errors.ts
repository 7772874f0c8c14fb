// errors.ts - the path fx.ts imports LaigeError and its helpers from, kept
// while fx.ts and fx_math.ts move to math/ (their own change): the errors
// live in base/errors.ts.
export * from './base/errors.js';
