// Entry point: wires the server manager, status bar, report panel, scroll sync and commands, and
// reacts to setting, trust and interpreter changes without a reload.
import * as vscode from 'vscode';
import { ClientCommand } from './commandIds';
import { Commands, targetUri } from './commands';
import { ServerCommand } from './protocol';
import { onDidChangeActiveInterpreter } from './pythonExtension';
import { ReportPanel } from './report/reportPanel';
import { CommandInterceptor, ServerManager } from './serverManager';
import { LAUNCH_SETTINGS, SECTION } from './settings';
import { ScoresStatusBar } from './statusBar';
import { ScrollSync } from './syncScroll';

let server: ServerManager | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const log = vscode.window.createOutputChannel('ScoreLens', { log: true });
  // The code lens commands `scorelens.report` / `scorelens.openReference` run here instead of on the
  // server, so clicking them opens the report view / the reference with synchronised scrolling.
  let commands: Commands | undefined;
  const interceptors = new Map<string, CommandInterceptor>([
    [ServerCommand.report, (args) => commands!.showReport(targetUri(args[0]))],
    [ServerCommand.openReference, (args) => commands!.openReferenceBeside(targetUri(args[0]))],
  ]);
  server = new ServerManager(context, log, interceptors);
  const manager = server;
  const statusBar = new ScoresStatusBar(ClientCommand.showReport);
  const report = new ReportPanel(context.extensionUri, (uri) => manager.requestReport(uri));
  const scrollSync = new ScrollSync();
  commands = new Commands({ server: manager, statusBar, report, scrollSync, log });

  context.subscriptions.push(
    log,
    statusBar,
    report,
    scrollSync,
    ...commands.register(),
    manager.onScores((params) => {
      statusBar.update(params);
      report.onScores(params);
    }),
    manager.onStopped(() => statusBar.clear()),
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

export async function deactivate(): Promise<void> {
  await server?.dispose();
  server = undefined;
}
