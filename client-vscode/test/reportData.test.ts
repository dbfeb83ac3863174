import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { badnessKey, fileNameOf, histogram, shapeReport } from '../src/report/reportData';
import { report, segment } from './fixtures';

describe('histogram', () => {
  it('bins sentence BLEU into ten bins of 10, 100 in the top bin', () => {
    const h = histogram('bleu', [0, 9.99, 10, 55, 99.9, 100]);
    assert.deepEqual(h.bins.map((b) => b.count), [2, 1, 0, 0, 0, 1, 0, 0, 0, 2]);
    assert.equal(h.bins[0].label, '0–10');
    assert.equal(h.bins[9].label, '90–100');
    assert.equal(h.total, 6);
    assert.equal(h.mean, '45.8');
    assert.equal(h.title, 'Sentence BLEU');
  });
  it('gives error rates above 1 their own bin', () => {
    const h = histogram('wer', [0, 0.1, 0.25, 1, 2.5]);
    assert.equal(h.bins.length, 11);
    assert.deepEqual(h.bins.map((b) => b.count), [1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 2]);
    assert.equal(h.bins[10].label, '≥ 100%');
    assert.equal(h.bins[2].label, '20–30%');
    assert.equal(histogram('rougeL', []).bins[2].label, '0.2–0.3');
  });
  it('handles floating-point edges (0.3 / 0.1 is 2.9999…)', () => {
    assert.equal(histogram('rougeL', [0.3]).bins[3].count, 1);
  });
  it('copes with no values', () => {
    const h = histogram('bleu', []);
    assert.equal(h.total, 0);
    assert.equal(h.mean, '–');
  });
});

describe('chrF and ROUGE-N in the report', () => {
  it('bins sentence chrF over 0–100 and ROUGE-N over 0–1', () => {
    const h = histogram('chrf', [0, 55, 100]);
    assert.equal(h.title, 'Sentence chrF');
    assert.equal(h.bins[5].label, '50–60');
    assert.deepEqual(h.bins.map((b) => b.count), [1, 0, 0, 0, 0, 1, 0, 0, 0, 1]);
    assert.equal(histogram('rouge2', [0.25]).title, 'Segment ROUGE-2');
    assert.equal(histogram('rouge2', [0.25]).bins[2].count, 1);
  });
  it('has their columns and histograms, ranked by chrF when BLEU is off', () => {
    const rows = [
      { ...segment(0, null, null, null), chrf: 70, rouge2: 0.5 },
      { ...segment(1, null, null, null), chrf: 20, rouge2: 0.1 },
    ];
    const v = shapeReport(report(rows));
    assert.deepEqual(v.columns, ['chrf', 'rouge2']);
    assert.equal(v.worstBy, 'chrf');
    assert.deepEqual(v.rows.map((row) => row.line), [1, 0]);
    assert.deepEqual(v.rows[0].values, { chrf: 20, rouge2: 0.1 });
    assert.deepEqual(v.histograms.map((h) => h.metric), ['chrf', 'rouge2']);
  });
});

describe('TER in the report', () => {
  it('bins sentence TER over 0–100 with an overflow bin, no % sign (sacreBLEU writes none)', () => {
    const h = histogram('ter', [0, 35, 100, 250]);
    assert.equal(h.title, 'Sentence TER');
    assert.equal(h.bins.length, 11);
    assert.deepEqual(h.bins.map((b) => b.count), [1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 2]);
    assert.equal(h.bins[3].label, '30–40');
    assert.equal(h.bins[10].label, '≥ 100');
    assert.equal(h.mean, '96.3');
  });
  it('ranks the highest TER first when BLEU and chrF are off', () => {
    const rows = [0.2, 75, 30].map((ter, i) => ({ ...segment(i, null, null, null), ter }));
    const v = shapeReport(report(rows));
    assert.deepEqual(v.columns, ['ter']);
    assert.equal(v.worstBy, 'ter');
    assert.deepEqual(v.rows.map((row) => row.line), [1, 2, 0]);
    assert.ok(badnessKey('ter', 75) < badnessKey('ter', 30));
  });
  it('puts its column after chrF, before ROUGE and WER', () => {
    const v = shapeReport(report([{ ...segment(0, 10, 0.5), chrf: 40, ter: 50 }]));
    assert.deepEqual(v.columns, ['bleu', 'chrf', 'ter', 'rougeL', 'wer']);
    assert.equal(v.worstBy, 'bleu');
  });
});

describe('shapeReport', () => {
  const r = report([segment(0, 80, 0.1), segment(1, 5, 0.9), segment(2, 40, 0.5), segment(3, 5, 0.7), segment(4, null, null, null)]);
  const view = shapeReport(r);

  it('names the files', () => {
    assert.equal(view.fileName, 'news.hyp.en');
    assert.deepEqual(view.references.map((x) => x.name), ['news.ref.en', 'my ref2.en']);
  });
  it('lists the worst segments first by sentence BLEU, ties by line', () => {
    assert.equal(view.worstBy, 'bleu');
    assert.deepEqual(view.rows.map((row) => row.line), [1, 3, 2, 0]);
    assert.deepEqual(view.rows[0].values, { bleu: 5, rougeL: 0.5, wer: 0.9 });
    assert.equal(view.rows[0].reference, 'ref 1');
  });
  it('leaves out segments without any score (empty lines)', () => {
    assert.equal(view.scoredSegments, 4);
  });
  it('caps the table', () => {
    assert.deepEqual(shapeReport(r, 2).rows.map((row) => row.line), [1, 3]);
  });
  it('has one histogram per metric present and the corpus scores', () => {
    assert.deepEqual(view.histograms.map((h) => h.metric), ['bleu', 'rougeL', 'wer']);
    assert.equal(view.histograms[0].total, 4);
    assert.deepEqual(view.corpus.map((c) => c.label), ['BLEU', 'ROUGE-L', 'WER']);
  });
  it('ranks by WER (highest first) when BLEU is off', () => {
    const noBleu = report([segment(0, null, 0.2), segment(1, null, 0.8)]);
    const v = shapeReport(noBleu);
    assert.equal(v.worstBy, 'wer');
    assert.deepEqual(v.rows.map((row) => row.line), [1, 0]);
    assert.deepEqual(v.columns, ['rougeL', 'wer']);
  });
});

describe('helpers', () => {
  it('orders badness the same way for scores and error rates', () => {
    assert.ok(badnessKey('bleu', 10) < badnessKey('bleu', 20));
    assert.ok(badnessKey('wer', 0.9) < badnessKey('wer', 0.1));
  });
  it('decodes file names from URIs', () => {
    assert.equal(fileNameOf('file:///a/b/%E6%96%B0%E9%97%BB.hyp.zh'), '新闻.hyp.zh');
    assert.equal(fileNameOf('not a uri'), 'not a uri');
  });
});
