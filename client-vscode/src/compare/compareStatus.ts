// The status bar item of comparisons: the active system's difference from its baseline on the first
// metric (`vs news.sys1.en: BLEU +1.23*`), p-values in the tooltip. Hidden for a document that is
// not part of a comparison, and when scorelens.statusBar.showComparison is off.
import * as vscode from 'vscode';
import { SECTION, SHOW_COMPARISON_SETTING } from '../settings';
import { comparisonStatus } from './compareData';
import { Comparisons } from './comparisons';

export class CompareStatusBar implements vscode.Disposable {
  // just right of the scores (priority 100)
  private readonly item = vscode.window.createStatusBarItem('scorelens.comparison', vscode.StatusBarAlignment.Left, 99);
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly comparisons: Comparisons, compareCommand: string) {
    this.item.name = 'ScoreLens Comparison';
    this.item.command = compareCommand;
    this.disposables.push(
      this.item,
      comparisons.onDidChange(() => this.render()),
      vscode.window.onDidChangeActiveTextEditor(() => this.render()),
      vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration(`${SECTION}.${SHOW_COMPARISON_SETTING}`) && this.render()),
    );
  }

  render(): void {
    const uri = vscode.window.activeTextEditor?.document.uri;
    const result = uri && this.comparisons.of(uri);
    const system = result && result.systems.find((s) => vscode.Uri.parse(s.uri).toString() === uri.toString());
    const status = system && comparisonStatus(result, system.uri);
    if (!status || !vscode.workspace.getConfiguration(SECTION).get<boolean>(SHOW_COMPARISON_SETTING, true)) {
      this.item.hide();
      return;
    }
    this.item.text = `$(git-compare) ${status.text}`;
    this.item.tooltip = new vscode.MarkdownString(status.tooltip);
    this.item.show();
  }

  dispose(): void {
    vscode.Disposable.from(...this.disposables).dispose();
  }
}
