import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PAGE_SIZE, fileNameOf, filterLabel, filterValue, formatEdge, histogram, shapeReport, worstBy, worstFirst } from '../src/report/reportData';
import { report, segment } from './fixtures';

describe('histogram', () => {
  it('labels the server\'s ten bins of sentence BLEU', () => {
    const h = histogram('bleu', { bins: [2, 1, 0, 0, 0, 1, 0, 0, 0, 2], total: 6, mean: 45.815 });
    assert.deepEqual(h.bins.map((b) => b.count), [2, 1, 0, 0, 0, 1, 0, 0, 0, 2]);
    assert.equal(h.bins[0].label, '0–10');
    assert.equal(h.bins[9].label, '90–100');
    assert.equal(h.total, 6);
    assert.equal(h.mean, '45.8');
    assert.equal(h.title, 'Sentence BLEU');
  });
  it('labels error rates in % with their eleventh bin', () => {
    const h = histogram('wer', { bins: [1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 2], total: 5, mean: 0.77 });
    assert.equal(h.bins.length, 11);
    assert.equal(h.bins[10].label, '≥ 100%');
    assert.equal(h.bins[2].label, '20–30%');
    assert.equal(h.mean, '77.0%');
  });
  it('labels ROUGE over 0–1 and chrF over 0–100', () => {
    assert.equal(histogram('rougeL', { bins: new Array(10).fill(0), total: 0, mean: null }).bins[2].label, '0.2–0.3');
    assert.equal(histogram('rouge2', { bins: new Array(10).fill(0), total: 0, mean: null }).title, 'Segment ROUGE-2');
    const chrf = histogram('chrf', { bins: [1, 0, 0, 0, 0, 1, 0, 0, 0, 1], total: 3, mean: 55 });
    assert.equal(chrf.title, 'Sentence chrF');
    assert.equal(chrf.bins[5].label, '50–60');
  });
  it('copes with no values', () => {
    const h = histogram('bleu', { bins: new Array(10).fill(0), total: 0, mean: null });
    assert.equal(h.total, 0);
    assert.equal(h.mean, '–');
  });
});

describe('the first page: worst segments first', () => {
  it('by sentence BLEU, lowest first', () => {
    assert.deepEqual(worstFirst(['line', 'bleu', 'rougeL', 'wer', 'edits']), { offset: 0, limit: PAGE_SIZE, sort: 'bleu', descending: false, filters: [] });
  });
  it('by chrF when BLEU is off, by WER (highest first) when both are', () => {
    assert.equal(worstBy(['line', 'chrf', 'rouge2']), 'chrf');
    const q = worstFirst(['line', 'rougeL', 'wer', 'edits']);
    assert.equal(q.sort, 'wer');
    assert.equal(q.descending, true);
  });
  it('in line order without a metric', () => {
    assert.deepEqual(worstFirst([]), { offset: 0, limit: PAGE_SIZE, sort: 'line', descending: false, filters: [] });
  });
});

describe('filters', () => {
  it('take error rates in % as shown and send them 0–1', () => {
    assert.equal(filterValue('wer', 30), 0.3);
    assert.equal(filterValue('bleu', 30), 30);
    assert.equal(filterLabel('wer', '>', 0.3), 'WER > 30%');
    assert.equal(filterLabel('bleu', '<=', 12.5), 'BLEU <= 12.5');
    assert.equal(filterLabel('edits', '>=', 3), 'Edits >= 3');
  });
});

describe('TER in the report', () => {
  it('labels sentence TER over 0–100 with an overflow bin, no % sign (sacreBLEU writes none)', () => {
    const h = histogram('ter', { bins: [1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 2], total: 4, mean: 96.25 });
    assert.equal(h.title, 'Sentence TER');
    assert.equal(h.bins.length, 11);
    assert.equal(h.bins[3].label, '30–40');
    assert.equal(h.bins[10].label, '≥ 100');
    assert.equal(h.mean, '96.3');
  });
  it('ranks the highest TER first when BLEU and chrF are off', () => {
    assert.equal(worstBy(['line', 'ter', 'rougeL']), 'ter');
    const q = worstFirst(['line', 'ter', 'rougeL']);
    assert.equal(q.sort, 'ter');
    assert.equal(q.descending, true);
    assert.equal(worstBy(['line', 'bleu', 'chrf', 'ter']), 'bleu');
  });
  it('keeps the server\'s column order: TER after chrF, before ROUGE and WER', () => {
    const v = shapeReport(report([{ ...segment(0, 10, 0.5), chrf: 40, ter: 50 }], { columns: ['line', 'bleu', 'chrf', 'ter', 'rougeL', 'wer', 'edits'] }), worstFirst([]));
    assert.deepEqual(v.columns, ['bleu', 'chrf', 'ter', 'rougeL', 'wer']);
    assert.equal(v.rows[0].values.ter, 50);
  });
});

