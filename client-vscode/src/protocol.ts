// The ScoreLens server's LSP surface as the extension uses it (docs/protocol.md is the contract).
// No `vscode` import: the unit tests load this under plain node.

/** Custom notification, server → client: corpus scores of one hypothesis. */
export const SCORES_NOTIFICATION = 'scorelens/scores';
/** Custom request, client → server: the summary, histograms and a page of segments of one hypothesis. */
export const REPORT_REQUEST = 'scorelens/report';
/** Custom request, client → server: the open systems sharing a hypothesis's references, tested. */
export const COMPARE_REQUEST = 'scorelens/compare';
/** Custom notification, server → client: a comparison's numbers changed after edits. */
export const COMPARE_CHANGED_NOTIFICATION = 'scorelens/compareChanged';
/** Custom request, client → server: an annotator's group: the agreement matrices and the segments they disagree on most. */
export const AGREEMENT_REQUEST = 'scorelens/agreement';
/** Custom notification, server → client: a group of annotators was re-scored (its versions or matrices changed). */
export const AGREEMENT_CHANGED_NOTIFICATION = 'scorelens/agreementChanged';
/** Custom notification, client → server: the lines of a paired document the editors show. */
export const VISIBLE_RANGES_NOTIFICATION = 'scorelens/visibleRanges';

/**
 * What the extension adds to the client's capabilities (`experimental`): it shows reports, so the
 * server builds each document's report table ahead, for a report opened later to paint at once.
 */
export const EXPERIMENTAL_CAPABILITIES = { scorelens: { report: true } } as const;

/** LSP ranges; `ranges: []` when the document is no longer shown. */
export interface VisibleRangesParams {
  uri: string;
  ranges: { start: { line: number; character: number }; end: { line: number; character: number } }[];
}

/**
 * Server commands (workspace/executeCommand). vscode-languageclient registers these as VS Code
 * commands itself, so the extension must never register the same ids.
 */
export const ServerCommand = {
  pair: 'scorelens.pair',
  unpair: 'scorelens.unpair',
  report: 'scorelens.report',
  openReference: 'scorelens.openReference',
  applyFix: 'scorelens.applyFix',
  setRougeTokenizer: 'scorelens.setRougeTokenizer',
  agreement: 'scorelens.agreement',
} as const;

export type RougeNId = 'rouge1' | 'rouge2' | 'rouge3' | 'rouge4' | 'rouge5' | 'rouge6' | 'rouge7' | 'rouge8' | 'rouge9';
export const ROUGE_N: readonly RougeNId[] = ['rouge1', 'rouge2', 'rouge3', 'rouge4', 'rouge5', 'rouge6', 'rouge7', 'rouge8', 'rouge9'];
/** ROUGE-1.5.5's weighted LCS and skip-bigram measures (with `scorelens.rouge.impl` `rouge-1.5.5`). */
export type RougeWsuId = 'rougeW' | 'rougeS' | 'rougeSU';
export const ROUGE_WSU: readonly RougeWsuId[] = ['rougeW', 'rougeS', 'rougeSU'];
export type MetricId = 'bleu' | 'chrf' | 'ter' | RougeNId | 'rougeL' | 'rougeLsum' | RougeWsuId | 'wer' | 'cer' | 'ppl';
/**
 * The order metrics are shown in: the server's names, MT's first (sacreBLEU's order), then
 * summarization's, then ASR's, then fluency (perplexity, the one that needs no reference).
 */
export const ALL_METRICS: readonly MetricId[] = ['bleu', 'chrf', 'ter', ...ROUGE_N, 'rougeL', 'rougeLsum', ...ROUGE_WSU, 'wer', 'cer', 'ppl'];

export interface BleuScore {
  score: number;
  precisions: number[];
  bp: number;
  sys_len: number;
  ref_len: number;
  signature: string;
}

