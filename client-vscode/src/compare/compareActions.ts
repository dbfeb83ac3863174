// What "Pick Systems to Compare…" and the Compare Systems view's segment rows do, without `vscode`
// (so the unit tests check it): the quick picks' items, the choice they make and the scorelens/compare
// params it sends, and the two editors and lines a segment row opens.
import { CompareParams, CompareResult, SystemsChoice } from '../protocol';
import { fileNameOf } from '../report/reportData';
import { CompareView } from './compareData';

export interface SystemItem {
  label: string;
  /** Where the file is, as the workspace names it. */
  description: string;
  detail?: string;
  uri: string;
  picked: boolean;
}

/** The first pick's items, the baseline: every candidate, the current baseline said so. */
export function baselineItems(current: CompareResult, relative: (uri: string) => string): SystemItem[] {
  return current.candidates.map((uri) => ({
    label: fileNameOf(uri),
    description: relative(uri),
    detail: uri === current.baseline ? 'the baseline now' : undefined,
    uri,
    picked: false,
  }));
}

/** The second pick's items: the candidates other than `baseline`, those compared now picked. */
export function systemItems(current: CompareResult, baseline: string, relative: (uri: string) => string): SystemItem[] {
  const compared = new Set(current.systems.map((s) => s.uri));
  return current.candidates
    .filter((uri) => uri !== baseline)
    .map((uri) => ({ label: fileNameOf(uri), description: relative(uri), uri, picked: compared.has(uri) }));
}

/**
 * The choice the two picks make: `baseline` and the systems `picked`, in the candidates' order (the
 * server's), the baseline among them; undefined when no system was picked.
 */
export function systemsChoice(candidates: readonly string[], baseline: string, picked: readonly string[]): SystemsChoice | undefined {
  if (!picked.length) return undefined;
  return { baseline, systems: candidates.filter((uri) => uri === baseline || picked.includes(uri)) };
}

/** scorelens/compare's params for `uri`: without a choice, every system against the first by URI. */
export function compareParams(uri: string, choice?: SystemsChoice): CompareParams {
  return { uri, ...choice };
}

export interface RevealTarget {
  uri: string;
  /** 1: the first editor column, 2: the second. */
  column: 1 | 2;
  line: number;
}

/**
 * The row of `segment` clicked (the webview sends the segment: a baseline line need not be the
 * system's): the baseline in the first column at its line and the system the segments are about in
 * the second at its own; nothing for a segment no row has.
 */
export function sideBySide(view: CompareView | undefined, segment: number): RevealTarget[] {
  const row = view?.segments.find((s) => s.segment === segment);
  if (!view?.system || !row) return [];
  return [
    { uri: view.baseline.uri, column: 1, line: row.line },
    { uri: view.system.uri, column: 2, line: row.systemLine },
  ];
}

/** The line to select in a document of `lineCount` lines (it may have lost lines since the comparison). */
export function lineWithin(line: number, lineCount: number): number {
  return Math.max(0, Math.min(line, lineCount - 1));
}
