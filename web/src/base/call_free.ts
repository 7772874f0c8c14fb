// call_free.ts - whether an each callback can run any code but its own
// arithmetic on its refs, judged from its source text, conservatively.
//
// Why: after each row's callback, the generated loop (row_loop.ts) tests
// one word of wasm memory for what the callback may have done meanwhile: a
// World.add on the row it is visiting (whose value the row's store must not
// overwrite) or wasm memory growth (which detaches the loop's views). Both
// need a call: our API, or anything that allocates in wasm. A callback
// that calls nothing, explicitly or implicitly, can do neither, and its
// loop leaves the test out (measured, pos += vel over 10,000 rows: 2.00 ->
// 1.70 ns per entity; one f32 field doubled over 26 archetypes: 1.48 ->
// 1.17).
//
// The rule, on the tokens of the source: every name is a parameter, a
// local declared with const/let/var, or a literal keyword; a ref is only
// read or written through one of its component's field names (so no
// accessor or prototype getter can run); an array field is indexed only as
// `ref.field[i]`; and nothing in the text can call: no `(` after a name,
// `)` or `]`, no `new`, tagged or other template, spread, `in`,
// `instanceof`, `of`, `delete`, `this`, nested function, object literal,
// regular expression, `eval`, `with`. Anything the rule does not recognise
// counts as calling: the loop keeps its test (slower, never wrong).
// Not seen: a program that has replaced a built-in conversion
// (Object.prototype.valueOf and the like) or defined accessors on
// Object.prototype with code that calls back into the world.

/** What a callback's ref parameters are: each bound name's field names, and which fields are arrays. */
export interface RefBindings {
  /**
   * Positional (World.each): the field names of the component of each ref
   * parameter after the entity; named (Query.each): the field names by
   * term name (the second parameter destructures them).
   */
  readonly positional: readonly (readonly string[])[] | null;
  readonly named: ReadonlyMap<string, readonly string[]> | null;
  /** Field names that are fixed arrays, per component position / term name (indexable). */
  readonly arrays: ReadonlyMap<string | number, ReadonlySet<string>>;
}

type Token = { readonly t: 'name' | 'num' | 'str' | 'punct'; readonly v: string };

const LITERALS = new Set(['true', 'false', 'null', 'undefined', 'NaN', 'Infinity']);
const STATEMENT = new Set(['if', 'else', 'for', 'while', 'do', 'break', 'continue', 'return', 'switch', 'case', 'default',
  'throw', 'try', 'catch', 'finally', 'typeof', 'void', 'const', 'let', 'var']);
/** A `(` after these is grouping or a statement's head, not a call. */
const GROUPING_AFTER = new Set(['if', 'for', 'while', 'switch', 'return', 'typeof', 'void', 'case', 'throw', 'catch']);
/** A `{` after these opens a block (never an object literal). */
const BLOCK_AFTER = new Set([')', '=>', 'else', 'do', 'try', 'finally', '{', '}', ';']);
const NEVER = new Set(['new', 'this', 'super', 'arguments', 'eval', 'with', 'delete', 'in', 'instanceof', 'of', 'yield',
  'await', 'async', 'function', 'class', 'import', 'debugger', 'get', 'set', 'static']);

// The tokens of `src`, or null for anything the lexer does not take (a
// template, a regular expression, an unterminated string or comment).
function tokens(src: string): Token[] | null {
  const out: Token[] = [];
  let i = 0;
  const n = src.length;
  while (i < n) {
    const c = src[i]!;
    if (/\s/.test(c)) { i++; continue; }
    if (c === '/' && src[i + 1] === '/') { const e = src.indexOf('\n', i); i = e < 0 ? n : e; continue; }
    if (c === '/' && src[i + 1] === '*') { const e = src.indexOf('*/', i + 2); if (e < 0) return null; i = e + 2; continue; }
    if (c === '`' || c === '\\') return null;
    if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < n && src[j] !== c) { if (src[j] === '\\' || src[j] === '\n') return null; j++; }
      if (j >= n) return null;
      out.push({ t: 'str', v: src.slice(i, j + 1) });
      i = j + 1;
      continue;
    }
    const name = /^[A-Za-z_$][\w$]*/.exec(src.slice(i, i + 256));
    if (name !== null) { out.push({ t: 'name', v: name[0] }); i += name[0].length; continue; }
    const num = /^(?:0[xX][0-9a-fA-F]+|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)/.exec(src.slice(i, i + 64));
    if (num !== null && /[\d.]/.test(c)) { out.push({ t: 'num', v: num[0] }); i += num[0].length; continue; }
    const p = /^(?:>>>=|\.\.\.|===|!==|\*\*=|<<=|>>=|>>>|=>|==|!=|<=|>=|&&|\|\||\?\?|\?\.|\+\+|--|\+=|-=|\*=|\/=|%=|&=|\|=|\^=|\*\*|<<|>>|[{}()[\];,.<>+\-*/%&|^!~?:=])/.exec(src.slice(i, i + 4));
    if (p === null) return null; // (a `#`, `@`, a non-ASCII name: not recognised)
    // A `/` that cannot be division starts a regular expression.
    if (p[0] === '/' || p[0] === '/=') {
      const prev = out[out.length - 1];
      if (prev === undefined || !(prev.t === 'name' || prev.t === 'num' || prev.v === ')' || prev.v === ']')) return null;
    }
    out.push({ t: 'punct', v: p[0] });
    i += p[0].length;
  }
  return out;
}

