/**
 * `npm run build:client [-- <file>]`: writes the browser build of the SDK (one ES module, see
 * `buildBrowserSdk`) to packages/client/dist/tally-client.browser.js, or to <file>. dist/ is
 * git-ignored: the file is built on demand, never committed (the web app bundles its own copy).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildBrowserSdk } from './browser-sdk';

const ROOT = path.resolve(__dirname, '../../../..');
export const BROWSER_SDK_FILE = path.join(ROOT, 'packages/client/dist/tally-client.browser.js');

async function main(): Promise<void> {
  const out = path.resolve(process.argv[2] ?? BROWSER_SDK_FILE);
  const code = await buildBrowserSdk();
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, code);
  process.stdout.write(
    `wrote ${path.relative(process.cwd(), out)} (${Math.round(code.length / 1024)} KiB)\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`build:client failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
