// How scores are written in the status bar, its tooltip and the report. No `vscode` import.
import { ALL_METRICS, CorpusScores, MetricId, QaCounts, ROUGE_N, ROUGE_WSU, RougeNId, RougeWsuId, ScoreChange } from './protocol';

/** ROUGE-N, or ROUGE-1.5.5's ROUGE-W, -S and -SU: a precision, recall and F-measure each. */
const isRougeNOrWsu = (metric: MetricId): metric is RougeNId | RougeWsuId => ([...ROUGE_N, ...ROUGE_WSU] as readonly MetricId[]).includes(metric);

export const METRIC_LABEL: Record<MetricId, string> = {
  bleu: 'BLEU',
  chrf: 'chrF',
  ter: 'TER',
  rouge1: 'ROUGE-1',
  rouge2: 'ROUGE-2',
  rouge3: 'ROUGE-3',
  rouge4: 'ROUGE-4',
  rouge5: 'ROUGE-5',
  rouge6: 'ROUGE-6',
  rouge7: 'ROUGE-7',
  rouge8: 'ROUGE-8',
  rouge9: 'ROUGE-9',
  rougeL: 'ROUGE-L',
  rougeLsum: 'ROUGE-Lsum',
  rougeW: 'ROUGE-W',
  rougeS: 'ROUGE-S',
  rougeSU: 'ROUGE-SU',
  wer: 'WER',
  cer: 'CER',
  ppl: 'PPL',
};

/** On sacreBLEU's 0–100 scale (TER can pass 100); the others are 0–1. */
export const PERCENT_SCALE: ReadonlySet<MetricId> = new Set<MetricId>(['bleu', 'chrf', 'ter']);

const isErrorRate = (metric: MetricId) => metric === 'wer' || metric === 'cer';

/** Decimals of a shown figure: one for the 0–100 scale, error rates in % and perplexity; three for 0–1. */
const decimals = (metric: MetricId) => (PERCENT_SCALE.has(metric) || isErrorRate(metric) || metric === 'ppl' ? 1 : 3);

/**
 * As the server writes them in hints and code lenses: BLEU, chrF and TER on sacreBLEU's 0–100
 * scale with one decimal, ROUGE F-measures 0–1 with three, error rates as percentages,
 * perplexity with one decimal.
 */
export function formatMetric(metric: MetricId, value: number): string {
  if (isErrorRate(metric)) return `${(100 * value).toFixed(1)}%`;
  return value.toFixed(decimals(metric));
}

/**
 * The one number that stands for a metric: BLEU, chrF or TER score, ROUGE F-measure, error rate,
 * perplexity (none without segments).
 */
export function headlineValue(scores: CorpusScores, metric: MetricId): number | undefined {
  if (isRougeNOrWsu(metric)) return scores[metric]?.fmeasure;
  switch (metric) {
    case 'bleu': return scores.bleu?.score;
    case 'chrf': return scores.chrf?.score;
    case 'ter': return scores.ter?.score;
    case 'rougeL': return scores.rougeL?.fmeasure;
    case 'rougeLsum': return scores.rougeLsum?.fmeasure;
    case 'wer': return scores.wer?.wer;
    case 'cer': return scores.cer?.cer;
    case 'ppl': return scores.ppl?.perplexity ?? undefined;
  }
}

export function presentMetrics(scores: CorpusScores): MetricId[] {
  return ALL_METRICS.filter((m) => headlineValue(scores, m) !== undefined);
}

/** `chrF`, or sacreBLEU's own name for chrF's variants: `chrF2++` (word order 2), `chrF1`. */
export function metricLabel(scores: CorpusScores, metric: MetricId): string {
  const c = scores.chrf;
  if (metric === 'chrf' && c && (c.beta !== 2 || c.word_order !== 0)) return `chrF${c.beta}${'+'.repeat(c.word_order)}`;
  return METRIC_LABEL[metric];
}

/**
 * e.g. `BLEU 31.2 · chrF 55.0 · TER 58.1 · ROUGE-L 0.605 · WER 31.0%`, in a fixed metric order;
 * with `change`, each figure followed by what the last edit changed: `BLEU 31.2 (+0.000031)`.
 */
export function statusBarText(scores: CorpusScores, change?: ScoreChange['scores']): string {
  return presentMetrics(scores)
    .map((m) => {
      const figure = `${metricLabel(scores, m)} ${formatMetric(m, headlineValue(scores, m) as number)}`;
      const delta = change?.[m];
      return delta === undefined ? figure : `${figure} (${formatChange(m, delta)})`;
    })
    .join(' · ');
}

/**
 * A change of a metric's figure in the units it is shown in (error rates in percentage points),
 * with its first two significant digits: one edited line of 100,000 moves a corpus score by about
 * 1e-5. Never fewer decimals than the figure's own plus one; float noise (under 1e-9) is `±0`.
 */
export function formatChange(metric: MetricId, change: number): string {
  const shown = isErrorRate(metric) ? 100 * change : change;
  if (Math.abs(shown) < 1e-9) return '±0';
  const places = Math.min(Math.max(decimals(metric) + 1, 1 - Math.floor(Math.log10(Math.abs(shown)))), 12);
  return `${shown > 0 ? '+' : '−'}${Math.abs(shown).toFixed(places)}`;
}

/**
 * What was scored: `30 segments against news.ref.en`, or for a document with no reference, checked
 * against its source (`source`: its file name) or alone for fluency (only `ppl` on).
 */
export function scoredAgainst(segments: number | string, references: readonly string[], source?: string): string {
  if (references.length) return `${segments} segments against ${references.join(', ')}`;
  return source ? `${segments} segments, checked against their source ${source}` : `${segments} segments, checked alone for fluency`;
}

/** The source checks' part of the status bar: `QA 11 (5 errors)`, `QA 0`. */
export function qaText(qa: QaCounts): string {
  return qa.errors ? `QA ${qa.findings} (${qa.errors} error${qa.errors === 1 ? '' : 's'})` : `QA ${qa.findings}`;
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
    const base = { metric, label: metricLabel(scores, metric), value };
    if (metric === 'bleu') {
      const b = scores.bleu!;
      return {
        ...base,
        detail: `${b.precisions.map((p) => p.toFixed(1)).join('/')} (BP ${b.bp.toFixed(3)}, ratio ${(b.sys_len / Math.max(b.ref_len, 1)).toFixed(3)}, hyp_len ${b.sys_len}, ref_len ${b.ref_len})`,
        signature: b.signature,
      };
    }
    if (metric === 'chrf') {
      const c = scores.chrf!;
      return { ...base, detail: `character order ${c.char_order}, word order ${c.word_order}, beta ${c.beta}`, signature: c.signature };
    }
    if (metric === 'ter') {
      const t = scores.ter!;
      return { ...base, detail: `${t.num_edits} edits, reference length ${+t.ref_length.toFixed(2)}`, signature: t.signature };
    }
    if (metric === 'ppl') {
      const p = scores.ppl!;
      // No signature in the server's answer: the model file is what tells two figures apart.
      return { ...base, detail: `${p.tokens} tokens, ${p.oov} OOV, log10 prob ${p.log10_prob.toFixed(2)}, model ${p.model}`, signature: '' };
    }
    if (metric === 'rougeL' || metric === 'rougeLsum' || isRougeNOrWsu(metric)) {
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
