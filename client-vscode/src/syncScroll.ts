// Synchronised scrolling between a hypothesis and its reference: segment i is line i in both, so
// keeping the same top line keeps the segments side by side.
import * as vscode from 'vscode';
import { lineToRevealAtTop } from './revealAtTop';
import { ScrollEchoes } from './scrollEchoes';

export class ScrollSync implements vscode.Disposable {
  /** Document URI → the URIs it scrolls with. */
  private readonly links = new Map<string, Set<string>>();
  private readonly echoes = new ScrollEchoes<vscode.TextEditor>();
  private readonly disposables: vscode.Disposable[];

  constructor() {
    this.disposables = [
      vscode.window.onDidChangeTextEditorVisibleRanges((e) => this.onScroll(e.textEditor)),
      vscode.workspace.onDidCloseTextDocument((doc) => this.unlinkAll(doc.uri.toString())),
    ];
  }

  link(a: vscode.Uri, b: vscode.Uri): void {
    const add = (from: string, to: string) => (this.links.get(from) ?? this.links.set(from, new Set()).get(from)!).add(to);
    add(a.toString(), b.toString());
    add(b.toString(), a.toString());
  }

  /** Scrolls `editor` so that `top` (0-based) is its first whole line, as far as the document allows. */
  align(editor: vscode.TextEditor, top: number): void {
    this.echoes.expect(editor, top, Date.now());
    const config = vscode.workspace.getConfiguration('editor', editor.document);
    const line = lineToRevealAtTop(top, editor.document.lineCount, {
      cursorSurroundingLines: config.get<number>('cursorSurroundingLines', 0),
      stickyScrollEnabled: config.get<boolean>('stickyScroll.enabled', true),
      stickyScrollMaxLineCount: config.get<number>('stickyScroll.maxLineCount', 5),
      // An editor just opened may not have reported what it shows yet.
      viewportLines: editor.visibleRanges.reduce((n, r) => n + r.end.line - r.start.line + 1, 0) || Infinity,
    });
    editor.revealRange(new vscode.Range(line, 0, line, 0), vscode.TextEditorRevealType.AtTop);
  }

  dispose(): void {
    vscode.Disposable.from(...this.disposables).dispose();
  }

  private unlinkAll(uri: string): void {
    for (const other of this.links.get(uri) ?? []) this.links.get(other)?.delete(uri);
    this.links.delete(uri);
  }

  private onScroll(source: vscode.TextEditor): void {
    const partners = this.links.get(source.document.uri.toString());
    const top = source.visibleRanges[0]?.start.line;
    if (!partners || top === undefined) return;
    if (this.echoes.isEcho(source, top, Date.now())) return;
    for (const editor of vscode.window.visibleTextEditors) {
      if (editor === source || !partners.has(editor.document.uri.toString())) continue;
      if (editor.visibleRanges[0]?.start.line !== top) this.align(editor, top);
    }
  }
}
