// What the server is told about where the user looks (scorelens/visibleRanges): the lines each
// document shows, over all its visible editors. No `vscode` import: the unit tests load this.
import { VisibleRangesParams } from './protocol';

/** First and last line (0-based, inclusive) of one visible range. */
export type LineRange = readonly [number, number];

/** Each document's visible line ranges, sorted, overlapping or touching ones merged (split editors). */
export function mergeVisible(shown: Iterable<readonly [string, LineRange]>): Map<string, LineRange[]> {
  const byUri = new Map<string, LineRange[]>();
  for (const [uri, range] of shown) (byUri.get(uri) ?? byUri.set(uri, []).get(uri)!).push(range);
  for (const [uri, ranges] of byUri) {
    const merged: [number, number][] = [];
    for (const [a, b] of [...ranges].sort((x, y) => x[0] - y[0])) {
      const last = merged[merged.length - 1];
      if (last && a <= last[1] + 1) last[1] = Math.max(last[1], b);
      else merged.push([a, b]);
    }
    byUri.set(uri, merged);
  }
  return byUri;
}

/**
 * The notifications that bring the server from `sent` to `now`: one per document whose ranges
 * changed, and `ranges: []` for a document no longer shown.
 */
export function visibleRangesChanges(sent: ReadonlyMap<string, LineRange[]>, now: ReadonlyMap<string, LineRange[]>): VisibleRangesParams[] {
  const same = (a: LineRange[] | undefined, b: LineRange[]) => !!a && a.length === b.length && a.every((r, i) => r[0] === b[i][0] && r[1] === b[i][1]);
  const toParams = (uri: string, ranges: LineRange[]): VisibleRangesParams => ({
    uri,
    ranges: ranges.map(([a, b]) => ({ start: { line: a, character: 0 }, end: { line: b, character: 0 } })),
  });
  const changes: VisibleRangesParams[] = [];
  for (const [uri, ranges] of now) if (!same(sent.get(uri), ranges)) changes.push(toParams(uri, ranges));
  for (const uri of sent.keys()) if (!now.has(uri)) changes.push(toParams(uri, []));
  return changes;
}
