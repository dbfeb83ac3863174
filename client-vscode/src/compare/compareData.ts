// Turns a scorelens/compare result into the Compare Systems view — the systems × metrics table with
// each score, μ ± 95 % CI and p-value against the baseline, a histogram of the chosen system's
// per-segment differences on the chosen metric, and the segments ordered by how much it gains or
// loses on the baseline — and renders it as HTML. Pure (no `vscode`, no DOM), so the unit tests
// check what is shown.
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
  /** 0-based line of the segment in the baseline. */
  line: number;
  /** 0-based line of the segment in the system: another than the baseline's when paragraphs are wrapped differently. */
  systemLine: number;
  difference: string;
  better: boolean;
}

export interface DifferenceBin {
  label: string;
  count: number;
  /** Segments here score better than the baseline, worse, or the same (the bin of 0). */
  kind: 'better' | 'worse' | 'same';
}

/** How a system's per-segment differences from the baseline are spread, on one metric. */
export interface DifferenceHistogram {
  bins: DifferenceBin[];
  better: number;
  worse: number;
  same: number;
  /** Mean of the differences, signed. */
  mean: string;
}

export interface CompareView {
  baseline: { uri: string; name: string };
  test?: string;
  metrics: string[];
  labels: Record<string, string>;
  rows: CompareRow[];
  /** The system and metric the histogram and segment list are about. */
  system?: { uri: string; name: string };
  metric?: string;
  /** The systems other than the baseline, to choose among when there are several. */
  others: { uri: string; name: string }[];
  histogram?: DifferenceHistogram;
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

/** Bins on each side of 0 at most: with the bin of 0, as many bars as the report's histograms. */
const SIDE_BINS = 5;

/** The smallest of 1, 2, 5 × 10^k at least `x` (> 0). */
function niceWidth(x: number): number {
  const power = 10 ** Math.floor(Math.log10(x));
  return [1, 2, 5, 10].map((m) => m * power).find((w) => w >= x * (1 - 1e-12)) as number;
}

/**
 * Per-segment differences in bins of one round width either side of 0, unchanged segments a bin of
 * their own in the middle: `[−2w, −w)`, `[−w, 0)`, `0`, `(0, w]`, `(w, 2w]`… read left to right
 * (each bin holds its edge farther from 0); the better side is the metric's (below 0 for TER, WER, CER).
 */
export function differenceHistogram(metric: string, differences: readonly number[]): DifferenceHistogram {
  const lowerIsBetter = LOWER_IS_BETTER.has(metric);
  const largest = differences.reduce((m, d) => Math.max(m, Math.abs(d)), 0); // no spread: 100,000 segments
  const width = largest > 0 ? niceWidth(largest / SIDE_BINS) : 1;
  const side = largest > 0 ? Math.min(SIDE_BINS, Math.max(1, Math.ceil(largest / width - 1e-9))) : 0;
  const below = new Array<number>(side).fill(0);
  const above = new Array<number>(side).fill(0);
  let same = 0;
  for (const d of differences) {
    if (d === 0) same++;
    else (d < 0 ? below : above)[Math.min(side, Math.max(1, Math.ceil(Math.abs(d) / width - 1e-9))) - 1]++;
  }
  const decimals = Math.max(0, -Math.floor(Math.log10(width) + 1e-9));
  const edge = (i: number) => (i * width).toFixed(decimals);
  const kindOf = (negative: boolean) => (negative === lowerIsBetter ? 'better' : 'worse');
  const bins: DifferenceBin[] = [
    ...below.map((count, i) => ({ label: `-${edge(i + 1)}…${i ? `-${edge(i)}` : '0'}`, count, kind: kindOf(true) }) as DifferenceBin).reverse(),
    { label: '0', count: same, kind: 'same' },
    ...above.map((count, i) => ({ label: `${i ? `+${edge(i)}` : '0'}…+${edge(i + 1)}`, count, kind: kindOf(false) }) as DifferenceBin),
  ];
  const count = (kind: DifferenceBin['kind']) => bins.filter((b) => b.kind === kind).reduce((n, b) => n + b.count, 0);
  const mean = differences.length ? value(metric, differences.reduce((a, b) => a + b, 0) / differences.length, true) : '–';
  return { bins, better: count('better'), worse: count('worse'), same, mean };
}

function isMetric(x: unknown): x is ComparedMetric {
  return typeof x === 'object' && x !== null && 'score' in x && 'p_value' in x;
}

/**
 * The view of `result`, its histogram and segment list about `system` (default: the first system
 * that is not the baseline) on `metric` (default: the first); at most `maxSegments` segments,
 * unchanged ones left out.
 */
export function shapeComparison(result: CompareResult, system?: string, maxSegments = 200, metric?: string): CompareView {
  const baseline = { uri: result.baseline, name: fileNameOf(result.baseline) };
  const view: CompareView = { baseline, metrics: [], labels: {}, rows: [], others: [], segments: [] };
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
  view.others = result.systems.filter((s) => s.differences).map((s) => ({ uri: s.uri, name: fileNameOf(s.uri) }));
  const chosen = result.systems.find((s) => s.uri === system && s.differences) ?? result.systems.find((s) => s.differences);
  if (chosen?.differences && view.metrics.length) {
    const shown = metric !== undefined && view.metrics.includes(metric) ? metric : view.metrics[0];
    const sign = LOWER_IS_BETTER.has(shown) ? -1 : 1;
    const differences = chosen.differences[shown] ?? [];
    const lineOf = (segment: number) => result.lines[segment] ?? segment;
    view.system = { uri: chosen.uri, name: fileNameOf(chosen.uri) };
    view.metric = shown;
    view.histogram = differenceHistogram(shown, differences);
    view.segments = differences
      .map((d, segment) => ({ segment, d }))
      .filter(({ d }) => d !== 0)
      .sort((a, b) => sign * a.d - sign * b.d || a.segment - b.segment)
      .slice(0, maxSegments)
      .map(({ segment, d }) => ({
        segment,
        line: lineOf(segment),
        systemLine: chosen.lines?.[segment] ?? lineOf(segment), // a server without systems' lines: the baseline's
        difference: value(shown, d, true),
        better: sign * d > 0,
      }));
  }
  return view;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

/** The view's body: the table, then the segments (each row a button, named by its segment, that opens both sides). */
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
    parts.push(renderChoices(view));
    if (view.histogram) parts.push(renderHistogram(view.histogram, `${view.labels[view.metric]} difference per segment (${view.system.name} − ${view.baseline.name})`));
    if (!view.segments.length) parts.push(`<p class="muted">No segment scores differently.</p>`);
    else {
      const items = view.segments.map(
        (s) =>
          `<tr><td><button class="reveal" data-segment="${s.segment}">line ${s.line + 1}</button></td><td class="${s.better ? 'better' : 'worse'}">${escapeHtml(s.difference)}</td></tr>`,
      );
      parts.push(`<table class="segments"><thead><tr><th>Segment</th><th>${label} difference</th></tr></thead><tbody>${items.join('')}</tbody></table>`);
    }
  }
  return parts.join('\n');
}

