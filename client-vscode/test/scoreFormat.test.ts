import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatChange, formatMetric, metricDetails, presentMetrics, qaText, scoredAgainst, statusBarText } from '../src/scoreFormat';
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

describe('chrF and ROUGE-N', () => {
  const chrf = { score: 55.0123, char_order: 6, word_order: 0, beta: 2, signature: 'nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:scorelens-0.1.0' };
  const rouge = (f: number) => ({ precision: f, recall: f, fmeasure: f, signature: 'nrefs:1|tok:rouge-score|stem:no|agg:mean|version:scorelens-0.1.0' });
  it('shows chrF on the 0–100 scale and ROUGE-N F-measures beside the others, MT metrics first', () => {
    const scores = { ...corpusScores, chrf, rouge2: rouge(0.41234), rouge1: rouge(0.6) };
    assert.equal(statusBarText(scores), 'BLEU 31.2 · chrF 55.0 · ROUGE-1 0.600 · ROUGE-2 0.412 · ROUGE-L 0.605 · WER 31.0%');
    assert.deepEqual(presentMetrics(scores), ['bleu', 'chrf', 'rouge1', 'rouge2', 'rougeL', 'wer']);
  });
  it("names chrF's variants as sacreBLEU does", () => {
    assert.equal(statusBarText({ segments: 1, chrf: { ...chrf, word_order: 2 } }), 'chrF2++ 55.0');
    assert.equal(statusBarText({ segments: 1, chrf: { ...chrf, beta: 1 } }), 'chrF1 55.0');
  });
  it('gives chrF its orders and signature, ROUGE-N its P/R/F', () => {
    const [c, r] = metricDetails({ segments: 1, chrf, rouge4: rouge(0.25) });
    assert.equal(c.detail, 'character order 6, word order 0, beta 2');
    assert.equal(c.signature, chrf.signature);
    assert.equal(r.label, 'ROUGE-4');
    assert.equal(r.detail, 'P 0.250 R 0.250 F 0.250');
  });
});

