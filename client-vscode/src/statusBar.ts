// The status bar item: corpus scores of the active editor's hypothesis, live from scorelens/scores.
// Hidden for any file that is neither a paired hypothesis nor a document checked alone for fluency.
import * as vscode from 'vscode';
import { CorpusScores, ScoresParams } from './protocol';
import { formatChange, metricDetails, qaText, scoredAgainst, statusBarText } from './scoreFormat';
import { fileNameOf } from './report/reportData';
import { SECTION, SHOW_CHANGE_SETTING } from './settings';

/** Context key set while the active editor shows a paired hypothesis (used by menus). */
export const PAIRED_CONTEXT_KEY = 'scorelens.activeIsPairedHypothesis';

export class ScoresStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('scorelens.scores', vscode.StatusBarAlignment.Left, 100);
  /** Latest scores per hypothesis, keyed by VS Code's own spelling of the URI. */
  private readonly latest = new Map<string, ScoresParams>();
  private readonly disposables: vscode.Disposable[] = [];

  constructor(showReportCommand: string) {
    this.item.name = 'ScoreLens Scores';
    this.item.command = showReportCommand;
    this.disposables.push(
      this.item,
      vscode.window.onDidChangeActiveTextEditor(() => this.render()),
      vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration(`${SECTION}.${SHOW_CHANGE_SETTING}`) && this.render()),
    );
  }

  /** The server's URI spelling may differ from VS Code's (percent-encoding): normalise both. */
  static key(uri: string | vscode.Uri): string {
    return (typeof uri === 'string' ? vscode.Uri.parse(uri) : uri).toString();
  }

  update(params: ScoresParams): void {
    if (params.scores) this.latest.set(ScoresStatusBar.key(params.uri), params);
    else this.latest.delete(ScoresStatusBar.key(params.uri));
    this.render();
  }

  clear(): void {
    this.latest.clear();
    this.render();
  }

  /** A document the server scores: a paired hypothesis, one of its references, or one checked alone for fluency. */
  isPaired(uri: string): boolean {
    const key = ScoresStatusBar.key(uri);
    return [...this.latest.values()].some((p) => ScoresStatusBar.key(p.uri) === key || p.references.some((r) => ScoresStatusBar.key(r) === key));
  }

  /** What the server last said about `uri`, if it is a paired hypothesis. */
  scoresFor(uri: vscode.Uri): ScoresParams | undefined {
    return this.latest.get(ScoresStatusBar.key(uri));
  }

  dispose(): void {
    vscode.Disposable.from(...this.disposables).dispose();
  }

  private render(): void {
    const editor = vscode.window.activeTextEditor;
    const params = editor ? this.scoresFor(editor.document.uri) : undefined;
    // A document checked alone for fluency has scores but no reference to open or diff with.
    void vscode.commands.executeCommand('setContext', PAIRED_CONTEXT_KEY, !!params?.references.length);
    if (!params?.scores) {
      this.item.hide();
      return;
    }
    const showChange = vscode.workspace.getConfiguration(SECTION).get<boolean>(SHOW_CHANGE_SETTING, true);
    const change = showChange ? params.change ?? undefined : undefined;
    // e.g. a document checked alone while its language model loads: no figure yet.
    const figures = [statusBarText(params.scores, change?.scores), params.qa ? qaText(params.qa) : ''].filter(Boolean).join(' · ');
    this.item.text = `$(graph) ${figures || 'no scores yet'}`;
    this.item.tooltip = tooltip(params, params.scores, change);
    this.item.show();
  }
}

function tooltip(params: ScoresParams, scores: CorpusScores, change: ScoresParams['change']): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, true);
  md.appendMarkdown('**ScoreLens** · ');
  md.appendText(scoredAgainst(scores.segments, params.references.map(fileNameOf), params.qa && fileNameOf(params.qa.source)));
  md.appendMarkdown('\n\n');
  md.appendMarkdown(`| metric | score |${change ? ' last edit |' : ''} details |\n|---|---|${change ? '---|' : ''}---|\n`);
  for (const d of metricDetails(scores)) {
    const delta = change?.scores[d.metric];
    const edit = change ? ` ${delta === undefined ? '' : formatChange(d.metric, delta)} |` : '';
    md.appendMarkdown(`| ${d.label} | ${d.value} |${edit} ${d.detail} |\n`);
  }
  md.appendMarkdown('\n');
  if (change) {
    const where = change.uri === params.uri ? `line ${change.line + 1}` : `line ${change.line + 1} of ${fileNameOf(change.uri)}`;
    md.appendText(
      `Last edit: what editing ${where} changed, the corpus score now minus before that line's edits began ` +
        '(error rates in percentage points). The setting scorelens.statusBar.showChange hides it.',
    );
    md.appendMarkdown('\n\n');
  }
  for (const d of metricDetails(scores)) if (d.signature) md.appendMarkdown(`${d.label}: \`${d.signature}\`  \n`);
  if (params.qa) {
    md.appendText(`Checked against ${fileNameOf(params.qa.source)}: ${params.qa.findings} qa.* findings, ${params.qa.errors} of them errors.`);
    md.appendMarkdown('\n\n');
  }
  md.appendMarkdown('\nClick to open the report.');
  return md;
}
