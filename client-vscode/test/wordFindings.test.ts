import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { byWord, merged } from '../src/wordFindings';

const at = (line: number, a: number, b: number) => ({ start: { line, character: a }, end: { line, character: b } });
const finding = (code: string, line: number, a: number, b: number, severity = 2, related: string[] = []) => ({
  range: at(line, a, b),
  code,
  message: `${code} at ${line}:${a}`,
  severity,
  relatedInformation: related,
});

describe('one diagnostic per word', () => {
  it('gathers the findings on one range, in the order of each range first met, and leaves notes alone', () => {
    const unmatched = finding('bleu.unmatched', 3, 0, 5);
    const outside = finding('rouge.outside-lcs', 3, 0, 5, 3);
    const substitution = { ...finding('wer.substitution', 3, 0, 5), code: { value: 'wer.substitution', target: 'https://x' } };
    const next = finding('bleu.unmatched', 3, 6, 9);
    const note = finding('pairing.line-count-mismatch', 0, 0, 0, 1);
    const sameRangeNote = finding('scorelens.truncated', 3, 0, 5, 1);
    const groups = byWord([unmatched, note, next, outside, sameRangeNote, substitution]);
    assert.deepEqual(groups, [[unmatched, outside, substitution], [note], [next], [sameRangeNote]]);
  });

  it('keeps a range that only starts or ends alike apart', () => {
    assert.equal(byWord([finding('bleu.unmatched', 1, 0, 5), finding('wer.insertion', 1, 0, 4), finding('wer.deletion', 2, 0, 5)]).length, 3);
  });

  it('makes one diagnostic: every message, the most severe first with its code, every related place', () => {
    const hint = finding('rouge.outside-lcs', 3, 0, 5, 3, ['lcs']);
    const info = finding('bleu.unmatched', 3, 0, 5, 2, ['ref 1', 'ref 2']);
    const warning = finding('wer.substitution', 3, 0, 5, 1, ['ref word']);
    const one = merged([hint, info, warning]);
    assert.equal(one.message, 'wer.substitution at 3:0\nbleu.unmatched at 3:0\nrouge.outside-lcs at 3:0');
    assert.equal(one.severity, 1);
    assert.equal(one.code, 'wer.substitution');
    assert.deepEqual(one.relatedInformation, ['ref word', 'ref 1', 'ref 2', 'lcs']);
    assert.equal(merged([info, finding('wer.insertion', 3, 0, 5, 2)]).code, 'bleu.unmatched'); // a tie keeps the server's order
  });
});
