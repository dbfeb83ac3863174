// Interpreter discovery against fake interpreters: small shell scripts that answer the probe the way
// a real Python would (and one that is not a Python at all).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  discoverServer,
  expandSettingPath,
  installCommand,
  interpreterToFix,
  isSupportedPython,
  probePython,
  venvPython,
} from '../src/serverDiscovery';

let dir: string;
const fake = (name: string, body: string): string => {
  const file = path.join(dir, name);
  fs.writeFileSync(file, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  return file;
};
const answering = (name: string, version: string, scorelens: string | null) =>
  fake(name, `echo '${JSON.stringify({ executable: path.join(dir, name), version, scorelens })}'`);

let withScoreLens: string, withoutScoreLens: string, tooOld: string, broken: string;

before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scorelens-discovery-'));
  withScoreLens = answering('py-with', '3.11.7', '0.1.0');
  withoutScoreLens = answering('py-without', '3.12.1', null);
  tooOld = answering('py-old', '3.8.10', null);
  broken = fake('py-broken', 'echo "Traceback: boom" >&2; exit 1');
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

const base = () => ({ privateEnvPython: path.join(dir, 'no-venv', 'bin', 'python'), pathPython: path.join(dir, 'absent-python3') });

describe('probePython', () => {
  it('reads the interpreter version and the installed ScoreLens version', async () => {
    assert.deepEqual(await probePython(withScoreLens), { ok: true, executable: withScoreLens, pythonVersion: '3.11.7', scorelens: '0.1.0' });
  });
  it('reports a missing interpreter as not found', async () => {
    assert.deepEqual(await probePython(path.join(dir, 'nope')), { ok: false, error: 'not found' });
  });
  it('reports the last stderr line of a failing interpreter', async () => {
    assert.deepEqual(await probePython(broken), { ok: false, error: 'Traceback: boom' });
  });
  it('runs a real python3 when there is one', { skip: !fs.existsSync('/usr/bin/python3') && 'no python3' }, async () => {
    const result = await probePython('python3');
    assert.equal(result.ok, true);
  });
});

describe('discoverServer', () => {
  it('prefers scorelens.server.path, run as `<path> serve`', async () => {
    const d = await discoverServer({ ...base(), serverPath: withScoreLens, interpreter: withoutScoreLens });
    assert.deepEqual(d, { kind: 'found', launch: { command: withScoreLens, args: ['serve'], source: 'scorelens.server.path' }, tried: [] });
  });
  it('refuses a scorelens.server.path that does not exist', async () => {
    const d = await discoverServer({ ...base(), serverPath: path.join(dir, 'missing', 'scorelens') });
    assert.equal(d.kind, 'bad-setting');
  });
  it('runs scorelens.interpreter as `-m scorelens serve`', async () => {
    const d = await discoverServer({ ...base(), interpreter: withScoreLens });
    assert.deepEqual(d, {
      kind: 'found',
      launch: { command: withScoreLens, args: ['-m', 'scorelens', 'serve'], source: 'scorelens.interpreter', version: '0.1.0' },
      tried: [],
    });
  });
  it('never falls back from an explicit interpreter without ScoreLens', async () => {
    const d = await discoverServer({ ...base(), interpreter: withoutScoreLens, pythonExtension: async () => withScoreLens, pathPython: withScoreLens });
    assert.equal(d.kind, 'missing');
    assert.equal(d.kind === 'missing' && d.explicit, true);
  });
  it('calls an explicit interpreter that does not run a bad setting', async () => {
    const d = await discoverServer({ ...base(), interpreter: broken });
    assert.deepEqual(d, { kind: 'bad-setting', setting: 'scorelens.interpreter', value: broken, reason: 'Traceback: boom' });
  });
  it("uses the Python extension's interpreter when it has ScoreLens", async () => {
    const d = await discoverServer({ ...base(), pythonExtension: async () => withScoreLens, pathPython: withoutScoreLens });
    assert.equal(d.kind === 'found' && d.launch.source, 'python-extension');
  });
  it('skips candidates without ScoreLens: Python extension, then private environment, then PATH', async () => {
    const d = await discoverServer({ pythonExtension: async () => withoutScoreLens, privateEnvPython: withScoreLens, pathPython: tooOld });
    assert.equal(d.kind, 'found');
    assert.equal(d.kind === 'found' && d.launch.source, 'private-environment');
    assert.deepEqual(d.kind === 'found' && d.tried.map((t) => t.source), ['python-extension']);
  });
  it('falls back to python3 on PATH', async () => {
    const d = await discoverServer({ ...base(), pythonExtension: async () => undefined, pathPython: withScoreLens });
    assert.equal(d.kind === 'found' && d.launch.source, 'path');
  });
  it('lists every interpreter it tried when ScoreLens is nowhere', async () => {
    const d = await discoverServer({ ...base(), pythonExtension: async () => tooOld, pathPython: withoutScoreLens });
    assert.equal(d.kind, 'missing');
    if (d.kind !== 'missing') return;
    assert.equal(d.explicit, false);
    assert.deepEqual(d.tried.map((t) => [t.source, t.usable]), [['python-extension', false], ['path', true]]);
    assert.match(d.tried[0].reason, /3\.8\.10 is older than 3\.11/);
    assert.equal(interpreterToFix(d.tried), withoutScoreLens);
  });
  it('survives a Python extension that throws', async () => {
    const d = await discoverServer({ ...base(), pythonExtension: async () => { throw new Error('no api'); }, pathPython: withScoreLens });
    assert.equal(d.kind === 'found' && d.launch.source, 'path');
  });
});

describe('helpers', () => {
  it('expands ~ and ${workspaceFolder}', () => {
    assert.equal(expandSettingPath('~/venv/bin/python', undefined, '/home/u'), '/home/u/venv/bin/python');
    assert.equal(expandSettingPath('${workspaceFolder}/.venv/bin/python', '/ws'), '/ws/.venv/bin/python');
    assert.equal(expandSettingPath('~user/python', undefined, '/home/u'), '~user/python');
  });
  it('knows where a venv keeps its interpreter', () => {
    assert.equal(venvPython('/s/venv', 'linux'), '/s/venv/bin/python');
    assert.equal(venvPython('C:\\s\\venv', 'win32'), path.join('C:\\s\\venv', 'Scripts', 'python.exe'));
  });
  it('accepts Python 3.11 and newer only', () => {
    assert.equal(isSupportedPython('3.11.0'), true);
    assert.equal(isSupportedPython('3.13.1'), true);
    assert.equal(isSupportedPython('4.0.0'), true);
    assert.equal(isSupportedPython('3.10.12'), false);
    assert.equal(isSupportedPython('2.7.18'), false);
  });
  it('writes a copy-pasteable install command', () => {
    assert.equal(installCommand('/usr/bin/python3', '/ext/bundled/scorelens-0.1.0-py3-none-any.whl'), '/usr/bin/python3 -m pip install /ext/bundled/scorelens-0.1.0-py3-none-any.whl');
    assert.equal(installCommand('/opt/My Python/bin/python', undefined), '"/opt/My Python/bin/python" -m pip install scorelens');
  });
});
