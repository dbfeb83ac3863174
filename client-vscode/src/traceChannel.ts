// vscode-languageclient traces LSP messages only into a channel whose log level is Trace, and only
// the user can set a channel's level (Output panel › gear). This channel stands in between: it is
// at Trace while scorelens.trace.server is not "off" (or the user set the ScoreLens log to Trace),
// and writes the messages into the ScoreLens log, so the setting alone turns tracing on and off,
// as its description says.
import * as vscode from 'vscode';
import { SECTION } from './settings';

export class TraceChannel implements vscode.LogOutputChannel {
  private readonly levelEmitter = new vscode.EventEmitter<vscode.LogLevel>();
  private readonly watchers: vscode.Disposable[];
  readonly onDidChangeLogLevel = this.levelEmitter.event;

  constructor(private readonly log: vscode.LogOutputChannel) {
    this.watchers = [
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(`${SECTION}.trace.server`)) this.levelEmitter.fire(this.logLevel);
      }),
      log.onDidChangeLogLevel(() => this.levelEmitter.fire(this.logLevel)),
    ];
  }

  get logLevel(): vscode.LogLevel {
    const tracing =
      vscode.workspace.getConfiguration(SECTION).get<string>('trace.server', 'off') !== 'off' || this.log.logLevel === vscode.LogLevel.Trace;
    return tracing ? vscode.LogLevel.Trace : vscode.LogLevel.Info;
  }

  get name(): string {
    return this.log.name;
  }

  /** The log's own level may be above Trace: the messages go in at Info. */
  trace(message: string, ...args: unknown[]): void {
    this.log.info(message, ...args);
  }

  debug(message: string, ...args: unknown[]): void {
    this.log.debug(message, ...args);
  }

  info(message: string, ...args: unknown[]): void {
    this.log.info(message, ...args);
  }

  warn(message: string, ...args: unknown[]): void {
    this.log.warn(message, ...args);
  }

  error(error: string | Error, ...args: unknown[]): void {
    this.log.error(error, ...args);
  }

  append(value: string): void {
    this.log.append(value);
  }

  appendLine(value: string): void {
    this.log.appendLine(value);
  }

  replace(value: string): void {
    this.log.replace(value);
  }

  clear(): void {
    this.log.clear();
  }

  /** Also the deprecated show(column, preserveFocus), whose column VS Code ignores. */
  show(preserveFocusOrColumn?: boolean | vscode.ViewColumn, preserveFocus?: boolean): void {
    this.log.show(typeof preserveFocusOrColumn === 'boolean' ? preserveFocusOrColumn : preserveFocus);
  }

  hide(): void {
    this.log.hide();
  }

  dispose(): void {
    vscode.Disposable.from(...this.watchers).dispose();
    this.levelEmitter.dispose();
  }
}
