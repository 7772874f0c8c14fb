// Every place the TypeScript layer builds a LaigeError agrees with
// docs/errors.md, read from the source (web/src) with the TypeScript
// compiler: each reason it names is documented and not marked C++ only,
// each field it sets is in the reason's Fields cell, and each literal value
// of a field the cell enumerates (`object (\`World\`, ...)`) is listed
// there. The runtime side (every documented reason provoked from
// TypeScript, with its fields) is reason_coverage.test.ts.
import { readFileSync, readdirSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import * as api from '../../dist/index.js';
import { ERRORS_DOC, RAISED_IN_TYPESCRIPT, REASON_ROWS, documentedField } from './support/reasons.js';

const srcDir = new URL('../../web/src/', import.meta.url);

/** One place that builds a LaigeError: reason, the field keys it sets, the literal values of some. */
interface Site { file: string; line: number; reasons: string[]; keys: string[]; values: Record<string, string> }

function literalStrings(e: ts.Expression | undefined): string[] {
  if (e === undefined) return [];
  if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) return [e.text];
  if (ts.isConditionalExpression(e)) return [...literalStrings(e.whenTrue), ...literalStrings(e.whenFalse)];
  if (ts.isParenthesizedExpression(e)) return literalStrings(e.expression);
  return [];
}

/** The object literal an expression stands for: itself, an arrow's body, or a local const's initializer. */
function objectOf(e: ts.Expression | undefined, scope: ts.Node): ts.ObjectLiteralExpression | null {
  if (e === undefined) return null;
  if (ts.isParenthesizedExpression(e)) return objectOf(e.expression, scope);
  if (ts.isObjectLiteralExpression(e)) return e;
  if (ts.isArrowFunction(e) && !ts.isBlock(e.body)) return objectOf(e.body, scope);
  if (ts.isIdentifier(e)) {
    let found: ts.ObjectLiteralExpression | null = null;
    const visit = (n: ts.Node): void => {
      if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && n.name.text === e.text) found ??= objectOf(n.initializer, scope);
      ts.forEachChild(n, visit);
    };
    visit(scope);
    return found;
  }
  return null;
}

function keysOf(o: ts.ObjectLiteralExpression | null, scope: ts.Node): { keys: string[]; values: Record<string, string> } {
  const keys: string[] = [];
  const values: Record<string, string> = {};
  for (const p of o?.properties ?? []) {
    if (ts.isShorthandPropertyAssignment(p)) keys.push(p.name.text);
    else if (ts.isPropertyAssignment(p) && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name))) {
      keys.push(p.name.text);
      const lit = literalStrings(p.initializer);
      if (lit.length === 1) values[p.name.text] = lit[0]!;
    } else if (ts.isSpreadAssignment(p)) {
      // `...whereField(where)` is { where, field }; a spread object is read through.
      if (ts.isCallExpression(p.expression) && p.expression.expression.getText() === 'whereField') keys.push('where', 'field');
      else {
        const inner = keysOf(objectOf(p.expression, scope), scope);
        keys.push(...inner.keys);
        Object.assign(values, inner.values);
      }
    }
  }
  return { keys, values };
}

function enclosingFunction(n: ts.Node): ts.Node {
  let p: ts.Node = n;
  while (p.parent !== undefined && !ts.isFunctionLike(p)) p = p.parent;
  return p;
}

/** The reasons and fields checkArg (base/args.ts) throws for each kind of declarative check (a `limit` names its own). */
const DECLARED_REASONS: Record<string, { reasons: string[]; keys: string[] }> = {
  u32: { reasons: ['wrong_type', 'out_of_range'], keys: ['where', 'field', 'got', 'min', 'max'] },
  u64: { reasons: ['wrong_type', 'out_of_range'], keys: ['where', 'field', 'got', 'expected'] },
  oneOf: { reasons: ['invalid_value', 'wrong_type'], keys: ['where', 'field', 'got'] },
  object: { reasons: ['wrong_type'], keys: ['where', 'field', 'got'] },
  function: { reasons: ['wrong_type'], keys: ['where', 'field', 'got'] },
  boolean: { reasons: ['wrong_type'], keys: ['where', 'field', 'got'] },
  string: { reasons: ['wrong_type'], keys: ['where', 'field', 'got'] },
  bytes: { reasons: ['wrong_type'], keys: ['where', 'field', 'got'] },
};

