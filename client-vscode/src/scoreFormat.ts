// How scores are written in the status bar, its tooltip and the report. No `vscode` import.
import { ALL_METRICS, CorpusScores, MetricId } from './protocol';

export const METRIC_LABEL: Record<MetricId, string> = {
  bleu: 'BLEU',
  rougeL: 'ROUGE-L',
  rougeLsum: 'ROUGE-Lsum',
  wer: 'WER',
  cer: 'CER',
};

/**
 * As the server writes them in hints and code lenses: BLEU on sacreBLEU's 0–100 scale with one
 * decimal, ROUGE F-measures 0–1 with three, error rates as percentages.
 */
export function formatMetric(metric: MetricId, value: number): string {
  if (metric === 'bleu') return value.toFixed(1);
  if (metric === 'wer' || metric === 'cer') return `${(100 * value).toFixed(1)}%`;
  return value.toFixed(3);
}

/** The one number that stands for a metric: BLEU score, ROUGE F-measure, error rate. */
export function headlineValue(scores: CorpusScores, metric: MetricId): number | undefined {
  switch (metric) {
    case 'bleu': return scores.bleu?.score;
    case 'rougeL': return scores.rougeL?.fmeasure;
    case 'rougeLsum': return scores.rougeLsum?.fmeasure;
    case 'wer': return scores.wer?.wer;
    case 'cer': return scores.cer?.cer;
  }
}

export function presentMetrics(scores: CorpusScores): MetricId[] {
  return ALL_METRICS.filter((m) => headlineValue(scores, m) !== undefined);
}

/** e.g. `BLEU 31.2 · ROUGE-L 0.605 · WER 31.0%`, in a fixed metric order. */
export function statusBarText(scores: CorpusScores): string {
  return presentMetrics(scores)
    .map((m) => `${METRIC_LABEL[m]} ${formatMetric(m, headlineValue(scores, m) as number)}`)
    .join(' · ');
}

export interface MetricDetail {
  metric: MetricId;
  label: string;
  value: string;
  /** The metric's components, e.g. n-gram precisions and brevity penalty. */
  detail: string;
  signature: string;
}

export function metricDetails(scores: CorpusScores): MetricDetail[] {
  return presentMetrics(scores).map((metric) => {
    const value = formatMetric(metric, headlineValue(scores, metric) as number);
    const base = { metric, label: METRIC_LABEL[metric], value };
    if (metric === 'bleu') {
      const b = scores.bleu!;
      return {
        ...base,
        detail: `${b.precisions.map((p) => p.toFixed(1)).join('/')} (BP ${b.bp.toFixed(3)}, ratio ${(b.sys_len / Math.max(b.ref_len, 1)).toFixed(3)}, hyp_len ${b.sys_len}, ref_len ${b.ref_len})`,
        signature: b.signature,
      };
    }
    if (metric === 'rougeL' || metric === 'rougeLsum') {
      const r = scores[metric]!;
      return { ...base, detail: `P ${r.precision.toFixed(3)} R ${r.recall.toFixed(3)} F ${r.fmeasure.toFixed(3)}`, signature: r.signature ?? '' };
    }
    const e = scores[metric]!;
    return {
      ...base,
      detail: `S ${e.substitutions} D ${e.deletions} I ${e.insertions} H ${e.hits}`,
      signature: e.signature ?? '',
    };
  });
}
