// The comparisons the extension knows, for the Compare Systems view and the status bar: the systems
// chosen with "Pick Systems to Compare…" (per system, for every system of the group it was made in)
// and the latest result each system is part of. The server's scorelens/compareChanged carries the
// default comparison (every system against the first by URI); where a choice was made, the choice
// is asked for again instead.
import * as vscode from 'vscode';
import { CompareResult, SystemsChoice } from '../protocol';

export type CompareRequest = (uri: string, choice?: SystemsChoice) => Promise<CompareResult | null>;

const INVALID_PARAMS = -32602;

/** VS Code's spelling of a URI (the server's may percent-encode differently). */
const key = (uri: string) => vscode.Uri.parse(uri).toString();

export class Comparisons implements vscode.Disposable {
  private readonly choices = new Map<string, SystemsChoice>();
  private readonly latest = new Map<string, CompareResult>();
  private readonly emitter = new vscode.EventEmitter<CompareResult | undefined>();
  /** A comparison was received (asked for, or told after edits), or (undefined) some were dropped. */
  readonly onDidChange = this.emitter.event;

  constructor(private readonly request: CompareRequest) {}

  /** The comparison `uri` is part of, with the systems chosen for it if any. */
  async fetch(uri: string): Promise<CompareResult | null> {
    const choice = this.choices.get(key(uri));
    let result: CompareResult | null;
    try {
      result = await this.request(uri, choice);
    } catch (error) {
      // a chosen system was closed (or re-paired): back to every system
      if (!choice || (error as { code?: number }).code !== INVALID_PARAMS) throw error;
      this.forget(choice);
      result = await this.request(uri);
    }
    if (result) this.received(result);
    return result;
  }

  /** Compares `choice` from the next fetch on, for each of the systems `candidates` names. */
  choose(candidates: readonly string[], choice: SystemsChoice): void {
    for (const c of candidates) this.choices.set(key(c), choice);
  }

  /** The choice made for `uri`'s systems, if any. */
  choiceFor(uri: string): SystemsChoice | undefined {
    return this.choices.get(key(uri));
  }

  /** scorelens/compareChanged: taken as it is, unless its systems were chosen otherwise. */
  async onNotified(result: CompareResult): Promise<void> {
    if (this.choices.has(key(result.uri))) await this.fetch(result.uri).catch(() => undefined);
    else this.received(result);
  }

  /** The latest comparison `uri` is compared in. */
  of(uri: string | vscode.Uri): CompareResult | undefined {
    return this.latest.get(typeof uri === 'string' ? key(uri) : uri.toString());
  }

  /** A closed document is compared no more: its comparisons are stale until the next. */
  closed(uri: vscode.Uri): void {
    const closed = uri.toString();
    for (const [system, result] of [...this.latest]) if (result.systems.some((s) => key(s.uri) === closed)) this.latest.delete(system);
    this.emitter.fire(undefined);
  }

  clear(): void {
    this.latest.clear();
    this.emitter.fire(undefined);
  }

  dispose(): void {
    this.emitter.dispose();
  }

  private received(result: CompareResult): void {
    for (const c of result.candidates) this.latest.delete(key(c)); // those left out of a choice
    for (const s of result.systems) this.latest.set(key(s.uri), result);
    this.emitter.fire(result);
  }

  private forget(choice: SystemsChoice): void {
    for (const [system, c] of [...this.choices]) if (c === choice) this.choices.delete(system);
  }
}
