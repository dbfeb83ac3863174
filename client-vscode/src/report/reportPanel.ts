// The report webview: one panel that follows the hypothesis it was opened for and refreshes while
// the user edits (each scorelens/scores notification for that file triggers a new scorelens/report).
// It shows one page of segments at a time: the server sorts and filters (a 100,000-segment file
// would cost seconds to send and draw whole), and the summary and histograms are painted first.
// For an annotator's file it shows the agreement with the other annotators (scorelens/agreement),
// refreshed by each scorelens/agreementChanged of its group.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { AgreementResult, AgreementSummary, Report, ReportQuery, ScoresParams } from '../protocol';
import { AgreementView, shapeAgreement } from './agreementData';
import { FromWebview, ToWebview } from './messages';
import { reportPage } from './page';
import { PAGE_SIZE, SUMMARY_ONLY, fileNameOf, shapeReport, worstFirst } from './reportData';

export type ReportSource = (uri: string, query: ReportQuery) => Promise<Report | null>;
export type AgreementSource = (uri: string) => Promise<AgreementResult | null>;

/** Refresh at most this often while the user types (each refresh is one request). */
const REFRESH_DELAY_MS = 300;
// JSON-RPC error codes of a scorelens/report answer (docs/protocol.md).
const INVALID_PARAMS = -32602;
const CONTENT_MODIFIED = -32801;
const NOT_PAIRED = 'This file is not paired with a reference, nor one of several annotators\' files (NAME.ann1.EXT, NAME.ann2.EXT, …). Use "ScoreLens: Pair with Reference…".';

