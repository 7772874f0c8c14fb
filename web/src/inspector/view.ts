// view.ts - the inspector's DOM view (docs/inspector.md#in-your-app):
// mountInspector(element, source) fills `element` with the entity list
// (searchable by slot id, handle bits or `Entity(id, gen)`, filtered by
// archetype), the selected entity's components and values, the archetypes
// with their rows, the systems (declared access, p50 / p99 against their
// budget, tracked-change counts), the guardrails, and a tick slider over the
// source's history with the state hash of the tick shown. Everything is
// read through source.ask (the protocol); refresh() re-reads it all, one
// refresh at a time.
import { invalid, typeName } from '../base/errors.js';
import { describe } from '../base/describe.js';
import type { InspectorSource } from './world_source.js';
import { type InspectEntitiesPage, type InspectEntity, type InspectHistoryInfo, type InspectSummary, MAX_INSPECT_PAGE, inspectRequest } from './protocol.js';
import { addStyle, archetypeLabel, archetypesTable, changesTable, el, entityList, entityTable, guardrailsTable, systemsTable } from './view_parts.js';

/** mountInspector's options. */
export interface InspectorViewOptions {
  /** Entities listed per page (1..200, default 50). */
  pageSize?: number;
}

/** What mountInspector returns. */
export interface InspectorView {
  /** Re-reads everything from the source (the shown tick stays, or follows the newest while following). */
  refresh(): Promise<void>;
  /** Shows entity `handle` (its handle bits), or nothing (null). */
  select(handle: number | null): Promise<void>;
  /** Shows tick `tick` of the history (null: follow the newest tick). */
  seek(tick: number | null): Promise<void>;
  /** The selected entity's handle bits, or null. */
  readonly selected: number | null;
  /** The tick shown (null before the first refresh). */
  readonly tick: number | null;
  /** True while the view follows the newest tick. */
  readonly following: boolean;
  /** The last error the view showed (null after a clean refresh). */
  readonly error: unknown;
  /** Empties the element and ends the source. */
  dispose(): void;
}

/** A search text as a find number: a slot id, handle bits, or `Entity(id, gen)` / `id:gen`. */
function findOf(text: string): number | undefined | null {
  const t = text.trim();
  if (t === '') return undefined;
  const pair = /^(?:Entity\()?\s*(\d+)\s*[,:]\s*(\d+)\s*\)?$/.exec(t);
  if (pair !== null) return ((Number(pair[1]) << 16) | Number(pair[2])) >>> 0;
  return /^\d{1,10}$/.test(t) && Number(t) <= 0xffffffff ? Number(t) : null;
}

/**
 * Mounts the inspector into `element` over `source` (worldSource or
 * remoteSource) and shows it (the first refresh has started; await
 * view.refresh() for a settled view). Arguments of the wrong type are
 * wrong_type LaigeErrors.
 */
