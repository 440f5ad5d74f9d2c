// Builds the published package (`npm run build`, and `prepack`, so `npm pack` / `npm publish` always
// ship a fresh build):
//   dist/esm  ES modules (.js) and their declarations (.d.ts), by tsc with tsconfig.build.json;
//   dist/cjs  the same modules as CommonJS (.js, by esbuild, one file per module, nothing bundled) and
//             the same declarations, under a package.json of `"type": "commonjs"` so that Node and
//             TypeScript (nodenext) read both as CommonJS.
// `exports` in package.json sends `import` to dist/esm and `require` to dist/cjs.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
const esm = path.join(dist, 'esm');
const cjs = path.join(dist, 'cjs');
const require = createRequire(import.meta.url);

rmSync(dist, { recursive: true, force: true });
execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json'], {
  cwd: root,
  stdio: 'inherit',
});

const files = readdirSync(esm, { recursive: true, encoding: 'utf8' });
const esbuild = await import('esbuild');
await esbuild.build({
  entryPoints: files.filter((f) => f.endsWith('.js')).map((f) => path.join(esm, f)),
  outbase: esm,
  outdir: cjs,
  bundle: false,
  format: 'cjs',
  platform: 'neutral',
  target: 'es2020',
  logLevel: 'warning',
});
for (const file of files.filter((f) => f.endsWith('.d.ts'))) {
  mkdirSync(path.dirname(path.join(cjs, file)), { recursive: true });
  copyFileSync(path.join(esm, file), path.join(cjs, file));
}
writeFileSync(path.join(cjs, 'package.json'), `${JSON.stringify({ type: 'commonjs' }, null, 2)}\n`);
