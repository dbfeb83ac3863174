// Setting names the extension itself reads, and the defaults the server gets in Restricted Mode.
// No `vscode` import (unit-tested under node).

export const SECTION = 'scorelens';

/** Read by the extension, not the server; a change restarts the server. */
export const LAUNCH_SETTINGS = ['server.path', 'interpreter'] as const;
/** Whether the status bar shows the change of the last edit beside each score. */
export const SHOW_CHANGE_SETTING = 'statusBar.showChange';
/** Whether the status bar shows the active system's difference from its baseline. */
export const SHOW_COMPARISON_SETTING = 'statusBar.showComparison';
/** Read by the extension (vscode-languageclient handles `<id>.trace.server` itself). */
export const CLIENT_ONLY_SETTINGS: readonly string[] = [...LAUNCH_SETTINGS, 'trace.server', SHOW_CHANGE_SETTING, SHOW_COMPARISON_SETTING];

export const InlayHintSetting = {
  lineScores: 'inlayHints.lineScores',
  missingWords: 'inlayHints.missingWords',
  substitutions: 'inlayHints.substitutions',
} as const;
export type InlayHintKind = keyof typeof InlayHintSetting;

interface ManifestProperty {
  default?: unknown;
}

/**
 * The `scorelens` section as the server would see it with nothing configured: the contributed
 * defaults (from package.json), nested the way `workspace/configuration` returns a section.
 * Client-only settings are left out: they are not the server's business.
 */
export function defaultServerSettings(properties: Record<string, ManifestProperty>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, property] of Object.entries(properties)) {
    if (!key.startsWith(`${SECTION}.`)) continue;
    const name = key.slice(SECTION.length + 1);
    if (CLIENT_ONLY_SETTINGS.includes(name)) continue;
    const parts = name.split('.');
    let node = out;
    for (const part of parts.slice(0, -1)) {
      node = (node[part] ??= {}) as Record<string, unknown>;
    }
    node[parts[parts.length - 1]] = structuredClone(property.default ?? null);
  }
  return out;
}

/**
 * The answer to one `workspace/configuration` item in Restricted Mode: ScoreLens's contributed
 * defaults for `scorelens` or any sub-section of it, and null (= "not set") for anything else.
 */
export function restrictedConfigurationValue(section: string | undefined, defaults: Record<string, unknown>): unknown {
  if (section === SECTION) return defaults;
  if (!section?.startsWith(`${SECTION}.`)) return null;
  let node: unknown = defaults;
  for (const part of section.slice(SECTION.length + 1).split('.')) {
    node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined;
  }
  return node ?? null;
}
