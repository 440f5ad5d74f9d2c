import path from 'node:path';

/**
 * The browser build of the TypeScript SDK (`@tally/client`). The web app (apps/api/src/web-app) bundles the SDK into its own script; `npm run build:client`
 * writes the SDK alone for other pages, and the packed-SDK test bundles it alike.
 */

/** The SDK's entry point, bundled for browsers. */
export const SDK_ENTRY = path.resolve(__dirname, '../../../../packages/client/src/index.ts');

/** How the SDK is bundled for browsers: one ES module, in memory (the packed-SDK test bundles alike). */
export const BROWSER_BUNDLE = {
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  write: false,
  outfile: 'tally-client.js',
  legalComments: 'none',
  charset: 'utf8',
  logLevel: 'silent',
} as const;

/**
 * The SDK (`packages/client/src/index.ts`) as one ES module for browsers (`npm run build:client`
 * writes it to a file). Nothing of Node in it: the
 * SDK uses `fetch`, `WebSocket`, `crypto` and timers from the global scope.
 */
export async function buildBrowserSdk(): Promise<string> {
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    ...BROWSER_BUNDLE,
    entryPoints: [SDK_ENTRY],
    banner: { js: '// @tally/client, browser build (ES module) of packages/client/src/index.ts' },
  });
  const output = result.outputFiles[0];
  if (!output) throw new Error('esbuild produced no output for the browser SDK');
  return output.text;
}

/** Whether esbuild (a devDependency) is installed: not in the production image. */
export function esbuildAvailable(): boolean {
  try {
    require.resolve('esbuild');
    return true;
  } catch {
    return false;
  }
}
