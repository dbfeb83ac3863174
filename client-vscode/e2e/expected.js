// What the UI must show, asked from ScoreLens's own CLI on the same texts: the editor has to agree
// with `scorelens score --json` and `scorelens check --format json` exactly.
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const CLI = process.env.SCORELENS_CLI || 'scorelens';

/**
 * Runs the CLI on `hypText` with the workspace's references next to it (found by name, as the editor
 * does); `files` are the file arguments, after `args`.
 */
function cli(workspace, hypName, hypText, args, files = [hypName]) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scorelens-e2e-'));
  try {
    for (const f of fs.readdirSync(workspace)) {
      if (fs.statSync(path.join(workspace, f)).isFile()) fs.copyFileSync(path.join(workspace, f), path.join(dir, f));
    }
    fs.writeFileSync(path.join(dir, hypName), hypText);
    // `check` exits 1 only for crossed thresholds; none are given here.
    return JSON.parse(execFileSync(CLI, [...args, ...files], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The status bar text as the extension writes it (src/scoreFormat.ts). */
function statusText(scores) {
  const parts = [];
  if (scores.bleu) parts.push(`BLEU ${scores.bleu.score.toFixed(1)}`);
  // chrF's default variant (beta 2, no word n-grams) is named plain "chrF"
  if (scores.chrf) parts.push(`chrF ${scores.chrf.score.toFixed(1)}`);
  if (scores.ter) parts.push(`TER ${scores.ter.score.toFixed(1)}`);
  if (scores.rougeL) parts.push(`ROUGE-L ${scores.rougeL.fmeasure.toFixed(3)}`);
  if (scores.wer) parts.push(`WER ${(100 * scores.wer.wer).toFixed(1)}%`);
  if (scores.ppl) parts.push(`PPL ${scores.ppl.perplexity.toFixed(1)}`);
  return parts.join(' · ');
}

/** Codes shown with squiggles under the default severities (rouge.* are hints: faint dots). */
const SQUIGGLED = /^(bleu\.|wer\.|pairing\.)/;

/**
 * Per 1-based line of the hypothesis: the runs of characters covered by squiggles, as
 * [startColumn, endColumn) pairs (0-based) after merging overlapping findings, the way the
 * editor paints them. (Deletions are findings on the reference; see deletionLines.)
 */
function squiggleRuns(findings, hypName) {
  const covered = new Map();
  for (const f of findings) {
    if (f.path !== hypName || !SQUIGGLED.test(f.code) || f.line !== f.end_line) continue;
    const set = covered.get(f.line) ?? new Set();
    for (let c = f.column - 1; c < f.end_column - 1; c++) set.add(c);
    covered.set(f.line, set);
  }
  const runs = new Map();
  for (const [line, set] of covered) runs.set(line, toRuns([...set]));
  return runs;
}

/** Codes of the findings on words, which the extension shows one diagnostic per word for (src/wordFindings.ts). */
const WORD_FINDING = /^(bleu\.unmatched|rouge\.outside-lcs|wer\.(substitution|insertion|deletion)|ter\.shift|lm\.(unlikely|oov))$/;

/**
 * The hypothesis's Problems count while its references are closed: one for each word with a
 * finding that is not a hint (the findings on a word are one diagnostic, as severe as the most
 * severe of them), a deletion's word being the empty range where the words belong, and one for
 * each other finding that is not a hint.
 */
function problemsShown(findings, hypName) {
  const words = new Map(); // a word's range: whether a finding on it is not a hint
  let others = 0;
  for (const f of findings) {
    const range = f.path === hypName ? [f.line, f.column, f.end_line, f.end_column]
      : f.code === 'wer.deletion' ? [f.related.line, f.related.column, f.related.line, f.related.column] : undefined;
    if (!range) continue;
    if (!WORD_FINDING.test(f.code)) others += SQUIGGLED.test(f.code) ? 1 : 0;
    else words.set(range.join(':'), words.get(range.join(':')) || SQUIGGLED.test(f.code));
  }
  return others + [...words.values()].filter(Boolean).length;
}

function toRuns(columns) {
  const sorted = [...new Set(columns)].sort((a, b) => a - b);
  const runs = [];
  for (const c of sorted) {
    const last = runs[runs.length - 1];
    if (last && last[1] === c) last[1] = c + 1;
    else runs.push([c, c + 1]);
  }
  return runs;
}

/**
 * `references` (file names in the workspace) stand for an explicit pairing; else they are found by
 * name. `options` are more CLI options, e.g. the metrics the editor's settings turn on.
 */
function expectations(workspace, hypName, hypText, references = [], options = []) {
  const pairing = [...references.flatMap((r) => ['--reference', r]), ...options];
  const scores = cli(workspace, hypName, hypText, ['score', '--json', ...pairing]);
  const check = cli(workspace, hypName, hypText, ['check', '--format', 'json', '--max-findings', '100000', ...pairing]);
  const squiggled = check.findings.filter((f) => SQUIGGLED.test(f.code));
  return {
    scores,
    status: statusText(scores),
    squiggles: squiggleRuns(check.findings, hypName),
    // While the reference is closed, the server shows each deletion on the hypothesis as well, as
    // an empty range where the words belong (VS Code widens it to the neighbouring word).
    deletionLines: new Set(squiggled.filter((f) => f.code === 'wer.deletion').map((f) => f.line)),
    problemsWhileReferencesClosed: problemsShown(check.findings, hypName),
  };
}

/** Only the corpus scores and the status bar text: `check` on 100,000 lines would list ~700,000 findings. */
function corpusExpectations(workspace, hypName, hypText) {
  const scores = cli(workspace, hypName, hypText, ['score', '--json']);
  return { scores, status: statusText(scores) };
}

/**
 * The comparison the Compare Systems view must show: `scorelens compare --json` of the hypothesis
 * (the baseline: first by name) against `system`, with the server's default metrics.
 */
function comparisonExpectations(workspace, hypName, hypText, system) {
  return cli(workspace, hypName, hypText, ['compare', '--json', '-m', 'bleu,rougeL,wer', '--segments', '0'], [hypName, system]);
}

/**
 * Perplexity of the file `hypPath` under the model `model`, checked alone (no reference), as
 * `scorelens score --metrics ppl --json` gives it: the corpus figures, the status bar text, and
 * each segment's figures (`-sl`: one JSON line per segment, `line` 1-based).
 */
function fluencyExpectations(hypPath, model) {
  const score = (...more) => execFileSync(CLI, ['score', '--json', '--metrics', 'ppl', '--lm', model, ...more, hypPath], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const scores = JSON.parse(score());
  const segments = score('-sl').trim().split('\n').map((line) => JSON.parse(line));
  return { scores, status: statusText(scores), segments };
}

module.exports = { comparisonExpectations, corpusExpectations, expectations, fluencyExpectations, toRuns };
