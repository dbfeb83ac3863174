// Turns a `scorelens/report` result into what the report webview draws. Pure (no `vscode`, no DOM),
// so the unit tests check the numbers; the webview only renders.
import { ALL_METRICS, MetricId, Report, SegmentReport } from '../protocol';
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
  /** The worst segments first (see `worstBy`), at most `maxRows`. */
  rows: ReportRow[];
  columns: MetricId[];
  worstBy: MetricId | undefined;
  scoredSegments: number;
}

/** Error and edit rates: lower is better. */
export const LOWER_IS_BETTER: ReadonlySet<MetricId> = new Set<MetricId>(['ter', 'wer', 'cer']);
/** Which metric decides "worst", in order of preference. */
const WORST_BY_PREFERENCE: readonly MetricId[] = ['bleu', 'chrf', 'ter', 'wer', 'rougeL', 'rougeLsum', 'rouge1', 'rouge2', 'cer'];

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
 * Ten equal bins over the metric's range (0–100 for BLEU, chrF and TER, 0–1 otherwise; the top bin
 * includes its upper edge). Error and edit rates can pass their top when the hypothesis has many
 * insertions: they get an eleventh bin "≥ 100%" (TER: "≥ 100") so they are not hidden.
 */
export function histogram(metric: MetricId, values: readonly number[]): Histogram {
  const top = PERCENT_SCALE.has(metric) ? 100 : 1;
  const width = top / 10;
  const overflow = LOWER_IS_BETTER.has(metric);
  const counts = new Array<number>(overflow ? 11 : 10).fill(0);
  for (const value of values) {
    const index = value >= top ? (overflow ? 10 : 9) : Math.max(0, Math.floor(value / width + 1e-9));
    counts[Math.min(index, counts.length - 1)]++;
  }
  // Edges in the units the values are shown in: BLEU, chrF and TER 0–100, ROUGE 0–1, error rates
  // in % (the sign once per label, to keep labels as narrow as the bars).
  const edge = (i: number) => (PERCENT_SCALE.has(metric) ? String(i * width) : overflow ? String(Math.round(i * width * 100)) : (i * width).toFixed(1));
  const unit = overflow && !PERCENT_SCALE.has(metric) ? '%' : '';
  const bins = counts.map((count, i) => ({ label: i === 10 ? `≥ ${edge(10)}${unit}` : `${edge(i)}–${edge(i + 1)}${unit}`, count }));
  const mean = values.length ? values.reduce((a, b) => a + b, 0) / values.length : NaN;
  return {
    metric,
    title: PERCENT_SCALE.has(metric) ? `Sentence ${METRIC_LABEL[metric]}` : `Segment ${METRIC_LABEL[metric]}`,
    bins,
    total: values.length,
    mean: values.length ? formatMetric(metric, mean) : '–',
  };
}

/** Sort key where smaller means worse, whatever the metric's direction. */
export function badnessKey(metric: MetricId, value: number): number {
  return LOWER_IS_BETTER.has(metric) ? -value : value;
}

export function shapeReport(report: Report, maxRows = 50): ReportView {
  const columns = ALL_METRICS.filter((m) => report.segments.some((s) => segmentValue(s, m) !== undefined));
  const rows: ReportRow[] = report.segments
    .filter((s) => columns.some((m) => segmentValue(s, m) !== undefined))
    .map((s) => ({
      line: s.line,
      hypothesis: s.hypothesis,
      reference: s.references[0] ?? '',
      values: Object.fromEntries(columns.flatMap((m) => (segmentValue(s, m) === undefined ? [] : [[m, segmentValue(s, m)]]))),
      substitutions: s.substitutions,
      deletions: s.deletions,
      insertions: s.insertions,
    }));
  const worstBy = WORST_BY_PREFERENCE.find((m) => columns.includes(m));
  if (worstBy) {
    const key = (r: ReportRow) => (r.values[worstBy] === undefined ? Infinity : badnessKey(worstBy, r.values[worstBy] as number));
    rows.sort((a, b) => key(a) - key(b) || a.line - b.line);
  }
  return {
    uri: report.uri,
    fileName: fileNameOf(report.uri),
    references: report.references.map((uri) => ({ uri, name: fileNameOf(uri) })),
    segments: report.scores.segments,
    corpus: metricDetails(report.scores),
    histograms: columns.map((m) => histogram(m, report.segments.flatMap((s) => segmentValue(s, m) ?? []))),
    rows: rows.slice(0, maxRows),
    columns,
    worstBy,
    scoredSegments: rows.length,
  };
}
