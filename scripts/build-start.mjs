// `npm start`'s compile (scripts/start.sh): only what the service runs, transpiled, not type-checked.
// Every file of src/ is turned into CommonJS under dist/src/ by esbuild, one file per file (no bundle, the
// same layout and module ids as tsc's output, so the worker's workflow bundle and `bin/svcctl.js` find
// them where `npm run build` puts them), with source maps; then the staff console is bundled
// (scripts/build-console.mjs). About 2 s where the whole project's `tsc` takes a minute or more of CPU on a
// 2-core machine: a first start spends its time on FerretDB's Go build instead. Types are still checked,
// by `npm run build` (run by `npm test`) and `npm run lint`; dist/test and dist/bench are left as they are.
import { build } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const started = Date.now();

/** Every TypeScript source under `dir` (declaration files excluded), as absolute paths. */
function sources(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

fs.rmSync(path.join(root, 'dist/src'), { recursive: true, force: true });
const entryPoints = sources(path.join(root, 'src'));
await build({
  entryPoints,
  outdir: path.join(root, 'dist/src'),
  outbase: path.join(root, 'src'),
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  tsconfig: path.join(root, 'tsconfig.json'),
  logLevel: 'warning',
});
// Data files the sources import (src/pricing/prices.default.json), copied beside them as tsc does.
for (const json of fs
  .readdirSync(path.join(root, 'src'), { recursive: true })
  .filter((f) => String(f).endsWith('.json'))) {
  fs.mkdirSync(path.dirname(path.join(root, 'dist/src', json)), { recursive: true });
  fs.copyFileSync(path.join(root, 'src', json), path.join(root, 'dist/src', json));
}
console.log(
  `src: ${entryPoints.length} files transpiled to dist/src in ${((Date.now() - started) / 1000).toFixed(1)} s`,
);
await import('./build-console.mjs');
