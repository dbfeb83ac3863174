// When to restart a crashed server: exponential back-off, and give up after too many crashes in a
// short window (a server that dies on startup would otherwise respawn forever). No `vscode` import.

export interface RestartDecision {
  restart: boolean;
  /** Delay before the restart, in ms (0 when giving up). */
  delayMs: number;
  /** Crashes inside the window, this one included. */
  crashes: number;
}

export class RestartPolicy {
  private crashTimes: number[] = [];

  constructor(
    private readonly maxCrashes = 5,
    private readonly windowMs = 3 * 60_000,
    private readonly baseDelayMs = 1_000,
    private readonly maxDelayMs = 30_000,
  ) {}

  onCrash(now: number): RestartDecision {
    this.crashTimes = this.crashTimes.filter((t) => now - t < this.windowMs);
    this.crashTimes.push(now);
    const crashes = this.crashTimes.length;
    if (crashes > this.maxCrashes) return { restart: false, delayMs: 0, crashes };
    return { restart: true, delayMs: Math.min(this.baseDelayMs * 2 ** (crashes - 1), this.maxDelayMs), crashes };
  }

  /** A deliberate (re)start by the user forgets earlier crashes. */
  reset(): void {
    this.crashTimes = [];
  }
}

/**
 * Whether the client should shut the connection down after a transport error. A pipe that broke
 * because the server died (EPIPE) reports no count; shutting down then would keep the close
 * handler, and so this policy, from ever restarting the server. The close that follows decides.
 */
export function shutDownOnConnectionError(count: number | undefined): boolean {
  return count !== undefined && count > 3;
}
