// The extension's commands (palette, editor title, explorer context menu). Server features are
// reached through ServerManager.executeServerCommand; see commandIds.ts for why the ids differ.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ClientCommand } from './commandIds';
import { PairingStore } from './pairings';
import { ALL_METRICS, MetricId, ServerCommand } from './protocol';
import { baselineItems, systemItems, systemsChoice } from './compare/compareActions';
import { ComparePanel } from './compare/comparePanel';
import { Comparisons } from './compare/comparisons';
import { ReportPanel } from './report/reportPanel';
import { SUMMARY_ONLY, fileNameOf } from './report/reportData';
import { METRIC_LABEL } from './scoreFormat';
import { CommandInterceptor, ServerManager } from './serverManager';
import { InlayHintKind, InlayHintSetting, SECTION } from './settings';
import { ScoresStatusBar } from './statusBar';
import { ScrollSync } from './syncScroll';

/** What a metric needs besides being picked. */
const NEEDS: Partial<Record<MetricId, string>> = {
  ppl: 'perplexity under scorelens.lm.model',
  rougeW: 'needs scorelens.rouge.impl rouge-1.5.5',
  rougeS: 'needs scorelens.rouge.impl rouge-1.5.5',
  rougeSU: 'needs scorelens.rouge.impl rouge-1.5.5',
};

export interface CommandContext {
  server: ServerManager;
  statusBar: ScoresStatusBar;
  report: ReportPanel;
  compare: ComparePanel;
  comparisons: Comparisons;
  scrollSync: ScrollSync;
  pairings: PairingStore;
  log: vscode.LogOutputChannel;
}

/** The file a command is about: the clicked resource (menus), a URI string (code lens), else the active editor. */
export function targetUri(arg: unknown): vscode.Uri | undefined {
  if (arg instanceof vscode.Uri) return arg;
  if (typeof arg === 'string' && arg) return vscode.Uri.parse(arg);
  return vscode.window.activeTextEditor?.document.uri;
}

export class Commands {
  constructor(private readonly ctx: CommandContext) {}

  /**
   * Client-side handling of the server commands the code lenses carry: the report opens in the
   * report view (an annotator's agreement lens too: the view shows its agreement), the reference
   * opens beside with synchronised scrolling (the first reference, as the protocol defines
   * `scorelens.openReference`).
   */
  interceptors(): Map<string, CommandInterceptor> {
    return new Map<string, CommandInterceptor>([
      [ServerCommand.report, (args) => this.guarded(ServerCommand.report, () => this.showReport(targetUri(args[0])))],
      [ServerCommand.agreement, (args) => this.guarded(ServerCommand.agreement, () => this.showReport(targetUri(args[0])))],
      [ServerCommand.openReference, (args) => this.guarded(ServerCommand.openReference, () => this.openReferenceBeside(targetUri(args[0]), 'first'))],
    ]);
  }

  register(): vscode.Disposable[] {
    const on = (id: string, handler: (...args: unknown[]) => unknown) =>
      vscode.commands.registerCommand(id, (...args: unknown[]) => this.guarded(id, () => handler(...args)));
    const toggle = (kind: InlayHintKind, label: string) => () => this.toggleInlayHints(kind, label);
    return [
      on(ClientCommand.restartServer, () => this.ctx.server.restart()),
      on(ClientCommand.showServerLog, () => this.ctx.log.show()),
      on(ClientCommand.installServer, () => this.ctx.server.installPrivateEnvironment()),
      on(ClientCommand.pairWithReference, (arg) => this.pair(targetUri(arg))),
      on(ClientCommand.unpair, (arg) => this.unpair(targetUri(arg))),
      on(ClientCommand.openReferenceBeside, (arg) => this.openReferenceBeside(targetUri(arg))),
      on(ClientCommand.diffWithReference, (arg) => this.diffWithReference(targetUri(arg))),
      on(ClientCommand.showReport, (arg) => this.showReport(targetUri(arg))),
      on(ClientCommand.compareSystems, (arg) => this.ctx.compare.show(requireFile(targetUri(arg)))),
      on(ClientCommand.pickSystems, (arg) => this.pickSystems(targetUri(arg))),
      on(ClientCommand.toggleLineScoreHints, toggle('lineScores', 'Line score hints')),
      on(ClientCommand.toggleMissingWordHints, toggle('missingWords', 'Missing word hints')),
      on(ClientCommand.toggleSubstitutionHints, toggle('substitutions', 'Substitution hints')),
      on(ClientCommand.selectMetrics, () => this.selectMetrics()),
    ];
  }

