// Which scroll events of an editor we caused ourselves. Keeping two editors in step means scrolling
// one whenever the other moves; the one we scrolled then reports moving too, and that report must
// not scroll the other back. Under load those reports arrive late and in bursts (one per line while
// a key repeats), so they are recognised by the line we asked for, not by how soon they come.
// Kept free of the vscode module so node can test it.

/** How long after a request any position counts as ours (a reveal can stop short of the line asked for, at a document's end). */
export const SETTLE_MS = 150;
/** Requests remembered per editor: a reveal the editor does not report (it showed that line already) is never matched. */
export const KEPT = 64;

export class ScrollEchoes<Editor extends object> {
  /** The first lines asked of each editor, oldest first, and when the last was asked. */
  private readonly asked = new WeakMap<Editor, { tops: number[]; at: number }>();

  /** We are about to scroll `editor` so that `top` is its first line. */
  expect(editor: Editor, top: number, now: number): void {
    const entry = this.asked.get(editor);
    if (entry) {
      entry.tops.push(top);
      if (entry.tops.length > KEPT) entry.tops.shift();
      entry.at = now;
    } else {
      this.asked.set(editor, { tops: [top], at: now });
    }
  }

  /**
   * Whether `editor` showing `top` first, at `now`, is one of our own requests arriving: that request
   * and the older ones are then done. Anything else the user did, and what we asked is forgotten.
   */
  isEcho(editor: Editor, top: number, now: number): boolean {
    const entry = this.asked.get(editor);
    if (!entry) return false;
    const index = entry.tops.lastIndexOf(top);
    if (index >= 0) {
      entry.tops.splice(0, index + 1);
      return true;
    }
    if (now - entry.at < SETTLE_MS) return true;
    this.asked.delete(editor);
    return false;
  }
}
