// `npx vsce package`, the ecosystem's usual command, must build the extension from a clean clone
// with no question asked: vsce runs `vscode:prepublish` (type check, production bundle), and the
// manifest's "vsce" options and LICENSE leave it nothing to prompt for (standard input is closed
// here, so a prompt fails the test). The clone is the git-tracked files of client-vscode/ copied
// to a temporary folder, with this checkout's node_modules linked in (what `npm ci` would install).
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';

const extensionDir = path.resolve(__dirname, '..', '..');

function trackedFiles(): string[] | undefined {
  try {
    const out = execFileSync('git', ['ls-files', '-z', '--', '.'], { cwd: extensionDir, encoding: 'utf8' });
    return out.split('\0').filter((f) => f && !f.startsWith('e2e/'));
  } catch {
    return undefined; // not a git checkout
  }
}

/** The names in a zip file's central directory. */
function zipEntries(file: string): string[] {
  const zip = fs.readFileSync(file);
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  assert.ok(end >= 0, 'not a zip file');
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const names: string[] = [];
  for (let i = 0; i < count; i++) {
    assert.equal(zip.readUInt32LE(at), 0x02014b50, 'central directory entry expected');
    const nameLength = zip.readUInt16LE(at + 28);
    const skip = nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    names.push(zip.toString('utf8', at + 46, at + 46 + nameLength));
    at += 46 + skip;
  }
  return names;
}

const files = trackedFiles();
const vsce = path.join(extensionDir, 'node_modules', '@vscode', 'vsce', 'vsce');

describe('npx vsce package from a clean clone', {
  skip: (!files && 'not a git checkout') || (!fs.existsSync(vsce) && 'node_modules not installed'),
}, () => {
  it('bundles for production and packages without a prompt', () => {
    const clone = fs.mkdtempSync(path.join(os.tmpdir(), 'scorelens-vsce-'));
    try {
      for (const f of files ?? []) {
        fs.cpSync(path.join(extensionDir, f), path.join(clone, f));
      }
      fs.symlinkSync(path.join(extensionDir, 'node_modules'), path.join(clone, 'node_modules'));
      const vsix = path.join(clone, 'out.vsix');
      const run = spawnSync(process.execPath, [vsce, 'package', '--out', vsix], {
        cwd: clone,
        stdio: ['ignore', 'pipe', 'pipe'],
        encoding: 'utf8',
      });
      assert.equal(run.status, 0, `vsce package failed:\n${run.stdout}\n${run.stderr}`);
      assert.match(run.stdout, /Executing prepublish script/);

      const entries = zipEntries(vsix).filter((e) => e.startsWith('extension/'));
      for (const expected of ['package.json', 'readme.md', 'LICENSE.txt', 'dist/extension.js', 'dist/webview/report.js', 'dist/webview/report.css']) {
        assert.ok(entries.includes(`extension/${expected}`), `${expected} missing from ${entries.join(', ')}`);
      }
      assert.deepEqual(entries.filter((e) => /node_modules|\/src\/|\.map$|\.ts$/.test(e)), []);
      const bundle = fs.readFileSync(path.join(clone, 'dist', 'extension.js'), 'utf8');
      assert.doesNotMatch(bundle, /sourceMappingURL/, 'a development bundle (with a source map) was packaged');
    } finally {
      fs.rmSync(clone, { recursive: true, force: true });
    }
  });
});