function sites(): Site[] {
  const out: Site[] = [];
  for (const file of (readdirSync(srcDir, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts'))) {
    const text = readFileSync(new URL(file, srcDir), 'utf8');
    const sf = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
    const visit = (n: ts.Node): void => {
      const call = ts.isCallExpression(n) ? n : null;
      const ctor = ts.isNewExpression(n) && n.expression.getText() === 'LaigeError' ? n : null;
      const name = call?.expression.getText();
      const args = call?.arguments ?? ctor?.arguments;
      const line = sf.getLineAndCharacterOfPosition(n.getStart()).line + 1;
      const scope = enclosingFunction(n);
      const add = (reasons: string[], fields: { keys: string[]; values: Record<string, string> }) => {
        if (reasons.length > 0) out.push({ file, line, reasons, ...fields });
      };
      if (args !== undefined) {
        if (name === 'invalid') add(literalStrings(args[1]), keysOf(objectOf(args[2], scope), scope));
        else if (ctor !== null) add(literalStrings(args[2]), keysOf(objectOf(args[3], scope), scope));
        else if (name === 'coreRange') {
          const k = keysOf(objectOf(args[5], scope), scope);
          add(literalStrings(args[4]), { keys: ['where', ...k.keys], values: k.values });
        } else if (name === 'usedAfterCall' && file !== 'system_io.ts') {
          add(['used_after_call'], { keys: ['where', 'object'], values: Object.fromEntries(literalStrings(args[1]).map((v) => ['object', v])) });
        } else if (name === 'refuseDisposeInside' && file !== 'reentrancy.ts') {
          add(['dispose_inside_call'], { keys: ['call', 'object', 'callback'], values: Object.fromEntries(literalStrings(args[1]).map((v) => ['object', v])) });
        }
      }
      // A declarative check (base/args.ts ArgCheck): an object literal with a `type` the checker knows.
      if (ts.isObjectLiteralExpression(n)) {
        const prop = (key: string) => n.properties.find((p): p is ts.PropertyAssignment => ts.isPropertyAssignment(p) && p.name.getText() === key);
        const type = literalStrings(prop('type')?.initializer)[0];
        if (type === 'limit') {
          const k = keysOf(objectOf(prop('fields')?.initializer, scope), scope);
          add(literalStrings(prop('reason')?.initializer), { keys: ['where', ...k.keys], values: k.values });
        } else if (type !== undefined && DECLARED_REASONS[type] !== undefined) {
          add(DECLARED_REASONS[type]!.reasons, { keys: DECLARED_REASONS[type]!.keys, values: {} });
        }
      }
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }
  return out;
}

/** The members of a string-literal union type alias `name` in web/src/`file`. */
function unionMembers(file: string, name: string): string[] {
  const text = readFileSync(new URL(file, srcDir), 'utf8');
  const m = new RegExp(`export type ${name} =([^;]*);`).exec(text);
  return [...(m?.[1] ?? '').matchAll(/'([^']+)'/g)].map((x) => x[1]!);
}

describe('every LaigeError the TypeScript layer builds agrees with docs/errors.md', () => {
  const all = sites();

  it('finds the sites (the scan works)', () => {
    expect(all.length).toBeGreaterThan(150);
    const byReason = new Set(all.flatMap((s) => s.reasons));
    for (const r of ['wrong_type', 'out_of_range', 'disposed', 'used_after_call', 'dispose_inside_call', 'rollback_option_invalid', 'restore_inside_callback']) {
      expect(byReason.has(r), r).toBe(true);
    }
  });

  it('each reason is documented and not marked C++ only; each field is in its Fields cell', () => {
    const problems: string[] = [];
    for (const s of all) {
      for (const reason of s.reasons) {
        const row = REASON_ROWS.get(reason);
        if (row === undefined) { problems.push(`${s.file}:${s.line}: ${reason} is not documented`); continue; }
        if (row.cppOnly) problems.push(`${s.file}:${s.line}: ${reason} is thrown here but marked (C++ only)`);
        for (const k of s.keys) if (!documentedField(reason, k)) problems.push(`${s.file}:${s.line}: ${reason} sets field '${k}', not in its Fields cell (${row.fieldsCell})`);
        for (const [k, v] of Object.entries(s.values)) {
          const listed = row.fieldValues.get(k);
          if (listed !== undefined && !listed.has(v)) problems.push(`${s.file}:${s.line}: ${reason} sets ${k} = '${v}', not among ${[...listed].join(', ')}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('every callback kind and every object a refusal can name is listed', () => {
    const kinds = unionMembers('base/reentrancy.ts', 'CallbackKind');
    const objects = unionMembers('base/reentrancy.ts', 'DisposableObject');
    expect(kinds.length).toBeGreaterThan(8);
    for (const reason of ['tick_inside_callback', 'restore_inside_callback']) {
      const listed = REASON_ROWS.get(reason)!.fieldValues.get('callback');
      // Inside a log handler a tick or a restore is call_inside_log_handler.
      const want = kinds.filter((k) => k !== 'onLog');
      expect(want.filter((k) => !listed?.has(k)), `${reason}: callback values`).toEqual([]);
    }
    expect(objects.filter((o) => !REASON_ROWS.get('dispose_inside_call')!.fieldValues.get('object')?.has(o))).toEqual([]);
  });

  it('every exported class with dispose() is listed under `disposed` and `dispose_inside_call`', () => {
    const disposable = Object.entries(api)
      .filter(([, v]) => typeof v === 'function' && typeof (v as { prototype?: { dispose?: unknown } }).prototype?.dispose === 'function')
      .map(([k]) => k);
    expect(disposable).toEqual(expect.arrayContaining(['World', 'GameLoop', 'ReplayRecorder', 'RollbackSession', 'ScenarioRun']));
    const listed = REASON_ROWS.get('disposed')!.fieldValues.get('object')!;
    expect(disposable.filter((c) => !listed.has(c))).toEqual([]);
    const inUse = REASON_ROWS.get('dispose_inside_call')!.fieldValues.get('object')!;
    expect(disposable.filter((c) => !inUse.has(c))).toEqual([]);
  });

  it('the enforced-access table names every Query method that reads the world', () => {
    const doc = readFileSync(new URL('../../docs/typescript.md', import.meta.url), 'utf8');
    const section = doc.slice(doc.indexOf('### Enforced access'), doc.indexOf('## Callbacks and re-entrancy'));
    // toString (and util.inspect) print the query's terms, never the world.
    const methods = Object.getOwnPropertyNames(api.Query.prototype).filter((n) => n !== 'constructor' && n !== 'toString' && !n.startsWith('_'))
      .filter((n) => typeof Object.getOwnPropertyDescriptor(api.Query.prototype, n)?.value === 'function');
    expect(methods).toEqual(expect.arrayContaining(['each', 'eachChunk', 'count', 'archetypes']));
    expect(methods.filter((m) => !section.includes(`\`Query.${m}()\``))).toEqual([]);
  });

  it('the core reasons raised in TypeScript are documented rows', () => {
    expect(RAISED_IN_TYPESCRIPT.size).toBeGreaterThan(15);
    for (const r of RAISED_IN_TYPESCRIPT) expect(REASON_ROWS.get(r)!.cppOnly, r).toBe(false);
  });

  it('the (C++ only) marking is explained, and written one way on every row', () => {
    expect(ERRORS_DOC).toMatch(/\*\*\(C\+\+ only\)\*\*/);
    for (const line of ERRORS_DOC.split('\n')) {
      if (line.includes('(C++ only)') && line.startsWith('| <a id="reason-')) expect(line).toMatch(/^\| <a id="reason-([a-z0-9_]+)"><\/a>`\1` \(C\+\+ only\) \|/);
    }
  });
});
