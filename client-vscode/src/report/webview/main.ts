// The report webview's script: renders what the extension posts (see ../messages.ts). Builds the
// DOM with createElement/textContent only, since segment texts come from user files.
import type { FromWebview, ToWebview } from '../messages';
import type { Histogram, ReportRow, ReportView } from '../reportData';
import { LOWER_IS_BETTER } from '../reportData';
import { METRIC_LABEL, formatMetric } from '../../scoreFormat';
import type { MetricId } from '../../protocol';

interface VsCodeApi {
  postMessage(message: FromWebview): void;
  getState(): SortState | undefined;
  setState(state: SortState): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

type SortKey = 'line' | MetricId | 'edits';
interface SortState {
  key: SortKey;
  ascending: boolean;
}

const vscode = acquireVsCodeApi();
const root = document.getElementById('report') as HTMLElement;
let current: ReportView | undefined;
let sort: SortState | undefined = vscode.getState();

function el<K extends keyof HTMLElementTagNameMap>(tag: K, props: { className?: string; text?: string } = {}, ...children: Node[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (props.className) node.className = props.className;
  if (props.text !== undefined) node.textContent = props.text;
  node.append(...children);
  return node;
}

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

function rowValue(row: ReportRow, key: SortKey): number {
  if (key === 'line') return row.line;
  if (key === 'edits') return (row.substitutions ?? 0) + (row.deletions ?? 0) + (row.insertions ?? 0);
  return row.values[key] ?? NaN;
}

function sortedRows(view: ReportView): ReportRow[] {
  if (!sort) return view.rows; // the extension's order: worst first
  const { key, ascending } = sort;
  return [...view.rows].sort((a, b) => {
    const d = rowValue(a, key) - rowValue(b, key);
    return (Number.isNaN(d) ? 0 : ascending ? d : -d) || a.line - b.line;
  });
}

function renderTable(view: ReportView): HTMLElement {
  const hasEdits = view.rows.some((r) => r.substitutions !== undefined);
  const columns: { key: SortKey; label: string }[] = [
    { key: 'line', label: 'Line' },
    ...view.columns.map((m) => ({ key: m as SortKey, label: METRIC_LABEL[m] })),
    ...(hasEdits ? [{ key: 'edits' as SortKey, label: 'S / D / I' }] : []),
  ];
  const table = el('table', { className: 'segments' });
  const head = el('tr');
  for (const column of columns) {
    const th = el('th', { className: 'sortable', text: column.label });
    th.tabIndex = 0;
    if (sort?.key === column.key) th.dataset.sorted = sort.ascending ? 'ascending' : 'descending';
    th.setAttribute('aria-sort', th.dataset.sorted ?? 'none');
    const toggle = () => {
      sort = { key: column.key, ascending: sort?.key === column.key ? !sort.ascending : true };
      vscode.setState(sort);
      render();
    };
    th.addEventListener('click', toggle);
    th.addEventListener('keydown', (e) => (e.key === 'Enter' || e.key === ' ') && toggle());
    head.append(th);
  }
  head.append(el('th', { text: 'Hypothesis / reference' }));
  table.append(el('thead', {}, head));
  const body = el('tbody');
  for (const row of sortedRows(view)) {
    const tr = el('tr', { className: 'segment' });
    tr.tabIndex = 0;
    tr.dataset.line = String(row.line + 1);
    tr.title = `Go to line ${row.line + 1}`;
    tr.append(el('td', { className: 'num', text: String(row.line + 1) }));
    for (const m of view.columns) tr.append(el('td', { className: 'num', text: row.values[m] === undefined ? '–' : formatMetric(m, row.values[m] as number) }));
    if (hasEdits) tr.append(el('td', { className: 'num', text: `${row.substitutions ?? 0} / ${row.deletions ?? 0} / ${row.insertions ?? 0}` }));
    tr.append(el('td', { className: 'texts' }, el('div', { className: 'hyp', text: row.hypothesis }), el('div', { className: 'ref', text: row.reference })));
    const reveal = () => vscode.postMessage({ type: 'reveal', line: row.line });
    tr.addEventListener('click', reveal);
    tr.addEventListener('keydown', (e) => e.key === 'Enter' && reveal());
    body.append(tr);
  }
  table.append(body);
  const by = view.worstBy ? ` by ${METRIC_LABEL[view.worstBy]}` : '';
  const note = `The ${view.rows.length} worst of ${view.scoredSegments} segments${by}. Click a column to sort, a row to go to its line.`;
  return el('section', {}, el('h2', { text: 'Worst segments' }), el('p', { className: 'muted', text: note }), table);
}

function render(): void {
  if (!current) return;
  const view = current;
  const header = el(
    'header',
    {},
    el('h1', { text: view.fileName }),
    el('p', { className: 'muted', text: `${view.segments} segments · references: ${view.references.map((r) => r.name).join(', ')}` }),
  );
  const histograms = el('section', {}, el('h2', { text: 'Distribution per segment' }), el('div', { className: 'histograms' }, ...view.histograms.map(renderHistogram)));
  root.replaceChildren(header, renderCorpus(view), histograms, renderTable(view));
}

window.addEventListener('message', (event: MessageEvent<ToWebview>) => {
  const message = event.data;
  if (message.type === 'report') {
    current = message.view;
    render();
  } else if (message.type === 'unavailable') {
    current = undefined;
    root.replaceChildren(el('h1', { text: message.fileName }), el('p', { className: 'muted', text: message.reason }));
  }
});
vscode.postMessage({ type: 'ready' });
