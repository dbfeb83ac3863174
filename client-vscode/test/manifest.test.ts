// package.json against the contract (docs/protocol.md) and the code: every setting the server reads
// is contributed with the documented default and values, and command ids never collide with the
// server's (vscode-languageclient registers those).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { ClientCommand } from '../src/commandIds';
import { ServerCommand } from '../src/protocol';
import { CLIENT_ONLY_SETTINGS, InlayHintSetting, SECTION, defaultServerSettings, restrictedConfigurationValue } from '../src/settings';

const extensionDir = path.resolve(__dirname, '..', '..');
const manifest = JSON.parse(fs.readFileSync(path.join(extensionDir, 'package.json'), 'utf8'));
const properties: Record<string, { default?: unknown; enum?: string[]; items?: { enum?: string[] }; anyOf?: { enum?: string[] }[]; type?: unknown; description?: string; markdownDescription?: string }> =
  manifest.contributes.configuration.properties;
const protocolDoc = path.join(extensionDir, '..', 'docs', 'protocol.md');

interface DocumentedSetting {
  name: string;
  type: string;
  default: unknown;
}

/** The rows of protocol.md's settings table: | `scorelens.x` | type | `default` | meaning | */
function documentedSettings(): DocumentedSetting[] {
  const doc = fs.readFileSync(protocolDoc, 'utf8');
  const section = doc.slice(doc.indexOf('## Settings'), doc.indexOf('\n## ', doc.indexOf('## Settings') + 1));
  const rows = section.split('\n').filter((l) => /^\| `scorelens\./.test(l));
  return rows.map((row) => {
    const [name, type, def] = row.split('|').slice(1, 4).map((cell) => cell.trim());
    return { name: name.replace(/`/g, ''), type, default: JSON.parse(def.replace(/`/g, '')) };
  });
}

/**
 * Defaults the extension sets for VS Code where the server's suit it less: VS Code draws squiggles
 * for a file's first 500 diagnostics only, and every diagnostic sent costs the workbench on each edit.
 */
const VS_CODE_DEFAULTS: Record<string, unknown> = { 'scorelens.maxProblems': 500, 'scorelens.typingPauseMs': 300 };

describe('contributed settings', { skip: !fs.existsSync(protocolDoc) && 'docs/protocol.md not found' }, () => {
  const documented = documentedSettings();

  it('finds the settings table', () => {
    assert.ok(documented.length >= 20, `only ${documented.length} settings parsed`);
  });
  it('contributes every documented setting with its default', () => {
    for (const setting of documented) {
      assert.ok(properties[setting.name], `${setting.name} is not contributed`);
      assert.deepEqual(properties[setting.name].default, VS_CODE_DEFAULTS[setting.name] ?? setting.default, setting.name);
    }
  });
  it('offers exactly the documented values of every enum', () => {
    const byName = new Map(documented.map((s) => [s.name, s]));
    const severityValues = [...(byName.get('scorelens.severity.bleu')?.type.matchAll(/"([^"]+)"/g) ?? [])].map((m) => m[1]);
    for (const setting of documented) {
      const values = setting.type === 'same' ? severityValues : [...setting.type.matchAll(/"([^"]+)"/g)].map((m) => m[1]);
      if (!values.length) continue;
      const property = properties[setting.name];
      // a setting that also takes free text (a step list) offers its named values as anyOf's enum
      assert.deepEqual(property.enum ?? property.items?.enum ?? property.anyOf?.find((a) => a.enum)?.enum, values, setting.name);
    }
  });
  it('contributes nothing undocumented besides the client-only settings', () => {
    const names = new Set(documented.map((s) => s.name));
    const extra = Object.keys(properties).filter((k) => !names.has(k));
    assert.deepEqual(extra.sort(), CLIENT_ONLY_SETTINGS.map((k) => `${SECTION}.${k}`).sort());
  });
  it('describes and types every setting', () => {
    for (const [name, p] of Object.entries(properties)) {
      assert.ok(p.type, `${name} has no type`);
      assert.ok(p.description || p.markdownDescription, `${name} has no description`);
    }
  });
  it('toggles inlay hint settings that exist', () => {
    for (const key of Object.values(InlayHintSetting)) assert.equal(properties[`${SECTION}.${key}`]?.type, 'boolean', key);
  });
});

describe('contributed commands', () => {
  const contributed: string[] = manifest.contributes.commands.map((c: { command: string }) => c.command);

  it('match the ids the code registers', () => {
    assert.deepEqual([...contributed].sort(), Object.values(ClientCommand).sort());
  });
  it('never reuse a server command id', () => {
    const serverIds = new Set<string>(Object.values(ServerCommand));
    for (const id of contributed) assert.ok(!serverIds.has(id), id);
  });
  it('only put contributed commands in menus', () => {
    for (const [menu, items] of Object.entries(manifest.contributes.menus as Record<string, { command: string }[]>)) {
      for (const item of items) assert.ok(contributed.includes(item.command), `${menu}: ${item.command}`);
    }
  });
  it('keep interpreter settings and the language model out of workspace hands in Restricted Mode', () => {
    assert.deepEqual(manifest.capabilities.untrustedWorkspaces.restrictedConfigurations, ['scorelens.server.path', 'scorelens.interpreter', 'scorelens.lm.model']);
  });
});

describe('the language model in Restricted Mode', () => {
  // The server would open the file and run KenLM's native code over it: never a workspace's choice.
  const restricted: string[] = manifest.capabilities.untrustedWorkspaces.restrictedConfigurations;
  const defaults = defaultServerSettings(properties);

  it('reaches the server as unset, whichever way it asks (setting, sub-section, section)', () => {
    assert.equal(restrictedConfigurationValue('scorelens.lm.model', defaults), null);
    assert.deepEqual(restrictedConfigurationValue('scorelens.lm', defaults), { model: null, tokenize: 'none', outlierZ: 3.5 });
    const section = restrictedConfigurationValue('scorelens', defaults) as { lm: { model: unknown }; metrics: string[] };
    assert.equal(section.lm.model, null);
    assert.ok(!section.metrics.includes('ppl'));
  });
  it('is, like every restricted setting the server reads, empty by default', () => {
    for (const name of restricted.filter((n) => !CLIENT_ONLY_SETTINGS.includes(n.slice(SECTION.length + 1)))) {
      assert.ok(properties[name].default === null || properties[name].default === '', `${name} defaults to ${JSON.stringify(properties[name].default)}`);
      assert.equal(restrictedConfigurationValue(name, defaults), properties[name].default, name);
    }
  });
});
