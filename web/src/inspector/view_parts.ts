// view_parts.ts - the DOM pieces of the inspector view (view.ts): plain
// elements built with textContent (names come from the world: never HTML),
// and the view's style sheet, added once per document.
import type { InspectEntity, InspectEntityRow, InspectSummary } from './protocol.js';

/** An element with a class and optional text. */
export function el<K extends keyof HTMLElementTagNameMap>(doc: Document, tag: K, cls = '', text?: string): HTMLElementTagNameMap[K] {
  const e = doc.createElement(tag);
  if (cls !== '') e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

/** A table of `head` columns and `rows` of cell texts (each row may carry data attributes). */
export function table(doc: Document, head: string[], rows: { cells: string[]; data?: Record<string, string>; cls?: string }[]): HTMLTableElement {
  const t = el(doc, 'table', 'li-table');
  const hr = el(doc, 'tr');
  for (const h of head) hr.append(el(doc, 'th', '', h));
  t.append(hr);
  for (const r of rows) {
    const tr = el(doc, 'tr', r.cls ?? '');
    for (const [k, v] of Object.entries(r.data ?? {})) tr.dataset[k] = v;
    for (const c of r.cells) tr.append(el(doc, 'td', '', c));
    t.append(tr);
  }
  return t;
}

/** "Entity(id, gen)", as formatEntity prints a handle. */
export function entityText(e: { id: number; gen: number }): string {
  return `Entity(${e.id}, ${e.gen})`;
}

/** The component names of a summary by id. */
export function componentNames(s: InspectSummary): Map<number, string> {
  return new Map(s.components.map((c) => [c.id, c.name]));
}

/** An archetype's label: its component names. */
export function archetypeLabel(s: InspectSummary, id: number): string {
  if (id === 0) return '(no components)';
  const names = componentNames(s);
  const a = s.archetypes.find((x) => x.id === id);
  return a === undefined ? `#${id}` : a.components.map((c) => names.get(c) ?? `#${c}`).join(', ');
}

/** The archetypes table (rows per archetype). */
export function archetypesTable(doc: Document, s: InspectSummary): HTMLTableElement {
  return table(doc, ['#', 'components', 'rows'], s.archetypes.map((a) => ({
    cells: [String(a.id), archetypeLabel(s, a.id), String(a.rows)], data: { archetype: String(a.id) },
  })));
}

/** A budget cell: "p99 / budget", marked over when p99 passes the budget. */
function overBudget(p: string, budget: string): boolean {
  const a = Number(p);
  const b = Number(budget);
  return Number.isFinite(a) && Number.isFinite(b) && a > b;
}

/** The systems table: declared access, timing against budget, warnings, tracked changes. */
export function systemsTable(doc: Document, s: InspectSummary): HTMLTableElement {
  const names = componentNames(s);
  const list = (ids: number[]) => (ids.length === 0 ? '-' : ids.map((c) => names.get(c) ?? `#${c}`).join(', '));
  // The last tick's changes of the change-tracked components a system writes.
  const changed = new Map(s.changes.map((c) => [c.component, c.changed]));
  const changes = (ids: number[]) => {
    const tracked = ids.filter((c) => changed.has(c));
    return tracked.length === 0 ? '-' : tracked.map((c) => `${names.get(c) ?? `#${c}`} ${changed.get(c)}`).join(', ');
  };
  return table(doc, ['system', 'reads', 'writes', 'p50 ms', 'p99 ms', 'budget ms', 'runs', 'over budget', 'changed (tracked writes)'], s.systems.map((x) => ({
    cells: [x.name, list(x.reads), list(x.writes), x.p50Ms, x.p99Ms, x.budgetMs, String(x.runs), `${x.warns} warn, ${x.errors} error`, changes(x.writes)],
    data: { system: x.name }, cls: overBudget(x.p99Ms, x.budgetMs) ? 'li-over' : '',
  })));
}

/** The tracked components' change counts of the last tick. */
export function changesTable(doc: Document, s: InspectSummary): HTMLElement {
  if (s.changes.length === 0) return el(doc, 'div', 'li-note', 'no component is change-tracked (trackChanges)');
  const names = componentNames(s);
  return table(doc, ['tracked component', 'added', 'changed'], s.changes.map((c) => ({ cells: [names.get(c.component) ?? `#${c.component}`, String(c.added), String(c.changed)] })));
}

/** The guardrails: entity budget and churn. */
export function guardrailsTable(doc: Document, s: InspectSummary): HTMLTableElement {
  const g = s.guardrails;
  return table(doc, ['guardrail', 'value'], [
    { cells: ['entities / capacity', `${g.entityCount} / ${g.capacity} (peak ${s.peak})`] },
    { cells: ['entity budget level', `${g.entityBudgetLevel} % (warns at 25/50/100 %: ${g.entityBudgetWarns.join(' / ')})`] },
    { cells: ['churn this frame / budget', `${g.frameChurn} / ${g.churnPerFrameBudget === 0 ? 'off' : g.churnPerFrameBudget}`] },
    { cells: ['churn warnings', String(g.churnWarns)] },
    { cells: ['created / destroyed', `${s.created} / ${s.destroyed}`] },
  ]);
}

/** The entity list: one button per entity. */
export function entityList(doc: Document, s: InspectSummary | null, rows: InspectEntityRow[], selected: number | null): HTMLElement {
  const ul = el(doc, 'ul', 'li-list');
  for (const r of rows) {
    const li = el(doc, 'li');
    const b = el(doc, 'button', r.handle === selected ? 'li-sel' : '', entityText(r));
    b.type = 'button';
    b.dataset.handle = String(r.handle);
    b.title = s === null ? '' : archetypeLabel(s, r.archetype);
    li.append(b);
    ul.append(li);
  }
  return ul;
}

/** The selected entity's components and field values (one row per field). */
export function entityTable(doc: Document, e: InspectEntity): HTMLElement {
  const box = el(doc, 'div');
  box.append(el(doc, 'div', 'li-entity-head', `${entityText(e)} at tick ${e.tick}`));
  const rows: { cells: string[]; data?: Record<string, string>; cls?: string }[] = [];
  for (const c of e.components) {
    if (c.fields.length === 0) rows.push({ cells: [c.name, '(tag)', ''], data: { field: c.name }, cls: 'li-comp' });
    for (const [i, f] of c.fields.entries()) {
      rows.push({ cells: [i === 0 ? c.name : '', `${f.name}: ${f.kind}`, f.values.join(', ')], data: { field: `${c.name}.${f.name}` } });
    }
  }
  box.append(table(doc, ['component', 'field', 'value'], rows));
  return box;
}

const STYLE = `
.laige-inspector{font:12px/1.4 system-ui,sans-serif;color:#1d2330;background:#f7f8fb;border:1px solid #cfd5e1;border-radius:6px;padding:8px;display:grid;gap:8px}
.laige-inspector .li-bar{display:flex;gap:8px;align-items:center;flex-wrap:wrap}
.laige-inspector .li-bar input[type=range]{flex:1;min-width:160px}
.laige-inspector .li-mono,.laige-inspector td{font-family:ui-monospace,monospace}
.laige-inspector button,.laige-inspector input,.laige-inspector select{font:inherit;color:#1d2330;background:#fff;border:1px solid #cfd5e1;border-radius:3px;padding:1px 6px;color-scheme:light}
.laige-inspector button:disabled{color:#9aa3b2}
.laige-inspector .li-cols{display:grid;grid-template-columns:minmax(150px,1fr) 2fr;gap:8px}
.laige-inspector .li-cols>div{min-width:0}
.laige-inspector .li-cols input,.laige-inspector .li-cols select{display:block;width:100%;box-sizing:border-box;margin-bottom:4px}
.laige-inspector .li-list{list-style:none;margin:4px 0;padding:0;max-height:260px;overflow:auto}
.laige-inspector .li-list button{font-family:ui-monospace,monospace;border:0;background:none;color:#1d2330;padding:1px 4px;cursor:pointer;width:100%;text-align:left}
.laige-inspector .li-list button:hover{background:#e6ebf5}
.laige-inspector .li-list button.li-sel{background:#2f6fde;color:#fff}
.laige-inspector .li-table{border-collapse:collapse;width:100%}
.laige-inspector .li-table th{text-align:left;font-weight:600;border-bottom:1px solid #cfd5e1;padding:2px 6px}
.laige-inspector .li-table td{padding:1px 6px;border-bottom:1px solid #eceff5;vertical-align:top}
.laige-inspector tr.li-over td{background:#fde8e8}
.laige-inspector .li-error{color:#b42318}
.laige-inspector .li-note{color:#5b6475}
.laige-inspector summary{cursor:pointer;font-weight:600}
`;

/** Adds the view's style sheet to `doc` once. */
export function addStyle(doc: Document): void {
  if (doc.getElementById('laige-inspector-style') !== null) return;
  const s = el(doc, 'style');
  s.id = 'laige-inspector-style';
  s.textContent = STYLE;
  doc.head.append(s);
}
