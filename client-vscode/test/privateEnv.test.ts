// The private environment is built by running `<base> -m venv` and `<venv python> -m pip install
// <wheel>`; a fake base interpreter records both so the flow is checked without a network.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { findBundledWheel, installPrivateEnv, privateEnvDir } from '../src/privateEnv';

let dir: string;
before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scorelens-privateenv-'));
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A "python" whose `-m venv DIR` creates DIR/bin/python, which logs its pip arguments and exits with `pipExit`. */
function fakeBase(pipExit: number): string {
  const base = path.join(dir, `base-${pipExit}`);
  fs.writeFileSync(
    base,
    `#!/bin/sh
[ "$1 $2 $3" = "-m venv --clear" ] || { echo "unexpected: $*" >&2; exit 9; }
mkdir -p "$4/bin"
printf '#!/bin/sh\\necho "pip called with: $*"\\necho "pip says no" >&2\\nexit ${pipExit}\\n' > "$4/bin/python"
chmod +x "$4/bin/python"
echo "created $4"
`,
    { mode: 0o755 },
  );
  return base;
}

describe('private environment', () => {
  it('lives in the extension storage', () => {
    assert.equal(privateEnvDir('/storage'), path.join('/storage', 'venv'));
  });

  it('finds the wheel packaged under bundled/', () => {
    const ext = path.join(dir, 'ext');
    assert.equal(findBundledWheel(ext), undefined);
    fs.mkdirSync(path.join(ext, 'bundled'), { recursive: true });
    fs.writeFileSync(path.join(ext, 'bundled', 'README.txt'), '');
    fs.writeFileSync(path.join(ext, 'bundled', 'scorelens-0.1.0-py3-none-any.whl'), '');
    assert.equal(findBundledWheel(ext), path.join(ext, 'bundled', 'scorelens-0.1.0-py3-none-any.whl'));
  });

  it('creates the venv and installs the wheel into it, logging every line', async () => {
    const lines: string[] = [];
    const envDir = path.join(dir, 'storage', 'venv');
    const python = await installPrivateEnv(fakeBase(0), envDir, '/w/scorelens.whl', (l) => lines.push(l));
    assert.equal(python, path.join(envDir, 'bin', 'python'));
    assert.ok(lines.includes(`created ${envDir}`));
    assert.ok(lines.includes('pip called with: -m pip install --disable-pip-version-check --no-input /w/scorelens.whl'), lines.join('\n'));
  });

  it('fails with the tail of the failing step', async () => {
    await assert.rejects(installPrivateEnv(fakeBase(1), path.join(dir, 'v2'), '/w/x.whl', () => undefined), /python exited with 1: .*pip says no/);
  });
});
