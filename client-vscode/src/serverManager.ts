// Owns the language client: finds the server, starts it, restarts it after a crash with back-off,
// explains clearly when ScoreLens is missing, and keeps workspace settings away from the server
// (and from the choice of interpreter) in an untrusted workspace.
import * as vscode from 'vscode';
import {
  CloseAction,
  ErrorAction,
  ExecuteCommandRequest,
  LanguageClient,
  LanguageClientOptions,
  RevealOutputChannelOn,
  State,
  TransportKind,
} from 'vscode-languageclient/node';
import { compareParams } from './compare/compareActions';
import { activeInterpreter, isPythonExtensionInstalled } from './pythonExtension';
import { findBundledWheel, installPrivateEnv, privateEnvDir } from './privateEnv';
import {
  AGREEMENT_CHANGED_NOTIFICATION,
  AGREEMENT_REQUEST,
  AgreementResult,
  AgreementSummary,
  COMPARE_CHANGED_NOTIFICATION,
  COMPARE_REQUEST,
  CompareResult,
  EXPERIMENTAL_CAPABILITIES,
  REPORT_REQUEST,
  Report,
  ReportQuery,
  SCORES_NOTIFICATION,
  ScoresParams,
  SystemsChoice,
  VISIBLE_RANGES_NOTIFICATION,
  VisibleRangesParams,
} from './protocol';
import { RestartPolicy, shutDownOnConnectionError } from './restartPolicy';
import { byWord, merged } from './wordFindings';
import {
  Discovery,
  ServerLaunch,
  Tried,
  defaultPathPython,
  discoverServer,
  installCommand,
  interpreterToFix,
  isSupportedPython,
  probePython,
  venvPython,
} from './serverDiscovery';
import { SECTION, defaultServerSettings, restrictedConfigurationValue } from './settings';
import { TraceChannel } from './traceChannel';

/** Client-side handling of a server command clicked in a code lens (instead of the server's). */
export type CommandInterceptor = (args: unknown[]) => Promise<unknown>;

export class ServerManager implements vscode.Disposable {
  private client: LanguageClient | undefined;
  private launch: ServerLaunch | undefined;
  /** Bumped by every deliberate start and stop, so a crash handler of an older client stands down. */
  private generation = 0;
  /** Starts and stops run one at a time, in order. */
  private queue: Promise<unknown> = Promise.resolve();
  private readonly restartPolicy = new RestartPolicy();
  private readonly scoresEmitter = new vscode.EventEmitter<ScoresParams>();
  private readonly compareEmitter = new vscode.EventEmitter<CompareResult>();
  private readonly agreementEmitter = new vscode.EventEmitter<AgreementSummary>();
  private readonly stoppedEmitter = new vscode.EventEmitter<void>();
  private readonly startedEmitter = new vscode.EventEmitter<void>();
  /** Corpus scores as the server publishes them. */
  readonly onScores = this.scoresEmitter.event;
  /** A comparison of open systems changed after edits. */
  readonly onCompareChanged = this.compareEmitter.event;
  /** A group of annotators was re-scored after edits. */
  readonly onAgreementChanged = this.agreementEmitter.event;
  /** The server went away: every score shown so far is stale. */
  readonly onStopped = this.stoppedEmitter.event;
  /** A server is up (first start, restart, or back after a crash) and knows nothing it was told before. */
  readonly onStarted = this.startedEmitter.event;

