// The settings table of the repository's docs/settings.md, made from package.json's
// contributes.configuration: one row per scorelens.* setting with its type, default and description.
// test/settingsDoc.test.ts checks docs/settings.md against it (and rewrites it on request).

export interface SettingSchema {
  type?: string | string[];
  enum?: unknown[];
  items?: { type?: string; enum?: unknown[] };
  default?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  description?: string;
  markdownDescription?: string;
}

export const TABLE_BEGIN = '<!-- settings table: generated from client-vscode/package.json, checked by client-vscode/test/settingsDoc.test.ts -->';
export const TABLE_END = '<!-- end of settings table -->';

const code = (value: unknown) => `\`${typeof value === 'string' ? value : JSON.stringify(value)}\``;
const json = (value: unknown) => `\`${JSON.stringify(value)}\``;
const cell = (text: string) => text.replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|').trim();

function typeOf(schema: SettingSchema): string {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type ?? 'any'];
  if (schema.enum) return `one of ${schema.enum.map(code).join(', ')}`;
  if (types[0] === 'array' && schema.items?.enum) return `list of ${schema.items.enum.map(code).join(', ')}`;
  if (types[0] === 'array') return `list of ${schema.items?.type ?? 'any'}`;
  let type = types.join(' or ');
  if (schema.minimum !== undefined && schema.maximum !== undefined) type += `, ${schema.minimum}–${schema.maximum}`;
  else if (schema.minimum !== undefined) type += ` ≥ ${schema.minimum}`;
  else if (schema.exclusiveMinimum !== undefined) type += ` > ${schema.exclusiveMinimum}`;
  else if (schema.maximum !== undefined) type += ` ≤ ${schema.maximum}`;
  return type;
}

/** VS Code's settings links `#scorelens.x#` read as plain names outside the Settings editor. */
function describe(schema: SettingSchema): string {
  return (schema.markdownDescription ?? schema.description ?? '').replace(/#(scorelens\.[\w.]+)#/g, '$1');
}

/** The Markdown table, without the markers. */
export function settingsTable(properties: Record<string, SettingSchema>): string {
  const rows = Object.entries(properties)
    .filter(([name]) => name.startsWith('scorelens.'))
    .map(([name, schema]) => `| \`${name}\` | ${cell(typeOf(schema))} | ${cell(json(schema.default))} | ${cell(describe(schema))} |`);
  return ['| setting | type | default | description |', '|---|---|---|---|', ...rows].join('\n');
}

/** The text between the markers, or undefined when they are missing. */
export function tableIn(doc: string): string | undefined {
  const begin = doc.indexOf(TABLE_BEGIN);
  const end = doc.indexOf(TABLE_END);
  if (begin < 0 || end < begin) return undefined;
  return doc.slice(begin + TABLE_BEGIN.length, end).trim();
}

/** `doc` with the table between the markers replaced. */
export function withTable(doc: string, table: string): string {
  const begin = doc.indexOf(TABLE_BEGIN);
  const end = doc.indexOf(TABLE_END);
  if (begin < 0 || end < begin) throw new Error('docs/settings.md has no settings table markers');
  return `${doc.slice(0, begin + TABLE_BEGIN.length)}\n${table}\n${doc.slice(end)}`;
}
