// The report webview: one panel that follows the hypothesis it was opened for and refreshes while
// the user edits (each scorelens/scores notification for that file triggers a new scorelens/report).
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { Report, ScoresParams } from '../protocol';
import { FromWebview, ToWebview } from './messages';
import { fileNameOf, shapeReport } from './reportData';

export type ReportSource = (uri: string) => Promise<Report | null>;

/** Refresh at most this often while the user types (each refresh is one request). */
const REFRESH_DELAY_MS = 300;

export class ReportPanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private hypothesis: vscode.Uri | undefined;
  private lastMessage: ToWebview | undefined;
  private refreshTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly fetchReport: ReportSource,
  ) {}

  /** Opens (or re-targets) the panel on `hypothesis`. */
  async show(hypothesis: vscode.Uri): Promise<void> {
    this.hypothesis = hypothesis;
    if (!this.panel) this.panel = this.createPanel();
    else this.panel.reveal(undefined, true);
    this.panel.title = `ScoreLens Report: ${fileNameOf(hypothesis.toString())}`;
    await this.refresh();
  }

  /** Called for every scorelens/scores notification. */
  onScores(params: ScoresParams): void {
    if (!this.panel || !this.hypothesis) return;
    if (vscode.Uri.parse(params.uri).toString() !== this.hypothesis.toString()) return;
    clearTimeout(this.refreshTimer);
    this.refreshTimer = setTimeout(() => void this.refresh(), REFRESH_DELAY_MS);
  }

  dispose(): void {
    clearTimeout(this.refreshTimer);
    this.panel?.dispose();
  }

  private async refresh(): Promise<void> {
    const hypothesis = this.hypothesis;
    if (!hypothesis) return;
    const fileName = fileNameOf(hypothesis.toString());
    let message: ToWebview;
    try {
      const report = await this.fetchReport(hypothesis.toString());
      message = report
        ? { type: 'report', view: shapeReport(report) }
        : { type: 'unavailable', fileName, reason: 'This file is not paired with a reference. Use "ScoreLens: Pair with Reference…".' };
    } catch (error) {
      message = { type: 'unavailable', fileName, reason: (error as Error).message };
    }
    // A newer show() may have re-targeted the panel while this request was in flight.
    if (hypothesis !== this.hypothesis) return;
    this.post(message);
  }

  private post(message: ToWebview): void {
    this.lastMessage = message;
    void this.panel?.webview.postMessage(message);
  }

  private createPanel(): vscode.WebviewPanel {
    const assets = vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview');
    const panel = vscode.window.createWebviewPanel(
      'scorelens.report',
      'ScoreLens Report',
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
      { enableScripts: true, localResourceRoots: [assets] },
    );
    panel.webview.html = html(panel.webview, assets);
    panel.webview.onDidReceiveMessage((message: FromWebview) => {
      if (message.type === 'ready' && this.lastMessage) void panel.webview.postMessage(this.lastMessage);
      if (message.type === 'reveal') void this.reveal(message.line);
    });
    panel.onDidDispose(() => {
      this.panel = undefined;
      this.lastMessage = undefined;
    });
    return panel;
  }

  /** Shows the hypothesis at `line`, in the editor group already showing it if there is one. */
  private async reveal(line: number): Promise<void> {
    if (!this.hypothesis) return;
    const key = this.hypothesis.toString();
    const visible = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === key);
    const editor = await vscode.window.showTextDocument(this.hypothesis, {
      viewColumn: visible?.viewColumn ?? vscode.ViewColumn.One,
      preserveFocus: false,
    });
    const position = new vscode.Position(Math.min(line, editor.document.lineCount - 1), 0);
    editor.selection = new vscode.Selection(position, editor.document.lineAt(position.line).range.end);
    editor.revealRange(editor.selection, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  }
}

function html(webview: vscode.Webview, assets: vscode.Uri): string {
  const nonce = randomBytes(18).toString('base64');
  const css = webview.asWebviewUri(vscode.Uri.joinPath(assets, 'report.css'));
  const js = webview.asWebviewUri(vscode.Uri.joinPath(assets, 'report.js'));
  // Nothing but our own bundled files: the report works offline and runs no foreign code.
  const csp = `default-src 'none'; style-src ${webview.cspSource}; img-src ${webview.cspSource} data:; script-src 'nonce-${nonce}';`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${css}">
<title>ScoreLens Report</title>
</head>
<body>
<main id="report"><p class="muted">Loading the report…</p></main>
<script nonce="${nonce}" src="${js}"></script>
</body>
</html>`;
}
