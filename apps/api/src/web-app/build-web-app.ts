/**
 * `npm run build` (after the server's bundle): writes the web app (served at `/`) to dist/web-app/ (the
 * shell files and the app's bundle, see web-app.ts), where the production bundle, which has no
 * esbuild and no sources, serves it from.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadAppFiles } from './web-app';

const OUT = path.resolve(__dirname, '../../../../dist/web-app');

async function main(): Promise<void> {
  const files = await loadAppFiles();
  if (!files) throw new Error('the web app sources or esbuild are missing');
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  let bytes = 0;
  for (const [name, content] of files) {
    writeFileSync(path.join(OUT, name), content);
    bytes += content.length;
  }
  process.stdout.write(`wrote dist/web-app (${files.size} files, ${Math.round(bytes / 1024)} KiB)\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `build of the web app failed: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exitCode = 1;
});
