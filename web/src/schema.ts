// schema.ts - the path fx.ts imports the schema helpers from, kept while
// fx.ts and fx_math.ts move to math/ (their own change): the schema lives in
// component/schema.ts.
export * from './component/schema.js';
