// One diagnostic per word in VS Code: the server sends one per finding (docs/protocol.md), so a
// changed word commonly carries two or three on the same range (BLEU unmatched, ROUGE-L outside
// the LCS, a WER substitution). VS Code makes each a marker, a decoration and a squiggle painted
// over the others; on a 100,000-line pair, painting was half of the workbench's long tasks over
// 100 ms while typing (docs/performance.md). No `vscode` import: the unit tests load this.

/** The codes of findings on words, the ones merged; notes about the pairing or the whole document stay apart. */
const WORD_FINDINGS: ReadonlySet<string> = new Set([
  'bleu.unmatched',
  'rouge.outside-lcs',
  'wer.substitution',
  'wer.insertion',
  'wer.deletion',
  'ter.shift',
  'lm.unlikely',
  'lm.oov',
]);

interface Position {
  readonly line: number;
  readonly character: number;
}

/** What is read of a diagnostic (a `vscode.Diagnostic` is one; its severity 0 is an error, 3 a hint). */
export interface Finding {
  readonly range: { readonly start: Position; readonly end: Position };
  readonly code?: string | number | { value: string | number; target: unknown };
  readonly message: string;
  readonly severity: number;
  readonly relatedInformation?: readonly unknown[];
}

/** The fields of one diagnostic for a group on one range (the range is theirs). */
export interface Merged<T extends Finding> {
  message: string;
  severity: number;
  code: T['code'];
  relatedInformation: NonNullable<T['relatedInformation']>[number][];
}

function codeOf(finding: Finding): string | number | undefined {
  const code = finding.code;
  return typeof code === 'object' ? code.value : code;
}

/**
 * The diagnostics with the word findings of one range gathered, in the order of each range's first;
 * every other diagnostic a group of its own, in place.
 */
export function byWord<T extends Finding>(diagnostics: readonly T[]): T[][] {
  const groups: T[][] = [];
  const atRange = new Map<string, T[]>();
  for (const diagnostic of diagnostics) {
    const code = codeOf(diagnostic);
    if (typeof code !== 'string' || !WORD_FINDINGS.has(code)) {
      groups.push([diagnostic]);
      continue;
    }
    const { start, end } = diagnostic.range;
    const key = `${start.line}:${start.character}:${end.line}:${end.character}`;
    const group = atRange.get(key);
    if (group) group.push(diagnostic);
    else {
      const created = [diagnostic];
      atRange.set(key, created);
      groups.push(created);
    }
  }
  return groups;
}

/**
 * One diagnostic's fields for a group: each finding's message on a line of its own, the most
 * severe one first (its severity and code are the diagnostic's), and every finding's related places.
 */
export function merged<T extends Finding>(group: readonly T[]): Merged<T> {
  const order = [...group].sort((a, b) => a.severity - b.severity); // stable: ties keep the server's order
  return {
    message: order.map((d) => d.message).join('\n'),
    severity: order[0].severity,
    code: order[0].code,
    relatedInformation: order.flatMap((d) => [...(d.relatedInformation ?? [])]),
  };
}
