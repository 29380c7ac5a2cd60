// Builds the staff console (issue 35): bundles web/console/src/main.tsx with esbuild (Preact, preact-iso,
// Chart.js, date-fns; minified, tree-shaken) into dist/console/assets/app-<hash>.js and .css, and writes
// dist/console/index.html pointing at them (no inline script or style: the console's CSP forbids both).
// Run by `npm run build` after tsc; prints the bundle sizes.
import { build } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'dist/console');
fs.rmSync(out, { recursive: true, force: true });
const result = await build({
  entryPoints: { app: path.join(root, 'web/console/src/main.tsx') },
  bundle: true,
  minify: true,
  format: 'esm',
  target: ['chrome110', 'firefox110', 'safari16'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  outdir: path.join(out, 'assets'),
  entryNames: '[name]-[hash]',
  assetNames: '[name]-[hash]',
  metafile: true,
  legalComments: 'linked',
  define: { 'process.env.NODE_ENV': '"production"' },
  logLevel: 'warning',
});
const files = Object.keys(result.metafile.outputs).map((f) => path.basename(f));
const js = files.find((f) => f.endsWith('.js'));
const css = files.find((f) => f.endsWith('.css'));
const html = fs
  .readFileSync(path.join(root, 'web/console/index.html'), 'utf8')
  .replace('%JS%', js)
  .replace('%CSS%', css);
fs.writeFileSync(path.join(out, 'index.html'), html);
const size = (f) => fs.statSync(path.join(out, 'assets', f)).size;
console.log(`console: dist/console/assets/${js} ${(size(js) / 1024).toFixed(1)} KB, ${css} ${(size(css) / 1024).toFixed(1)} KB`);