describe('shapeReport', () => {
  const r = report([segment(1, 5, 0.9), segment(3, 5, 0.7), segment(2, 40, 0.5)], { offset: 100, total: 130 });
  const query = worstFirst(r.columns);
  const view = shapeReport(r, query);

  it('names the files', () => {
    assert.equal(view.fileName, 'news.hyp.en');
    assert.deepEqual(view.references.map((x) => x.name), ['news.ref.en', 'my ref2.en']);
  });
  it('keeps the server\'s rows in its order, with the page\'s place', () => {
    assert.deepEqual(view.rows.map((row) => row.line), [1, 3, 2]);
    assert.deepEqual(view.rows[0].values, { bleu: 5, rougeL: 0.5, wer: 0.9 });
    assert.equal(view.rows[0].reference, 'ref 1');
    assert.equal(view.rows[0].deletions, 2);
    assert.equal(view.total, 130);
    assert.equal(view.query.offset, 100);
    assert.equal(view.segments, 30);
    assert.equal(view.loading, false);
  });
  it('has the metric columns, word edits, histograms and corpus scores', () => {
    assert.deepEqual(view.columns, ['bleu', 'rougeL', 'wer']);
    assert.equal(view.hasEdits, true);
    assert.deepEqual(view.histograms.map((h) => h.metric), ['bleu', 'rougeL', 'wer']);
    assert.equal(view.histograms[0].total, 6);
    assert.deepEqual(view.corpus.map((c) => c.label), ['BLEU', 'ROUGE-L', 'WER']);
  });
  it('paints the summary first, rows to come', () => {
    const summary = shapeReport(report([], { columns: ['line', 'chrf', 'rouge2'] }), worstFirst([]), true);
    assert.equal(summary.loading, true);
    assert.deepEqual(summary.rows, []);
    assert.deepEqual(summary.columns, ['chrf', 'rouge2']);
    assert.equal(summary.hasEdits, false);
  });
});

describe('helpers', () => {
  it('decodes file names from URIs', () => {
    assert.equal(fileNameOf('file:///a/b/%E6%96%B0%E9%97%BB.hyp.zh'), '新闻.hyp.zh');
    assert.equal(fileNameOf('not a uri'), 'not a uri');
  });
});

describe('perplexity in the report', () => {
  // docs/protocol.md: lo = floor(log10 min ppl), hi = ceil(log10 max ppl), 10 equal log10 bins.
  const edges = Array.from({ length: 11 }, (_, k) => 10 ** (0 + (k * (3 - 0)) / 10));
  const data = { bins: [3, 5, 6, 4, 2, 1, 0, 0, 1, 3], total: 25, mean: 83.25, scale: 'log10' as const, edges };

  it('labels the bins with the edges the server sent, on a log scale', () => {
    const h = histogram('ppl', data);
    assert.equal(h.title, 'Segment PPL (log scale)');
    assert.deepEqual(h.bins.map((b) => b.count), data.bins);
    assert.deepEqual(h.bins.map((b) => b.label), [
      '1–2', '2–3.98', '3.98–7.94', '7.94–15.8', '15.8–31.6', '31.6–63.1', '63.1–126', '126–251', '251–501', '501–1k',
    ]);
    assert.equal(h.mean, '83.3');
    assert.equal(h.total, 25);
  });
  it('writes big edges in thousands and millions', () => {
    assert.deepEqual([1258.925, 1e6, 39810717.05, 10, 10 ** 1.3].map(formatEdge), ['1.26k', '1M', '39.8M', '10', '20']);
  });
  it('labels the empty document\'s edges 1…10', () => {
    const empty = histogram('ppl', { bins: new Array(10).fill(0), total: 0, mean: null, scale: 'log10', edges: Array.from({ length: 11 }, (_, k) => 10 ** (k / 10)) });
    assert.equal(empty.bins[0].label, '1–1.26');
    assert.equal(empty.bins[9].label, '7.94–10');
    assert.equal(empty.mean, '–');
  });
  it('is a column like the others, highest first when it is the only metric', () => {
    const v = shapeReport(report([{ line: 8, hypothesis: 'meter the was bill', references: [], ppl: 514.83 }], {
      references: [],
      scores: { segments: 25, ppl: { perplexity: 9.17, log10_prob: -254.1, tokens: 264, oov: 4, model: '/m/asr.arpa' } },
      histograms: { ppl: data },
      columns: ['line', 'ppl'],
    }), worstFirst(['line', 'ppl']));
    assert.deepEqual(v.columns, ['ppl']);
    assert.deepEqual(v.rows[0].values, { ppl: 514.83 });
    assert.equal(v.rows[0].reference, '');
    assert.deepEqual(v.histograms.map((h) => h.metric), ['ppl']);
    assert.deepEqual(v.corpus.map((c) => `${c.label} ${c.value}`), ['PPL 9.2']);
    assert.deepEqual(worstFirst(['line', 'ppl']), { offset: 0, limit: PAGE_SIZE, sort: 'ppl', descending: true, filters: [] });
  });
  it('leaves "worst" to the fidelity metrics when they are on', () => {
    assert.equal(worstBy(['line', 'bleu', 'rougeL', 'wer', 'ppl', 'edits']), 'bleu');
    assert.equal(worstBy(['line', 'cer', 'ppl']), 'cer');
  });
  it('filters in perplexity as shown', () => {
    assert.equal(filterValue('ppl', 100), 100);
    assert.equal(filterLabel('ppl', '>', 100), 'PPL > 100');
  });
});
