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
 * A segment row clicked at `line` (the webview sends it): the baseline in the first column and the
 * system the segments are about in the second, both at that line; nothing for a line no row has.
 */
export function sideBySide(view: CompareView | undefined, line: number): RevealTarget[] {
  if (!view?.system || !view.segments.some((s) => s.line === line)) return [];
  return [
    { uri: view.baseline.uri, column: 1, line },
    { uri: view.system.uri, column: 2, line },
  ];
}

/** The line to select in a document of `lineCount` lines (it may have lost lines since the comparison). */
export function lineWithin(line: number, lineCount: number): number {
  return Math.max(0, Math.min(line, lineCount - 1));
}
