// Entry point: wires the server manager, status bar, report and compare panels, scroll sync and commands, and
// reacts to setting, trust and interpreter changes without a reload.
import * as vscode from 'vscode';
import { ClientCommand } from './commandIds';
import { Commands } from './commands';
import { ComparePanel } from './compare/comparePanel';
import { Comparisons } from './compare/comparisons';
import { CompareStatusBar } from './compare/compareStatus';
import { PairingStore } from './pairings';
import { onDidChangeActiveInterpreter } from './pythonExtension';
import { ReportPanel } from './report/reportPanel';
import { CommandInterceptor, ServerManager } from './serverManager';
import { LAUNCH_SETTINGS, SECTION } from './settings';
import { ScoresStatusBar } from './statusBar';
import { ScrollSync } from './syncScroll';
import { ViewportReporter } from './viewportReporter';

let server: ServerManager | undefined;

export function activate(context: vscode.ExtensionContext): void {
  const log = vscode.window.createOutputChannel('ScoreLens', { log: true });
  // Filled once the commands exist (they need the server): see Commands.interceptors.
  const interceptors = new Map<string, CommandInterceptor>();
  server = new ServerManager(context, log, interceptors);
  const manager = server;
  const statusBar = new ScoresStatusBar(ClientCommand.showReport);
  const report = new ReportPanel(
    context.extensionUri,
    (uri, query) => manager.requestReport(uri, query),
    (uri) => manager.requestAgreement(uri),
  );
  const comparisons = new Comparisons((uri, choice) => manager.requestComparison(uri, choice));
  const compare = new ComparePanel((uri) => comparisons.fetch(uri));
  const compareStatus = new CompareStatusBar(comparisons, ClientCommand.compareSystems);
  const scrollSync = new ScrollSync();
  const viewport = new ViewportReporter((uri) => statusBar.isPaired(uri), (params) => manager.notifyVisibleRanges(params));
  const pairings = new PairingStore(context.workspaceState, exists);
  const commands = new Commands({ server: manager, statusBar, report, compare, comparisons, scrollSync, pairings, log });
  for (const [command, interceptor] of commands.interceptors()) interceptors.set(command, interceptor);

  context.subscriptions.push(
    log,
    statusBar,
    report,
    comparisons,
    compare,
    compareStatus,
    scrollSync,
    viewport,
    ...commands.register(),
    manager.onScores((params) => {
      statusBar.update(params);
      report.onScores(params);
      viewport.schedule(); // a document just paired is shown already
    }),
    manager.onCompareChanged((result) => void comparisons.onNotified(result)),
    manager.onAgreementChanged((params) => report.onAgreementChanged(params)),
    comparisons.onDidChange((result) => compare.onChanged(result)),
    vscode.workspace.onDidCloseTextDocument((document) => comparisons.closed(document.uri)),
    manager.onStopped(() => {
      statusBar.clear();
      comparisons.clear();
    }),
    manager.onStarted(() => {
      void commands.restorePairings();
      viewport.reset();
    }),
    // Server settings reach the server through workspace/didChangeConfiguration (see ServerManager);
    // only a different program to run needs a restart.
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (LAUNCH_SETTINGS.some((key) => e.affectsConfiguration(`${SECTION}.${key}`))) void manager.restart();
    }),
    // Trust unlocks workspace settings and the workspace's interpreter.
    vscode.workspace.onDidGrantWorkspaceTrust(() => void manager.restart()),
  );
  void onDidChangeActiveInterpreter(() => {
    if (manager.serverLaunch?.source === 'python-extension' || !manager.isRunning) void manager.restart();
  }).then((listener) => listener && context.subscriptions.push(listener));

  // Not awaited: finding an interpreter may take seconds, activation should not.
  void manager.start();
}

async function exists(uri: string): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(vscode.Uri.parse(uri));
    return true;
  } catch {
    return false;
  }
}

export async function deactivate(): Promise<void> {
  await server?.dispose();
  server = undefined;
}
