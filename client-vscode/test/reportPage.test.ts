import assert from 'node:assert/strict';
import { test } from 'node:test';
import { reportPage } from '../src/report/page';

test('the page carries its script and style, allowed by their nonce alone', () => {
  const page = reportPage('N0nce', 'console.log(1)', 'body { color: red }');
  const csp = /content="([^"]*)"/.exec(page)?.[1] ?? '';
  assert.match(csp, /default-src 'none'/);
  assert.match(csp, /script-src 'nonce-N0nce'/);
  assert.match(csp, /style-src 'nonce-N0nce'/);
  assert.doesNotMatch(csp, /https?:|vscode-resource|unsafe-inline/);
  assert.ok(page.includes('<script nonce="N0nce">console.log(1)</script>'));
  assert.ok(page.includes('<style nonce="N0nce">body { color: red }</style>'));
  assert.ok(page.includes('<main id="report">'));
});

test('a closing tag inside the script or style cannot end its element', () => {
  const page = reportPage('n', 'const s = "</script><script>alert(1)";', 'a::after { content: "</STYLE>" }');
  assert.equal(page.match(/<\/script>/g)?.length, 1);
  assert.equal(page.match(/<\/style>/gi)?.length, 1);
  assert.ok(page.includes('"<\\/script><script>alert(1)"'));
});
