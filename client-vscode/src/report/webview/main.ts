// The report webview's script: renders what the extension posts (see ../messages.ts). Builds the
// DOM with createElement/textContent only, since segment texts come from user files. The table
// shows one page of segments; sorting, filtering and paging ask the extension for other rows. An
// annotator's file gets the agreement view (./agreement.ts), after its report if it has one.
import type { AgreementView } from '../agreementData';
import type { FromWebview, ToWebview } from '../messages';
import type { Histogram, ReportView } from '../reportData';
import { LOWER_IS_BETTER, PAGE_SIZE, filterLabel, filterValue } from '../reportData';
import { METRIC_LABEL, formatMetric, scoredAgainst } from '../../scoreFormat';
import type { ColumnKey, FilterOp, ReportQuery } from '../../protocol';
import { renderAgreement } from './agreement';
import { el } from './dom';

interface VsCodeApi {
  postMessage(message: FromWebview): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const root = document.getElementById('report') as HTMLElement;
let current: ReportView | undefined;
let agreement: AgreementView | undefined;
const FILTER_OPS: readonly FilterOp[] = ['>', '>=', '<', '<='];

function svg<K extends keyof SVGElementTagNameMap>(tag: K, attributes: Record<string, string | number>): SVGElementTagNameMap[K] {
  const node = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  return node;
}

function renderCorpus(view: ReportView): HTMLElement {
  const table = el('table', { className: 'corpus' });
  table.append(el('tr', {}, el('th', { text: 'Metric' }), el('th', { text: 'Score' }), el('th', { text: 'Details' }), el('th', { text: 'Signature' })));
  for (const d of view.corpus) {
    table.append(
      el('tr', {}, el('td', { text: d.label }), el('td', { className: 'score', text: d.value }), el('td', { text: d.detail }), el('td', {}, el('code', { text: d.signature }))),
    );
  }
  return el('section', {}, el('h2', { text: 'Corpus scores' }), table);
}

/** A bar chart in plain SVG: one bar per bin, count on top, bin label below. */
function renderHistogram(h: Histogram): HTMLElement {
  const barWidth = 40, gap = 6, chartHeight = 120, top = 16, labelHeight = 24;
  const width = h.bins.length * (barWidth + gap) + gap;
  const max = Math.max(1, ...h.bins.map((b) => b.count));
  const chart = svg('svg', { viewBox: `0 0 ${width} ${top + chartHeight + labelHeight}`, role: 'img', class: 'histogram' });
  chart.append(svg('line', { x1: 0, x2: width, y1: top + chartHeight, y2: top + chartHeight, class: 'axis' }));
  h.bins.forEach((bin, i) => {
    const x = gap + i * (barWidth + gap);
    const height = (bin.count / max) * chartHeight;
    const bar = svg('rect', { x, y: top + chartHeight - height, width: barWidth, height, class: `bar ${LOWER_IS_BETTER.has(h.metric) ? 'error-rate' : 'score'}` });
    const title = svg('title', {});
    title.textContent = `${bin.label}: ${bin.count} segment${bin.count === 1 ? '' : 's'}`;
    bar.append(title);
    const count = svg('text', { x: x + barWidth / 2, y: top + chartHeight - height - 3, class: 'count' });
    count.textContent = bin.count ? String(bin.count) : '';
    const label = svg('text', { x: x + barWidth / 2, y: top + chartHeight + 14, class: 'label' });
    label.textContent = bin.label;
    chart.append(bar, count, label);
  });
  chart.setAttribute('aria-label', `${h.title} histogram`);
  const caption = el('p', { className: 'muted', text: `${h.total} segments, mean ${h.mean}` });
  return el('figure', { className: 'histogram-figure' }, el('figcaption', { text: h.title }), chart, caption);
}

function ask(query: ReportQuery): void {
  root.classList.add('busy');
  vscode.postMessage({ type: 'query', query });
}

function columnLabel(key: ColumnKey): string {
  return key === 'line' ? 'Line' : key === 'edits' ? 'S / D / I' : METRIC_LABEL[key];
}

/** Filter chips (each removable) and a form adding one: column, comparison, value in the shown units. */
function renderFilters(view: ReportView): HTMLElement {
  const { query } = view;
  const chips = query.filters.map((f, i) => {
    const remove = el('button', { className: 'chip-remove', text: '×' });
    remove.title = 'Remove this filter';
    remove.addEventListener('click', () => ask({ ...query, offset: 0, filters: query.filters.filter((_, j) => j !== i) }));
    return el('span', { className: 'chip' }, el('span', { text: filterLabel(f.key, f.op, f.value) }), remove);
  });
  const keys: ColumnKey[] = [...view.columns, ...(view.hasEdits ? ['edits' as ColumnKey] : [])];
  const key = el('select');
  key.setAttribute('aria-label', 'Filter column');
  for (const k of keys) key.append(Object.assign(el('option', { text: k === 'edits' ? 'Edits (S+D+I)' : columnLabel(k) }), { value: k }));
  const op = el('select');
  op.setAttribute('aria-label', 'Comparison');
  for (const o of FILTER_OPS) op.append(Object.assign(el('option', { text: o }), { value: o }));
  const value = el('input');
  value.type = 'number';
  value.step = 'any';
  value.placeholder = 'value (WER in %)';
  value.setAttribute('aria-label', 'Filter value');
  const add = el('button', { text: 'Add filter' });
  const form = el('form', { className: 'filter-form' }, key, op, value, add);
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const shown = Number.parseFloat(value.value);
    if (!Number.isFinite(shown)) return value.focus();
    const k = key.value as ColumnKey;
    ask({ ...query, offset: 0, filters: [...query.filters, { key: k, op: op.value as FilterOp, value: filterValue(k, shown) }] });
  });
  return el('div', { className: 'filters' }, ...chips, form);
}

