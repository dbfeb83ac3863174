// The extension's private ScoreLens environment: a venv in the extension's global storage with the
// wheel bundled in the .vsix installed into it (ScoreLens's own dependencies come from PyPI).
// No `vscode` import; the caller shows progress and the log.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { venvPython } from './serverDiscovery';

export function privateEnvDir(globalStoragePath: string): string {
  return path.join(globalStoragePath, 'venv');
}

/** The ScoreLens wheel packaged under `bundled/` (see scripts/build.sh), if any. */
export function findBundledWheel(extensionPath: string): string | undefined {
  const dir = path.join(extensionPath, 'bundled');
  const wheels = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => /^scorelens-.*\.whl$/.test(f)).sort() : [];
  return wheels.length ? path.join(dir, wheels[wheels.length - 1]) : undefined;
}

/** Runs a process, streaming its output lines to `log`; rejects with the tail of the output. */
function run(command: string, args: string[], log: (line: string) => void): Promise<void> {
  log(`$ ${command} ${args.join(' ')}`);
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { windowsHide: true });
    const tail: string[] = [];
    const onData = (chunk: Buffer) => {
      for (const line of chunk.toString().split(/\r?\n/)) {
        if (!line) continue;
        log(line);
        tail.push(line);
        if (tail.length > 5) tail.shift();
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`${path.basename(command)} exited with ${code}: ${tail.join(' | ')}`)),
    );
  });
}

/**
 * (Re)creates the venv with `basePython` and installs the wheel into it. `--clear` recovers from a
 * half-built environment left by an earlier interrupted attempt. Resolves to the venv's interpreter.
 */
export async function installPrivateEnv(basePython: string, envDir: string, wheel: string, log: (line: string) => void): Promise<string> {
  await fs.promises.mkdir(path.dirname(envDir), { recursive: true });
  await run(basePython, ['-m', 'venv', '--clear', envDir], log);
  const python = venvPython(envDir);
  await run(python, ['-m', 'pip', 'install', '--disable-pip-version-check', '--no-input', wheel], log);
  return python;
}
