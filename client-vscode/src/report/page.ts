// The report webview's page, with its script and stylesheet inside it. Fetched by the page, each
// would be a round trip through VS Code's webview resource loading (its service worker, the
// workbench, the extension host's files): two of them were ~0.4 s of the report's first paint on a
// loaded machine. Nothing is loaded from anywhere, so no local resource needs to be reachable.

/** The page: `script` and `style` are the bundled report.js and report.css, `nonce` a fresh random one. */
export function reportPage(nonce: string, script: string, style: string): string {
  const csp = `default-src 'none'; style-src 'nonce-${nonce}'; img-src data:; script-src 'nonce-${nonce}';`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<style nonce="${nonce}">${inert(style, 'style')}</style>
<title>ScoreLens Report</title>
</head>
<body>
<main id="report"><p class="muted">Loading the report…</p></main>
<script nonce="${nonce}">${inert(script, 'script')}</script>
</body>
</html>`;
}

/** `text` that cannot end its element early: a literal `</script` (or `</style`) in it is escaped. */
function inert(text: string, element: 'script' | 'style'): string {
  return text.replace(new RegExp(`</(${element})`, 'gi'), '<\\/$1');
}
