// Bundles the extension (node, CommonJS; `vscode` is provided by the host) and the report webview's
// script and stylesheet (browser) into dist/. vsce packages dist/ without node_modules.
import * as esbuild from 'esbuild';

const production = process.argv.includes('--production');
const common = { bundle: true, sourcemap: !production, minify: production, logLevel: 'info' };

await Promise.all([
  esbuild.build({
    ...common,
    entryPoints: ['src/extension.ts'],
    outfile: 'dist/extension.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
  }),
  esbuild.build({
    ...common,
    entryPoints: [{ in: 'src/report/webview/main.ts', out: 'report' }, { in: 'src/report/webview/report.css', out: 'report' }],
    outdir: 'dist/webview',
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
  }),
]);