export interface ChrfScore {
  score: number;
  char_order: number;
  word_order: number;
  beta: number;
  signature: string;
}

/** Translation edit rate on sacreBLEU's scale (100 × edits / reference words): lower is better. */
export interface TerScore {
  score: number;
  num_edits: number;
  /** The references' mean length in words. */
  ref_length: number;
  signature: string;
}

export interface RougeScore {
  precision: number;
  recall: number;
  fmeasure: number;
  signature?: string;
}

export interface ErrorRateScore {
  hits: number;
  substitutions: number;
  deletions: number;
  insertions: number;
  signature?: string;
  mer?: number;
  wil?: number;
}
export interface WerScore extends ErrorRateScore { wer: number }
export interface CerScore extends ErrorRateScore { cer: number }

/** Perplexity under `scorelens.lm.model`, as `scorelens score --metrics ppl --json` gives it: lower is better. */
export interface PplScore {
  /** null without segments. */
  perplexity: number | null;
  log10_prob: number;
  /** Words + 1 (`</s>`) per segment. */
  tokens: number;
  /** Out-of-vocabulary words. */
  oov: number;
  /** The model's resolved path. */
  model: string;
}

/** Only the enabled metrics are present. */
export interface CorpusScores extends Partial<Record<RougeNId | RougeWsuId, RougeScore>> {
  bleu?: BleuScore;
  chrf?: ChrfScore;
  ter?: TerScore;
  rougeL?: RougeScore;
  rougeLsum?: RougeScore;
  wer?: WerScore;
  cer?: CerScore;
  ppl?: PplScore;
  segments: number;
}

export interface ScoresParams {
  uri: string;
  version: number | null;
  /** Empty for a document checked alone (when `ppl` is the only metric). */
  references: string[];
  /** null when the document stopped being a paired hypothesis. */
  scores: CorpusScores | null;
  /**
   * What the edits of the line edited last changed: each metric's headline figure (as in
   * `scores`: BLEU 0–100, ROUGE F 0–1, error rates 0–1) now minus before that line's edits began.
   * null before any edit.
   */
  change?: ScoreChange | null;
  /** For a hypothesis with a source: its `qa.*` findings (checks set "off" not counted) and how many are errors. */
  qa?: QaCounts;
}

export interface QaCounts {
  /** The source document (the hypothesis itself where its records hold their sources). */
  source: string;
  findings: number;
  errors: number;
}

export interface ScoreChange {
  uri: string;
  /** 0-based line of the edit. */
  line: number;
  scores: Partial<Record<MetricId, number>>;
}

export interface SegmentReport extends Partial<Record<RougeNId | RougeWsuId, number | null>> {
  /** 0-based first line of the segment. */
  line: number;
  hypothesis: string;
  references: string[];
  bleu?: number | null;
  chrf?: number | null;
  ter?: number | null;
  rougeL?: number | null;
  rougeLsum?: number | null;
  wer?: number | null;
  cer?: number | null;
  ppl?: number | null;
  hits?: number;
  substitutions?: number;
  deletions?: number;
  insertions?: number;
}

/** What `scorelens/report` can sort and filter by: the segment's order, a metric, its word edits (S + D + I). */
export type ColumnKey = 'line' | MetricId | 'edits';
export type FilterOp = '<' | '<=' | '>' | '>=';

/** Only segments whose `key` compares to `value` (in the server's units: WER 0–1, BLEU 0–100). */
export interface ReportFilter {
  key: ColumnKey;
  op: FilterOp;
  value: number;
}

/** Which rows a `scorelens/report` carries (params besides `uri`). */
export interface ReportQuery {
  offset: number;
  /** 0: only the summary and histograms. */
  limit: number;
  sort: ColumnKey;
  descending: boolean;
  filters: ReportFilter[];
}

/**
 * Ten equal bins over the metric's range; WER and CER have an eleventh for rates of 1 and more.
 * Perplexity, unbounded, has ten equal bins of log10 perplexity between the 11 `edges` it carries.
 */