/** Buttons choosing the metric, and the system when there are several besides the baseline. */
function renderChoices(view: CompareView): string {
  const button = (kind: string, key: string, text: string, pressed: boolean) =>
    `<button class="choice" data-${kind}="${escapeHtml(key)}" aria-pressed="${pressed}">${escapeHtml(text)}</button>`;
  const metrics = view.metrics.map((m) => button('metric', m, view.labels[m], m === view.metric));
  const systems = view.others.length > 1 ? view.others.map((s) => button('system', s.uri, s.name, s.uri === view.system?.uri)) : [];
  return `<p class="choices">${metrics.join('')}${systems.length ? ` <span class="muted">·</span> ${systems.join('')}` : ''}</p>`;
}

/** A bar chart in plain SVG as the report draws its histograms: count on top, bin label below. */
function renderHistogram(h: DifferenceHistogram, title: string): string {
  const barWidth = 40, gap = 6, chartHeight = 120, top = 16, labelHeight = 24;
  const width = h.bins.length * (barWidth + gap) + gap;
  const max = Math.max(1, ...h.bins.map((b) => b.count));
  const bars = h.bins.map((bin, i) => {
    const x = gap + i * (barWidth + gap);
    const height = (bin.count / max) * chartHeight;
    const centre = x + barWidth / 2;
    return (
      `<rect class="bar ${bin.kind}" x="${x}" y="${top + chartHeight - height}" width="${barWidth}" height="${height}">` +
      `<title>${escapeHtml(bin.label)}: ${bin.count} segment${bin.count === 1 ? '' : 's'}</title></rect>` +
      `<text class="count" x="${centre}" y="${top + chartHeight - height - 3}">${bin.count || ''}</text>` +
      `<text class="label" x="${centre}" y="${top + chartHeight + 14}">${escapeHtml(bin.label)}</text>`
    );
  });
  const axis = `<line class="axis" x1="0" x2="${width}" y1="${top + chartHeight}" y2="${top + chartHeight}"/>`;
  const chart = `<svg class="histogram" viewBox="0 0 ${width} ${top + chartHeight + labelHeight}" role="img" aria-label="${escapeHtml(title)}">${axis}${bars.join('')}</svg>`;
  const total = h.better + h.worse + h.same;
  const caption = `${total} segments: ${h.better} better, ${h.worse} worse, ${h.same} the same; mean difference ${h.mean}`;
  return `<figure class="differences"><figcaption>${escapeHtml(title)}</figcaption>${chart}<p class="muted">${escapeHtml(caption)}</p></figure>`;
}

