// Turns a scorelens/compare result into the Compare Systems view — the systems × metrics table with
// each score, μ ± 95 % CI and p-value against the baseline, and the segments ordered by how much the
// chosen system gains or loses on the baseline — and renders it as HTML. Pure (no `vscode`, no DOM),
// so the unit tests check what is shown.
import { ComparedMetric, CompareResult } from '../protocol';
import { fileNameOf } from '../report/reportData';

/** Below this p-value a difference is marked significant, as sacreBLEU marks it. */
export const SIGNIFICANT = 0.05;
const LOWER_IS_BETTER = new Set(['wer', 'cer', 'ter']);
const HUNDREDS = new Set(['bleu', 'chrf', 'ter']);
const LABELS: Record<string, string> = { bleu: 'BLEU', chrf: 'chrF', ter: 'TER', wer: 'WER', cer: 'CER' };

export interface CompareCell {
  score: string;
  /** `μ ± half-width`, when the test estimated an interval. */
  interval?: string;
  /** `p = 0.0123`, for systems other than the baseline. */
  pValue?: string;
  significant: boolean;
  /** The difference from the baseline, signed (`+1.23`), for systems other than the baseline. */
  difference?: string;
  /** Better than the baseline, allowing for the metric's direction. */
  better?: boolean;
}

export interface CompareRow {
  uri: string;
  name: string;
  baseline: boolean;
  cells: Record<string, CompareCell>;
}

export interface SegmentRow {
  segment: number;
  /** 0-based line of the segment in the baseline (and, line by line, in the system). */
  line: number;
  difference: string;
  better: boolean;
}

export interface CompareView {
  baseline: { uri: string; name: string };
  test?: string;
  metrics: string[];
  labels: Record<string, string>;
  rows: CompareRow[];
  /** The system and metric the segment list is about. */
  system?: { uri: string; name: string };
  metric?: string;
  /** Changed segments, the ones the system loses most on first. */
  segments: SegmentRow[];
  /** Why there is no test, when there is none. */
  note?: string;
}

export function metricLabel(metric: string): string {
  return LABELS[metric] ?? (metric.startsWith('rouge') ? `ROUGE-${metric.slice(5)}` : metric);
}

function value(metric: string, x: number, sign = false): string {
  const text = x.toFixed(HUNDREDS.has(metric) ? 2 : 4);
  return sign && x >= 0 ? `+${text}` : text;
}

function isMetric(x: unknown): x is ComparedMetric {
  return typeof x === 'object' && x !== null && 'score' in x && 'p_value' in x;
}

/**
 * The view of `result`, its segment list about `system` (default: the first system that is not the
 * baseline) on its first metric; at most `maxSegments` segments, unchanged ones left out.
 */
