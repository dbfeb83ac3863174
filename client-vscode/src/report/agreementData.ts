// Turns a `scorelens/agreement` answer into the report's agreement view: a matrix per metric and the
// segments the annotators disagree on most, each with every annotator's text. Pure (no `vscode`, no
// DOM), so the unit tests check it; the webview only renders.
import { AgreementMetric, AgreementResult } from '../protocol';
import { METRIC_LABEL, formatMetric } from '../scoreFormat';
import { fileNameOf } from './reportData';

export interface AgreementTable {
  metric: AgreementMetric;
  title: string;
  signature: string;
  /** Row i: annotator i as the reference; cell j: annotator j scored against it, formatted ('–' on the diagonal or for one not read). */
  rows: { name: string; cells: string[] }[];
}

export interface AnnotatorVersion {
  name: string;
  uri: string;
  /** 0-based; null for an annotator not read. */
  line: number | null;
  text: string;
  /** The annotator the view is opened on. */
  own: boolean;
}

export interface AgreementSegment {
  /** 1-based, as shown. */
  segment: number;
  /** The mean distance between the annotators on the ranking metric, formatted. */
  disagreement: string;
  versions: AnnotatorVersion[];
}

export interface AgreementView {
  uri: string;
  fileName: string;
  names: string[];
  /** The index of the annotator the view is opened on (its column is its code lens's figures); -1 if none. */
  own: number;
  segments: number;
  rule: string;
  tables: AgreementTable[];
  /** How the segments are ranked, e.g. `mean WER` or `mean 100 − BLEU`. */
  rankedBy: string;
  worst: AgreementSegment[];
  problems: string[];
}

/** What a segment's disagreement is on `metric`: error rates as they are, scores subtracted from their best. */
export function distanceLabel(metric: AgreementMetric): string {
  const label = METRIC_LABEL[metric];
  if (metric === 'wer' || metric === 'cer' || metric === 'ter') return `mean ${label}`;
  return metric === 'bleu' || metric === 'chrf' ? `mean 100 − ${label}` : `mean 1 − ${label}`;
}

/** The view of an agreement answer, opened on the annotator `uri` (VS Code's spelling or the server's). */
export function shapeAgreement(result: AgreementResult, uri: string = result.uri): AgreementView {
  const same = (a: string, b: string) => a === b || decodeURIComponent(a) === decodeURIComponent(b);
  const cell = (metric: AgreementMetric, value: number | null) => (value === null ? '–' : formatMetric(metric, value));
  const tables = result.metrics.flatMap((metric) => {
    const matrix = result.matrices[metric];
    if (!matrix) return [];
    return [{ metric, title: METRIC_LABEL[metric], signature: result.signatures[metric] ?? '', rows: matrix.map((row, i) => ({ name: result.names[i], cells: row.map((v) => cell(metric, v)) })) }];
  });
  const ranking = result.ranked_by;
  const own = result.annotators.findIndex((a) => same(a, uri));
  return {
    uri,
    fileName: fileNameOf(uri),
    names: result.names,
    own,
    segments: result.segments,
    rule: result.rule,
    tables,
    rankedBy: distanceLabel(ranking),
    worst: result.disagreements.map((d) => ({
      segment: d.segment + 1,
      disagreement: formatMetric(ranking, d.disagreement),
      versions: result.annotators.map((annotator, k) => ({
        name: result.names[k],
        uri: annotator,
        line: d.lines[k],
        text: d.texts[k] ?? '(not read)',
        own: k === own,
      })),
    })),
    problems: result.problems,
  };
}