  /** Errors become one message and a log line, never an unhandled rejection. */
  private async guarded(id: string, body: () => unknown): Promise<void> {
    try {
      await body();
    } catch (error) {
      this.ctx.log.error(`${id}: ${String(error)}`);
      void vscode.window.showErrorMessage(`ScoreLens: ${(error as Error).message}`);
    }
  }

  async showReport(hypothesis: vscode.Uri | undefined): Promise<void> {
    await this.ctx.report.show(requireFile(hypothesis));
  }

  /** Opens a reference beside the hypothesis and scrolls the two together. */
  async openReferenceBeside(hypothesis: vscode.Uri | undefined, which: 'ask' | 'first' = 'ask'): Promise<void> {
    const hyp = requireFile(hypothesis);
    const reference = await this.chooseReference(hyp, which);
    if (!reference) return;
    const hypEditor = await vscode.window.showTextDocument(hyp, { preview: false });
    const top = hypEditor.visibleRanges[0]?.start.line ?? 0;
    const refEditor = await vscode.window.showTextDocument(reference, { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true, preview: false });
    this.ctx.scrollSync.link(hyp, reference);
    this.ctx.scrollSync.align(refEditor, top);
  }

  /** Reference on the left (the "original"), hypothesis on the right, editable. */
  async diffWithReference(hypothesis: vscode.Uri | undefined): Promise<void> {
    const hyp = requireFile(hypothesis);
    const reference = await this.chooseReference(hyp);
    if (!reference) return;
    await vscode.commands.executeCommand('vscode.diff', reference, hyp, `${fileNameOf(reference.toString())} ↔ ${fileNameOf(hyp.toString())}`);
  }

  private async pair(hypothesis: vscode.Uri | undefined): Promise<void> {
    const hyp = requireFile(hypothesis);
    const references = await vscode.window.showOpenDialog({
      title: `ScoreLens: references for ${fileNameOf(hyp.toString())}`,
      openLabel: 'Pair as Reference',
      canSelectMany: true,
      canSelectFolders: false,
      defaultUri: vscode.Uri.file(path.dirname(hyp.fsPath)),
    });
    if (!references?.length) return;
    const refs = references.map((r) => r.toString());
    await this.ctx.server.executeServerCommand(ServerCommand.pair, hyp.toString(), refs);
    await this.ctx.pairings.pair(hyp.toString(), refs);
    vscode.window.setStatusBarMessage(`ScoreLens: ${fileNameOf(hyp.toString())} paired with ${references.map((r) => fileNameOf(r.toString())).join(', ')}`, 5000);
  }

  private async unpair(hypothesis: vscode.Uri | undefined): Promise<void> {
    const hyp = requireFile(hypothesis);
    await this.ctx.server.executeServerCommand(ServerCommand.unpair, hyp.toString());
    await this.ctx.pairings.unpair(hyp.toString());
    vscode.window.setStatusBarMessage(`ScoreLens: ${fileNameOf(hyp.toString())} unpaired`, 5000);
  }

  /** Tells a newly started server the pairings made in this workspace before. */
  async restorePairings(): Promise<void> {
    for (const [hypothesis, references] of Object.entries(await this.ctx.pairings.restorable())) {
      await this.guarded(ServerCommand.pair, () => this.ctx.server.executeServerCommand(ServerCommand.pair, hypothesis, references));
    }
  }