export function shapeComparison(result: CompareResult, system?: string, maxSegments = 200): CompareView {
  const baseline = { uri: result.baseline, name: fileNameOf(result.baseline) };
  const view: CompareView = { baseline, metrics: [], labels: {}, rows: [], segments: [] };
  if (!result.test) {
    view.note =
      result.systems.length < 2
        ? 'Only one open system uses these references. Open another (e.g. news.sys2.en beside news.sys1.en) to compare.'
        : 'The systems have different numbers of segments: nothing to compare yet.';
    view.rows = result.systems.map((s) => ({ uri: s.uri, name: fileNameOf(s.uri), baseline: s.uri === result.baseline, cells: {} }));
    return view;
  }
  view.test = `${result.test === 'bs' ? 'paired bootstrap resampling' : 'paired approximate randomization'}, ${result.n} ${
    result.test === 'bs' ? 'resamples' : 'trials'
  }, seed ${result.seed ?? 'none'}`;
  const base = result.systems[0];
  view.metrics = Object.keys(base).filter((k) => isMetric(base[k]));
  for (const m of view.metrics) view.labels[m] = metricLabel(m);
  for (const s of result.systems) {
    const cells: Record<string, CompareCell> = {};
    for (const m of view.metrics) {
      const r = s[m] as ComparedMetric;
      const cell: CompareCell = { score: value(m, r.score), significant: r.p_value !== null && r.p_value < SIGNIFICANT };
      if (r.mean !== null && r.ci !== null) cell.interval = `${value(m, r.mean)} ± ${value(m, r.ci)}`;
      if (r.p_value !== null) {
        const difference = r.score - (base[m] as ComparedMetric).score;
        cell.pValue = `p = ${r.p_value.toFixed(4)}`;
        cell.difference = value(m, difference, true);
        cell.better = LOWER_IS_BETTER.has(m) ? difference < 0 : difference > 0;
      }
      cells[m] = cell;
    }
    view.rows.push({ uri: s.uri, name: fileNameOf(s.uri), baseline: s.uri === result.baseline, cells });
  }
  const chosen = result.systems.find((s) => s.uri === system && s.differences) ?? result.systems.find((s) => s.differences);
  if (chosen?.differences && view.metrics.length) {
    const metric = view.metrics[0];
    const sign = LOWER_IS_BETTER.has(metric) ? -1 : 1;
    const differences = chosen.differences[metric] ?? [];
    view.system = { uri: chosen.uri, name: fileNameOf(chosen.uri) };
    view.metric = metric;
    view.segments = differences
      .map((d, segment) => ({ segment, d }))
      .filter(({ d }) => d !== 0)
      .sort((a, b) => sign * a.d - sign * b.d || a.segment - b.segment)
      .slice(0, maxSegments)
      .map(({ segment, d }) => ({ segment, line: result.lines[segment] ?? segment, difference: value(metric, d, true), better: sign * d > 0 }));
  }
  return view;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

/** The view's body: the table, then the segments (each row a button that opens both sides). */
export function renderComparison(view: CompareView): string {
  const parts = [`<h1>Compare Systems</h1>`, `<p class="muted">Baseline <b>${escapeHtml(view.baseline.name)}</b>${view.test ? ` · ${escapeHtml(view.test)}` : ''}</p>`];
  if (view.note) {
    parts.push(`<p class="note">${escapeHtml(view.note)}</p>`);
    return parts.join('\n');
  }
  const head = view.metrics.map((m) => `<th>${escapeHtml(view.labels[m])} (μ ± 95% CI)</th>`).join('');
  const rows = view.rows.map((row) => {
    const cells = view.metrics.map((m) => {
      const c = row.cells[m];
      const interval = c.interval ? ` <span class="muted">(${escapeHtml(c.interval)})</span>` : '';
      const test = c.pValue
        ? `<br><span class="${c.better ? 'better' : 'worse'}">${escapeHtml(c.difference ?? '')}</span> <span class="${c.significant ? 'significant' : 'muted'}">${escapeHtml(c.pValue)}${c.significant ? '*' : ''}</span>`
        : '';
      return `<td>${escapeHtml(c.score)}${interval}${test}</td>`;
    });
    return `<tr${row.baseline ? ' class="baseline"' : ''}><th scope="row">${escapeHtml(row.name)}${row.baseline ? ' (baseline)' : ''}</th>${cells.join('')}</tr>`;
  });
  parts.push(`<table class="systems"><thead><tr><th>System</th>${head}</tr></thead><tbody>${rows.join('')}</tbody></table>`);
  parts.push(`<p class="muted">* p &lt; ${SIGNIFICANT}: the difference from the baseline is unlikely to be chance.</p>`);
  if (view.system && view.metric) {
    const label = escapeHtml(view.labels[view.metric]);
    parts.push(`<h2>${escapeHtml(view.system.name)} against the baseline, segment by segment (sentence ${label})</h2>`);
    if (!view.segments.length) parts.push(`<p class="muted">No segment scores differently.</p>`);
    else {
      const items = view.segments.map(
        (s) =>
          `<tr><td><button class="reveal" data-line="${s.line}">line ${s.line + 1}</button></td><td class="${s.better ? 'better' : 'worse'}">${escapeHtml(s.difference)}</td></tr>`,
      );
      parts.push(`<table class="segments"><thead><tr><th>Segment</th><th>${label} difference</th></tr></thead><tbody>${items.join('')}</tbody></table>`);
    }
  }
  return parts.join('\n');
}
