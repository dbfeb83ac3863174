// Shared test data in the shapes of docs/protocol.md.
import type { CorpusScores, Report } from '../src/protocol';

export const corpusScores: CorpusScores = {
  bleu: { score: 31.2345, precisions: [62.14, 38.0, 25.33, 17.1], bp: 1.0, sys_len: 412, ref_len: 405, signature: 'nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:scorelens-0.1.0' },
  rougeL: { precision: 0.61, recall: 0.6, fmeasure: 0.6049, signature: 'nrefs:1|tok:rouge-score|stem:no|agg:mean|version:scorelens-0.1.0' },
  wer: { wer: 0.31, mer: 0.29, wil: 0.44, hits: 280, substitutions: 90, deletions: 20, insertions: 12, signature: 'wer|transform:default' },
  segments: 30,
};

/** A page of the report: `segments` are the rows, `total` the segments passing the filters. */
export function report(segments: Report['segments'], page: Partial<Report> = {}): Report {
  return {
    uri: 'file:///work/samples/mt/news.hyp.en',
    version: 3,
    references: ['file:///work/samples/mt/news.ref.en', 'file:///work/samples/mt/my%20ref2.en'],
    scores: { ...corpusScores, segments: 30 },
    histograms: {
      bleu: { bins: [2, 1, 0, 0, 0, 1, 0, 0, 0, 2], total: 6, mean: 45.815 },
      rougeL: { bins: [0, 0, 0, 0, 0, 6, 0, 0, 0, 0], total: 6, mean: 0.5 },
      wer: { bins: [1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 2], total: 5, mean: 0.77 },
    },
    columns: ['line', 'bleu', 'rougeL', 'wer', 'edits'],
    sort: 'bleu',
    descending: false,
    total: 30,
    offset: 0,
    segments,
    ...page,
  };
}

export const segment = (line: number, bleu: number | null, wer: number | null, rougeL: number | null = 0.5) => ({
  line,
  hypothesis: `hyp ${line}`,
  references: [`ref ${line}`, `alt ${line}`],
  bleu,
  rougeL,
  wer,
  hits: 5,
  substitutions: 1,
  deletions: 2,
  insertions: 0,
});