function renderPager(view: ReportView): HTMLElement {
  const { query, total } = view;
  const last = Math.max(0, Math.floor((total - 1) / PAGE_SIZE) * PAGE_SIZE);
  const button = (text: string, offset: number, enabled: boolean) => {
    const b = el('button', { text });
    b.disabled = !enabled;
    b.addEventListener('click', () => ask({ ...query, offset }));
    return b;
  };
  const first = total ? query.offset + 1 : 0;
  const status = el('span', { className: 'muted page-status', text: `${first.toLocaleString('en')}–${(query.offset + view.rows.length).toLocaleString('en')} of ${total.toLocaleString('en')}` });
  return el(
    'nav',
    { className: 'pager' },
    button('« First', 0, query.offset > 0),
    button('‹ Previous', Math.max(0, query.offset - PAGE_SIZE), query.offset > 0),
    status,
    button('Next ›', query.offset + PAGE_SIZE, query.offset + PAGE_SIZE < total),
    button('Last »', last, query.offset < last),
  );
}

function renderTable(view: ReportView): HTMLElement {
  const { query } = view;
  const columns: ColumnKey[] = ['line', ...view.columns, ...(view.hasEdits ? ['edits' as ColumnKey] : [])];
  const table = el('table', { className: 'segments' });
  const head = el('tr');
  for (const key of columns) {
    const th = el('th', { className: 'sortable', text: columnLabel(key) });
    th.tabIndex = 0;
    if (query.sort === key) th.dataset.sorted = query.descending ? 'descending' : 'ascending';
    th.setAttribute('aria-sort', th.dataset.sorted ?? 'none');
    const toggle = () => ask({ ...query, offset: 0, sort: key, descending: query.sort === key ? !query.descending : false });
    th.addEventListener('click', toggle);
    th.addEventListener('keydown', (e) => (e.key === 'Enter' || e.key === ' ') && toggle());
    head.append(th);
  }
  head.append(el('th', { text: view.references.length ? 'Hypothesis / reference' : 'Hypothesis' }));
  table.append(el('thead', {}, head));
  const body = el('tbody');
  for (const row of view.rows) {
    const tr = el('tr', { className: 'segment' });
    tr.tabIndex = 0;
    tr.dataset.line = String(row.line + 1);
    tr.title = `Go to line ${row.line + 1}`;
    tr.append(el('td', { className: 'num', text: String(row.line + 1) }));
    for (const m of view.columns) tr.append(el('td', { className: 'num', text: row.values[m] === undefined ? '–' : formatMetric(m, row.values[m] as number) }));
    if (view.hasEdits) tr.append(el('td', { className: 'num', text: `${row.substitutions ?? 0} / ${row.deletions ?? 0} / ${row.insertions ?? 0}` }));
    tr.append(el('td', { className: 'texts' }, el('div', { className: 'hyp', text: row.hypothesis }), el('div', { className: 'ref', text: row.reference })));
    const reveal = () => vscode.postMessage({ type: 'reveal', line: row.line });
    tr.addEventListener('click', reveal);
    tr.addEventListener('keydown', (e) => e.key === 'Enter' && reveal());
    body.append(tr);
  }
  table.append(body);
  const order = query.sort === 'line' ? 'in line order' : `by ${columnLabel(query.sort)}, ${query.descending ? 'highest' : 'lowest'} first`;
  const filtered = query.filters.length ? ` matching the filters (of ${view.segments.toLocaleString('en')})` : '';
  const note = view.loading
    ? 'Loading the worst segments…'
    : `${view.total.toLocaleString('en')} segments${filtered}, ${order}. Click a column to sort, a row to go to its line.`;
  return el('section', { className: 'segments-section' }, el('h2', { text: 'Segments' }), renderFilters(view), el('p', { className: 'muted', text: note }), renderPager(view), table);
}

const openAt = (uri: string, line: number) => vscode.postMessage({ type: 'open', uri, line });

function render(): void {
  root.classList.remove('busy');
  const agreed = agreement ? [renderAgreement(agreement, openAt)] : [];
  if (!current) {
    if (agreement) root.replaceChildren(el('header', {}, el('h1', { text: agreement.fileName })), ...agreed);
    return;
  }
  const view = current;
  const header = el(
    'header',
    {},
    el('h1', { text: view.fileName }),
    el('p', { className: 'muted', text: scoredAgainst(view.segments.toLocaleString('en'), view.references.map((r) => r.name)) }),
  );
  const histograms = el('section', {}, el('h2', { text: 'Distribution per segment' }), el('div', { className: 'histograms' }, ...view.histograms.map(renderHistogram)));
  root.replaceChildren(header, renderCorpus(view), histograms, renderTable(view), ...agreed);
}

window.addEventListener('message', (event: MessageEvent<ToWebview>) => {
  const message = event.data;
  if (message.type === 'report') {
    current = message.view;
    agreement = message.agreement;
    render();
  } else if (message.type === 'agreement') {
    current = undefined;
    agreement = message.agreement;
    render();
  } else if (message.type === 'unavailable') {
    current = agreement = undefined;
    root.replaceChildren(el('h1', { text: message.fileName }), el('p', { className: 'muted', text: message.reason }));
  }
});
vscode.postMessage({ type: 'ready' });