export interface HistogramData {
  bins: number[];
  total: number;
  mean: number | null;
  scale?: 'log10';
  edges?: number[];
}

export interface Report {
  uri: string;
  version: number | null;
  references: string[];
  scores: CorpusScores;
  histograms: Partial<Record<MetricId, HistogramData>>;
  /** The keys `sort` and filters may name. */
  columns: ColumnKey[];
  sort: ColumnKey;
  descending: boolean;
  /** Segments passing the filters. */
  total: number;
  offset: number;
  /** The page asked for. */
  segments: SegmentReport[];
}

/** One metric of one system in a comparison; `p_value` null for the baseline. */
export interface ComparedMetric {
  score: number;
  mean: number | null;
  ci: number | null;
  p_value: number | null;
}

/** A system: its uri, each tested metric (keyed by the server's names, `ter` included), for every
 * system but the baseline each segment's difference from it, and (with a test) the 0-based first
 * line of each segment in its own document. */
export type ComparedSystem = { uri: string; differences?: Record<string, number[]>; lines?: number[] } & Record<string, ComparedMetric | unknown>;

/** Which of the systems sharing a hypothesis's references to compare, and against which. */
export interface SystemsChoice {
  baseline: string;
  /** The systems compared, the baseline among them. */
  systems: string[];
}

/** `scorelens/compare`'s params (docs/protocol.md); without a choice, every system against the first by URI. */
export type CompareParams = { uri: string; test?: 'bs' | 'ar'; n?: number } & Partial<SystemsChoice>;

/** `scorelens/compare`'s answer and `scorelens/compareChanged`'s params (docs/protocol.md). */
export interface CompareResult {
  uri: string;
  versions: (number | null)[];
  references: string[];
  /** Every open system with the same references and settings, by URI: what can be chosen. */
  candidates: string[];
  baseline: string;
  /** Absent when there is nothing to test (one system, or systems that do not line up). */
  test?: 'bs' | 'ar';
  n?: number;
  seed?: number | null;
  systems: ComparedSystem[];
  /** 0-based first line of each segment in the baseline (the baseline's own `lines`). */
  lines: number[];
}

/** Agreement is measured by the metrics `scorelens agree` takes (not perplexity). */
export type AgreementMetric = Exclude<MetricId, 'ppl'>;

/** `scorelens/agreementChanged`'s params (docs/protocol.md): an annotators' group and its matrices. */
export interface AgreementSummary {
  /** The request's document (in the notification: the first annotator). */
  uri: string;
  annotators: string[];
  /** How lenses, hovers and the report name each annotator: `ann2`, or its path for an `[[agree]]` group. */
  names: string[];
  /** `NAME.annK.EXT`, or the configuration entry (`scorelens.toml agree[0]`). */
  rule: string;
  /** Each open annotator's document version the numbers come from; null: read from its file. */
  versions: (number | null)[];
  segments: number;
  /** In `scorelens.metrics`' order; the first ranks the segments. */
  metrics: AgreementMetric[];
  /** Row i, column j: annotator j scored against annotator i as the reference (null on the diagonal and for an annotator not read). */
  matrices: Partial<Record<AgreementMetric, (number | null)[][]>>;
  /** What stands in the way, e.g. `ann3: not compared: no such file`. */
  problems: string[];
}

/** A segment the annotators disagree on: the mean distance over every ordered pair on the first metric. */
export interface Disagreement {
  segment: number;
  /** Each annotator's 0-based first line of the segment (null for one not read). */
  lines: (number | null)[];
  disagreement: number;
  texts: (string | null)[];
}

/** `scorelens/agreement`'s answer. */
export interface AgreementResult extends AgreementSummary {
  signatures: Partial<Record<AgreementMetric, string>>;
  ranked_by: AgreementMetric;
  disagreements: Disagreement[];
}
