import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RestartPolicy, shutDownOnConnectionError } from '../src/restartPolicy';

describe('RestartPolicy', () => {
  it('backs off exponentially up to the cap', () => {
    const policy = new RestartPolicy(10, 60_000, 1000, 5000);
    assert.deepEqual([0, 1, 2, 3, 4].map((t) => policy.onCrash(t).delayMs), [1000, 2000, 4000, 5000, 5000]);
  });
  it('gives up after too many crashes in the window', () => {
    const policy = new RestartPolicy(3, 60_000);
    assert.deepEqual([0, 10, 20].map((t) => policy.onCrash(t).restart), [true, true, true]);
    assert.deepEqual(policy.onCrash(30), { restart: false, delayMs: 0, crashes: 4 });
  });
  it('forgets crashes older than the window', () => {
    const policy = new RestartPolicy(2, 1000, 100);
    policy.onCrash(0);
    policy.onCrash(10);
    assert.deepEqual(policy.onCrash(5000), { restart: true, delayMs: 100, crashes: 1 });
  });
  it('starts over after a deliberate restart', () => {
    const policy = new RestartPolicy(1, 60_000);
    policy.onCrash(0);
    policy.reset();
    assert.equal(policy.onCrash(1).restart, true);
  });
});

describe('shutDownOnConnectionError', () => {
  it('keeps the connection when a dead server broke the pipe (no count): the close restarts it', () => {
    assert.equal(shutDownOnConnectionError(undefined), false);
  });
  it('shuts down after repeated write errors only', () => {
    assert.deepEqual([1, 3, 4].map(shutDownOnConnectionError), [false, false, true]);
  });
});
