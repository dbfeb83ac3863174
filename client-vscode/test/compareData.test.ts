// The Compare Systems view's data and HTML from a scorelens/compare result (the shape
// docs/protocol.md gives, numbers from a real run on samples/mt).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { comparisonStatus, differenceHistogram, escapeHtml, metricLabel, renderComparison, shapeComparison } from '../src/compare/compareData';
import { CompareResult } from '../src/protocol';

const SYS1 = 'file:///ws/mt/news.sys1.en';
const SYS2 = 'file:///ws/mt/news.sys2.en';

function result(): CompareResult {
  return {
    uri: SYS1,
    versions: [1, 3],
    references: ['file:///ws/mt/news.ref.en'],
    candidates: [SYS1, SYS2],
    baseline: SYS1,
    test: 'bs',
    n: 1000,
    seed: 12345,
    systems: [
      {
        uri: SYS1,
        bleu: { score: 57.93, mean: 57.76, ci: 9.84, p_value: null },
        ter: { score: 29.14, mean: 29.28, ci: 7.52, p_value: null },
        lines: [0, 1, 2, 4, 5],
      },
      {
        uri: SYS2,
        bleu: { score: 67.97, mean: 67.9, ci: 9.93, p_value: 0.1069 },
        ter: { score: 20.86, mean: 20.91, ci: 6.39, p_value: 0.0269 },
        differences: { bleu: [0, -12.5, 86.78, 0, -90.95], ter: [0, 10, -50, 0, 53.3] },
        lines: [0, 1, 2, 4, 5],
      },
    ],
    lines: [0, 1, 2, 4, 5],
  };
}

