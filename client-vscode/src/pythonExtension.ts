// The Python extension's active interpreter, when that extension is installed. Only the slice of
// its public API used here is typed (the full types live in @vscode/python-extension).
import * as vscode from 'vscode';

const PYTHON_EXTENSION_ID = 'ms-python.python';

interface PythonEnvironmentsApi {
  getActiveEnvironmentPath(resource?: vscode.Uri): { path: string };
  resolveEnvironment(environment: { path: string } | string): Promise<{ executable: { uri?: vscode.Uri } } | undefined>;
  onDidChangeActiveEnvironmentPath: vscode.Event<unknown>;
}

async function environmentsApi(): Promise<PythonEnvironmentsApi | undefined> {
  const extension = vscode.extensions.getExtension<{ environments?: PythonEnvironmentsApi }>(PYTHON_EXTENSION_ID);
  if (!extension) return undefined;
  const api = extension.isActive ? extension.exports : await extension.activate();
  return api?.environments;
}

export function isPythonExtensionInstalled(): boolean {
  return vscode.extensions.getExtension(PYTHON_EXTENSION_ID) !== undefined;
}

export async function activeInterpreter(resource?: vscode.Uri): Promise<string | undefined> {
  const environments = await environmentsApi();
  if (!environments) return undefined;
  const resolved = await environments.resolveEnvironment(environments.getActiveEnvironmentPath(resource));
  return resolved?.executable.uri?.fsPath;
}

/** Fires when the user selects another interpreter in the Python extension. */
export async function onDidChangeActiveInterpreter(listener: () => void): Promise<vscode.Disposable | undefined> {
  const environments = await environmentsApi().catch(() => undefined);
  return environments?.onDidChangeActiveEnvironmentPath(() => listener());
}