  /** The hypothesis's references (from the last scores, else from the server); asks when there are several. */
  private async chooseReference(hyp: vscode.Uri, which: 'ask' | 'first' = 'ask'): Promise<vscode.Uri | undefined> {
    const known =
      this.ctx.statusBar.scoresFor(hyp)?.references ?? (await this.ctx.server.requestReport(hyp.toString(), SUMMARY_ONLY))?.references;
    if (!known?.length) {
      throw new Error(`${fileNameOf(hyp.toString())} is not paired with a reference. Use "ScoreLens: Pair with Reference…".`);
    }
    const uris = known.map((r) => vscode.Uri.parse(r));
    if (uris.length === 1 || which === 'first') return uris[0];
    const picked = await vscode.window.showQuickPick(
      uris.map((uri) => ({ label: fileNameOf(uri.toString()), description: vscode.workspace.asRelativePath(uri), uri })),
      { title: 'ScoreLens: which reference?' },
    );
    return picked?.uri;
  }

  /**
   * Which of the open systems sharing the hypothesis's references to compare: the baseline, then
   * the systems compared with it; the Compare Systems view and the status bar follow the choice.
   */
  private async pickSystems(hypothesis: vscode.Uri | undefined): Promise<void> {
    const hyp = requireFile(hypothesis);
    const current = await this.ctx.comparisons.fetch(hyp.toString());
    if (!current) throw new Error(`${fileNameOf(hyp.toString())} is not a paired hypothesis. Pair it with a reference first.`);
    if (current.candidates.length < 2) {
      throw new Error('Only one open system uses these references. Open another (e.g. news.sys2.en beside news.sys1.en) to compare.');
    }
    const relative = (uri: string) => vscode.workspace.asRelativePath(vscode.Uri.parse(uri));
    const baseline = await vscode.window.showQuickPick(baselineItems(current, relative), { title: 'ScoreLens: compare against which baseline?' });
    if (!baseline) return;
    const picked = await vscode.window.showQuickPick(systemItems(current, baseline.uri, relative), {
      title: `ScoreLens: systems to compare with ${baseline.label}`,
      canPickMany: true,
    });
    if (!picked) return;
    const choice = systemsChoice(current.candidates, baseline.uri, picked.map((p) => p.uri));
    if (!choice) {
      void vscode.window.showWarningMessage('ScoreLens: pick at least one system to compare with the baseline.');
      return;
    }
    this.ctx.comparisons.choose(current.candidates, choice);
    await this.ctx.compare.show(hyp);
  }

  private async toggleInlayHints(kind: InlayHintKind, label: string): Promise<void> {
    const key = InlayHintSetting[kind];
    const config = vscode.workspace.getConfiguration(SECTION);
    const enabled = !config.get<boolean>(key, true);
    await config.update(key, enabled, settingsTarget());
    vscode.window.setStatusBarMessage(`ScoreLens: ${label} ${enabled ? 'on' : 'off'}`, 3000);
  }

  private async selectMetrics(): Promise<void> {
    const config = vscode.workspace.getConfiguration(SECTION);
    const current = new Set(config.get<MetricId[]>('metrics', []));
    const picked = await vscode.window.showQuickPick(
      // PPL and ROUGE-1.5.5's measures need another setting: say which.
      ALL_METRICS.map((metric) => ({ label: METRIC_LABEL[metric], description: NEEDS[metric], metric, picked: current.has(metric) })),
      { title: 'ScoreLens: metrics to compute and show', canPickMany: true },
    );
    if (!picked) return;
    if (!picked.length) {
      void vscode.window.showWarningMessage('ScoreLens: keep at least one metric.');
      return;
    }
    await config.update('metrics', picked.map((p) => p.metric), settingsTarget());
  }
}

/** Toggles apply to the open workspace when there is one, else to the user's settings. */
function settingsTarget(): vscode.ConfigurationTarget {
  return vscode.workspace.workspaceFolders?.length ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
}

function requireFile(uri: vscode.Uri | undefined): vscode.Uri {
  if (!uri || uri.scheme !== 'file') throw new Error('Open a hypothesis file first (ScoreLens works on files on disk).');
  return uri;
}
