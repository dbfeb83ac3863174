// The settings table of the repository's docs/settings.md must say what package.json says: every
// scorelens.* setting with its type, default and description. To rewrite the table after changing
// package.json: SCORELENS_UPDATE_DOCS=1 client-vscode/scripts/unit.sh
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { SettingSchema, settingsTable, tableIn, withTable } from './settingsTable';

const extensionDir = path.resolve(__dirname, '..', '..');
const docPath = path.join(extensionDir, '..', 'docs', 'settings.md');
const properties: Record<string, SettingSchema> = JSON.parse(fs.readFileSync(path.join(extensionDir, 'package.json'), 'utf8')).contributes
  .configuration.properties;

describe('docs/settings.md settings table', { skip: !fs.existsSync(docPath) && 'docs/settings.md not found next to client-vscode/' }, () => {
  const expected = settingsTable(properties);

  if (process.env.SCORELENS_UPDATE_DOCS === '1') {
    it('rewrites the table', () => {
      fs.writeFileSync(docPath, withTable(fs.readFileSync(docPath, 'utf8'), expected));
    });
    return;
  }

  const table = tableIn(fs.readFileSync(docPath, 'utf8'));

  it('is in docs/settings.md', () => {
    assert.ok(table !== undefined, 'docs/settings.md has no settings table markers');
  });

  it('has a row for every setting in package.json, and no other', () => {
    const names = [...(table ?? '').matchAll(/^\| `(scorelens\.[\w.]+)` \|/gm)].map((m) => m[1]);
    assert.deepEqual(names, Object.keys(properties).filter((n) => n.startsWith('scorelens.')));
  });

  it('says what package.json says (SCORELENS_UPDATE_DOCS=1 client-vscode/scripts/unit.sh rewrites it)', () => {
    assert.equal(table, expected);
  });
});

describe('settingsTable', () => {
  it('writes types, enums, bounds and defaults', () => {
    const table = settingsTable({
      'scorelens.a': { type: 'string', enum: ['x', 'y'], default: 'x', markdownDescription: 'Pick | one; see #scorelens.b#.' },
      'scorelens.b': { type: 'integer', minimum: 1, maximum: 9, default: 4, description: 'A number.' },
      'scorelens.c': { type: ['number', 'null'], default: null, description: 'Maybe.' },
      'scorelens.d': { type: 'array', items: { type: 'string', enum: ['p', 'q'] }, default: ['p'], description: 'Some.' },
      'scorelens.f': { type: 'number', exclusiveMinimum: 0, default: 3.5, description: 'Positive.' },
      'other.e': { type: 'boolean', default: true },
    });
    assert.equal(
      table,
      [
        '| setting | type | default | description |',
        '|---|---|---|---|',
        '| `scorelens.a` | one of `x`, `y` | `"x"` | Pick \\| one; see scorelens.b. |',
        '| `scorelens.b` | integer, 1–9 | `4` | A number. |',
        '| `scorelens.c` | number or null | `null` | Maybe. |',
        '| `scorelens.d` | list of `p`, `q` | `["p"]` | Some. |',
        '| `scorelens.f` | number > 0 | `3.5` | Positive. |',
      ].join('\n'),
    );
  });
});