// The parameters: `(e, p, v) =>`, `(e, { pos, vel: v }) =>`, `e =>`,
// `function [name](...)`. Returns the bound names (name -> what it is), the
// index where the body starts, or null for any other shape.
function params(ts: Token[], refs: RefBindings): { bound: Map<string, string | number | 'entity' | 'refs'>; body: number } | null {
  let k = 0;
  if (ts[0]?.v === 'function') {
    k = 1;
    if (ts[k]?.t === 'name') k++;
  }
  const bound = new Map<string, string | number | 'entity' | 'refs'>();
  const simple = (tok: Token | undefined): boolean => tok !== undefined && tok.t === 'name' && !STATEMENT.has(tok.v) && !NEVER.has(tok.v) && !LITERALS.has(tok.v);
  if (k === 0 && simple(ts[0]) && ts[1]?.v === '=>') {
    bound.set(ts[0]!.v, 'entity');
    return { bound, body: 2 };
  }
  if (ts[k]?.v !== '(') return null;
  k++;
  let index = 0;
  while (ts[k]?.v !== ')') {
    if (index > 0) { if (ts[k]?.v !== ',') return null; k++; }
    const tok = ts[k];
    if (simple(tok)) {
      const v = tok!.v;
      if (index === 0) bound.set(v, 'entity');
      else if (refs.positional !== null && index - 1 < refs.positional.length) bound.set(v, index - 1);
      else if (refs.named !== null && index === 1) bound.set(v, 'refs');
      else return null;
      k++;
    } else if (tok?.v === '{' && index === 1 && refs.named !== null) {
      k++;
      while (ts[k]?.v !== '}') {
        const term = ts[k];
        if (term === undefined || term.t !== 'name' || !refs.named.has(term.v)) return null;
        k++;
        let local = term.v;
        if (ts[k]?.v === ':') { const to = ts[k + 1]; if (!simple(to)) return null; local = to!.v; k += 2; }
        bound.set(local, term.v);
        if (ts[k]?.v === ',') k++;
        else if (ts[k]?.v !== '}') return null;
      }
      k++;
    } else {
      return null; // a default value, a rest parameter, a nested pattern
    }
    index++;
  }
  k++;
  if (ts[0]?.v !== 'function') {
    if (ts[k]?.v !== '=>') return null;
    k++;
  }
  return { bound, body: k };
}

/**
 * True when the callback whose source is `src` provably calls nothing while
 * it runs (see the rule above); false for anything else, including every
 * source the rule does not recognise.
 */
export function callFree(src: string, refs: RefBindings): boolean {
  const ts = tokens(src);
  if (ts === null) return false;
  const p = params(ts, refs);
  if (p === null) return false;
  const { bound } = p;
  const fieldsOf = (b: string | number | 'entity' | 'refs'): readonly string[] | undefined =>
    typeof b === 'number' ? refs.positional?.[b] : b === 'entity' || b === 'refs' ? undefined : refs.named?.get(b);
  // Locals: every name right after const/let/var (a second declarator of one
  // statement is not taken: it counts as unknown, which is safe).
  const locals = new Set<string>();
  for (let k = p.body; k < ts.length - 1; k++) {
    const v = ts[k]!.v;
    if ((v === 'const' || v === 'let' || v === 'var') && ts[k + 1]!.t === 'name') locals.add(ts[k + 1]!.v);
  }
  for (const l of locals) if (bound.has(l) || NEVER.has(l) || STATEMENT.has(l)) return false;
  for (let k = p.body; k < ts.length; k++) {
    const tok = ts[k]!;
    const prev = ts[k - 1];
    if (tok.t === 'name') {
      if (NEVER.has(tok.v)) return false;
      if (prev?.v === '.' || prev?.v === '?.') continue; // checked with its object below
      if (STATEMENT.has(tok.v) || LITERALS.has(tok.v) || locals.has(tok.v)) continue;
      const b = bound.get(tok.v);
      if (b === undefined) return false; // a closure variable or a global: anything may be behind it
      if (b === 'entity') continue;
      // A ref (or the refs object): only `.field` (or `.term.field`) reads and writes.
      let at = k;
      let fields = fieldsOf(b);
      let arrayKey: string | number | undefined = b === 'refs' ? undefined : b;
      if (b === 'refs') {
        if (ts[at + 1]?.v !== '.' || ts[at + 2]?.t !== 'name' || !refs.named!.has(ts[at + 2]!.v)) return false;
        arrayKey = ts[at + 2]!.v;
        fields = refs.named!.get(arrayKey);
        at += 2;
      }
      if (ts[at + 1]?.v !== '.' || ts[at + 2]?.t !== 'name' || fields === undefined || !fields.includes(ts[at + 2]!.v)) return false;
      const field = ts[at + 2]!.v;
      at += 2;
      if (ts[at + 1]?.v === '[' && !refs.arrays.get(arrayKey!)?.has(field)) return false;
      if (ts[at + 1]?.v === '.' || ts[at + 1]?.v === '?.' || ts[at + 1]?.v === '(') return false;
      k = at;
      continue;
    }
    if (tok.t !== 'punct') continue;
    switch (tok.v) {
      case '(':
        if (prev !== undefined && (prev.v === ')' || prev.v === ']' || prev.v === '.' || (prev.t === 'name' && !GROUPING_AFTER.has(prev.v)))) return false;
        break;
      case '[':
        // Only `ref.field[` (let through above); an array literal or a pattern can iterate.
        if (prev === undefined || prev.t !== 'name' || !(ts[k - 2]?.v === '.')) return false;
        break;
      case '{':
        if (prev !== undefined && k !== p.body && !BLOCK_AFTER.has(prev.v)) return false;
        break;
      case '.': case '?.':
        // A member of anything but a ref (handled with its name) may be an accessor.
        return false;
      case '...': case '=>':
        return false;
      default:
        break;
    }
  }
  return true;
}
