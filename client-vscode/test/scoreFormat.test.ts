import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatMetric, metricDetails, presentMetrics, statusBarText } from '../src/scoreFormat';
import { corpusScores } from './fixtures';

describe('status bar text', () => {
  it('writes scores as the server does: BLEU 0–100, ROUGE 0–1, error rates in %', () => {
    assert.equal(statusBarText(corpusScores), 'BLEU 31.2 · ROUGE-L 0.605 · WER 31.0%');
  });
  it('shows only the metrics the server sent, in a fixed order', () => {
    const { bleu: _bleu, rougeL: _rougeL, ...rest } = corpusScores;
    assert.equal(statusBarText({ ...rest, cer: { cer: 0.1234, hits: 1, substitutions: 0, deletions: 0, insertions: 0 } }), 'WER 31.0% · CER 12.3%');
    assert.deepEqual(presentMetrics(corpusScores), ['bleu', 'rougeL', 'wer']);
  });
  it('is empty when no metric is present', () => {
    assert.equal(statusBarText({ segments: 0 }), '');
  });
  it('rounds like sacreBLEU prints', () => {
    assert.equal(formatMetric('bleu', 100), '100.0');
    assert.equal(formatMetric('bleu', 0), '0.0');
    assert.equal(formatMetric('wer', 1.5), '150.0%');
    assert.equal(formatMetric('rougeL', 0.60049), '0.600');
  });
});

describe('tooltip details', () => {
  it('gives each metric its components and signature', () => {
    const [bleu, rouge, wer] = metricDetails(corpusScores);
    assert.equal(bleu.detail, '62.1/38.0/25.3/17.1 (BP 1.000, ratio 1.017, hyp_len 412, ref_len 405)');
    assert.equal(bleu.signature, corpusScores.bleu!.signature);
    assert.equal(rouge.detail, 'P 0.610 R 0.600 F 0.605');
    assert.equal(wer.detail, 'S 90 D 20 I 12 H 280');
  });
});
