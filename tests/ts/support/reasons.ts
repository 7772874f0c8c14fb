// The documented reasons: every `reason` a LaigeError may carry is a row of
// the reason tables in docs/errors.md
// (`| <a id="reason-name"></a>\`name\` | code | fields | what | fix |`). Tests
// check each thrown reason against this set, so an undocumented reason
// fails. A row whose reason TypeScript never throws (the C++ API's, the
// native tools', the wasm layer's internal ones) is marked `(C++ only)`
// after the name.
import { readFileSync } from 'node:fs';

const doc = readFileSync(new URL('../../../docs/errors.md', import.meta.url), 'utf8');

/** One row of a reason table. */
export interface ReasonRow {
  readonly reason: string;
  /** Marked `(C++ only)`: no TypeScript call throws it. */
  readonly cppOnly: boolean;
  /** The Code cell: code ids (`invalid_argument / io_error`), `the tick's`, or `-`. */
  readonly code: string;
  /** The Fields cell as written. */
  readonly fieldsCell: string;
  /** The field names the Fields cell names (prose and value lists removed). */
  readonly fieldNames: ReadonlySet<string>;
  /** Per field, the values the cell lists for it (`object (\`World\`, \`GameLoop\`)`); lists with prose (`e.g.`, `...`) are examples, left out. */
  readonly fieldValues: ReadonlyMap<string, ReadonlySet<string>>;
  /** The heading of the table it is in. */
  readonly section: string;
}

const ROW = /^\| <a id="reason-([a-z0-9_]+)"><\/a>`\1`( \(C\+\+ only\))? \| (.*) \|$/;

/** Drops parenthesised text, innermost first. */
function withoutParens(s: string): string {
  let out = s;
  for (let prev = ''; prev !== out;) {
    prev = out;
    out = out.replace(/\([^()]*\)/g, ' ');
  }
  return out;
}

function parseFields(cell: string): { names: Set<string>; values: Map<string, Set<string>> } {
  const values = new Map<string, Set<string>>();
  for (const m of cell.matchAll(/([a-z][a-z0-9_]*) \(([^()]*)\)/g)) {
    const list = m[2]!;
    // A value list is backticked values only (`a`, `b`); prose around them makes it an example.
    if (!list.includes('`') || list.replace(/`[^`]*`/g, '').replace(/[,\s]|\bor\b/g, '') !== '') continue;
    const set = values.get(m[1]!) ?? new Set<string>();
    for (const v of list.matchAll(/`([^`]+)`/g)) set.add(v[1]!);
    values.set(m[1]!, set);
  }
  const bare = withoutParens(cell.replace(/`[^`]*`/g, ' ').replace(/\[[^\]]*\]\([^)]*\)/g, ' '));
  const names = new Set([...bare.matchAll(/[a-z][a-z0-9_]*/g)].map((m) => m[0]));
  return { names, values };
}

function parseRows(): Map<string, ReasonRow> {
  const rows = new Map<string, ReasonRow>();
  let section = '';
  for (const line of doc.split('\n')) {
    if (line.startsWith('#')) section = line.replace(/^#+\s*/, '');
    const m = ROW.exec(line);
    if (m === null) continue;
    const cells = m[3]!.split(' | ');
    const code = cells[0]!;
    const fieldsCell = cells[1] ?? '';
    const { names, values } = parseFields(fieldsCell);
    rows.set(m[1]!, { reason: m[1]!, cppOnly: m[2] !== undefined, code, fieldsCell, fieldNames: names, fieldValues: values, section });
  }
  return rows;
}

/** Every reason row of docs/errors.md, by reason. */
export const REASON_ROWS: ReadonlyMap<string, ReasonRow> = parseRows();

/** Every reason documented in docs/errors.md. */
export const DOCUMENTED_REASONS: ReadonlySet<string> = new Set(REASON_ROWS.keys());

/** The reasons marked `(C++ only)`: TypeScript never throws them. */
export const CPP_ONLY_REASONS: ReadonlySet<string> = new Set([...REASON_ROWS.values()].filter((r) => r.cppOnly).map((r) => r.reason));

/**
 * The core reasons the TypeScript layer raises itself (docs/errors.md,
 * "Core reasons raised in TypeScript"): they may add `where` to the core's fields.
 */
export const RAISED_IN_TYPESCRIPT: ReadonlySet<string> = (() => {
  const start = doc.indexOf('### Core reasons raised in TypeScript');
  const text = doc.slice(start, doc.indexOf('\n#', start + 1));
  return new Set([...text.matchAll(/`([a-z0-9_]+)`/g)].map((m) => m[1]!).filter((r) => DOCUMENTED_REASONS.has(r)));
})();

/** The fields a LaigeError of `reason` thrown by TypeScript may carry: its row's, plus `where` for a core reason raised in TypeScript. */
export function documentedField(reason: string, field: string): boolean {
  const row = REASON_ROWS.get(reason);
  if (row === undefined) return false;
  return row.fieldNames.has(field) || (field === 'where' && RAISED_IN_TYPESCRIPT.has(reason));
}

/** The text of docs/errors.md (for checks of its prose). */
export const ERRORS_DOC = doc;