export interface ComparisonStatus {
  /** `vs news.sys1.en: BLEU +1.23*`, or for the baseline `baseline of 3 systems`. */
  text: string;
  /** Markdown: each metric's difference and p-value. */
  tooltip: string;
}

function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>~]/g, '\\$&');
}

/**
 * What the status bar says of `system` (spelled as in `result`): its difference from the baseline
 * on the first metric, `*` when p < 0.05; nothing when there is no test or it is not compared.
 */
export function comparisonStatus(result: CompareResult, system: string): ComparisonStatus | undefined {
  const view = shapeComparison(result, system, 0);
  const row = view.rows.find((r) => r.uri === system);
  if (!view.test || !row || !view.metrics.length) return undefined;
  const mark = (c: CompareCell) => (c.significant ? '\\*' : '');
  const lines = [`**ScoreLens** · ${escapeMarkdown(row.baseline ? `${row.name}, the baseline` : `${row.name} against ${view.baseline.name}`)} (${view.test})`, ''];
  let text: string;
  if (row.baseline) {
    const others = view.rows.filter((r) => !r.baseline);
    text = `baseline of ${view.rows.length} systems`;
    lines.push(`| system | ${view.metrics.map((m) => view.labels[m]).join(' | ')} |`, `|---|${view.metrics.map(() => '---|').join('')}`);
    for (const r of others) {
      const cells = view.metrics.map((m) => `${r.cells[m].difference} (${r.cells[m].pValue})${mark(r.cells[m])}`);
      lines.push(`| ${escapeMarkdown(r.name)} | ${cells.join(' | ')} |`);
    }
  } else {
    const first = row.cells[view.metrics[0]];
    text = `vs ${view.baseline.name}: ${view.labels[view.metrics[0]]} ${first.difference}${first.significant ? '*' : ''}`;
    const base = view.rows.find((r) => r.baseline) as CompareRow;
    lines.push('| metric | score | baseline | difference | p-value |', '|---|---|---|---|---|');
    for (const m of view.metrics) {
      const c = row.cells[m];
      lines.push(`| ${view.labels[m]} | ${c.score} | ${base.cells[m].score} | ${c.difference} | ${(c.pValue ?? '').replace('p = ', '')}${mark(c)} |`);
    }
  }
  lines.push(
    '',
    `\\* p < ${SIGNIFICANT}: unlikely to be chance. Differences: a system's corpus score minus the baseline's (lower is better for TER, WER, CER).`,
    '',
    'Click to open Compare Systems; *Pick Systems to Compare…* chooses the baseline; `scorelens.statusBar.showComparison` hides this.',
  );
  return { text, tooltip: lines.join('\n') };
}