export class ReportPanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private hypothesis: vscode.Uri | undefined;
  private lastMessage: ToWebview | undefined;
  private refreshTimer: NodeJS.Timeout | undefined;
  /** The rows shown; undefined until the first answer names the columns (then worst first). */
  private query: ReportQuery | undefined;
  /** Bumped by each refresh: an answer to an older one is not shown. */
  private generation = 0;
  /** The bundled script and stylesheet, read once, for the page (see page.ts). */
  private assets: Promise<{ script: string; style: string }> | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly fetchReport: ReportSource,
    private readonly fetchAgreement: AgreementSource,
  ) {}

  /** Opens (or re-targets) the panel on `hypothesis`. */
  async show(hypothesis: vscode.Uri): Promise<void> {
    if (hypothesis.toString() !== this.hypothesis?.toString()) this.query = undefined;
    this.hypothesis = hypothesis;
    if (!this.panel) this.panel = this.createPanel();
    else this.panel.reveal(undefined, true);
    this.panel.title = `ScoreLens Report: ${fileNameOf(hypothesis.toString())}`;
    await this.refresh();
  }

  /** Called for every scorelens/scores notification. */
  onScores(params: ScoresParams): void {
    if (this.shows([params.uri])) this.refreshSoon();
  }

  /** Called for every scorelens/agreementChanged notification: an edit of any annotator of the group changes the view. */
  onAgreementChanged(params: AgreementSummary): void {
    if (this.shows(params.annotators)) this.refreshSoon();
  }

  private shows(uris: readonly string[]): boolean {
    const shown = this.hypothesis?.toString();
    return !!this.panel && uris.some((uri) => vscode.Uri.parse(uri).toString() === shown);
  }

  private refreshSoon(): void {
    clearTimeout(this.refreshTimer);
    this.refreshTimer = setTimeout(() => void this.refresh(), REFRESH_DELAY_MS);
  }

  dispose(): void {
    clearTimeout(this.refreshTimer);
    this.panel?.dispose();
  }

  private async refresh(retry = true): Promise<void> {
    const hypothesis = this.hypothesis;
    if (!hypothesis) return;
    const generation = ++this.generation;
    const current = () => generation === this.generation && hypothesis === this.hypothesis;
    const uri = hypothesis.toString();
    const fileName = fileNameOf(uri);
    const unavailable = (reason: string): ToWebview => ({ type: 'unavailable', fileName, reason });
    // asked beside the report: an annotator's file may be a paired hypothesis too, or only an annotator
    const agreementAsked = this.agreementOf(uri);
    try {
      if (!this.query) {
        // First paint: the summary and histograms alone, then the worst segments.
        const summary = await this.fetchReport(uri, SUMMARY_ONLY);
        if (!current()) return;
        const agreement = await agreementAsked;
        if (!current()) return;
        if (!summary) return this.post(agreement ? { type: 'agreement', agreement } : unavailable(NOT_PAIRED));
        this.query = worstFirst(summary.columns);
        this.post({ type: 'report', view: shapeReport(summary, this.query, true), agreement });
      }
      const query = this.query;
      let report = await this.fetchReport(uri, query);
      if (!current()) return;
      if (report && report.offset > 0 && report.offset >= report.total) {
        // An edit or a filter left fewer rows than the page began at: show the last page.
        this.query = { ...query, offset: Math.max(0, Math.floor((report.total - 1) / PAGE_SIZE) * PAGE_SIZE) };
        report = await this.fetchReport(uri, this.query);
        if (!current()) return;
      }
      const agreement = await agreementAsked;
      if (!current()) return;
      if (!report) return this.post(agreement ? { type: 'agreement', agreement } : unavailable(NOT_PAIRED));
      this.post({ type: 'report', view: shapeReport(report, this.query), agreement });
    } catch (error) {
      if (!current()) return;
      const code = (error as { code?: number }).code;
      // Overtaken by edits: the scores notification that follows them refreshes again.
      if (code === CONTENT_MODIFIED) return;
      // The settings may have turned off the metric sorted or filtered by: start again, worst first.
      if (retry && code === INVALID_PARAMS && this.query) {
        this.query = undefined;
        return this.refresh(false);
      }
      this.post(unavailable((error as Error).message));
    }
  }

  /** The file's agreement view, if it is an annotator's; none when the server cannot say now (overtaken by edits, say). */
  private async agreementOf(uri: string): Promise<AgreementView | undefined> {
    try {
      const result = await this.fetchAgreement(uri);
      return result ? shapeAgreement(result, uri) : undefined;
    } catch {
      return undefined;
    }
  }

  private post(message: ToWebview): void {
    // While the user types, most refreshes change nothing the report shows (its figures are
    // rounded, its rows the worst of many): the webview would redraw it all, on the workbench's thread.
    if (this.lastMessage && JSON.stringify(message) === JSON.stringify(this.lastMessage)) return;
    this.lastMessage = message;
    void this.panel?.webview.postMessage(message);
  }

  private createPanel(): vscode.WebviewPanel {
    const panel = vscode.window.createWebviewPanel(
      'scorelens.report',
      'ScoreLens Report',
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
      { enableScripts: true, localResourceRoots: [] },
    );
    void this.readAssets().then(
      ({ script, style }) => (panel.webview.html = reportPage(randomBytes(18).toString('base64'), script, style)),
      (error) => void vscode.window.showErrorMessage(`ScoreLens: the report's page could not be read: ${String(error)}`),
    );
    panel.webview.onDidReceiveMessage((message: FromWebview) => {
      if (message.type === 'ready' && this.lastMessage) void panel.webview.postMessage(this.lastMessage);
      if (message.type === 'reveal' && this.hypothesis) void this.reveal(this.hypothesis, message.line);
      if (message.type === 'open') void this.reveal(vscode.Uri.parse(message.uri), message.line);
      if (message.type === 'query') {
        this.query = message.query;
        this.lastMessage = undefined; // the webview waits for an answer (dimmed), even an unchanged one
        void this.refresh();
      }
    });
    panel.onDidDispose(() => {
      clearTimeout(this.refreshTimer);
      this.panel = undefined;
      this.lastMessage = undefined;
      this.hypothesis = undefined;
      this.query = undefined;
    });
    return panel;
  }

  private readAssets(): Promise<{ script: string; style: string }> {
    const read = async (name: string) =>
      new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview', name)));
    this.assets ??= Promise.all([read('report.js'), read('report.css')]).then(
      ([script, style]) => ({ script, style }),
      (error) => {
        this.assets = undefined; // the next opening tries again
        throw error;
      },
    );
    return this.assets;
  }

  /** Shows a file at `line` (the hypothesis, or an annotator's file), in the editor group already showing it if there is one. */
  private async reveal(document: vscode.Uri, line: number): Promise<void> {
    const key = document.toString();
    const visible = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === key);
    const editor = await vscode.window.showTextDocument(document, {
      viewColumn: visible?.viewColumn ?? vscode.ViewColumn.One,
      preserveFocus: false,
    });
    const position = new vscode.Position(Math.min(line, editor.document.lineCount - 1), 0);
    editor.selection = new vscode.Selection(position, editor.document.lineAt(position.line).range.end);
    editor.revealRange(editor.selection, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  }
}
