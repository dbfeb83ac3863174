import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { distanceLabel, shapeAgreement } from '../src/report/agreementData';
import type { AgreementResult } from '../src/protocol';

const base = 'file:///work/samples/agree/call.ann';
/** samples/agree's three annotators, as the server answers scorelens/agreement (WER and BLEU). */
const result: AgreementResult = {
  uri: `${base}1.txt`,
  annotators: [`${base}1.txt`, `${base}2.txt`, `${base}3.txt`],
  names: ['ann1', 'ann2', 'ann3'],
  rule: 'NAME.annK.EXT',
  versions: [2, null, null],
  segments: 22,
  metrics: ['wer', 'bleu'],
  matrices: {
    wer: [[null, 0.03553299492385787, 0.116751269035533], [0.03571428571428571, null, 0.14285714285714285], [0.12299465240641712, 0.1497326203208556, null]],
    bleu: [[null, 94.06916790988984, 79.96491044606745], [93.96030228464119, null, 75.42586586888967], [79.25531334396797, 74.829021729154, null]],
  },
  problems: [],
  signatures: { wer: 'nrefs:1|unit:word|transform:default|version:scorelens-0.1.0', bleu: 'nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:scorelens-0.1.0' },
  ranked_by: 'wer',
  disagreements: [
    { segment: 7, lines: [7, 7, 7], disagreement: 0.5857142857142857, texts: ['the fourteenth of july nineteen eighty six', 'fourteenth of july nineteen eighty six', 'the 14th of july 1986'] },
    { segment: 9, lines: [9, 9, 9], disagreement: 0.38888888888888884, texts: ['twenty two mill lane', 'twenty two mill lane', '22 mill lane'] },
  ],
};

describe('agreement view', () => {
  it('has a matrix per metric: row the reference, column the annotator scored against it', () => {
    const view = shapeAgreement(result, `${base}2.txt`);
    assert.deepEqual(view.tables.map((t) => t.title), ['WER', 'BLEU']);
    const wer = view.tables[0];
    assert.deepEqual(wer.rows.map((r) => r.name), ['ann1', 'ann2', 'ann3']);
    assert.deepEqual(wer.rows.map((r) => r.cells), [['–', '3.6%', '11.7%'], ['3.6%', '–', '14.3%'], ['12.3%', '15.0%', '–']]);
    assert.deepEqual(view.tables[1].rows[2].cells, ['79.3', '74.8', '–']);
    assert.equal(view.tables[1].signature, result.signatures.bleu);
    // the column of the annotator the view is opened on: what its code lens says
    assert.equal(view.own, 1);
    assert.equal(view.fileName, 'call.ann2.txt');
  });

  it('lists the worst segments with every annotator\'s version, its own marked', () => {
    const view = shapeAgreement(result, `${base}3.txt`);
    assert.equal(view.rankedBy, 'mean WER');
    assert.deepEqual(view.worst.map((s) => [s.segment, s.disagreement]), [[8, '58.6%'], [10, '38.9%']]);
    assert.deepEqual(view.worst[1].versions, [
      { name: 'ann1', uri: `${base}1.txt`, line: 9, text: 'twenty two mill lane', own: false },
      { name: 'ann2', uri: `${base}2.txt`, line: 9, text: 'twenty two mill lane', own: false },
      { name: 'ann3', uri: `${base}3.txt`, line: 9, text: '22 mill lane', own: true },
    ]);
  });

  it('finds its own annotator however the URI is spelled, and shows one not read as such', () => {
    const spaced = { ...result, annotators: ['file:///work/my%20files/a.ann1.txt', ...result.annotators.slice(1)] };
    const partial: AgreementResult = {
      ...spaced,
      problems: ['ann3: not compared: no such file'],
      disagreements: [{ segment: 0, lines: [0, 0, null], disagreement: 0.5, texts: ['a b', 'a c', null] }],
    };
    const view = shapeAgreement(partial, 'file:///work/my files/a.ann1.txt');
    assert.equal(view.own, 0);
    assert.deepEqual(view.worst[0].versions.map((v) => [v.text, v.line]), [['a b', 0], ['a c', 0], ['(not read)', null]]);
    assert.deepEqual(view.problems, ['ann3: not compared: no such file']);
  });

  it('says what a segment\'s disagreement is, metric by metric', () => {
    assert.equal(distanceLabel('bleu'), 'mean 100 − BLEU');
    assert.equal(distanceLabel('rougeL'), 'mean 1 − ROUGE-L');
    assert.equal(distanceLabel('ter'), 'mean TER');
  });
});
