import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mergeVisible, visibleRangesChanges } from '../src/viewport';

const range = (a: number, b: number) => ({ start: { line: a, character: 0 }, end: { line: b, character: 0 } });

describe('visible ranges', () => {
  it('merges the ranges of split editors on one document, keeps distant ones apart', () => {
    const merged = mergeVisible([
      ['file:///a', [50, 90]],
      ['file:///b', [0, 40]],
      ['file:///a', [0, 40]],
      ['file:///a', [41, 45]],
      ['file:///a', [85, 120]],
    ]);
    assert.deepEqual(merged.get('file:///a'), [[0, 45], [50, 120]]);
    assert.deepEqual(merged.get('file:///b'), [[0, 40]]);
  });

  it('sends only what changed, and empty ranges for a document no longer shown', () => {
    const sent = mergeVisible([['file:///a', [0, 40]], ['file:///b', [0, 40]], ['file:///c', [10, 20]]]);
    const now = mergeVisible([['file:///a', [0, 40]], ['file:///b', [500, 540]], ['file:///d', [1, 2]]]);
    assert.deepEqual(visibleRangesChanges(sent, now), [
      { uri: 'file:///b', ranges: [range(500, 540)] },
      { uri: 'file:///d', ranges: [range(1, 2)] },
      { uri: 'file:///c', ranges: [] },
    ]);
    assert.deepEqual(visibleRangesChanges(now, now), []);
  });
});
