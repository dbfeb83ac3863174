// The Compare Systems view: one panel for the open systems that share a hypothesis's references.
// It asks scorelens/compare when shown (with the systems picked for them, see comparisons.ts) and
// redraws from each comparison received that concerns its systems (the server recomputes after
// edits); a segment's row opens the baseline and the system side by side, each at its own first line
// of the segment; the metric and system buttons choose what the histogram and the segments are
// about. Offline: no resources but its own inline style and script.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { CompareResult } from '../protocol';
import { lineWithin, sideBySide } from './compareActions';
import { CompareView, escapeHtml, renderComparison, shapeComparison } from './compareData';

export type CompareSource = (uri: string) => Promise<CompareResult | null>;

type FromWebview = { type: 'ready' } | { type: 'reveal'; segment: number } | { type: 'choose'; metric?: string; system?: string };

export class ComparePanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private hypothesis: string | undefined;
  private view: CompareView | undefined;
  private result: CompareResult | undefined;
  /** What the histogram and segments are about, as chosen in the view (kept across redraws). */
  private metric: string | undefined;
  private system: string | undefined;
  /** What the view shows, drawn again when the webview (re)loads. */
  private body = '<p class="muted">Comparing…</p>';

  constructor(private readonly fetchComparison: CompareSource) {}

  /** Opens (or re-targets) the view on the systems `hypothesis` is one of. */
  async show(hypothesis: vscode.Uri): Promise<void> {
    this.hypothesis = hypothesis.toString();
    this.system = this.hypothesis;
    if (!this.panel) this.panel = this.createPanel();
    else this.panel.reveal(undefined, true);
    let result: CompareResult | null = null;
    try {
      result = await this.fetchComparison(this.hypothesis);
    } catch (error) {
      this.draw(`<p class="note">${escapeHtml((error as Error).message)}</p>`);
      return;
    }
    if (!result) {
      this.draw('<p class="note">This file is not a paired hypothesis. Pair it with a reference first.</p>');
      return;
    }
    if (result !== this.result) this.update(result); // else drawn already, as it was received
  }

  /** Called for every comparison received: redraws when it is about this view's systems. */
  onChanged(result: CompareResult | undefined): void {
    if (!result || !this.panel || !this.hypothesis || result === this.result) return;
    if (!result.candidates.some((uri) => vscode.Uri.parse(uri).toString() === this.hypothesis)) return;
    this.update(result);
  }

  dispose(): void {
    this.panel?.dispose();
  }

  private update(result: CompareResult): void {
    this.result = result;
    // the segments are about the system the view was opened on (or chosen), unless that is the baseline
    this.view = shapeComparison(result, this.system, undefined, this.metric);
    this.draw(renderComparison(this.view));
  }

  /** Replaces the view's content in place (setting the html again would reload the webview). */
  private draw(body: string): void {
    this.body = body;
    void this.panel?.webview.postMessage({ type: 'draw', body });
  }

  private createPanel(): vscode.WebviewPanel {
    const panel = vscode.window.createWebviewPanel(
      'scorelens.compare',
      'ScoreLens: Compare Systems',
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
      { enableScripts: true, localResourceRoots: [] },
    );
    panel.webview.html = page();
    panel.webview.onDidReceiveMessage((message: FromWebview) => {
      if (message.type === 'ready') void panel.webview.postMessage({ type: 'draw', body: this.body });
      if (message.type === 'reveal') void this.reveal(message.segment);
      if (message.type === 'choose' && this.result) {
        this.metric = message.metric ?? this.metric;
        this.system = message.system ?? this.system;
        this.update(this.result);
      }
    });
    panel.onDidDispose(() => {
      this.panel = undefined;
      this.view = undefined;
      this.result = undefined;
    });
    return panel;
  }

  /** The baseline in the first column and the system in the second, each at `segment`'s line. */
  private async reveal(segment: number): Promise<void> {
    for (const target of sideBySide(this.view, segment)) {
      const editor = await vscode.window.showTextDocument(vscode.Uri.parse(target.uri), { viewColumn: target.column, preserveFocus: false });
      const at = lineWithin(target.line, editor.document.lineCount);
      editor.selection = new vscode.Selection(at, 0, at, editor.document.lineAt(at).range.end.character);
      editor.revealRange(editor.selection, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    }
  }
}

function page(): string {
  const nonce = randomBytes(18).toString('base64');
  const csp = `default-src 'none'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}';`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<style nonce="${nonce}">
body { color: var(--vscode-foreground); font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); }
table { border-collapse: collapse; margin: 0.5em 0; }
th, td { border-bottom: 1px solid var(--vscode-panel-border); padding: 0.3em 0.8em; text-align: left; vertical-align: top; }
tr.baseline th { color: var(--vscode-textLink-foreground); }
.muted { color: var(--vscode-descriptionForeground); }
.better { color: var(--vscode-charts-green); }
.worse { color: var(--vscode-charts-red); }
.significant { font-weight: bold; }
.note { color: var(--vscode-editorWarning-foreground); }
svg.histogram { width: 520px; max-width: 100%; height: auto; display: block; }
svg.histogram .bar.better { fill: var(--vscode-charts-green); }
svg.histogram .bar.worse { fill: var(--vscode-charts-red); }
svg.histogram .bar.same { fill: var(--vscode-descriptionForeground); }
svg.histogram .axis { stroke: var(--vscode-panel-border); }
svg.histogram text { fill: var(--vscode-editor-foreground); font-size: 9px; text-anchor: middle; }
svg.histogram text.label { fill: var(--vscode-descriptionForeground); font-size: 8px; }
figure.differences { margin: 0.5em 0; }
figure.differences figcaption { font-weight: 600; margin-bottom: 4px; }
button.choice { background: var(--vscode-button-secondaryBackground); color: var(--vscode-button-secondaryForeground); border: 1px solid transparent; padding: 0.2em 0.6em; margin: 0 0.3em 0.3em 0; cursor: pointer; }
button.choice[aria-pressed="true"] { background: var(--vscode-button-background); color: var(--vscode-button-foreground); }
button.reveal { background: var(--vscode-button-secondaryBackground); color: var(--vscode-button-secondaryForeground); border: none; padding: 0.2em 0.6em; cursor: pointer; }
</style>
<title>ScoreLens: Compare Systems</title>
</head>
<body>
<main id="compare"></main>
<script nonce="${nonce}">
const vscode = acquireVsCodeApi();
window.addEventListener('message', (event) => {
  if (event.data.type === 'draw') document.getElementById('compare').innerHTML = event.data.body;
});
vscode.postMessage({ type: 'ready' });
document.body.addEventListener('click', (event) => {
  const button = event.target.closest('button.reveal');
  if (button) vscode.postMessage({ type: 'reveal', segment: Number(button.dataset.segment) });
  const choice = event.target.closest('button.choice');
  if (choice) vscode.postMessage({ type: 'choose', metric: choice.dataset.metric, system: choice.dataset.system });
});
</script>
</body>
</html>`;
}