export function mountInspector(element: HTMLElement, source: InspectorSource, options: InspectorViewOptions = {}): InspectorView {
  const where = 'mountInspector';
  if (typeof element !== 'object' || element === null || typeof (element as HTMLElement).append !== 'function') {
    throw invalid(`${where}: element must be a DOM element, got ${describe(element)}`, 'wrong_type', { where, field: 'element', got: typeName(element) });
  }
  if (typeof source !== 'object' || source === null || typeof source.ask !== 'function') {
    throw invalid(`${where}: source must be an InspectorSource (worldSource, remoteSource), got ${describe(source)}`, 'wrong_type', { where, field: 'source', got: typeName(source) });
  }
  const pageSize = options.pageSize ?? 50;
  if (typeof pageSize !== 'number') throw invalid(`${where}: pageSize must be a number, got ${describe(pageSize)}`, 'wrong_type', { where, field: 'pageSize', got: typeName(pageSize) });
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_INSPECT_PAGE) {
    throw invalid(`${where}: pageSize must be 1..${MAX_INSPECT_PAGE}, got ${describe(pageSize)}`, 'out_of_range', { where, field: 'pageSize', got: pageSize, min: 1, max: MAX_INSPECT_PAGE });
  }
  const doc = element.ownerDocument;
  addStyle(doc);
  const root = el(doc, 'div', 'laige-inspector');
  const bar = el(doc, 'div', 'li-bar');
  const slider = el(doc, 'input');
  slider.type = 'range';
  slider.dataset.li = 'tick';
  slider.min = '0';
  slider.max = '0';
  const tickText = el(doc, 'span', 'li-mono');
  tickText.dataset.li = 'tick-text';
  const hashText = el(doc, 'span', 'li-mono');
  hashText.dataset.li = 'hash';
  const back = el(doc, 'button', '', '−100');
  const liveButton = el(doc, 'button', '', 'live');
  back.type = 'button';
  liveButton.type = 'button';
  bar.append(el(doc, 'span', '', 'tick'), slider, back, liveButton, tickText, hashText);
  const status = el(doc, 'div', 'li-note');
  status.dataset.li = 'status';
  const cols = el(doc, 'div', 'li-cols');
  const left = el(doc, 'div');
  const search = el(doc, 'input');
  search.placeholder = 'find: id, handle or Entity(id, gen)';
  search.dataset.li = 'find';
  const filter = el(doc, 'select');
  filter.dataset.li = 'archetype';
  const listBox = el(doc, 'div');
  listBox.dataset.li = 'entities';
  const pager = el(doc, 'div', 'li-note');
  const prev = el(doc, 'button', '', '‹');
  const next = el(doc, 'button', '', '›');
  const pageText = el(doc, 'span');
  prev.type = 'button';
  next.type = 'button';
  pager.append(prev, pageText, next);
  left.append(search, filter, listBox, pager);
  const entityBox = el(doc, 'div');
  entityBox.dataset.li = 'entity';
  cols.append(left, entityBox);
  const section = (title: string, name: string, open = true) => {
    const d = el(doc, 'details');
    d.open = open;
    d.append(el(doc, 'summary', '', title));
    const body = el(doc, 'div');
    body.dataset.li = name;
    d.append(body);
    return { d, body };
  };
  const arch = section('archetypes', 'archetypes');
  const sys = section('systems', 'systems');
  const guard = section('guardrails and changes', 'guardrails');
  root.append(bar, status, cols, arch.d, sys.d, guard.d);
  element.replaceChildren(root);

  let summary: InspectSummary | null = null;
  let history: InspectHistoryInfo | null = null;
  let selected: number | null = null;
  let shown: number | null = null;
  let following = true;
  let pinned = false;
  let offset = 0;
  let lastError: unknown = null;
  let listKey = '';
  let disposed = false;
  let chain: Promise<void> = Promise.resolve();

  const showError = (e: unknown) => {
    lastError = e;
    status.className = 'li-error';
    status.textContent = e instanceof Error ? e.message : String(e);
  };
  const showTick = () => {
    if (history !== null) {
      slider.min = String(history.first);
      slider.max = String(history.last);
      slider.disabled = !history.kept;
      back.disabled = !history.kept;
    }
    if (shown !== null) slider.value = String(shown);
    tickText.textContent = shown === null ? '' : `${shown}${following ? ' (live)' : ''}`;
    hashText.textContent = summary === null ? '' : `hash ${summary.hash}`;
  };
  const showSummary = (s: InspectSummary) => {
    summary = s;
    shown = s.tick;
    const keep = filter.value;
    filter.replaceChildren(el(doc, 'option', '', 'every archetype'));
    (filter.firstChild as HTMLOptionElement).value = '';
    for (const a of [{ id: 0, rows: 0, components: [] }, ...s.archetypes]) {
      const o = el(doc, 'option', '', `${archetypeLabel(s, a.id)}${a.id === 0 ? '' : ` (${a.rows})`}`);
      o.value = String(a.id);
      filter.append(o);
    }
    filter.value = keep;
    arch.body.replaceChildren(archetypesTable(doc, s));
    sys.body.replaceChildren(systemsTable(doc, s));
    guard.body.replaceChildren(guardrailsTable(doc, s), changesTable(doc, s));
    showTick();
  };
  const readPage = async () => {
    const find = findOf(search.value);
    if (find === null) {
      listKey = '';
      listBox.replaceChildren(el(doc, 'div', 'li-error', 'find: a number, or Entity(id, gen)'));
      return;
    }
    const page = await source.ask(inspectRequest.entities(offset, pageSize, {
      archetype: filter.value === '' ? undefined : Number(filter.value), find,
    })) as InspectEntitiesPage;
    // Rebuilt only when it changed: a refresh keeps the buttons a user is about to click.
    const key = JSON.stringify([page.items, selected]);
    if (key !== listKey) {
      listKey = key;
      listBox.replaceChildren(entityList(doc, summary, page.items, selected));
    }
    pageText.textContent = ` ${page.total === 0 ? 0 : offset + 1}–${offset + page.items.length} of ${page.total} `;
    prev.disabled = offset === 0;
    next.disabled = offset + page.items.length >= page.total;
  };
  const readEntity = async () => {
    if (selected === null) {
      entityBox.replaceChildren(el(doc, 'div', 'li-note', 'select an entity'));
      return;
    }
    try {
      entityBox.replaceChildren(entityTable(doc, await source.ask(inspectRequest.entity(selected)) as InspectEntity));
    } catch (e) {
      if ((e as { reason?: string }).reason !== 'inspect_unknown_entity') throw e;
      entityBox.replaceChildren(el(doc, 'div', 'li-note', `entity ${selected} is not live at tick ${shown}`));
    }
  };
  // One step at a time: a refresh, a seek or a select waits for the one before.
  const queue = (step: () => Promise<void>): Promise<void> => {
    chain = chain.then(async () => {
      if (disposed) return;
      try {
        await step();
        lastError = null;
        status.className = 'li-note';
        status.textContent = `${summary?.entities ?? 0} entities · ${summary?.archetypes.length ?? 0} archetypes · ${summary?.systems.length ?? 0} systems`;
      } catch (e) {
        showError(e);
      }
    });
    return chain;
  };
  const refreshNow = async () => {
    history = await source.ask(inspectRequest.history()) as InspectHistoryInfo;
    if (following && pinned) {
      pinned = false;
      showSummary(await source.ask(inspectRequest.seek(history.last)) as InspectSummary);
    } else {
      showSummary(await source.ask(inspectRequest.summary()) as InspectSummary);
    }
    await readPage();
    await readEntity();
  };
  const seekNow = async (tick: number | null) => {
    history = await source.ask(inspectRequest.history()) as InspectHistoryInfo;
    following = tick === null || tick === history.last;
    pinned = !following;
    showSummary(await source.ask(inspectRequest.seek(tick ?? history.last)) as InspectSummary);
    await readPage();
    await readEntity();
  };

  slider.addEventListener('change', () => { void queue(() => seekNow(Number(slider.value))); });
  slider.addEventListener('input', () => {
    const h = source.hashAt(Number(slider.value));
    tickText.textContent = slider.value;
    hashText.textContent = h === null ? '' : `hash ${h}`;
  });
  back.addEventListener('click', () => { void queue(() => seekNow(Math.max(history?.first ?? 0, (shown ?? 0) - 100))); });
  liveButton.addEventListener('click', () => { void queue(() => seekNow(null)); });
  search.addEventListener('input', () => { offset = 0; void queue(readPage); });
  filter.addEventListener('change', () => { offset = 0; void queue(readPage); });
  prev.addEventListener('click', () => { offset = Math.max(0, offset - pageSize); void queue(readPage); });
  next.addEventListener('click', () => { offset += pageSize; void queue(readPage); });
  listBox.addEventListener('click', (ev) => {
    const b = (ev.target as HTMLElement).closest('button');
    if (b?.dataset.handle === undefined) return;
    selected = Number(b.dataset.handle);
    listKey = '';
    listBox.querySelectorAll('button').forEach((x) => x.classList.toggle('li-sel', x === b));
    void queue(readEntity);
  });

  void queue(refreshNow);
  return {
    refresh: () => queue(refreshNow),
    select(handle: number | null) {
      selected = handle === null ? null : handle >>> 0;
      return queue(async () => { await readPage(); await readEntity(); });
    },
    seek: (tick: number | null) => queue(() => seekNow(tick)),
    get selected() { return selected; },
    get tick() { return shown; },
    get following() { return following; },
    get error() { return lastError; },
    dispose() {
      disposed = true;
      element.replaceChildren();
      source.close();
    },
  };
}
