// "Pick Systems to Compare…" and the Compare Systems view's segment rows, without VS Code: the quick
// picks' items, the scorelens/compare params the choice sends, and the editors and lines a row opens.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { baselineItems, compareParams, lineWithin, sideBySide, systemItems, systemsChoice } from '../src/compare/compareActions';
import { shapeComparison } from '../src/compare/compareData';
import { CompareResult } from '../src/protocol';

const SYS1 = 'file:///ws/mt/news.sys1.en';
const SYS2 = 'file:///ws/mt/news.sys2.en';
const SYS3 = 'file:///ws/mt/news.sys3.en';
const relative = (uri: string) => uri.replace('file:///ws/', '');

/** Three candidates, the first two compared (a choice made before), the first the baseline. */
function current(): CompareResult {
  return {
    uri: SYS1,
    versions: [1, 1],
    references: ['file:///ws/mt/news.ref.en'],
    candidates: [SYS1, SYS2, SYS3],
    baseline: SYS1,
    test: 'bs',
    n: 1000,
    seed: 12345,
    systems: [
      { uri: SYS1, bleu: { score: 57.93, mean: 57.76, ci: 9.84, p_value: null }, lines: [0, 1, 2, 4, 5] },
      // paragraphs wrapped differently from the baseline's: the same segments start on other lines
      { uri: SYS2, bleu: { score: 67.97, mean: 67.9, ci: 9.93, p_value: 0.1069 }, differences: { bleu: [0, -12.5, 86.78, 0, -90.95] }, lines: [0, 2, 4, 7, 9] },
    ],
    lines: [0, 1, 2, 4, 5],
  };
}

describe('Pick Systems to Compare…', () => {
  it('offers every candidate as the baseline, the current one said so', () => {
    assert.deepEqual(baselineItems(current(), relative), [
      { label: 'news.sys1.en', description: 'mt/news.sys1.en', detail: 'the baseline now', uri: SYS1, picked: false },
      { label: 'news.sys2.en', description: 'mt/news.sys2.en', detail: undefined, uri: SYS2, picked: false },
      { label: 'news.sys3.en', description: 'mt/news.sys3.en', detail: undefined, uri: SYS3, picked: false },
    ]);
  });

  it('offers the others as systems, those compared now picked', () => {
    assert.deepEqual(
      systemItems(current(), SYS1, relative).map((i) => [i.label, i.description, i.picked]),
      [
        ['news.sys2.en', 'mt/news.sys2.en', true],
        ['news.sys3.en', 'mt/news.sys3.en', false],
      ],
    );
    // the new baseline is not offered again; the old one is, picked as it is compared now
    assert.deepEqual(
      systemItems(current(), SYS3, relative).map((i) => [i.uri, i.picked]),
      [
        [SYS1, true],
        [SYS2, true],
      ],
    );
  });

  it('sends the baseline and the systems picked, in the candidates\' order', () => {
    const choice = systemsChoice([SYS1, SYS2, SYS3], SYS3, [SYS2]);
    assert.deepEqual(choice, { baseline: SYS3, systems: [SYS2, SYS3] });
    assert.deepEqual(compareParams(SYS1, choice), { uri: SYS1, baseline: SYS3, systems: [SYS2, SYS3] });
    assert.deepEqual(systemsChoice([SYS1, SYS2, SYS3], SYS2, [SYS3, SYS1])?.systems, [SYS1, SYS2, SYS3]);
  });

  it('makes no choice when no system is picked, and asks for every system without one', () => {
    assert.equal(systemsChoice([SYS1, SYS2], SYS1, []), undefined);
    assert.deepEqual(compareParams(SYS2), { uri: SYS2 });
  });
});

describe('a segment row of the Compare Systems view', () => {
  it('opens the baseline in the first column and the system in the second, each at its line of the segment', () => {
    const view = shapeComparison(current());
    assert.deepEqual(view.segments.map((s) => s.segment), [4, 1, 2]); // the rows: biggest loss first
    assert.deepEqual(sideBySide(view, 4), [
      { uri: SYS1, column: 1, line: 5 },
      { uri: SYS2, column: 2, line: 9 },
    ]);
    assert.deepEqual(sideBySide(view, 1), [
      { uri: SYS1, column: 1, line: 1 },
      { uri: SYS2, column: 2, line: 2 },
    ]);
  });

  it('opens the system chosen in the view, against the baseline', () => {
    const result = current();
    result.baseline = SYS2;
    result.lines = [0, 2, 4, 7, 9];
    result.systems = [
      { uri: SYS2, bleu: { score: 67.97, mean: 67.9, ci: 9.93, p_value: null }, lines: [0, 2, 4, 7, 9] },
      { uri: SYS1, bleu: { score: 57.93, mean: 57.76, ci: 9.84, p_value: 0.1069 }, differences: { bleu: [0, 12.5, 0, 0, 0] }, lines: [0, 1, 2, 4, 5] },
    ];
    assert.deepEqual(sideBySide(shapeComparison(result, SYS1), 1), [
      { uri: SYS2, column: 1, line: 2 },
      { uri: SYS1, column: 2, line: 1 },
    ]);
  });

  it('opens nothing for a segment no row has, nor without a system to show', () => {
    const view = shapeComparison(current());
    assert.deepEqual(sideBySide(view, 0), []); // an unchanged segment: no row
    assert.deepEqual(sideBySide(view, 5), []); // a baseline line, not a segment
    assert.deepEqual(sideBySide(view, Number('x')), []);
    assert.deepEqual(sideBySide(undefined, 4), []);
    const alone = current();
    delete alone.test;
    alone.systems = [{ uri: SYS1 }];
    assert.deepEqual(sideBySide(shapeComparison(alone), 0), []);
  });

  it('selects a line the document still has', () => {
    assert.equal(lineWithin(5, 10), 5);
    assert.equal(lineWithin(5, 3), 2); // lines deleted since the comparison
    assert.equal(lineWithin(0, 1), 0);
  });
});
