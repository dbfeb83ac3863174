// Finds how to start `scorelens serve`. No `vscode` import: the caller passes in what the settings
// and the Python extension say, so the unit tests run this against fake interpreters under node.
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** The oldest Python ScoreLens supports (pyproject's requires-python). */
export const MIN_PYTHON: readonly [number, number] = [3, 11];

export type CandidateSource = 'scorelens.interpreter' | 'python-extension' | 'private-environment' | 'path';

export interface ServerLaunch {
  command: string;
  args: string[];
  /** Where the command came from, for the log and the status bar tooltip. */
  source: 'scorelens.server.path' | CandidateSource;
  /** The installed ScoreLens version when known (not for scorelens.server.path). */
  version?: string;
}

export interface Tried {
  source: CandidateSource;
  python: string;
  /** Why it was not used: not runnable, too old, or ScoreLens not installed. */
  reason: string;
  /** Set when the interpreter runs and is new enough to hold ScoreLens (or a venv for it). */
  usable: boolean;
}

export type Discovery =
  | { kind: 'found'; launch: ServerLaunch; tried: Tried[] }
  /** An explicit setting points at something that cannot work; never silently replaced. */
  | { kind: 'bad-setting'; setting: 'scorelens.server.path' | 'scorelens.interpreter'; value: string; reason: string }
  | { kind: 'missing'; tried: Tried[]; explicit: boolean };

export interface DiscoveryInput {
  /** A `scorelens` executable; run as `<path> serve`. Wins over everything else. */
  serverPath?: string;
  /** A Python interpreter with ScoreLens; when set, no other interpreter is tried. */
  interpreter?: string;
  /** The Python extension's active interpreter; absent when that extension is not installed (or the workspace is untrusted). */
  pythonExtension?: () => Promise<string | undefined>;
  /** The interpreter of the extension's private environment (may not exist yet). */
  privateEnvPython: string;
  /** The interpreter name looked up on PATH. */
  pathPython: string;
  /** For `~` and `${workspaceFolder}` in settings. */
  workspaceFolder?: string;
  probe?: (python: string) => Promise<ProbeResult>;
}

export type ProbeResult =
  | { ok: true; executable: string; pythonVersion: string; scorelens: string | null }
  | { ok: false; error: string };

// Prints one JSON line. `%`-formatting and the guarded import keep it runnable (and its answer
// meaningful) on interpreters far older than ScoreLens supports.
const PROBE_SCRIPT = [
  'import json, sys',
  'try:',
  '    from importlib.metadata import version',
  '    try: v = version("scorelens")',
  '    except Exception: v = None',
  'except ImportError: v = None',
  'print(json.dumps({"executable": sys.executable, "version": "%d.%d.%d" % tuple(sys.version_info[:3]), "scorelens": v}))',
].join('\n');

export function probePython(python: string, timeoutMs = 20000): Promise<ProbeResult> {
  return new Promise((resolve) => {
    execFile(python, ['-c', PROBE_SCRIPT], { timeout: timeoutMs, windowsHide: true }, (err, stdout, stderr) => {
      if (err) {
        const detail = (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'not found' : (stderr.trim().split('\n').pop() || err.message);
        resolve({ ok: false, error: detail });
        return;
      }
      try {
        const info = JSON.parse(stdout.trim().split('\n').pop() ?? '') as { executable: string; version: string; scorelens: string | null };
        resolve({ ok: true, executable: info.executable, pythonVersion: info.version, scorelens: info.scorelens });
      } catch {
        resolve({ ok: false, error: `unexpected output: ${stdout.slice(0, 200)}` });
      }
    });
  });
}

export function isSupportedPython(version: string): boolean {
  const [major, minor] = version.split('.').map(Number);
  return major > MIN_PYTHON[0] || (major === MIN_PYTHON[0] && minor >= MIN_PYTHON[1]);
}

/** Expands a leading `~` and `${workspaceFolder}`, as users write them in settings. */
export function expandSettingPath(value: string, workspaceFolder?: string, home = os.homedir()): string {
  let out = value.trim();
  if (workspaceFolder) out = out.split('${workspaceFolder}').join(workspaceFolder);
  if (out === '~' || out.startsWith('~/')) out = path.join(home, out.slice(1));
  return out;
}

export function venvPython(envDir: string, platform: NodeJS.Platform = process.platform): string {
  return platform === 'win32' ? path.join(envDir, 'Scripts', 'python.exe') : path.join(envDir, 'bin', 'python');
}

export function defaultPathPython(platform: NodeJS.Platform = process.platform): string {
  return platform === 'win32' ? 'python' : 'python3';
}

/** vscode-languageclient appends `--stdio`; the server accepts it. */
const SERVE_ARGS = ['-m', 'scorelens', 'serve'];

export async function discoverServer(input: DiscoveryInput): Promise<Discovery> {
  const probe = input.probe ?? probePython;

  const serverPath = input.serverPath?.trim() ? expandSettingPath(input.serverPath, input.workspaceFolder) : undefined;
  if (serverPath) {
    // A bare name is resolved on PATH by the spawn; only a path can be checked up front.
    if (serverPath.includes(path.sep) && !fs.existsSync(serverPath)) {
      return { kind: 'bad-setting', setting: 'scorelens.server.path', value: serverPath, reason: 'file does not exist' };
    }
    return { kind: 'found', launch: { command: serverPath, args: ['serve'], source: 'scorelens.server.path' }, tried: [] };
  }

  const interpreter = input.interpreter?.trim() ? expandSettingPath(input.interpreter, input.workspaceFolder) : undefined;
  const candidates: Array<{ source: CandidateSource; python: () => Promise<string | undefined> }> = interpreter
    ? [{ source: 'scorelens.interpreter', python: async () => interpreter }]
    : [
        ...(input.pythonExtension ? [{ source: 'python-extension' as const, python: input.pythonExtension }] : []),
        { source: 'private-environment', python: async () => (fs.existsSync(input.privateEnvPython) ? input.privateEnvPython : undefined) },
        { source: 'path', python: async () => input.pathPython },
      ];

  const tried: Tried[] = [];
  for (const candidate of candidates) {
    const python = await candidate.python().catch(() => undefined);
    if (!python) continue;
    const result = await probe(python);
    if (!result.ok) {
      if (candidate.source === 'scorelens.interpreter') {
        return { kind: 'bad-setting', setting: 'scorelens.interpreter', value: python, reason: result.error };
      }
      tried.push({ source: candidate.source, python, reason: result.error, usable: false });
      continue;
    }
    if (!isSupportedPython(result.pythonVersion)) {
      tried.push({ source: candidate.source, python, reason: `Python ${result.pythonVersion} is older than ${MIN_PYTHON.join('.')}`, usable: false });
      continue;
    }
    if (result.scorelens === null) {
      tried.push({ source: candidate.source, python, reason: 'ScoreLens is not installed', usable: true });
      continue;
    }
    return { kind: 'found', launch: { command: python, args: [...SERVE_ARGS], source: candidate.source, version: result.scorelens }, tried };
  }
  return { kind: 'missing', tried, explicit: interpreter !== undefined };
}

/** The interpreter a fix should install into: the first one that runs and is new enough. */
export function interpreterToFix(tried: readonly Tried[]): string | undefined {
  return tried.find((t) => t.usable)?.python;
}

/** The shell command that installs ScoreLens into `python` (POSIX shell quoting). */
export function installCommand(python: string, wheel: string | undefined): string {
  const quote = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `"${s.replace(/(["\\$`])/g, '\\$1')}"`);
  return `${quote(python)} -m pip install ${wheel ? quote(wheel) : 'scorelens'}`;
}