describe('shapeComparison', () => {
  it('gives each system its scores, intervals, differences and p-values', () => {
    const view = shapeComparison(result());
    assert.equal(view.baseline.name, 'news.sys1.en');
    assert.equal(view.test, 'paired bootstrap resampling, 1000 resamples, seed 12345');
    assert.deepEqual(view.metrics, ['bleu', 'ter']);
    assert.deepEqual(view.rows.map((r) => [r.name, r.baseline]), [['news.sys1.en', true], ['news.sys2.en', false]]);
    assert.deepEqual(view.rows[0].cells.bleu, { score: '57.93', interval: '57.76 ± 9.84', significant: false });
    assert.deepEqual(view.rows[1].cells.bleu, {
      score: '67.97',
      interval: '67.90 ± 9.93',
      significant: false,
      pValue: 'p = 0.1069',
      difference: '+10.04',
      better: true,
    });
    // TER: lower is better, and p < 0.05 is significant
    assert.equal(view.rows[1].cells.ter.difference, '-8.28');
    assert.equal(view.rows[1].cells.ter.better, true);
    assert.equal(view.rows[1].cells.ter.significant, true);
  });

  it('lists the changed segments, the biggest loss first, at their baseline and system lines', () => {
    const view = shapeComparison(result());
    assert.deepEqual(view.system, { uri: SYS2, name: 'news.sys2.en' });
    assert.equal(view.metric, 'bleu');
    assert.deepEqual(
      view.segments.map((s) => [s.segment, s.line, s.systemLine, s.difference, s.better]),
      [
        [4, 5, 5, '-90.95', false],
        [1, 1, 1, '-12.50', false],
        [2, 2, 2, '+86.78', true],
      ],
    );
    assert.equal(shapeComparison(result(), SYS2, 1).segments.length, 1);
  });

  it("gives a segment the system's own line when its paragraphs start elsewhere than the baseline's", () => {
    const r = result();
    r.systems[1].lines = [0, 3, 5, 8, 10];
    assert.deepEqual(
      shapeComparison(r).segments.map((s) => [s.segment, s.line, s.systemLine]),
      [
        [4, 5, 10],
        [1, 1, 3],
        [2, 2, 5],
      ],
    );
    // a server that sends only the baseline's lines: the system is taken to be at the same ones
    delete r.systems[1].lines;
    assert.deepEqual(shapeComparison(r).segments.map((s) => s.systemLine), [5, 1, 2]);
  });

  it('bins the differences on the chosen metric, unchanged segments in the middle', () => {
    const bleu = shapeComparison(result()).histogram;
    assert.deepEqual(
      bleu?.bins.filter((b) => b.count).map((b) => [b.label, b.count, b.kind]),
      [
        ['-100…-80', 1, 'worse'],
        ['-20…0', 1, 'worse'],
        ['0', 2, 'same'],
        ['+80…+100', 1, 'better'],
      ],
    );
    assert.equal(bleu?.bins.length, 11);
    assert.deepEqual([bleu?.better, bleu?.worse, bleu?.same, bleu?.mean], [1, 2, 2, '-3.33']);
    // TER: lower is better, so the left side is the better one
    const ter = shapeComparison(result(), undefined, 200, 'ter');
    assert.equal(ter.metric, 'ter');
    assert.deepEqual(ter.histogram?.bins.map((b) => [b.label, b.count, b.kind]), [
      ['-60…-40', 1, 'better'],
      ['-40…-20', 0, 'better'],
      ['-20…0', 0, 'better'],
      ['0', 2, 'same'],
      ['0…+20', 1, 'worse'],
      ['+20…+40', 0, 'worse'],
      ['+40…+60', 1, 'worse'],
    ]);
    assert.deepEqual(ter.segments.map((s) => s.difference), ['+53.30', '+10.00', '-50.00']);
    assert.equal(shapeComparison(result(), undefined, 200, 'nope').metric, 'bleu');
  });

  it('puts an edge in the bin farther from 0, with widths of 1, 2 or 5 × 10^k', () => {
    const edges = differenceHistogram('bleu', [-20, 20, 0.5]);
    assert.deepEqual(edges.bins.filter((b) => b.count).map((b) => b.label), ['-20…-15', '0…+5', '+15…+20']);
    const small = differenceHistogram('wer', [0.003, -0.0012]);
    assert.deepEqual(small.bins.map((b) => [b.label, b.count, b.kind]), [
      ['-0.003…-0.002', 0, 'better'],
      ['-0.002…-0.001', 1, 'better'],
      ['-0.001…0', 0, 'better'],
      ['0', 0, 'same'],
      ['0…+0.001', 0, 'worse'],
      ['+0.001…+0.002', 0, 'worse'],
      ['+0.002…+0.003', 1, 'worse'],
    ]);
    assert.deepEqual(differenceHistogram('bleu', [0, 0]).bins, [{ label: '0', count: 2, kind: 'same' }]);
  });

  it('explains why there is no test', () => {
    const alone = shapeComparison({ uri: SYS1, versions: [1], references: [], candidates: [SYS1], baseline: SYS1, systems: [{ uri: SYS1 }], lines: [] });
    assert.match(alone.note ?? '', /Only one open system/);
    assert.deepEqual(alone.metrics, []);
    const misaligned = shapeComparison({ uri: SYS1, versions: [1, 1], references: [], candidates: [SYS1, SYS2], baseline: SYS1, systems: [{ uri: SYS1 }, { uri: SYS2 }], lines: [] });
    assert.match(misaligned.note ?? '', /different numbers of segments/);
  });
});

