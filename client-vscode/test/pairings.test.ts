import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PAIRINGS_KEY, PairingStore, StateStore } from '../src/pairings';

/** A Memento that, like VS Code's, hands back what was last stored under a key. */
class MemoryState implements StateStore {
  readonly values = new Map<string, unknown>();
  get<T>(key: string, defaultValue: T): T {
    return (this.values.has(key) ? this.values.get(key) : defaultValue) as T;
  }
  async update(key: string, value: unknown): Promise<void> {
    this.values.set(key, JSON.parse(JSON.stringify(value)));
  }
}

const HYP = 'file:///w/news.hyp.en';
const REF = 'file:///w/news.ref.en';
const ALT = 'file:///w/alt.ref.en';

function store(existing: string[] = [HYP, REF, ALT], state = new MemoryState()) {
  return { state, pairings: new PairingStore(state, async (uri) => existing.includes(uri)) };
}

describe('PairingStore', () => {
  it('remembers a pairing across stores on the same state (a reload)', async () => {
    const { state, pairings } = store();
    await pairings.pair(HYP, [REF, ALT]);
    assert.deepEqual(store(undefined, state).pairings.all(), { [HYP]: [REF, ALT] });
  });

  it('replaces the references of a hypothesis paired again, as the server does', async () => {
    const { pairings } = store();
    await pairings.pair(HYP, [REF, ALT]);
    await pairings.pair(HYP, [ALT]);
    assert.deepEqual(pairings.all(), { [HYP]: [ALT] });
  });

  it('forgets an unpaired hypothesis and leaves the others', async () => {
    const { pairings } = store();
    await pairings.pair(HYP, [REF]);
    await pairings.pair(ALT, [REF]);
    await pairings.unpair(HYP);
    assert.deepEqual(pairings.all(), { [ALT]: [REF] });
  });

  it('restores only hypotheses that still exist, and forgets the rest for good', async () => {
    const { state, pairings } = store([HYP]);
    await pairings.pair(HYP, [REF, 'file:///w/gone.ref.en']);
    await pairings.pair('file:///w/gone.hyp.en', [REF]);
    const expected = { [HYP]: [REF, 'file:///w/gone.ref.en'] };
    assert.deepEqual(await pairings.restorable(), expected);
    assert.deepEqual(state.values.get(PAIRINGS_KEY), expected);
  });

  it('does not hand out the stored object', async () => {
    const { pairings } = store();
    await pairings.pair(HYP, [REF]);
    delete pairings.all()[HYP];
    assert.deepEqual(pairings.all(), { [HYP]: [REF] });
  });

  it('ignores state it cannot read instead of sending it to the server', async () => {
    for (const junk of [[HYP, REF], 'x', { [HYP]: REF }, { [HYP]: [] }, { [HYP]: [1] }]) {
      const state = new MemoryState();
      await state.update(PAIRINGS_KEY, junk);
      assert.deepEqual(await store(undefined, state).pairings.restorable(), {}, JSON.stringify(junk));
    }
  });
});