  private readonly traceChannel: TraceChannel;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: vscode.LogOutputChannel,
    private readonly interceptors: ReadonlyMap<string, CommandInterceptor>,
  ) {
    this.traceChannel = new TraceChannel(log);
  }

  get isRunning(): boolean {
    return this.client?.isRunning() ?? false;
  }

  get serverLaunch(): ServerLaunch | undefined {
    return this.launch;
  }

  start(): Promise<void> {
    return this.enqueue(() => this.doStart());
  }

  /** A deliberate restart (command, changed interpreter, trust granted): rediscovers the server. */
  restart(): Promise<void> {
    return this.enqueue(async () => {
      await this.doStop();
      this.restartPolicy.reset();
      await this.doStart();
    });
  }

  stop(): Promise<void> {
    return this.enqueue(() => this.doStop());
  }

  async dispose(): Promise<void> {
    await this.stop();
    this.traceChannel.dispose();
    this.scoresEmitter.dispose();
    this.compareEmitter.dispose();
    this.agreementEmitter.dispose();
    this.stoppedEmitter.dispose();
    this.startedEmitter.dispose();
  }

  /** Runs a server command directly (not through the VS Code command, so no interceptor applies). */
  async executeServerCommand<T>(command: string, ...args: unknown[]): Promise<T> {
    return this.runningClient().sendRequest(ExecuteCommandRequest.type, { command, arguments: args }) as Promise<T>;
  }

  /** Where the user looks; dropped while no server runs (a new one is told again on start). */
  notifyVisibleRanges(params: VisibleRangesParams): void {
    if (this.client?.isRunning()) void this.client.sendNotification(VISIBLE_RANGES_NOTIFICATION, params).catch(() => undefined);
  }

  async requestReport(uri: string, query: ReportQuery): Promise<Report | null> {
    return this.runningClient().sendRequest<Report | null>(REPORT_REQUEST, { uri, ...query });
  }

  async requestComparison(uri: string, choice?: SystemsChoice): Promise<CompareResult | null> {
    return this.runningClient().sendRequest<CompareResult | null>(COMPARE_REQUEST, compareParams(uri, choice));
  }

  async requestAgreement(uri: string): Promise<AgreementResult | null> {
    return this.runningClient().sendRequest<AgreementResult | null>(AGREEMENT_REQUEST, { uri });
  }

  /** Creates the private environment from the bundled wheel, then restarts on it. */
  async installPrivateEnvironment(basePython?: string): Promise<void> {
    const wheel = findBundledWheel(this.context.extensionPath);
    if (!wheel) {
      void vscode.window.showErrorMessage('ScoreLens: this build of the extension carries no ScoreLens wheel to install.');
      return;
    }
    const base = basePython ?? (await this.findBasePython());
    if (!base) {
      void vscode.window.showErrorMessage(
        `ScoreLens: no Python 3.11 or newer found to create the private environment. Install one, or set scorelens.interpreter.`,
      );
      return;
    }
    const envDir = privateEnvDir(this.context.globalStorageUri.fsPath);
    this.log.info(`Installing ScoreLens into a private environment: ${envDir} (base ${base})`);
    try {
      await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: 'ScoreLens: installing into a private environment', cancellable: false },
        async (progress) =>
          installPrivateEnv(base, envDir, wheel, (line) => {
            this.log.info(line);
            progress.report({ message: line.slice(0, 80) });
          }),
      );
    } catch (error) {
      this.log.error(String(error));
      const choice = await vscode.window.showErrorMessage(`ScoreLens: installing failed: ${(error as Error).message}`, 'Show Log');
      if (choice) this.log.show();
      return;
    }
    const explicit = (['server.path', 'interpreter'] as const).find((key) => this.launchSetting(key));
    if (explicit) {
      // Discovery never overrides an explicit setting, so say why the new environment is not used.
      const message =
        `ScoreLens: installed into a private environment. scorelens.${explicit} is set and is used ` +
        'instead; clear it to use the private environment.';
      void vscode.window
        .showInformationMessage(message, 'Open Settings')
        .then((choice) => choice && vscode.commands.executeCommand('workbench.action.openSettings', `scorelens.${explicit}`));
    } else {
      void vscode.window.showInformationMessage('ScoreLens: installed into a private environment.');
    }
    await this.restart();
  }

  private enqueue(task: () => Promise<void>): Promise<void> {
    const next = this.queue.then(task, task);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private runningClient(): LanguageClient {
    if (!this.client?.isRunning()) throw new Error('The ScoreLens server is not running (see "ScoreLens: Show Server Log").');
    return this.client;
  }

  /** Launch settings; in an untrusted workspace only the user's own values count. */
  private launchSetting(key: 'server.path' | 'interpreter'): string | undefined {
    const config = vscode.workspace.getConfiguration(SECTION);
    const value = vscode.workspace.isTrusted ? config.get<string>(key) : config.inspect<string>(key)?.globalValue;
    return value?.trim() || undefined;
  }

  private discover(): Promise<Discovery> {
    const folder = vscode.workspace.workspaceFolders?.[0];
    return discoverServer({
      serverPath: this.launchSetting('server.path'),
      interpreter: this.launchSetting('interpreter'),
      // The Python extension's interpreter may be a workspace's own .venv: not in Restricted Mode.
      pythonExtension:
        vscode.workspace.isTrusted && isPythonExtensionInstalled() ? () => activeInterpreter(folder?.uri) : undefined,
      privateEnvPython: venvPython(privateEnvDir(this.context.globalStorageUri.fsPath)),
      pathPython: defaultPathPython(),
      workspaceFolder: folder?.uri.fsPath,
    });
  }

  private async findBasePython(): Promise<string | undefined> {
    const candidates = [
      this.launchSetting('interpreter'),
      vscode.workspace.isTrusted && isPythonExtensionInstalled() ? await activeInterpreter().catch(() => undefined) : undefined,
      defaultPathPython(),
    ];
    for (const python of candidates) {
      if (!python) continue;
      const probe = await probePython(python);
      if (probe.ok && isSupportedPython(probe.pythonVersion)) return python;
    }
    return undefined;
  }

  private async doStart(): Promise<void> {
    if (this.client) return;
    const discovery = await this.discover();
    for (const t of discovery.kind === 'bad-setting' ? [] : discovery.tried) {
      this.log.info(`Not using ${t.python} (${t.source}): ${t.reason}`);
    }
    if (discovery.kind === 'bad-setting') {
      this.log.error(`${discovery.setting} = ${discovery.value}: ${discovery.reason}`);
      void this.showBadSetting(discovery.setting, discovery.value, discovery.reason);
      return;
    }
    if (discovery.kind === 'missing') {
      void this.showMissing(discovery.tried, discovery.explicit);
      return;
    }
    this.launch = discovery.launch;
    const { command, args, source, version } = discovery.launch;
    this.log.info(`Starting ${[command, ...args].join(' ')} (from ${source}${version ? `, ScoreLens ${version}` : ''})`);
    const ownVersion = String(this.context.extension.packageJSON.version);
    if (version && version !== ownVersion) {
      this.log.warn(`The server is ScoreLens ${version}; this extension was built with ${ownVersion}.`);
    }
    const client = new LanguageClient(
      'scorelens',
      'ScoreLens',
      { command, args, transport: TransportKind.stdio },
      this.clientOptions(++this.generation),
    );
    client.registerFeature({
      fillClientCapabilities: (capabilities) => {
        capabilities.experimental = { ...(capabilities.experimental as object | undefined), ...EXPERIMENTAL_CAPABILITIES };
      },
      initialize: () => undefined,
      getState: () => ({ kind: 'static' }),
      clear: () => undefined,
    });
    client.onNotification(SCORES_NOTIFICATION, (params: ScoresParams) => this.scoresEmitter.fire(params));
    client.onNotification(COMPARE_CHANGED_NOTIFICATION, (params: CompareResult) => this.compareEmitter.fire(params));
    client.onNotification(AGREEMENT_CHANGED_NOTIFICATION, (params: AgreementSummary) => this.agreementEmitter.fire(params));
    client.onDidChangeState((e) => {
      if (e.newState === State.Stopped) this.stoppedEmitter.fire();
      if (e.newState === State.Running) this.startedEmitter.fire();
    });
    this.client = client;
    try {
      await client.start();
    } catch (error) {
      // The library has logged the cause; the crash handler decides about retrying.
      this.log.error(`The server did not start: ${String(error)}`);
    }
  }

  private async doStop(): Promise<void> {
    this.generation++;
    const client = this.client;
    this.client = undefined;
    this.launch = undefined;
    if (!client) return;
    try {
      if (client.needsStop()) await client.stop();
    } catch (error) {
      this.log.warn(`Stopping the server: ${String(error)}`);
    }
    this.stoppedEmitter.fire();
  }

  private clientOptions(generation: number): LanguageClientOptions {
    // The server decides which files are paired hypotheses or references, so it sees every file.
    return {
      documentSelector: [{ scheme: 'file' }],
      outputChannel: this.log,
      traceOutputChannel: this.traceChannel,
      revealOutputChannelOn: RevealOutputChannelOn.Never,
      errorHandler: {
        error: (_error, _message, count) => ({ action: shutDownOnConnectionError(count) ? ErrorAction.Shutdown : ErrorAction.Continue }),
        closed: () => this.onServerClosed(generation),
      },
      middleware: {
        // pushed (publishDiagnostics) and pulled (textDocument/diagnostic) alike
        handleDiagnostics: (uri, diagnostics, next) => next(uri, oneDiagnosticPerWord(diagnostics)),
        provideDiagnostics: async (document, previousResultId, token, next) => {
          const report = await next(document, previousResultId, token);
          if (report && 'items' in report) report.items = oneDiagnosticPerWord(report.items);
          return report;
        },
        executeCommand: (command, args, next) => {
          const interceptor = this.interceptors.get(command);
          return interceptor ? interceptor(args) : next(command, args);
        },
        workspace: {
          // The server registers for workspace/didChangeConfiguration and re-pulls its settings;
          // sending `settings: null` keeps workspace values out of the push (Restricted Mode is
          // enforced on the pull, below).
          didChangeConfiguration: (_sections, next) => next(undefined),
          configuration: (params, token, next) => {
            if (vscode.workspace.isTrusted) return next(params, token);
            const defaults = defaultServerSettings(this.context.extension.packageJSON.contributes.configuration.properties);
            return params.items.map((item) => restrictedConfigurationValue(item.section, defaults));
          },
        },
      },
    };
  }

  private async onServerClosed(generation: number): Promise<{ action: CloseAction; handled: boolean }> {
    const decision = this.restartPolicy.onCrash(Date.now());
    if (!decision.restart) {
      this.log.error(`The server stopped ${decision.crashes} times in a few minutes; not restarting it.`);
      void vscode.window
        .showErrorMessage(`ScoreLens: the server keeps stopping (${decision.crashes} times in a few minutes).`, 'Restart Server', 'Show Log')
        .then((choice) => {
          if (choice === 'Restart Server') void this.restart();
          if (choice === 'Show Log') this.log.show();
        });
      return { action: CloseAction.DoNotRestart, handled: true };
    }
    this.log.warn(`The server stopped; restarting it in ${decision.delayMs / 1000} s (crash ${decision.crashes}).`);
    await new Promise((resolve) => setTimeout(resolve, decision.delayMs));
    // A restart or stop during the wait has replaced this client: it must stay down.
    return { action: generation === this.generation ? CloseAction.Restart : CloseAction.DoNotRestart, handled: true };
  }

  private async showBadSetting(setting: string, value: string, reason: string): Promise<void> {
    const choice = await vscode.window.showErrorMessage(
      `ScoreLens: ${setting} is "${value}", which cannot be used (${reason}).`,
      'Open Settings',
    );
    if (choice) void vscode.commands.executeCommand('workbench.action.openSettings', setting);
  }

  /** One message: what is missing, the command that fixes it, and the offer to do it privately. */
  private async showMissing(tried: readonly Tried[], explicit: boolean): Promise<void> {
    const wheel = findBundledWheel(this.context.extensionPath);
    const target = interpreterToFix(tried) ?? defaultPathPython();
    const fix = installCommand(target, wheel);
    const where = explicit ? `the interpreter set in scorelens.interpreter (${target})` : `any Python found (${tried.map((t) => t.python).join(', ') || 'none'})`;
    this.log.error(`ScoreLens is not installed in ${where}. Fix: ${fix}`);
    const canInstallPrivately = wheel !== undefined && !explicit;
    const actions = [...(canInstallPrivately ? ['Install in Private Environment'] : []), 'Copy Command', explicit ? 'Open Settings' : 'Show Log'];
    const choice = await vscode.window.showErrorMessage(
      `ScoreLens is not installed in ${where}. Run \`${fix}\`` + (canInstallPrivately ? ', or install it into a private environment for this extension.' : '.'),
      ...actions,
    );
    if (choice === 'Install in Private Environment') await this.installPrivateEnvironment(interpreterToFix(tried));
    else if (choice === 'Copy Command') await vscode.env.clipboard.writeText(fix);
    else if (choice === 'Open Settings') void vscode.commands.executeCommand('workbench.action.openSettings', 'scorelens.interpreter');
    else if (choice === 'Show Log') this.log.show();
  }
}

/** The findings on one word as one diagnostic (see wordFindings.ts); any other diagnostic as it came. */
function oneDiagnosticPerWord(diagnostics: vscode.Diagnostic[]): vscode.Diagnostic[] {
  return byWord(diagnostics).map((group) => {
    if (group.length === 1) return group[0];
    const fields = merged(group);
    const diagnostic = new vscode.Diagnostic(group[0].range, fields.message, fields.severity as vscode.DiagnosticSeverity);
    diagnostic.source = group[0].source;
    diagnostic.code = fields.code;
    diagnostic.relatedInformation = fields.relatedInformation;
    return diagnostic;
  });
}