describe('TER', () => {
  const ter = { score: 58.14, num_edits: 235, ref_length: 404.5, signature: 'nrefs:2|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:scorelens-0.1.0' };
  it("follows chrF on sacreBLEU's 0–100 scale with one decimal, as sacreBLEU's MT trio", () => {
    const chrf = { score: 55.0123, char_order: 6, word_order: 0, beta: 2, signature: '' };
    assert.equal(statusBarText({ ...corpusScores, chrf, ter }), 'BLEU 31.2 · chrF 55.0 · TER 58.1 · ROUGE-L 0.605 · WER 31.0%');
    assert.equal(formatMetric('ter', 120), '120.0');
  });
  it('gives its edits, the reference length and the signature', () => {
    const [t] = metricDetails({ segments: 3, ter });
    assert.equal(t.label, 'TER');
    assert.equal(t.detail, '235 edits, reference length 404.5');
    assert.equal(t.signature, ter.signature);
    assert.equal(metricDetails({ segments: 3, ter: { ...ter, ref_length: 12 + 1 / 3 } })[0].detail, '235 edits, reference length 12.33');
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

describe('the change of the last edit', () => {
  it('shows the first two significant digits, enough for one line of 100,000', () => {
    assert.equal(formatChange('bleu', 0.0000312), '+0.000031');
    assert.equal(formatChange('bleu', -0.41), '−0.41');
    assert.equal(formatChange('bleu', 3.2), '+3.20');
    assert.equal(formatChange('rougeL', 0.0000041), '+0.0000041');
    assert.equal(formatChange('rougeL', 0.02), '+0.0200');
  });
  it('writes error rates in percentage points, as they are shown', () => {
    assert.equal(formatChange('wer', -0.0000057), '−0.00057');
    assert.equal(formatChange('wer', 0.01), '+1.00');
  });
  it('calls rounding noise no change', () => {
    assert.equal(formatChange('bleu', 0), '±0');
    assert.equal(formatChange('rougeL', 2e-16), '±0');
  });
  it('follows each figure in the status bar, only for the metrics the change has', () => {
    assert.equal(
      statusBarText(corpusScores, { bleu: 0.0000312, wer: -0.0000057 }),
      'BLEU 31.2 (+0.000031) · ROUGE-L 0.605 · WER 31.0% (−0.00057)',
    );
  });
});

describe('perplexity', () => {
  const ppl = { perplexity: 9.17268571921488, log10_prob: -254.09907960891724, tokens: 264, oov: 4, model: '/work/samples/lm/asr.arpa' };
  it('comes last in the status bar, with one decimal as the server writes it in hints', () => {
    assert.equal(statusBarText({ ...corpusScores, ppl }), 'BLEU 31.2 · ROUGE-L 0.605 · WER 31.0% · PPL 9.2');
    assert.equal(formatMetric('ppl', 514.8300083066737), '514.8');
  });
  it('is all there is for a document checked alone', () => {
    assert.equal(statusBarText({ segments: 25, ppl }), 'PPL 9.2');
    assert.deepEqual(presentMetrics({ segments: 25, ppl }), ['ppl']);
  });
  it('is not shown without segments (no perplexity)', () => {
    assert.deepEqual(presentMetrics({ segments: 0, ppl: { ...ppl, perplexity: null, log10_prob: 0, tokens: 0, oov: 0 } }), []);
  });
  it('follows its figure with the change of the last edit, a perplexity fallen being better', () => {
    assert.equal(statusBarText({ segments: 25, ppl }, { ppl: -0.0123 }), 'PPL 9.2 (−0.012)');
    assert.equal(formatChange('ppl', 3.2), '+3.20');
    assert.equal(formatChange('ppl', 0.00004), '+0.000040');
  });
  it('gives tokens, OOV words, the log10 probability and the model in the tooltip', () => {
    const [d] = metricDetails({ segments: 25, ppl });
    assert.equal(d.label, 'PPL');
    assert.equal(d.value, '9.2');
    assert.equal(d.detail, '264 tokens, 4 OOV, log10 prob -254.10, model /work/samples/lm/asr.arpa');
    assert.equal(d.signature, '');
  });
  it('says when a document was checked alone, without references', () => {
    assert.equal(scoredAgainst(25, []), '25 segments, checked alone for fluency');
    assert.equal(scoredAgainst(30, ['news.ref.en', 'news.ref2.en']), '30 segments against news.ref.en, news.ref2.en');
    assert.equal(scoredAgainst(10, [], 'manual.src.en'), '10 segments, checked against their source manual.src.en');
    assert.equal(scoredAgainst(10, ['manual.ref.de'], 'manual.src.en'), '10 segments against manual.ref.de');
  });
  it('counts the source checks\' findings and errors', () => {
    assert.equal(qaText({ source: 'file:///w/manual.src.en', findings: 11, errors: 5 }), 'QA 11 (5 errors)');
    assert.equal(qaText({ source: 'file:///w/manual.src.en', findings: 2, errors: 1 }), 'QA 2 (1 error)');
    assert.equal(qaText({ source: 'file:///w/manual.src.en', findings: 0, errors: 0 }), 'QA 0');
  });
});

describe("ROUGE-1.5.5's ROUGE-W, -S and -SU", () => {
  const signature = 'nrefs:1|impl:rouge-1.5.5|f:A|p:0.5|stem:no|stop:no|r:1000|w:1.2|version:scorelens-0.1.0';
  const rouge = (f: number) => ({ precision: f, recall: f, fmeasure: f, signature });
  it('shows them after ROUGE-L, with their P/R/F and the signature that names the flavour', () => {
    const scores = { segments: 6, rougeSU: rouge(0.24695), rougeL: rouge(0.46441), rougeW: rouge(0.24156), rougeS: rouge(0.17997) };
    assert.equal(statusBarText(scores), 'ROUGE-L 0.464 · ROUGE-W 0.242 · ROUGE-S 0.180 · ROUGE-SU 0.247');
    const w = metricDetails(scores)[1];
    assert.equal(w.label, 'ROUGE-W');
    assert.equal(w.detail, 'P 0.242 R 0.242 F 0.242');
    assert.equal(w.signature, signature);
  });
});