describe('renderComparison', () => {
  it('draws the table with marks and a button per segment', () => {
    const html = renderComparison(shapeComparison(result()));
    assert.match(html, /<th>BLEU \(μ ± 95% CI\)<\/th><th>TER \(μ ± 95% CI\)<\/th>/);
    assert.match(html, /news\.sys1\.en \(baseline\)/);
    assert.match(html, /p = 0\.0269\*/);
    assert.doesNotMatch(html, /p = 0\.1069\*/);
    assert.equal((html.match(/<button class="reveal" data-segment="/g) ?? []).length, 3);
    assert.match(html, /data-segment="4">line 6</); // named by its segment, labelled with the baseline's line
    // the histogram: one bar per bin in the theme's colours, and a button per metric (BLEU chosen)
    assert.equal((html.match(/<rect class="bar (better|worse|same)"/g) ?? []).length, 11);
    assert.match(html, /aria-label="BLEU difference per segment \(news\.sys2\.en − news\.sys1\.en\)"/);
    assert.match(html, /5 segments: 1 better, 2 worse, 2 the same; mean difference -3\.33/);
    assert.match(html, /data-metric="bleu" aria-pressed="true">BLEU</);
    assert.match(html, /data-metric="ter" aria-pressed="false">TER</);
    assert.doesNotMatch(html, /data-system=/); // one system besides the baseline: nothing to choose
  });

  it('offers the systems to choose when there are several', () => {
    const r = result();
    const SYS3 = 'file:///ws/mt/news.sys3.en';
    r.systems.push({ ...r.systems[1], uri: SYS3, differences: { bleu: [1, 0, 0, 0, 0], ter: [0, 0, 0, 0, 0] } });
    const view = shapeComparison(r, SYS3);
    assert.deepEqual(view.others.map((s) => s.name), ['news.sys2.en', 'news.sys3.en']);
    assert.deepEqual(view.segments.map((s) => s.segment), [0]);
    const html = renderComparison(view);
    assert.match(html, /data-system="file:\/\/\/ws\/mt\/news\.sys3\.en" aria-pressed="true">news\.sys3\.en</);
    assert.match(html, /data-system="file:\/\/\/ws\/mt\/news\.sys2\.en" aria-pressed="false">/);
  });

  it('escapes what comes from file names', () => {
    const r = result();
    r.systems[1].uri = 'file:///ws/mt/%3Cb%3E.en';
    assert.match(renderComparison(shapeComparison(r)), /&lt;b&gt;\.en/);
    assert.equal(escapeHtml(`a&b<"'>`), 'a&amp;b&lt;&quot;&#39;&gt;');
  });

  it('labels metrics as the server names them', () => {
    assert.deepEqual(['bleu', 'chrf', 'ter', 'rougeL', 'rouge2', 'wer'].map(metricLabel), ['BLEU', 'chrF', 'TER', 'ROUGE-L', 'ROUGE-2', 'WER']);
  });
});

describe('comparisonStatus', () => {
  it("gives a system's difference from the baseline on the first metric, p-values in the tooltip", () => {
    const status = comparisonStatus(result(), SYS2);
    assert.equal(status?.text, 'vs news.sys1.en: BLEU +10.04');
    assert.match(status?.tooltip ?? '', /^\*\*ScoreLens\*\* · news\\\.sys2\\\.en against news\\\.sys1\\\.en \(paired bootstrap resampling, 1000 resamples, seed 12345\)/);
    assert.ok(status?.tooltip.includes('| BLEU | 67.97 | 57.93 | +10.04 | 0.1069 |'), status?.tooltip);
    assert.ok(status?.tooltip.includes('| TER | 20.86 | 29.14 | -8.28 | 0.0269\\* |'), status?.tooltip);
    const significant = result();
    significant.systems = [significant.systems[0], { ...significant.systems[1], bleu: { score: 67.97, mean: 67.9, ci: 9.93, p_value: 0.001 } }];
    assert.equal(comparisonStatus(significant, SYS2)?.text, 'vs news.sys1.en: BLEU +10.04*');
  });

  it('says of the baseline how many systems it is compared with, their differences in the tooltip', () => {
    const status = comparisonStatus(result(), SYS1);
    assert.equal(status?.text, 'baseline of 2 systems');
    assert.ok(status?.tooltip.includes('| system | BLEU | TER |'), status?.tooltip);
    assert.ok(status?.tooltip.includes('| news\\.sys2\\.en | +10.04 (p = 0.1069) | -8.28 (p = 0.0269)\\* |'), status?.tooltip);
  });

  it('says nothing without a test or for a system not compared', () => {
    assert.equal(comparisonStatus(result(), 'file:///ws/mt/news.sys3.en'), undefined);
    const alone = { uri: SYS1, versions: [1], references: [], candidates: [SYS1], baseline: SYS1, systems: [{ uri: SYS1 }], lines: [] };
    assert.equal(comparisonStatus(alone, SYS1), undefined);
  });
});
