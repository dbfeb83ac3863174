// Which line to reveal "at top" so that an editor's first whole line becomes a given line.
// VS Code keeps context lines above a line revealed by the API: as many as
// max(editor.cursorSurroundingLines, editor.stickyScroll.maxLineCount while sticky scroll is on),
// at most half the viewport. With the defaults that is 5, so revealing line n itself leaves the
// editor 5 lines short of it (and does not move it at all near the top of the file).
// Kept free of the vscode module so node can test it.

/** The settings and size of the editor to be scrolled that decide its reveal context. */
export interface RevealContext {
  cursorSurroundingLines: number;
  stickyScrollEnabled: boolean;
  stickyScrollMaxLineCount: number;
  /** Lines the editor shows at once. */
  viewportLines: number;
}

/** The context lines VS Code keeps above a revealed line (rounded up: a part line still counts as visible). */
export function contextAbove(context: RevealContext): number {
  const surrounding = Math.max(context.cursorSurroundingLines, context.stickyScrollEnabled ? context.stickyScrollMaxLineCount : 0);
  return Math.max(0, Math.ceil(Math.min(context.viewportLines / 2, surrounding)));
}

/**
 * The 0-based line to reveal at top for `top` to become the first whole line of a document of
 * `lineCount` lines. Near the end of the document the answer is its last line: the editor then
 * stops up to `contextAbove` lines short of `top`.
 */
export function lineToRevealAtTop(top: number, lineCount: number, context: RevealContext): number {
  return Math.max(0, Math.min(top + contextAbove(context), lineCount - 1));
}
