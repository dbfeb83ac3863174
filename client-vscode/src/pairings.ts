// Pairings made with "Pair with Reference…" live only in the server's memory, so the client keeps
// them in the workspace's state and sends them again whenever a server starts (after a crash, an
// interpreter change, a window reload). Kept free of the vscode module so node can test it.

/** The part of vscode.Memento this store uses. */
export interface StateStore {
  get<T>(key: string, defaultValue: T): T;
  update(key: string, value: unknown): PromiseLike<void>;
}

/** Hypothesis URI → its reference URIs, as given to `scorelens.pair`. */
export type PairingMap = Record<string, string[]>;

export const PAIRINGS_KEY = 'scorelens.pairings';

export class PairingStore {
  constructor(
    private readonly state: StateStore,
    private readonly exists: (uri: string) => Promise<boolean>,
  ) {}

  /** A copy: changing it changes nothing stored. */
  all(): PairingMap {
    const stored = this.state.get<unknown>(PAIRINGS_KEY, {});
    return isPairingMap(stored) ? { ...stored } : {};
  }

  async pair(hypothesis: string, references: string[]): Promise<void> {
    await this.state.update(PAIRINGS_KEY, { ...this.all(), [hypothesis]: [...references] });
  }

  async unpair(hypothesis: string): Promise<void> {
    const rest = this.all();
    delete rest[hypothesis];
    await this.state.update(PAIRINGS_KEY, rest);
  }

  /**
   * The pairings to send to a new server. A hypothesis that no longer exists is forgotten; its
   * references are kept even when missing, so the server says so on the hypothesis.
   */
  async restorable(): Promise<PairingMap> {
    const all = this.all();
    const kept: PairingMap = {};
    for (const [hypothesis, references] of Object.entries(all)) {
      if (await this.exists(hypothesis)) kept[hypothesis] = references;
    }
    if (Object.keys(kept).length !== Object.keys(all).length) await this.state.update(PAIRINGS_KEY, kept);
    return kept;
  }
}

/** Workspace state can hold anything an older version wrote: only a well-formed map is trusted. */
function isPairingMap(value: unknown): value is PairingMap {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every((refs) => Array.isArray(refs) && refs.length > 0 && refs.every((r) => typeof r === 'string'))
  );
}
