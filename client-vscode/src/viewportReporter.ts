// Tells the server which lines of each paired document the editors show, so the diagnostics
// budget (scorelens.maxProblems) is spent there first: sent on scroll, after a short debounce.
import * as vscode from 'vscode';
import { LineRange, mergeVisible, visibleRangesChanges } from './viewport';
import { VisibleRangesParams } from './protocol';

/** Scrolling fires an event per frame: the server hears once the view has rested this long. */
const DEBOUNCE_MS = 100;

export class ViewportReporter implements vscode.Disposable {
  private sent = new Map<string, LineRange[]>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly disposables: vscode.Disposable[];

  /** `isPaired(uri)`: a hypothesis or reference the server scores; `send` delivers one notification. */
  constructor(
    private readonly isPaired: (uri: string) => boolean,
    private readonly send: (params: VisibleRangesParams) => void,
  ) {
    this.disposables = [
      vscode.window.onDidChangeTextEditorVisibleRanges(() => this.schedule()),
      vscode.window.onDidChangeVisibleTextEditors(() => this.schedule()),
    ];
  }

  /** Something else may have changed what is worth telling (a document became paired). */
  schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.flush(), DEBOUNCE_MS);
  }

  /** A new server knows nothing: tell it everything again. */
  reset(): void {
    this.sent = new Map();
    this.schedule();
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    vscode.Disposable.from(...this.disposables).dispose();
  }

  private flush(): void {
    this.timer = undefined;
    const shown = vscode.window.visibleTextEditors
      .filter((e) => this.isPaired(e.document.uri.toString()))
      .flatMap((e) => e.visibleRanges.map((r): [string, LineRange] => [e.document.uri.toString(), [r.start.line, r.end.line]]));
    const now = mergeVisible(shown);
    for (const params of visibleRangesChanges(this.sent, now)) this.send(params);
    this.sent = now;
  }
}
