// Turns a `scorelens/report` result into what the report webview draws. Pure (no `vscode`, no DOM),
// so the unit tests check the numbers; the webview only renders.
import { ColumnKey, HistogramData, MetricId, Report, ReportQuery, SegmentReport } from '../protocol';
import { METRIC_LABEL, MetricDetail, PERCENT_SCALE, formatMetric, metricDetails } from '../scoreFormat';

export interface HistogramBin {
  label: string;
  count: number;
}

export interface Histogram {
  metric: MetricId;
  title: string;
  bins: HistogramBin[];
  /** Segments that have a value for this metric. */
  total: number;
  /** Mean of the per-segment values, formatted. */
  mean: string;
}

export interface ReportRow {
  /** 0-based line in the hypothesis, for jumping there. */
  line: number;
  hypothesis: string;
  /** The first reference's segment (the one the diff view shows). */
  reference: string;
  values: Partial<Record<MetricId, number>>;
  substitutions?: number;
  deletions?: number;
  insertions?: number;
}

export interface ReportView {
  uri: string;
  fileName: string;
  references: { uri: string; name: string }[];
  segments: number;
  corpus: MetricDetail[];
  histograms: Histogram[];
  /** The page of segments `query` asked for. */
  rows: ReportRow[];
  /** Metric columns of the table. */
  columns: MetricId[];
  /** Whether rows carry word edits (WER on). */
  hasEdits: boolean;
  query: ReportQuery;
  /** Segments passing the filters. */
  total: number;
  /** True while only the summary is in (the first paint): the rows follow. */
  loading: boolean;
}

/** Rows per page of the report's table. */
export const PAGE_SIZE = 100;
/** The summary and histograms without rows: what is painted first, and all a caller wanting the references needs. */
export const SUMMARY_ONLY: ReportQuery = { offset: 0, limit: 0, sort: 'line', descending: false, filters: [] };

/** Error and edit rates, and perplexity: lower is better. */
export const LOWER_IS_BETTER: ReadonlySet<MetricId> = new Set<MetricId>(['ter', 'wer', 'cer', 'ppl']);
/** Which metric decides "worst", in order of preference: fidelity first, fluency when it is all there is. */
const WORST_BY_PREFERENCE: readonly MetricId[] = ['bleu', 'chrf', 'ter', 'wer', 'rougeL', 'rougeLsum', 'rouge1', 'rouge2', 'cer', 'ppl'];

export function fileNameOf(uri: string): string {
  try {
    const pathname = decodeURIComponent(new URL(uri).pathname);
    return pathname.slice(pathname.lastIndexOf('/') + 1) || uri;
  } catch {
    return uri;
  }
}

function segmentValue(segment: SegmentReport, metric: MetricId): number | undefined {
  const value = segment[metric];
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/**
 * A perplexity as a bin edge: three significant digits, thousands as `k` and millions as `M`
 * (`20`, `39.8`, `1.26k`), so a label stays as narrow as its bar.
 */
export function formatEdge(value: number): string {
  const [scaled, suffix] = value >= 1e6 ? [value / 1e6, 'M'] : value >= 1e3 ? [value / 1e3, 'k'] : [value, ''];
  return `${+scaled.toPrecision(3)}${suffix}`;
}

/**
 * Labels the server's bins (docs/protocol.md): ten equal bins over the metric's range (0–100 for BLEU,
 * chrF and TER, 0–1 otherwise), and for error and edit rates an eleventh for values from the top up
 * (many insertions): "≥ 100%" (TER: "≥ 100"). Perplexity has no range: its bins are equal in log10
 * perplexity, between the edges the server sends.
 */
export function histogram(metric: MetricId, data: HistogramData): Histogram {
  if (data.scale === 'log10' && data.edges) {
    const edges = data.edges;
    return {
      metric,
      title: `Segment ${METRIC_LABEL[metric]} (log scale)`,
      bins: data.bins.map((count, i) => ({ label: `${formatEdge(edges[i])}–${formatEdge(edges[i + 1])}`, count })),
      total: data.total,
      mean: data.mean === null ? '–' : formatMetric(metric, data.mean),
    };
  }
  const width = (PERCENT_SCALE.has(metric) ? 100 : 1) / 10;
  const overflow = LOWER_IS_BETTER.has(metric);
  // Edges in the units the values are shown in: BLEU, chrF and TER 0–100, ROUGE 0–1, error rates
  // in % (the sign once per label, to keep labels as narrow as the bars).
  const edge = (i: number) => (PERCENT_SCALE.has(metric) ? String(i * width) : overflow ? String(Math.round(i * width * 100)) : (i * width).toFixed(1));
  const unit = overflow && !PERCENT_SCALE.has(metric) ? '%' : '';
  const bins = data.bins.map((count, i) => ({ label: i === 10 ? `≥ ${edge(10)}${unit}` : `${edge(i)}–${edge(i + 1)}${unit}`, count }));
  return {
    metric,
    title: PERCENT_SCALE.has(metric) ? `Sentence ${METRIC_LABEL[metric]}` : `Segment ${METRIC_LABEL[metric]}`,
    bins,
    total: data.total,
    mean: data.mean === null ? '–' : formatMetric(metric, data.mean),
  };
}

/** The metric that decides "worst" among `columns`, in order of preference. */
export function worstBy(columns: readonly ColumnKey[]): MetricId | undefined {
  return WORST_BY_PREFERENCE.find((m) => columns.includes(m));
}

/** The first page, worst segments first (by line if no metric is on). */
export function worstFirst(columns: readonly ColumnKey[]): ReportQuery {
  const metric = worstBy(columns);
  return { offset: 0, limit: PAGE_SIZE, sort: metric ?? 'line', descending: metric !== undefined && LOWER_IS_BETTER.has(metric), filters: [] };
}

/** A filter's value as typed in the units the report shows (WER in %), in the server's (WER 0–1). */
export function filterValue(key: ColumnKey, shown: number): number {
  return key === 'wer' || key === 'cer' ? shown / 100 : shown;
}

/** The filter as the report shows it, e.g. `WER > 30%`. */
export function filterLabel(key: ColumnKey, op: string, value: number): string {
  const name = key === 'line' ? 'Line' : key === 'edits' ? 'Edits' : METRIC_LABEL[key];
  const shown = key === 'wer' || key === 'cer' ? `${+(value * 100).toFixed(6)}%` : String(value);
  return `${name} ${op} ${shown}`;
}

/** The view of one `scorelens/report` answer to `query`; `loading` while its rows are still to come. */
export function shapeReport(report: Report, query: ReportQuery, loading = false): ReportView {
  const columns = report.columns.filter((k): k is MetricId => k !== 'line' && k !== 'edits');
  const rows: ReportRow[] = report.segments.map((s) => ({
    line: s.line,
    hypothesis: s.hypothesis,
    reference: s.references[0] ?? '',
    values: Object.fromEntries(columns.flatMap((m) => (segmentValue(s, m) === undefined ? [] : [[m, segmentValue(s, m)]]))),
    substitutions: s.substitutions,
    deletions: s.deletions,
    insertions: s.insertions,
  }));
  return {
    uri: report.uri,
    fileName: fileNameOf(report.uri),
    references: report.references.map((uri) => ({ uri, name: fileNameOf(uri) })),
    segments: report.scores.segments,
    corpus: metricDetails(report.scores),
    histograms: columns.flatMap((m) => (report.histograms[m] ? [histogram(m, report.histograms[m] as HistogramData)] : [])),
    rows,
    columns,
    hasEdits: report.columns.includes('edits'),
    query: { ...query, offset: report.offset },
    total: report.total,
    loading,
  };
}
